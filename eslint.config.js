// ESLint, for the import boundaries only (no style rules): the renderer imports nothing of src-main but the IPC
// contract and the key-free helpers of src-main/koinos, the protocol library stays free of node:* and electron, and
// the devnet's servers and node stand above its other rooms (chain, contracts, state, store, vm), state/ stays under
// chain/ and contracts/, vm/ stays a library; the wallet and the CLI reach the devnet only through its entry points,
// and import nothing of src-main/ipc (the contract imports the wallet's types), but for the wallet's two IPC files;
// src-main/koinos imports no other room; the IPC contract imports only the wallet's types; the wallet imports neither
// the shells nor the CLI, and the CLI not the shells. `npm run lint:imports` runs it over src-main and src-renderer, the
// rooms these fences are about (no rule applies to the tests or the configuration files).
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import svelteParser from 'svelte-eslint-parser';

/** Modules of src-main/koinos the renderer may import: pure, key-free, no Node (keys.ts and transaction.ts sign). */
export const RENDERER_SAFE_KOINOS = [
  'address',
  'amounts',
  'bytes',
  'closestName',
  'errors',
  'hash',
  'knownContracts',
  'memo',
  'recipientName',
  // Not koin.ts nor codec.ts: the codec brings protobufjs and the chain's descriptor, about 38 KB gzipped.
  'tokenEvents',
  'types',
];

const SAFE = `src-main/(?:ipc/contract|koinos/(?:${RENDERER_SAFE_KOINOS.join('|')}))(?:\\.ts)?$`;

/** Packages that hold or use secrets, or need Node or Electron: never in the renderer or the protocol library's safe part. */
const MAIN_ONLY_PACKAGES = [
  'electron',
  '@github/keytar',
  'keytar',
  '@noble/secp256k1',
  'tiny-secp256k1',
  '@scure/bip32',
  '@scure/bip39',
  'classic-level',
];

const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));

const nodeImports = {
  paths: NODE_BUILTINS.map((name) => ({
    name,
    message: 'Node built-ins do not exist in the renderer, and src-main/koinos must stay runnable anywhere.',
  })),
  regex: '^node:',
  message: 'node:* modules do not exist in the renderer, and src-main/koinos must stay runnable anywhere.',
};

/** The shell, wallet and CLI rooms of src-main, and the renderer: the devnet imports none of them. */
const DEVNET_OUTSIDE = [
  {
    regex: '^(?:\\.\\./)+(?:wallet|ipc|shells|cli)(?:/|$)',
    message: 'The devnet is a library: it imports nothing of src-main/wallet, ipc, shells or cli.',
  },
  { regex: '(?:^|/)src-renderer(?:/|$)', message: 'The devnet is a library: it imports nothing of the renderer.' },
];

/** Below the node (chain, state, store, vm, contracts): neither the servers nor the node's own modules. */
const DEVNET_BELOW_NODE = [
  {
    regex: '^(?:\\.\\./)+server/',
    message:
      'Only the node and the servers stand above the chain: chain/, state/, store/, vm/ and contracts/ never import devnet/server/.',
  },
  {
    regex: '^\\.\\./(?:\\.\\./)?(?:node|config|methodTable|chainReader|developerMethods|methods)(?:\\.ts)?$',
    message:
      'chain/, state/, store/, vm/ and contracts/ sit below the node: they never import node.ts or its parts (config, methodTable, chainReader, developerMethods, methods).',
  },
];

/** What the state layer runs under: the chain and the contracts use state/, never the other way. */
const DEVNET_STATE = [
  {
    regex: '^\\.\\./(?:chain|contracts)/',
    message: 'state/ is what transactions run against: it never imports chain/ or contracts/.',
  },
];

/** The WebAssembly host is a library: koinos, itself, and two ports (the chain's error, the store's key text). */
const DEVNET_VM = [
  {
    regex: '^\\.\\./(?!\\.\\./koinos/|state/chainError\\.ts$|store/storeKeys\\.ts$)',
    message:
      'vm/ imports only src-main/koinos, vm/ itself, state/chainError.ts and store/storeKeys.ts; the chain reaches it through its ports (executionContext.ts).',
  },
];

