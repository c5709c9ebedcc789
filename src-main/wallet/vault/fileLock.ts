// A short cross-process lock beside a file (`<file>.lock`, created exclusively): held for the milliseconds of one
// read-check-write, so that two wallet processes on one data folder cannot both pass the revision check of wallet.json,
// nor lose each other's entries in the key file's read-modify-write.
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { WalletError } from '../../koinos/errors.ts';

/** How long a process waits for another one's lock before it gives up (a commit holds it for milliseconds). */
const LOCK_WAIT_MS = 5_000;
/** A lock older than this was left by a process that died mid-commit (no write takes this long). */
const LOCK_STALE_MS = 30_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user; only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Whether the lock file was left behind: its process is gone, or it is older than any write could take. */
async function isStale(lockPath: string): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([stat(lockPath), readFile(lockPath, 'utf8')]);
    const pid = Number.parseInt(text, 10);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid)) return true;
    return Date.now() - info.mtimeMs > LOCK_STALE_MS;
  } catch {
    // Gone meanwhile (released): not stale, just try again.
    return false;
  }
}

/**
 * Runs `work` while holding the lock file `lockPath`; waits (polling) while another process holds it.
 * A lock left by a dead process is taken over. Two processes breaking the same stale lock at the same moment could
 * both proceed; that needs a crash mid-commit plus a race within milliseconds, and the revision check still applies.
 * @throws WalletError STORAGE_FAILED when the lock cannot be created, or another process holds it for over 5 s.
 * @example
 * await withFileLock(join(dataDir, 'wallet.json.lock'), async () => { ...read, check, write... });
 */
export async function withFileLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new WalletError(
          'STORAGE_FAILED',
          `expected to create the lock file ${lockPath}, but it could not be created; nothing was changed`,
          {
            metaMessages: ['Check that the wallet data folder is writable, then try again.'],
            details: (error as Error).message,
            cause: error,
          },
        );
      }
      if (await isStale(lockPath)) {
        await unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) {
        throw new WalletError(
          'STORAGE_FAILED',
          `expected to take the lock ${lockPath} within ${LOCK_WAIT_MS / 1000} s, but another wallet process holds it; nothing was changed`,
          {
            metaMessages: ['Close the other wallet window or process, then try again.'],
          },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}
