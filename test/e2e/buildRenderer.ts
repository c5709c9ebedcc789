// Global setup of the e2e project: builds the renderer (out/renderer, what the browser shell serves) when it is
// missing or older than a file of src-renderer/, so that the browser never tests stale screens.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILT = join(ROOT, 'out/renderer/index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Vitest global setup: rebuild when stale. */
export function setup(): void {
  const sources = Math.max(newestSource(join(ROOT, 'src-renderer')), newestSource(join(ROOT, 'src-main/koinos')));
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= sources && existsSync(join(ROOT, 'out/main'))) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
}
