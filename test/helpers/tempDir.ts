// Fresh folders for a test's files, removed when the test finishes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A new empty folder under the system's temporary folder, named `prefix` and a random tail; removed when the running
 * test finishes (call it inside a test).
 * @example
 * const dataDir = await tempDir('koinos-devnet-');
 */
export async function tempDir(prefix = 'koinos-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
  return dir;
}
