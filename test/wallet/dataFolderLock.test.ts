// The data folder lock in one process: it records its holder, refuses a second acquisition while held, takes over a
// lock whose process is gone, and releases only its own lock file.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { LOCK_FILE_NAME, acquireDataFolderLock, type DataFolderLock } from '../../src-main/wallet/dataFolderLock.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';

const dirs: string[] = [];
const locks: DataFolderLock[] = [];
afterEach(() => {
  for (const lock of locks.splice(0)) lock.release();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'koinos-lock-'));
  dirs.push(dir);
  return dir;
}

async function acquire(
  dir: string,
  holder: 'electron' | 'browser' | `cli ${string}` = 'browser',
): Promise<DataFolderLock> {
  const lock = await acquireDataFolderLock(dir, { holder, releaseOnExit: false });
  locks.push(lock);
  return lock;
}

/** The pid of a process that has exited (and been reaped): a lock it left is stale. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  let caught: unknown;
  await promise.catch((e: unknown) => (caught = e));
  return expectWalletError(() => {
    throw caught;
  }, 'STORAGE_FAILED').shortMessage;
}

describe('acquireDataFolderLock', () => {
  it('writes an owner-only lock file naming the program, the pid, the host and the time', async () => {
    const dir = folder();
    const before = Date.now();
    const lock = await acquire(dir, 'cli devnet');
    expect(lock.path).toBe(join(dir, LOCK_FILE_NAME));
    const record = JSON.parse(readFileSync(lock.path, 'utf8'));
    expect(record).toMatchObject({ holder: 'cli devnet', pid: process.pid, host: hostname() });
    expect(Date.parse(record.since)).toBeGreaterThanOrEqual(before - 1000);
    expect(statSync(lock.path).mode & 0o777).toBe(0o600);
  });

  it('creates a missing folder, owner-only', async () => {
    const dir = join(folder(), 'new', 'wallet');
    await acquire(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a second acquisition while the first holds the folder, naming the holder, and allows it after release', async () => {
    const dir = folder();
    const first = await acquire(dir, 'electron');
    const message = await refusal(acquire(dir, 'browser'));
    expect(message).toContain(
      `The data folder ${dir} is in use by the Koinos Wallet app (pid ${process.pid}, since ${first.holder.since})`,
    );
    expect(message).toContain(`delete ${first.path}`);
    first.release();
    expect(existsSync(first.path)).toBe(false);
    const second = await acquire(dir, 'browser');
    expect(JSON.parse(readFileSync(second.path, 'utf8')).holder).toBe('browser');
  });

  it('takes over a lock whose process is no longer running', async () => {
    const dir = folder();
    const stale = {
      holder: 'browser',
      pid: deadPid(),
      host: hostname(),
      since: '2020-01-01T00:00:00.000Z',
      nonce: 'old',
    };
    writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify(stale));
    const lock = await acquire(dir, 'electron');
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ holder: 'electron', pid: process.pid });
  });

  it('takes over a lock naming this very pid that this process does not hold (a crash, then the same pid again)', async () => {
    const dir = folder();
    const left = {
      holder: 'electron',
      pid: process.pid,
      host: hostname(),
      since: '2020-01-01T00:00:00.000Z',
      nonce: 'x',
    };
    writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify(left));
    const lock = await acquire(dir, 'electron');
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).nonce).toBe(lock.holder.nonce);
  });

  it.skipIf(!existsSync('/proc/self/stat'))(
    'takes over a lock whose pid another process got since, told apart by when it started',
    async () => {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      onTestFinished(() => void child.kill());
      const pid = child.pid!;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      const record = { holder: 'browser', pid, host: hostname(), since: '2020-01-01T00:00:00.000Z', nonce: 'y' };
      const dir = folder();
      // Started when the child did: the child holds it.
      writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify({ ...record, started: `${boot} ${start}` }));
      expect(await refusal(acquire(dir))).toContain(`in use by the browser shell (pid ${pid}, since`);
      // Started earlier: a process that crashed, whose pid the child got since.
      writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify({ ...record, started: `${boot} ${Number(start) - 1}` }));
      const lock = await acquire(dir, 'electron');
      expect(lock.holder.started).toMatch(new RegExp(`^${boot} \\d+$`));
    },
  );

  it('takes over a lock file that does not say who holds it', async () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE_NAME), '');
    const lock = await acquire(dir);
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
  });

  it('honours a lock from another machine (its pid cannot be checked from here)', async () => {
    const dir = folder();
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({
        holder: 'browser',
        pid: deadPid(),
        host: 'other-machine',
        since: '2020-01-01T00:00:00.000Z',
        nonce: 'x',
      }),
    );
    expect(await refusal(acquire(dir))).toMatch(
      /in use by the browser shell \(pid \d+ on other-machine, since 2020-01-01T00:00:00.000Z\)/,
    );
  });

  it('releases only its own lock: after a takeover, the old holder leaves the new lock in place', async () => {
    const dir = folder();
    const first = await acquire(dir);
    // The lock is made to look stale (as if its process had died), and another acquisition takes it over.
    const record = JSON.parse(readFileSync(first.path, 'utf8'));
    writeFileSync(first.path, JSON.stringify({ ...record, pid: deadPid() }));
    const second = await acquire(dir, 'electron');
    first.release();
    first.release();
    expect(JSON.parse(readFileSync(second.path, 'utf8')).nonce).toBe(second.holder.nonce);
    second.release();
    expect(existsSync(second.path)).toBe(false);
  });

  it('leaves no staging or takeover files behind', async () => {
    const dir = folder();
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({ holder: 'browser', pid: deadPid(), host: hostname(), since: 'x', nonce: 'old' }),
    );
    const lock = await acquire(dir);
    expect(readdirSync(dir)).toEqual([LOCK_FILE_NAME]);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});
