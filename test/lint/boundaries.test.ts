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
  expect(result!.messages.filter((m) => m.fatal), JSON.stringify(result!.messages)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('renderer imports', () => {
  it('rejects a renderer import of keys.ts, from TypeScript and from a Svelte component', async () => {
    expect(await restricted('src-renderer/lib/fixture.ts', "import { signDigest } from '../../src-main/koinos/keys.ts';\n")).toEqual([
      expect.stringMatching(/may import only src-main\/ipc\/contract\.ts and src-main\/koinos\/\{address,.*\}\.ts/),
    ]);
    const svelte = `<script lang="ts">\n  import { privateKeyFromWif } from '../src-main/koinos/keys.ts';\n  let x: number = 1;\n</script>\n<p>{x}</p>\n`;
    expect(await restricted('src-renderer/Fixture.svelte', svelte)).toHaveLength(1);
  });

  it('rejects the rest of src-main, Node built-ins and key packages, and allows the contract and the pure helpers', async () => {
    for (const spec of ['../../src-main/wallet/vault/vault.ts', '../../src-main/koinos/transaction.ts', '../../src-main/devnet/node.ts', 'node:fs', 'fs', '@noble/secp256k1', 'electron']) {
      expect(await restricted('src-renderer/lib/fixture.ts', `import x from '${spec}';\nexport { x };\n`), spec).toHaveLength(1);
    }
    const allowed = [
      "import type { IpcChannel } from '../../src-main/ipc/contract.ts';",
      "import { addressFromString } from '../../src-main/koinos/address.ts';",
      "import { parseAmount } from '../../src-main/koinos/amounts.ts';",
      "import { WalletError } from '../../src-main/koinos/errors.ts';",
      "import { mount } from 'svelte';",
    ].join('\n');
    expect(await restricted('src-renderer/lib/fixture.ts', allowed)).toEqual([]);
  });
});

describe('protocol library imports', () => {
  it('rejects node: imports and Node built-ins in src-main/koinos', async () => {
    for (const spec of ['node:crypto', 'node:fs/promises', 'fs', 'crypto', 'electron']) {
      expect(await restricted('src-main/koinos/fixture.ts', `import x from '${spec}';\nexport { x };\n`), spec).toHaveLength(1);
    }
    expect(await restricted('src-main/koinos/fixture.ts', "import { sha256 } from '@noble/hashes/sha2.js';\nexport { sha256 };\n")).toEqual([]);
  });

  it('keeps signing code out of the modules the renderer may import', async () => {
    expect(await restricted('src-main/koinos/address.ts', "import { signDigest } from './keys.ts';\nexport { signDigest };\n")).toHaveLength(1);
    expect(await restricted('src-main/koinos/transaction.ts', "import { signDigest } from './keys.ts';\nexport { signDigest };\n")).toEqual([]);
  });
});
