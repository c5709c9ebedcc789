// Key files and terminals: in process, `key new --out F` writes a 0600 file that `key inspect` reads back (and leaves
// none when its write fails: a process under a file size limit), a key typed at a terminal is not echoed (a process
// under a pseudo-terminal), and `--version` prints the package's version.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { vector } from '../vectors.ts';
import { failsWith, okJson, runCli, spawnCli } from '../helpers/cli.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'koinos-cli-keyfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key1 = vector('koilib-key-1');

describe('key new --out', () => {
  it('writes the key file readable by its owner alone, prints no key, and key inspect reads the file', async () => {
    const file = join(dir, 'key.json');
    const r = await runCli(['key', 'new', '--out', file]);
    const printed = okJson(r);
    expect(Object.keys(printed).sort()).toEqual(['address', 'file', 'public_key']);
    expect(r.stdout).not.toMatch(/"wif"/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toEqual({
      address: printed.address,
      public_key: printed.public_key,
      wif: expect.stringMatching(/^[KL]/),
    });

    expect(okJson(await runCli(['key', 'inspect', '--wif-file', file]))).toEqual({
      address: printed.address,
      public_key: printed.public_key,
      compressed: true,
    });
    expect(okJson(await runCli(['key', 'inspect'], readFileSync(file, 'utf8'))).address).toBe(printed.address);
  });

  it('never overwrites an existing file', async () => {
    const file = join(dir, 'taken.json');
    writeFileSync(file, 'old key');
    failsWith(
      await runCli(['key', 'new', '--out', file]),
      1,
      /cannot write the key file ".*taken\.json": the file exists/,
    );
    expect(readFileSync(file, 'utf8')).toBe('old key');
  });

  it('removes a key file it could not finish writing, says why, and leaves the name free', async () => {
    const file = join(dir, 'unfinished.json');
    // No block may be written: the write fails as on a full disk, after the file was created.
    const r = await spawnCli(['key', 'new', '--out', file], '', { maxFileBlocks: 0 });
    const line = failsWith(
      r,
      1,
      /cannot write the key file ".*unfinished\.json": the file is larger than this process may write \(ulimit -f\); the unfinished file was removed/,
    );
    expect(line).not.toMatch(/"wif"|[KL][1-9A-HJ-NP-Za-km-z]{50}/);
    expect(existsSync(file)).toBe(false);
    expect(okJson(await runCli(['key', 'new', '--out', file])).file).toBe(file);
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it("refuses a key file whose address is not its key's, without quoting the key", async () => {
    const file = join(dir, 'mixed.json');
    writeFileSync(file, JSON.stringify({ address: '1z629tURV9KAK6Q5yqFDozwSHeWshxXQe', wif: key1.wif_compressed }), {
      mode: 0o600,
    });
    const line = failsWith(
      await runCli(['key', 'inspect', '--wif-file', file]),
      1,
      /names the address "1z629tURV9KAK6Q5yqFDozwSHeWshxXQe", but its key is the key of /,
    );
    expect(line).not.toContain(key1.wif_compressed);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, `{"wif": "${key1.wif_compressed}"`, { mode: 0o600 });
    expect(failsWith(await runCli(['key', 'inspect', '--wif-file', broken]), 1, /does not parse/)).not.toContain(
      key1.wif_compressed.slice(0, 12),
    );
  });
});

describe('a key typed at a terminal', () => {
  it('is read without being echoed (run under a pseudo-terminal with script(1))', async () => {
    const command = `${process.execPath} --import tsx src-main/cli/main.ts key inspect`;
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let typed = false;
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      // Type only once the prompt is up (as a person would): what is typed earlier is echoed by the terminal itself.
      if (!typed && /Type or paste a private key/.test(output)) {
        typed = true;
        child.stdin.write(`${key1.wif_compressed}\r`);
        child.stdin.write('\u0004');
      }
    });
    await exited;
    clearTimeout(deadline);
    expect(typed, output).toBe(true);
    expect(output).toContain(key1.address_compressed);
    expect(output).not.toContain(key1.wif_compressed);
  });
});

describe('--version', () => {
  it('prints the package version', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    const r = await runCli(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`koinos-wallet ${pkg.version}\n`);
  });
});
