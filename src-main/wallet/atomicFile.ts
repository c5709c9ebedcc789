// Writes that never leave a half-written file: the new content goes to a temporary file beside the target, is
// flushed to disk, and replaces the target by rename; a crash or a full disk at any moment leaves the old file whole.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of the new file (default 0o600: readable by the owner alone). */
  mode?: number;
}

/**
 * Replaces `path` with `content` atomically: temp file, fsync, rename, fsync of the folder.
 * @throws the file system's error (ENOSPC, EACCES, ...) after removing the temporary file; `path` is untouched. Only
 *   the folder's sync comes after the rename: when it fails (EIO, EMFILE), `path` already holds the new content, and a
 *   caller that must know reads it back (writeWalletFile does).
 * @example
 * await writeFileAtomic('/home/me/.config/wallet/settings.json', JSON.stringify(settings));
 */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = dirname(path);
  const temp = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(temp, 'wx', options.mode ?? 0o600);
  try {
    try {
      await file.writeFile(content);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // The rename itself is durable only once the folder's entry is on disk (POSIX); Windows cannot open a folder.
  if (process.platform !== 'win32') {
    const dir = await open(folder, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
