// `koinos-wallet devnet --data-dir` with folders it cannot use: it fails at once (never hangs, as Node's recursive mkdir
// does under /proc), with one line that says which check failed and why; and one devnet per folder (the second, run in
// process, is refused, naming the first, a real process).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDataDir } from '../../src-main/cli/dataDir.ts';
import { LOCK_FILE_NAME } from '../../src-main/wallet/dataFolderLock.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { BUILT_CLI } from '../helpers/builtApp.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';
import { until } from '../helpers/until.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'koinos-data-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `koinos-wallet devnet --port 0 --manual --data-dir D` in process; a devnet that hangs fails the test's timeout. */
function devnetWith(dataDir: string): Promise<CliResult> {
  return runCli(['devnet', '--port', '0', '--manual', '--data-dir', dataDir]);
}

async function reasonFor(path: string): Promise<string> {
  let caught: unknown;
  await prepareDataDir(path).catch((e: unknown) => (caught = e));
  return expectWalletError(() => {
    throw caught;
  }, 'INVALID_ARGUMENT').shortMessage;
}

describe('devnet --data-dir', () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a folder');

  it('refuses a file, a path through a file, a folder under /proc and a /proc folder, saying which', async () => {
    expect(await reasonFor(file)).toBe(`--data-dir "${file}": expected a folder, got a file`);
    expect(await reasonFor(join(file, 'sub'))).toMatch(/cannot be read: a part of the path is a file, not a folder$/);
    expect(await reasonFor('/proc/koinos-wallet-test/chain')).toBe(
      '--data-dir "/proc/koinos-wallet-test/chain" does not exist and cannot be created: the system takes no new files or folders there (a system folder such as /proc or /sys?)',
    );
    expect(await reasonFor('/proc/self')).toMatch(/^--data-dir "\/proc\/self" is a folder but cannot be written: /);
  });

  it('creates a missing folder with its parents', async () => {
    const folder = join(dir, 'new', 'chain');
    expect(existsSync(join(dir, 'new'))).toBe(false);
    await prepareDataDir(folder);
    expect(statSync(folder).isDirectory()).toBe(true);
    writeFileSync(join(folder, 'kept'), 'kept');
    await prepareDataDir(folder); // and accepts it again, as it is
    expect(statSync(join(folder, 'kept')).isFile()).toBe(true);
  });

  it('makes the devnet command fail at once with exit code 1 and one line', async () => {
    for (const [path, message] of [
      [file, /expected a folder, got a file/],
      ['/proc/koinos-wallet-test', /cannot be created: the system takes no new files or folders there/],
    ] as const) {
      const r = await devnetWith(path);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^koinos-wallet: --data-dir /);
      expect(lines[0]).toMatch(message);
    }
  });

  it('refuses a second devnet on a folder a first one is using, naming it, and frees the folder when the first stops', async () => {
    const folder = join(dir, 'shared-chain');
    const first = spawn(process.execPath, [BUILT_CLI, 'devnet', '--port', '0', '--manual', '--data-dir', folder], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => first.on('exit', (code) => resolve(code)));
    try {
      let stdout = '';
      first.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const started = () => stdout.includes('Press Ctrl-C to stop.');
      await until(
        'the first devnet starting',
        () => (started() || first.exitCode !== null ? true : undefined),
        60_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; stdout:\n${stdout}`);
      });
      if (!started()) throw new Error(`the first devnet exited before it started; stdout:\n${stdout}`);
      const second = await devnetWith(folder);
      expect(second.status, second.stderr).toBe(1);
      expect(second.stderr).toContain(
        `koinos-wallet: The data folder ${folder} is in use by "koinos-wallet devnet" (pid ${first.pid}, since `,
      );
      expect(second.stdout).toBe('');
      first.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(folder, LOCK_FILE_NAME))).toBe(false);
    } finally {
      first.kill('SIGKILL');
    }
  }, 120_000);
});