/**
 * The devnet modules the wallet uses: starting it (in a worker thread, whose errors cross as data, started from where
 * workerEntry finds it) and its shapes.
 */
export const WALLET_DEVNET_ENTRIES = [
  'server/startDevnet',
  'server/devnetWorker',
  'server/workerEntry',
  'chain/shapes',
];

/** The devnet modules the CLI uses: starting it, its method names, its shapes. */
export const CLI_DEVNET_ENTRIES = ['server/startDevnet', 'methods', 'chain/shapes'];

/**
 * The wallet's files that implement the IPC contract (the composition root and the channel table): the only ones of
 * src-main/wallet that import src-main/ipc.
 */
export const WALLET_IPC_FACE = ['src-main/wallet/walletApp.ts', 'src-main/wallet/walletChannels.ts'];

/** src-main/koinos is the bottom layer: the protocol as a library, for every other room of src-main. */
const KOINOS_BELOW_ALL = [
  {
    regex: '^\\.\\./(?:wallet|devnet|ipc|cli|shells)(?:/|$)',
    message:
      'src-main/koinos is the protocol library under every other room: it imports nothing of wallet, devnet, ipc, cli or shells.',
  },
];

/** The wallet is below its front ends: the shells and the CLI use it, never the other way. */
const BELOW_FRONT_ENDS = (who) => ({
  regex: '(?:^|/)(?:shells|cli)/',
  message: `${who} sits below the shells and the CLI: it imports nothing of src-main/shells or src-main/cli.`,
});

/**
 * The IPC contract names the wallet's types and carries its errors: of the rest of src-main it imports only the
 * wallet's type modules and the protocol library, never a service, a shell, the CLI or the devnet.
 */
const IPC_FENCE = [
  {
    regex: '(?:^|/)(?:shells|cli|devnet)/',
    message: 'src-main/ipc is the contract between the window and main: it imports nothing of shells, cli or devnet.',
  },
  {
    regex: '(?:^|/)wallet/(?!(?:.*/)?(?:types|addressBookTypes)\\.ts$)',
    message:
      "src-main/ipc imports only the wallet's type modules (src-main/wallet/**/types.ts), never its services: the wallet implements the contract (walletChannels.ts), not the reverse.",
  },
];

/** The wallet's services and the CLI own their types; the IPC contract imports them, never the other way. */
function ipcFenced(who) {
  return {
    regex: '(?:^|/)ipc(?:/|$)',
    message: `${who} imports nothing of src-main/ipc: the types it needs are the wallet's own (src-main/wallet/**/types.ts), which the IPC contract re-exports.`,
  };
}

/** A pattern that allows only `entries` of src-main/devnet. */
function devnetEntriesOnly(entries, who) {
  return {
    regex: `(?:^|/)devnet/(?!(?:${entries.join('|')})\\.ts$)`,
    message: `${who} reaches the devnet only through ${entries.map((e) => `devnet/${e}.ts`).join(', ')}.`,
  };
}

