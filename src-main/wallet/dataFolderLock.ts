// One process per data folder: an exclusive lock file that says who holds it (program, pid, host, since when), taken
// by both shells and by the CLI commands that write a folder. Two writers on one wallet folder lose keys (review 3, M4).
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { WalletError } from '../koinos/errors.ts';
import { makeFolders } from './makeFolders.ts';

/** The lock file's name inside the data folder. */
export const LOCK_FILE_NAME = 'koinos-wallet.lock';

/** Which program holds a folder: a shell, or a CLI command (`cli devnet`). */
export type LockHolderName = 'electron' | 'browser' | `cli ${string}`;

/** What the lock file records about its holder. */
export interface LockHolder {
  holder: string;
  pid: number;
  host: string;
  /** ISO 8601 time of acquisition. */
  since: string;
  /** Random per acquisition, so that a release never removes a lock another acquisition made. */
  nonce: string;
  /**
   * When the process started, where the system says (Linux: the boot's id and the start time in /proc): a pid alive
   * now but started otherwise is another process that got the pid after a crash.
   */
  started?: string;
}

/** The nonces of the locks this process holds: a lock naming this pid with another nonce was left by an earlier one. */
const heldHere = new Set<string>();

/** When process `pid` started, as `<boot id> <start time in clock ticks>`; undefined where /proc cannot tell. */
function startOf(pid: number | 'self'): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start ? `${boot} ${start}` : undefined;
  } catch {
    return undefined;
  }
}

export interface DataFolderLockOptions {
  holder: LockHolderName;
  /** Also release when the process exits (default true). Signals must end the process through exit for this to run. */
  releaseOnExit?: boolean;
}

/** A held lock; `release()` removes the file if it is still this acquisition's, and is safe to call twice. */
export interface DataFolderLock {
  /** The lock file's path. */
  readonly path: string;
  readonly holder: LockHolder;
  release(): void;
}

/** How long a starting process retries while another one is taking over a stale lock at the same moment. */
const TAKEOVER_DEADLINE_MS = 2_000;

/**
 * Takes the data folder `dir` for this process (creating the folder, owner-only, when missing). A lock left by a
 * process that is no longer running on this machine is taken over.
 * @throws WalletError STORAGE_FAILED when another live process holds the folder (the message names its program, pid
 *   and start time, and says what to do), or when the lock file cannot be written.
 * @example
 * const lock = await acquireDataFolderLock('/home/me/.config/koinos-desktop-wallet', { holder: 'browser' });
 * // ... run the wallet ...
 * lock.release();
 */
