// The built app (out/, what `npm run build` makes and package.json's bin runs) for the tests that run it as a user
// does: the spawned CLI and browser shell (out/main/cli.js starts in a quarter of a second, where node + tsx on the
// sources takes three times that in CPU), the browser suite's renderer, and the devnet's worker threads. It is built
// again when it is missing or older than a source file, so that no test runs stale code; `npm test` builds it once
// before its two vitest processes start.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUILT_WORKERS_ENV } from '../../src-main/devnet/server/workerEntry.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** The CLI as package.json's bin names it. */
export const BUILT_CLI = join(ROOT, 'out/main/cli.js');
/** The browser shell as `npm run start:browser` runs it. */
export const BUILT_BROWSER_SHELL = join(ROOT, 'out/main/browser.js');
const BUILT = [BUILT_CLI, join(ROOT, 'out/renderer/index.html')];
const SOURCES = ['src-main', 'src-renderer', 'proto'];
/** How they are built: a change of it makes another build too. */
const BUILD_CONFIG = join(ROOT, 'electron.vite.config.ts');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether out/ holds a build at least as new as every source file. */
export function builtAppIsFresh(): boolean {
  const sources = Math.max(...SOURCES.map((dir) => newestSource(join(ROOT, dir))), statSync(BUILD_CONFIG).mtimeMs);
  return BUILT.every((file) => existsSync(file) && statSync(file).mtimeMs >= sources);
}

/** Builds the app (electron-vite build: main, preload, renderer) unless out/ is fresh. */
export function buildAppIfStale(): void {
  if (builtAppIsFresh()) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
}

/**
 * Vitest global setup (unit and e2e projects): the build made fresh, and named to the test workers, so that the devnet
 * and HTTP worker threads the sources start run from it, as the app's do (src-main/devnet/server/workerEntry.ts).
 */
export function setup(): void {
  buildAppIfStale();
  process.env[BUILT_WORKERS_ENV] = join(ROOT, 'out/main');
}
