// Checks the devnet's --data-dir before anything opens it: a folder that exists (or can be made) and takes new files.
// The error says which of these failed and why, rather than a storage engine's message about something else. Then
// the command takes the folder's lock, so that it never writes a folder a wallet or another command is using.
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WalletError } from '../koinos/errors.ts';
import { makeFolders } from '../wallet/makeFolders.ts';
import { acquireDataFolderLock, type DataFolderLock } from '../wallet/dataFolderLock.ts';

/** A system error's code as a reason a person understands. */
function reason(code: string | undefined): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'ENOSPC':
      return 'the disk is full';
    case 'ENOENT':
      // Every missing parent is made first, so ENOENT means the system takes no new entries there (/proc, /sys).
      return 'the system takes no new files or folders there (a system folder such as /proc or /sys?)';
    default:
      return `the system refused (${code ?? 'unknown error'})`;
  }
}

/**
 * Makes sure `path` is a folder the devnet can write: creates it (and missing parents) when absent, then writes and
 * removes a probe file in it.
 * @throws WalletError INVALID_ARGUMENT saying which check failed: "--data-dir "x": expected a folder, got a file",
 *   "... cannot be created: permission denied", "... cannot be written: the file system is read-only", ...
 * @example
 * await prepareDataDir('/tmp/koinos-devnet'); // the folder exists and is writable afterwards
 */
export async function prepareDataDir(path: string): Promise<void> {
  const shown = `--data-dir ${JSON.stringify(path)}`;
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      throw new WalletError('INVALID_ARGUMENT', `${shown} cannot be read: ${reason(code)}`, { cause });
    try {
      await makeFolders(path);
    } catch (cause) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `${shown} does not exist and cannot be created: ${reason((cause as NodeJS.ErrnoException).code)}`,
        { cause },
      );
    }
    isFolder = true;
  }
  if (!isFolder) {
    throw new WalletError('INVALID_ARGUMENT', `${shown}: expected a folder, got a file`, {
      metaMessages: ['Give a folder (it is created when missing).'],
    });
  }
  const probe = join(path, `.koinos-write-check-${process.pid}`);
  try {
    await writeFile(probe, '');
  } catch (cause) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `${shown} is a folder but cannot be written: ${reason((cause as NodeJS.ErrnoException).code)}`,
      { cause },
    );
  }
  await rm(probe, { force: true });
}

/**
 * Takes the lock of the data folder `path` for the CLI command `command` (e.g. `devnet`) until `release()` or exit.
 * @throws WalletError STORAGE_FAILED naming the process (a wallet shell or another command) that uses the folder.
 * @example
 * const lock = await lockDataDir('/tmp/koinos-devnet', 'devnet');
 * // ... run ...
 * lock.release();
 */
export function lockDataDir(path: string, command: string): Promise<DataFolderLock> {
  return acquireDataFolderLock(path, { holder: `cli ${command}` });
}
