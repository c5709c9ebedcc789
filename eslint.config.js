// ESLint, for the import boundaries only (no style rules): the renderer imports nothing of src-main but the IPC
// contract and the key-free helpers of src-main/koinos, and the protocol library stays free of node:* and electron.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import svelteParser from 'svelte-eslint-parser';

/** Modules of src-main/koinos the renderer may import: pure, key-free, no Node (keys.ts and transaction.ts sign). */
export const RENDERER_SAFE_KOINOS = [
  'address',
  'amounts',
  'bytes',
  'closestName',
  'codec',
  'errors',
  'hash',
  'knownContracts',
  'koin',
  'recipientName',
  'types',
];

const SAFE = `src-main/(?:ipc/contract|koinos/(?:${RENDERER_SAFE_KOINOS.join('|')}))(?:\\.ts)?$`;

/** Packages that hold or use secrets, or need Node or Electron: never in the renderer or the protocol library's safe part. */
const MAIN_ONLY_PACKAGES = ['electron', '@github/keytar', 'keytar', '@noble/secp256k1', 'tiny-secp256k1', '@scure/bip32', '@scure/bip39', 'classic-level'];

const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));

const nodeImports = {
  paths: NODE_BUILTINS.map((name) => ({ name, message: 'Node built-ins do not exist in the renderer, and src-main/koinos must stay runnable anywhere.' })),
  regex: '^node:',
  message: 'node:* modules do not exist in the renderer, and src-main/koinos must stay runnable anywhere.',
};

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
            ...MAIN_ONLY_PACKAGES.map((name) => ({ name, message: 'Keys, keychains and Node stay in the main process.' })),
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
            ...['electron', '@github/keytar', 'keytar', 'classic-level'].map((name) => ({ name, message: 'src-main/koinos is the pure protocol library.' })),
          ],
          patterns: [{ regex: nodeImports.regex, message: nodeImports.message }],
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
            ...MAIN_ONLY_PACKAGES.map((name) => ({ name, message: 'This module is imported by the renderer: keep keys out of it.' })),
          ],
          patterns: [
            { regex: nodeImports.regex, message: nodeImports.message },
            { regex: '(?:^|/)(?:keys|transaction|signingChecks)(?:\\.ts)?$', message: 'This module is imported by the renderer: it must not import signing code (keys.ts, transaction.ts).' },
          ],
        },
      ],
    },
  },
];
