// `key new` and `key inspect` run in process (main with captured streams): round trip, the addresses of the koilib
// vector key, and refusals (bad checksum, a key given as an argument) that never echo the key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, expect } from 'vitest';
import { vector } from '../vectors.ts';
import { failsWith, okJson, runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'koinos-cli-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

const key1 = vector('koilib-key-1');

describe('key new', () => {
  it('prints a new key that key inspect reads back from a file and from stdin, and warns that the output is secret', async () => {
    const r = await runCli(['key', 'new']);
    const made = okJson(r);
    expect(Object.keys(made).sort()).toEqual(['address', 'public_key', 'wif']);
    expect(made.public_key).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(made.wif).toMatch(/^[KL]/);
    expect(r.stderr).toMatch(/warning: .*private key/);

    const fromFile = okJson(await runCli(['key', 'inspect', '--wif-file', secretFile('new.wif', `${made.wif}\n`)]));
    const fromStdin = okJson(await runCli(['key', 'inspect'], `${made.wif}\n`));
    for (const inspected of [fromFile, fromStdin]) {
      expect(inspected).toEqual({ address: made.address, public_key: made.public_key, compressed: true });
    }
  });
});

describe('key inspect', () => {
  it('prints the compressed-key address Koinos uses for a compressed WIF, an uncompressed WIF and hex', async () => {
    const expected = { address: key1.address_compressed, public_key: key1.public_key_compressed_hex };
    const compressed = okJson(await runCli(['key', 'inspect', '--wif-file', secretFile('c.wif', key1.wif_compressed)]));
    expect(compressed).toEqual({ ...expected, compressed: true });
    const uncompressed = okJson(await runCli(['key', 'inspect', '--wif-file', '-'], key1.wif_uncompressed));
    expect(uncompressed).toEqual({ ...expected, compressed: false });
    expect(uncompressed.address).not.toBe(key1.address_uncompressed);
    const hex = okJson(await runCli(['key', 'inspect'], `  ${key1.private_key_hex}\n`));
    expect(hex).toEqual({ ...expected, compressed: true });
  });

  it('rejects a WIF with a bad checksum with exit code 1 and a message that does not quote the key', async () => {
    const bad = vector('crypto-cpp-wif-foobar').must_reject.bad_checksum as string;
    const line = failsWith(await runCli(['key', 'inspect'], bad), 1, /WIF checksum does not match/);
    expect(line).not.toContain(bad);
    const mistyped = vector('koilib-checksum').invalid_wifs[1] as string;
    expect(
      failsWith(await runCli(['key', 'inspect', '--wif-file', secretFile('bad.wif', mistyped)]), 1, /checksum/),
    ).not.toContain(mistyped);
  });

  it('refuses a key given as an argument with a usage error that does not echo it', async () => {
    const wif = key1.wif_compressed as string;
    const viaOption = failsWith(
      await runCli(['key', 'inspect', `--wif=${wif}`]),
      2,
      /--wif is not accepted: .*shell history.*--wif-file/,
    );
    const viaPositional = failsWith(await runCli(['key', 'inspect', wif]), 2, /never from an argument/);
    for (const line of [viaOption, viaPositional]) expect(line).not.toContain(wif);
  });

  it('reports a key file that does not exist with exit code 1', async () => {
    failsWith(
      await runCli(['key', 'inspect', '--wif-file', join(dir, 'missing.wif')]),
      1,
      /cannot read .* no such file/,
    );
  });
});
