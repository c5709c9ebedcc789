// The browser shell as real processes (`node out/main/browser.js`, as `npm run start:browser` runs it): one process per
// data folder (a second is refused, naming the first; a killed one's lock is taken over), a clean stop on a signal
// even during its start, and opening the browser without the token on any command line (a fake browser records its
// argv).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../src-main/wallet/dataFolderLock.ts';
import { BROWSER_ENV, LAUNCH_FILE_NAME } from '../../src-main/shells/browser/launchFile.ts';
import { BUILT_BROWSER_SHELL } from '../helpers/builtApp.ts';
import { until } from '../helpers/until.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const READY = 'Press Ctrl-C to stop.';

interface ShellProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ShellProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const shell of running.splice(0)) {
    if (shell.child.exitCode === null && shell.child.signalCode === null) shell.child.kill('SIGKILL');
    await shell.exited;
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'koinos-shell-process-'));
  dirs.push(dir);
  return dir;
}

/** Starts the browser shell on `dataDir` (no wallet is created: nothing reaches the keychain). */
function startShell(dataDir: string, args: string[], env: NodeJS.ProcessEnv = {}): ShellProcess {
  const child = spawn(process.execPath, [BUILT_BROWSER_SHELL, '--port', '0', '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const shell = { child, output: () => text, exited };
  running.push(shell);
  return shell;
}

/** Waits until `check` holds; fails when the shell exits first, or after the deadline, with the shell's output. */
async function untilShell(what: string, shell: ShellProcess, check: () => boolean, ms = 60_000): Promise<void> {
  const exited = () => shell.child.exitCode !== null;
  try {
    await until(what, () => (check() || exited() ? true : undefined), ms);
  } catch (error) {
    throw new Error(`${(error as Error).message}; output:\n${shell.output()}`);
  }
  if (!check())
    throw new Error(`the shell exited (${shell.child.exitCode}) before ${what}; output:\n${shell.output()}`);
}

const lockRecord = (dataDir: string) =>
  JSON.parse(readFileSync(join(dataDir, LOCK_FILE_NAME), 'utf8')) as { pid: number; holder: string };

describe('browser shell process', () => {
  it('refuses a second shell on the same data folder, naming the first; takes over after the first is killed', async () => {
    const dataDir = join(tempDir(), 'wallet');
    const first = startShell(dataDir, ['--no-open']);
    await untilShell('the first shell starting', first, () => first.output().includes(READY));
    expect(lockRecord(dataDir)).toMatchObject({ pid: first.child.pid, holder: 'browser' });

    const second = startShell(dataDir, ['--no-open']);
    const { code } = await second.exited;
    expect(code, second.output()).toBe(1);
    expect(second.output()).toContain(`is in use by the browser shell (pid ${first.child.pid}, since `);
    expect(second.output()).not.toContain(READY);

    // kill -9: no handler runs, the lock file stays behind with a dead pid.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(lockRecord(dataDir).pid).toBe(first.child.pid);

    const third = startShell(dataDir, ['--no-open']);
    await untilShell('the third shell starting', third, () => third.output().includes(READY));
    expect(lockRecord(dataDir)).toMatchObject({ pid: third.child.pid, holder: 'browser' });

    third.child.kill('SIGTERM');
    expect(await third.exited, third.output()).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, LOCK_FILE_NAME))).toBe(false);
  }, 180_000);

  it('opens the browser on a private redirect file: the token is in no command line, and the file goes when the shell stops', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'wallet');
    const record = join(dir, 'browser-argv.json');
    const fakeBrowser = join(dir, 'fake-browser');
    // Records its argv as JSON, as a real browser would hold it in /proc/<pid>/cmdline for its whole life.
    writeFileSync(
      fakeBrowser,
      `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv));\n`,
    );
    chmodSync(fakeBrowser, 0o700);

    const shell = startShell(dataDir, [], { [BROWSER_ENV]: fakeBrowser });
    await untilShell(
      'the fake browser being started',
      shell,
      () => existsSync(record) && shell.output().includes(READY),
    );
    const launchFile = join(dataDir, LAUNCH_FILE_NAME);
    const html = readFileSync(launchFile, 'utf8');
    const token = /#koinos-token=([A-Za-z0-9_-]{43})"/.exec(html)?.[1];
    expect(token, html).toBeDefined();

    const argv = JSON.parse(readFileSync(record, 'utf8')) as string[];
    expect(argv.slice(2)).toEqual([pathToFileURL(launchFile).href]);
    for (const arg of argv) expect(arg).not.toContain(token);
    expect(statSync(launchFile).mode & 0o777).toBe(0o600);
    // Without --no-open the address is not printed either: only the file.
    expect(shell.output()).not.toContain(token);
    expect(shell.output()).toContain(pathToFileURL(launchFile).href);

    shell.child.kill('SIGINT');
    expect((await shell.exited).code).toBe(0);
    expect(existsSync(launchFile)).toBe(false);
  }, 120_000);

  it('stops cleanly on a SIGTERM that comes while it starts, and leaves no lock behind', async () => {
    // The lock file is written as the start begins; the signal is sent then, before the shell says it is ready. (The
    // shell used to listen only once it had said so: such a signal, or one sent at once on reading that line, killed
    // it where it stood, its lock file left behind. CI saw the second.)
    const dataDir = join(tempDir(), 'wallet');
    const shell = startShell(dataDir, ['--no-open']);
    await untilShell('the lock file being written', shell, () => existsSync(join(dataDir, LOCK_FILE_NAME)));
    shell.child.kill('SIGTERM');
    expect(await shell.exited, shell.output()).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, LOCK_FILE_NAME))).toBe(false);
  }, 120_000);

  it('prints the full address with --no-open and writes no redirect file', async () => {
    const dataDir = join(tempDir(), 'wallet');
    const shell = startShell(dataDir, ['--no-open']);
    await untilShell('the shell starting', shell, () => shell.output().includes(READY));
    expect(shell.output()).toMatch(/http:\/\/127\.0\.0\.1:\d+\/#koinos-token=[A-Za-z0-9_-]{43}/);
    expect(existsSync(join(dataDir, LAUNCH_FILE_NAME))).toBe(false);
  }, 120_000);
});