/** One no-restricted-imports rule (flat config replaces, not merges, a rule set twice: each block lists all it needs). */
function restrict(patterns, paths = []) {
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

const SHELL_PACKAGES = ['electron', '@github/keytar', 'keytar'].map((name) => ({
  name,
  message: 'The devnet is a library: no Electron, no keychain.',
}));

export default [
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'src-main/koinos/generated/**'] },
  {
    files: ['**/*.ts', '**/*.mts', '**/*.cts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
  },
  {
    files: ['**/*.svelte'],
    languageOptions: { parser: svelteParser, parserOptions: { parser: tseslint.parser }, sourceType: 'module' },
  },
  {
    // The renderer is untrusted: no keys, no Node, and of src-main only the contract and the key-free helpers.
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.svelte', 'src-renderer/**/*.js'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeImports.paths,
            ...MAIN_ONLY_PACKAGES.map((name) => ({
              name,
              message: 'Keys, keychains and Node stay in the main process.',
            })),
          ],
          patterns: [
            { regex: nodeImports.regex, message: nodeImports.message },
            {
              regex: `^(?!.*${SAFE}).*src-main(?:/|$)`,
              message: `The renderer may import only src-main/ipc/contract.ts and src-main/koinos/{${RENDERER_SAFE_KOINOS.join(',')}}.ts (keys and signing stay in main).`,
            },
          ],
        },
      ],
    },
  },
  {
    // The protocol library runs in main, in the CLI and (its safe part) in the renderer: no Node, no Electron, no keychain.
    files: ['src-main/koinos/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeImports.paths,
            ...['electron', '@github/keytar', 'keytar', 'classic-level'].map((name) => ({
              name,
              message: 'src-main/koinos is the pure protocol library.',
            })),
          ],
          patterns: [{ regex: nodeImports.regex, message: nodeImports.message }, ...KOINOS_BELOW_ALL],
        },
      ],
    },
  },
  {
    // What the renderer may import must not pull signing in behind its back.
    files: RENDERER_SAFE_KOINOS.map((name) => `src-main/koinos/${name}.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeImports.paths,
            ...MAIN_ONLY_PACKAGES.map((name) => ({
              name,
              message: 'This module is imported by the renderer: keep keys out of it.',
            })),
          ],
          patterns: [
            { regex: nodeImports.regex, message: nodeImports.message },
            ...KOINOS_BELOW_ALL,
            {
              regex: '(?:^|/)(?:keys|transaction|signingChecks)(?:\\.ts)?$',
              message:
                'This module is imported by the renderer: it must not import signing code (keys.ts, transaction.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The devnet runs in the CLI, a worker thread and tests: it never reaches up into the wallet, the shells or the renderer.
    files: ['src-main/devnet/**/*.ts'],
    rules: restrict(DEVNET_OUTSIDE, SHELL_PACKAGES),
  },
  {
    // The rooms below the node never import the servers or the node.
    files: ['src-main/devnet/{chain,state,store,vm,contracts}/**/*.ts'],
    rules: restrict([...DEVNET_OUTSIDE, ...DEVNET_BELOW_NODE], SHELL_PACKAGES),
  },
  {
    files: ['src-main/devnet/state/**/*.ts'],
    rules: restrict([...DEVNET_OUTSIDE, ...DEVNET_BELOW_NODE, ...DEVNET_STATE], SHELL_PACKAGES),
  },
  {
    files: ['src-main/devnet/vm/**/*.ts'],
    rules: restrict([...DEVNET_OUTSIDE, ...DEVNET_BELOW_NODE, ...DEVNET_VM], SHELL_PACKAGES),
  },
  {
    // The wallet starts and talks to the devnet; it does not reach into its internals.
    // Its services do not know the IPC contract: only the files that implement it do (WALLET_IPC_FACE, below).
    files: ['src-main/wallet/**/*.ts'],
    rules: restrict([
      devnetEntriesOnly(WALLET_DEVNET_ENTRIES, 'The wallet'),
      ipcFenced('The wallet'),
      BELOW_FRONT_ENDS('The wallet'),
    ]),
  },
  {
    files: WALLET_IPC_FACE,
    rules: restrict([devnetEntriesOnly(WALLET_DEVNET_ENTRIES, 'The wallet'), BELOW_FRONT_ENDS('The wallet')]),
  },
  {
    files: ['src-main/ipc/**/*.ts'],
    rules: restrict(IPC_FENCE),
  },
  {
    // The CLI shares the wallet's services and types, not the window's contract.
    files: ['src-main/cli/**/*.ts'],
    rules: restrict([
      devnetEntriesOnly(CLI_DEVNET_ENTRIES, 'The CLI'),
      ipcFenced('The CLI'),
      {
        regex: '(?:^|/)shells/',
        message:
          'The CLI is a front end beside the shells: it imports nothing of src-main/shells (what both need lives in the wallet).',
      },
    ]),
  },
];
