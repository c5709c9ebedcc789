// The import boundaries that `npm run lint` enforces (eslint.config.js), checked through ESLint's API on small
// sources placed at paths in the renderer and in the protocol library.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages for `code` as if it were the file at `path` (relative to the repository). */
async function restricted(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${path}` });
  expect(
    result!.messages.filter((m) => m.fatal),
    JSON.stringify(result!.messages),
  ).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('renderer imports', () => {
  it('rejects a renderer import of keys.ts, from TypeScript and from a Svelte component', async () => {
    expect(
      await restricted('src-renderer/lib/fixture.ts', "import { signDigest } from '../../src-main/koinos/keys.ts';\n"),
    ).toEqual([
      expect.stringMatching(/may import only src-main\/ipc\/contract\.ts and src-main\/koinos\/\{address,.*\}\.ts/),
    ]);
    const svelte = `<script lang="ts">\n  import { privateKeyFromWif } from '../src-main/koinos/keys.ts';\n  let x: number = 1;\n</script>\n<p>{x}</p>\n`;
    expect(await restricted('src-renderer/Fixture.svelte', svelte)).toHaveLength(1);
  });

  it('rejects the rest of src-main, Node built-ins and key packages, and allows the contract and the pure helpers', async () => {
    for (const spec of [
      '../../src-main/wallet/vault/vault.ts',
      '../../src-main/koinos/transaction.ts',
      // The codec and what reads it bring protobufjs and the chain's descriptor: about 38 KB of gzipped JavaScript.
      '../../src-main/koinos/codec.ts',
      '../../src-main/koinos/koin.ts',
      '../../src-main/devnet/node.ts',
      'node:fs',
      'fs',
      '@noble/secp256k1',
      'electron',
    ]) {
      expect(
        await restricted('src-renderer/lib/fixture.ts', `import x from '${spec}';\nexport { x };\n`),
        spec,
      ).toHaveLength(1);
    }
    const allowed = [
      "import type { IpcChannel } from '../../src-main/ipc/contract.ts';",
      "import { addressFromString } from '../../src-main/koinos/address.ts';",
      "import { parseAmount } from '../../src-main/koinos/amounts.ts';",
      "import { WalletError } from '../../src-main/koinos/errors.ts';",
      "import { tokenEventSentence } from '../../src-main/koinos/tokenEvents.ts';",
      "import { mount } from 'svelte';",
    ].join('\n');
    expect(await restricted('src-renderer/lib/fixture.ts', allowed)).toEqual([]);
  });
});

describe('protocol library imports', () => {
  it('rejects node: imports and Node built-ins in src-main/koinos', async () => {
    for (const spec of ['node:crypto', 'node:fs/promises', 'fs', 'crypto', 'electron']) {
      expect(
        await restricted('src-main/koinos/fixture.ts', `import x from '${spec}';\nexport { x };\n`),
        spec,
      ).toHaveLength(1);
    }
    expect(
      await restricted(
        'src-main/koinos/fixture.ts',
        "import { sha256 } from '@noble/hashes/sha2.js';\nexport { sha256 };\n",
      ),
    ).toEqual([]);
  });

  it('keeps signing code out of the modules the renderer may import', async () => {
    expect(
      await restricted(
        'src-main/koinos/address.ts',
        "import { signDigest } from './keys.ts';\nexport { signDigest };\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'src-main/koinos/transaction.ts',
        "import { signDigest } from './keys.ts';\nexport { signDigest };\n",
      ),
    ).toEqual([]);
  });
});

describe('devnet rooms', () => {
  it('keeps the wallet, IPC, shells, CLI, renderer and Electron out of every devnet room', async () => {
    const cases: [string, string][] = [
      ['src-main/devnet/node.ts', '../wallet/walletApp.ts'],
      ['src-main/devnet/server/fixture.ts', '../../ipc/contract.ts'],
      ['src-main/devnet/chain/fixture.ts', '../../shells/electron/main.ts'],
      ['src-main/devnet/contracts/fixture.ts', '../../cli/main.ts'],
      ['src-main/devnet/store/fixture.ts', '../../../src-renderer/lib/ipc.ts'],
      ['src-main/devnet/server/fixture.ts', 'electron'],
    ];
    for (const [path, spec] of cases) {
      expect(await restricted(path, `import x from '${spec}';\nexport { x };\n`), `${path} -> ${spec}`).toEqual([
        expect.stringMatching(/The devnet is a library/),
      ]);
    }
  });

  it('lets the servers use the node and the chain, and keeps the rooms below the node from reaching up', async () => {
    const server =
      "import { openNode } from '../node.ts';\nimport { requestType } from '../methods.ts';\nimport { describeShape } from '../chain/shapes.ts';\nexport { openNode, requestType, describeShape };\n";
    expect(await restricted('src-main/devnet/server/fixture.ts', server)).toEqual([]);
    for (const room of ['chain', 'state', 'store', 'vm', 'contracts']) {
      const path = `src-main/devnet/${room}/fixture.ts`;
      expect(
        await restricted(path, "import { startDevnet } from '../server/startDevnet.ts';\nexport { startDevnet };\n"),
        path,
      ).toEqual([
        expect.stringMatching(/never import devnet\/server\//),
        ...(room === 'vm' ? [expect.stringMatching(/vm\/ imports only/)] : []),
      ]);
      expect(await restricted(path, "import { openNode } from '../node.ts';\nexport { openNode };\n"), path).toEqual([
        expect.stringMatching(/sit below the node/),
        ...(room === 'vm' ? [expect.stringMatching(/vm\/ imports only/)] : []),
      ]);
    }
    expect(
      await restricted(
        'src-main/devnet/contracts/abi/fixture.ts',
        "import { settingsOf } from '../../config.ts';\nexport { settingsOf };\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'src-main/devnet/chain/fixture.ts',
        "import { KOIN } from '../contracts/registry.ts';\nimport { StateView } from '../state/state.ts';\nimport { blockKey } from '../store/storeKeys.ts';\nimport { systemCall } from '../vm/hostApi.ts';\nimport type { DevnetConfig } from '../types.ts';\nexport { KOIN, StateView, blockKey, systemCall, type DevnetConfig };\n",
      ),
    ).toEqual([]);
  });

  it('keeps the state layer under the chain and the contracts', async () => {
    for (const spec of ['../chain/applyTransaction.ts', '../contracts/registry.ts']) {
      expect(
        await restricted('src-main/devnet/state/fixture.ts', `import x from '${spec}';\nexport { x };\n`),
        spec,
      ).toEqual([expect.stringMatching(/state\/ is what transactions run against/)]);
    }
    expect(
      await restricted(
        'src-main/devnet/state/fixture.ts',
        "import { keyText } from '../store/storeKeys.ts';\nimport { COMPUTE_REGISTRY } from '../vm/computeRegistry.ts';\nexport { keyText, COMPUTE_REGISTRY };\n",
      ),
    ).toEqual([]);
  });

  it('keeps vm/ a library: koinos, itself, the chain error and the store key text only', async () => {
    for (const spec of [
      '../chain/applyTransaction.ts',
      '../contracts/registry.ts',
      '../state/state.ts',
      '../store/store.ts',
    ]) {
      expect(
        await restricted('src-main/devnet/vm/fixture.ts', `import x from '${spec}';\nexport { x };\n`),
        spec,
      ).toEqual([expect.stringMatching(/vm\/ imports only src-main\/koinos/)]);
    }
    const allowed =
      "import { decode } from '../../koinos/codec.ts';\nimport { ChainError } from '../state/chainError.ts';\nimport { keyText } from '../store/storeKeys.ts';\nimport { systemCall } from './hostCalls.ts';\nexport { decode, ChainError, keyText, systemCall };\n";
    expect(await restricted('src-main/devnet/vm/fixture.ts', allowed)).toEqual([]);
  });

  it('lets the wallet and the CLI reach the devnet only through its public entry points', async () => {
    for (const spec of [
      '../../devnet/node.ts',
      '../../devnet/chain/genesis.ts',
      '../../devnet/store/store.ts',
      '../../devnet/server/httpServer.ts',
      '../../devnet/state/chainError.ts',
    ]) {
      expect(
        await restricted('src-main/wallet/chain/fixture.ts', `import x from '${spec}';\nexport { x };\n`),
        spec,
      ).toEqual([expect.stringMatching(/The wallet reaches the devnet only through/)]);
    }
    const wallet = [
      "import { DEFAULT_PORT } from '../../devnet/server/startDevnet.ts';",
      "import type { DevnetThreadOptions } from '../../devnet/server/devnetWorker.ts';",
      "import type { ShapeName } from '../../devnet/chain/shapes.ts';",
      'export { DEFAULT_PORT, type DevnetThreadOptions, type ShapeName };',
    ].join('\n');
    expect(await restricted('src-main/wallet/chain/fixture.ts', wallet)).toEqual([]);
    expect(
      await restricted(
        'src-main/cli/fixture.ts',
        "import { openNode } from '../devnet/node.ts';\nexport { openNode };\n",
      ),
    ).toEqual([expect.stringMatching(/The CLI reaches the devnet only through/)]);
    expect(
      await restricted(
        'src-main/cli/fixture.ts',
        "import { requestType } from '../devnet/methods.ts';\nimport { startDevnet } from '../devnet/server/startDevnet.ts';\nexport { requestType, startDevnet };\n",
      ),
    ).toEqual([]);
  });
});

describe('wallet and CLI below the IPC contract', () => {
  it('rejects an import of src-main/ipc from the wallet and the CLI, and takes their types from the wallet', async () => {
    const cases: [string, string][] = [
      ['src-main/wallet/chain/fixture.ts', '../../ipc/contract.ts'],
      ['src-main/wallet/vault/fixture.ts', '../../ipc/dispatcher.ts'],
      ['src-main/wallet/fixture.ts', '../ipc/eventHub.ts'],
      ['src-main/cli/fixture.ts', '../ipc/contract.ts'],
    ];
    for (const [path, spec] of cases) {
      expect(
        await restricted(path, `import type { X } from '${spec}';\nexport type { X };\n`),
        `${path} -> ${spec}`,
      ).toEqual([expect.stringMatching(/imports nothing of src-main\/ipc: the types it needs are the wallet's own/)]);
    }
    const types =
      "import type { RiskFlag } from '../wallet/chain/types.ts';\nimport type { AccountInfo } from '../wallet/vault/types.ts';\nexport type { RiskFlag, AccountInfo };\n";
    expect(await restricted('src-main/cli/fixture.ts', types)).toEqual([]);
  });

  it('lets only the wallet files that implement the contract import it', async () => {
    const face =
      "import type { IpcHandlers } from '../ipc/dispatcher.ts';\nimport type { IpcChannel } from '../ipc/contract.ts';\nexport type { IpcHandlers, IpcChannel };\n";
    expect(await restricted('src-main/wallet/walletChannels.ts', face)).toEqual([]);
    expect(await restricted('src-main/wallet/walletApp.ts', face)).toEqual([]);
    expect(
      await restricted(
        'src-main/wallet/walletChannels.ts',
        "import { openNode } from '../devnet/node.ts';\nexport { openNode };\n",
      ),
    ).toEqual([expect.stringMatching(/The wallet reaches the devnet only through/)]);
  });
});

describe('the other rooms of src-main', () => {
  it('keeps src-main/koinos under every other room', async () => {
    for (const spec of [
      '../wallet/vault/vault.ts',
      '../devnet/node.ts',
      '../ipc/contract.ts',
      '../cli/io.ts',
      '../shells/browser/main.ts',
    ]) {
      expect(await restricted('src-main/koinos/fixture.ts', `import x from '${spec}';\nexport { x };\n`), spec).toEqual(
        [expect.stringMatching(/src-main\/koinos is the protocol library under every other room/)],
      );
    }
    expect(
      await restricted('src-main/koinos/address.ts', "import x from '../wallet/chain/types.ts';\nexport { x };\n"),
    ).toHaveLength(1);
    expect(
      await restricted('src-main/koinos/fixture.ts', "import { sha256 } from './hash.ts';\nexport { sha256 };\n"),
    ).toEqual([]);
  });

  it("lets the IPC contract import the wallet's types and the protocol library, and nothing else of src-main", async () => {
    const refused: [string, RegExp][] = [
      ['../wallet/vault/vault.ts', /imports only the wallet's type modules/],
      ['../wallet/walletApp.ts', /imports only the wallet's type modules/],
      ['../shells/browser/browserShell.ts', /imports nothing of shells, cli or devnet/],
      ['../cli/io.ts', /imports nothing of shells, cli or devnet/],
      ['../devnet/server/startDevnet.ts', /imports nothing of shells, cli or devnet/],
    ];
    for (const [spec, message] of refused) {
      expect(await restricted('src-main/ipc/fixture.ts', `import x from '${spec}';\nexport { x };\n`), spec).toEqual([
        expect.stringMatching(message),
      ]);
    }
    const allowed = [
      "import type { ApprovalState } from '../wallet/approvals/types.ts';",
      "import type { Contact } from '../wallet/addressBookTypes.ts';",
      "import { WalletError } from '../koinos/errors.ts';",
      'export type { ApprovalState, Contact };',
      'export { WalletError };',
    ].join('\n');
    expect(await restricted('src-main/ipc/fixture.ts', `${allowed}\n`)).toEqual([]);
  });

  it('keeps the wallet below the shells and the CLI, and the CLI beside the shells', async () => {
    for (const [path, spec] of [
      ['src-main/wallet/chain/fixture.ts', '../../shells/browser/browserShell.ts'],
      ['src-main/wallet/fixture.ts', '../cli/io.ts'],
      ['src-main/wallet/walletApp.ts', '../shells/electron/appMenu.ts'],
    ]) {
      expect(await restricted(path!, `import x from '${spec}';\nexport { x };\n`), `${path} -> ${spec}`).toEqual([
        expect.stringMatching(/The wallet sits below the shells and the CLI/),
      ]);
    }
    expect(
      await restricted('src-main/cli/fixture.ts', "import x from '../shells/electron/main.ts';\nexport { x };\n"),
    ).toEqual([expect.stringMatching(/The CLI is a front end beside the shells/)]);
    expect(
      await restricted(
        'src-main/cli/fixture.ts',
        "import { acquireDataFolderLock } from '../wallet/dataFolderLock.ts';\nexport { acquireDataFolderLock };\n",
      ),
    ).toEqual([]);
  });
});