export async function acquireDataFolderLock(dir: string, options: DataFolderLockOptions): Promise<DataFolderLock> {
  try {
    await makeFolders(dir, 0o700);
  } catch (cause) {
    throw new WalletError('STORAGE_FAILED', `expected a data folder at ${dir}, but it cannot be created`, {
      details: (cause as Error).message,
      cause,
    });
  }
  const path = join(dir, LOCK_FILE_NAME);
  const mine: LockHolder = {
    holder: options.holder,
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    nonce: randomBytes(12).toString('hex'),
  };
  const started = startOf('self');
  if (started) mine.started = started;
  const deadline = Date.now() + TAKEOVER_DEADLINE_MS;
  for (;;) {
    if (tryCreate(path, mine)) break;
    const current = readHolder(path);
    if (current === 'missing') continue; // released between our attempt and our read: try again at once
    if (current !== 'unreadable' && isRunning(current)) throw heldBy(dir, path, current);
    if (tryTakeOver(path, current, mine)) break;
    if (Date.now() > deadline) {
      throw new WalletError(
        'STORAGE_FAILED',
        `expected to take over the stale lock ${path}, but another process kept taking it over; try again`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return lockHandle(path, mine, options.releaseOnExit ?? true);
}

function lockHandle(path: string, mine: LockHolder, releaseOnExit: boolean): DataFolderLock {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    heldHere.delete(mine.nonce);
    process.off('exit', release);
    const current = readHolder(path);
    if (typeof current === 'object' && current.nonce === mine.nonce) removeQuietly(path);
  };
  heldHere.add(mine.nonce);
  if (releaseOnExit) process.on('exit', release);
  return { path, holder: mine, release };
}

/**
 * Creates the lock file holding `mine`, complete or not at all: the record is written to a private file first and
 * hard-linked into place, so that a reader never sees a half-written lock. False when the lock file exists.
 */
function tryCreate(path: string, mine: LockHolder): boolean {
  const staged = `${path}.${mine.nonce}.tmp`;
  try {
    writeFileSync(staged, `${JSON.stringify(mine)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (cause) {
    throw new WalletError(
      'STORAGE_FAILED',
      `expected to write the lock file ${path}, but the data folder cannot be written`,
      { details: (cause as Error).message, cause },
    );
  }
  try {
    linkSync(staged, path);
    return true;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new WalletError('STORAGE_FAILED', `expected to create the lock file ${path}, but the system refused`, {
      details: (cause as Error).message,
      cause,
    });
  } finally {
    removeQuietly(staged);
  }
}

/**
 * Replaces a stale lock. Two processes may find the same stale lock at once, so the replacement happens under a
 * second, short-lived lock (`.takeover`), and only if the lock is still the stale one that was judged.
 */
function tryTakeOver(path: string, stale: LockHolder | 'unreadable', mine: LockHolder): boolean {
  const takeover = `${path}.takeover`;
  const guard: LockHolder = { ...mine, since: new Date().toISOString() };
  if (!tryCreate(takeover, guard)) {
    // A takeover left behind by a process that died inside it would block every start: clear it when its pid is gone.
    const other = readHolder(takeover);
    if (other === 'unreadable' || (typeof other === 'object' && !isRunning(other))) removeQuietly(takeover);
    return false;
  }
  try {
    const now = readHolder(path);
    const unchanged =
      now === 'missing' ||
      (now === 'unreadable' ? stale === 'unreadable' : stale !== 'unreadable' && now.nonce === stale.nonce);
    if (!unchanged) return false;
    if (now !== 'missing') removeQuietly(path);
    return tryCreate(path, mine);
  } finally {
    removeQuietly(takeover);
  }
}

function readHolder(path: string): LockHolder | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof value.pid === 'number' &&
      Number.isSafeInteger(value.pid) &&
      value.pid > 0 &&
      typeof value.holder === 'string' &&
      typeof value.host === 'string' &&
      typeof value.since === 'string' &&
      typeof value.nonce === 'string'
    ) {
      return value as LockHolder;
    }
  } catch {
    // not JSON: a lock that cannot say who holds it cannot be honoured
  }
  return 'unreadable';
}

/**
 * Whether the lock's process may still be running. A lock from another machine (a shared folder) cannot be checked,
 * so it counts as running. A zombie (exited, not yet reaped) has stopped using the folder. A pid reused since (by
 * this very process, as after a crash in a container, or by another) is told apart by the nonces held here and by
 * the recorded start.
 */
function isRunning(lock: LockHolder): boolean {
  if (lock.host !== hostname()) return true;
  if (lock.pid === process.pid) return heldHere.has(lock.nonce);
  if (lock.started !== undefined) {
    const now = startOf(lock.pid);
    if (now !== undefined) return now === lock.started;
  }
  try {
    process.kill(lock.pid, 0);
  } catch (cause) {
    // EPERM: the process exists but belongs to another user.
    return (cause as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${lock.pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS, Windows): kill(0) is the answer
  }
}

function heldBy(dir: string, path: string, lock: LockHolder): WalletError {
  const who = `${describeHolder(lock.holder)} (pid ${lock.pid}${lock.host === hostname() ? '' : ` on ${lock.host}`}, since ${lock.since})`;
  return new WalletError(
    'STORAGE_FAILED',
    `The data folder ${dir} is in use by ${who}; only one wallet process may use a folder. Close that one first, or, if it is no longer running, delete ${path}.`,
  );
}

function describeHolder(holder: string): string {
  if (holder === 'electron') return 'the Koinos Wallet app';
  if (holder === 'browser') return 'the browser shell';
  if (holder.startsWith('cli ')) return `"koinos-wallet ${holder.slice(4)}"`;
  return `"${holder.slice(0, 40)}"`;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
