// `mkdir -p` that cannot hang: Node's `mkdir(path, { recursive: true })` loops forever where the system answers
// ENOENT for a parent that exists (a path under /proc). Used for every data folder the wallet and the CLI create.
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `path` and its missing parents, one level at a time: walks up to the first existing folder, then makes each
 * level below it once, with `mode` (e.g. 0o700 for owner-only folders).
 * @throws the system error of the first level that cannot be made (ENOENT under /proc or /sys, EACCES, ...).
 * @example
 * await makeFolders('/home/me/.config/koinos-wallet', 0o700);
 */
export async function makeFolders(path: string, mode?: number): Promise<void> {
  const missing: string[] = [];
  let current = resolve(path);
  while (!(await exists(current))) {
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const folder of missing) await mkdir(folder, mode === undefined ? undefined : { mode });
}
