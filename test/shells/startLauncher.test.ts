// `npm start`'s launcher (src-main/shells/electron/start.ts) run as a process with Electron's binary missing and the
// download server unreachable: one line saying what happened and what to run instead, exit code 1, no stack trace.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'koinos-start-'));
  dirs.push(dir);
  return dir;
}

describe('npm start launcher', () => {
  it('tries to fetch a missing Electron binary and, with the server unreachable, prints one line naming start:browser', () => {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      // An empty dist folder: the binary is missing whatever node_modules/electron holds.
      ELECTRON_OVERRIDE_DIST_PATH: tempDir(),
      // An empty download cache and a mirror on a closed local port: the download fails at once, online or not.
      electron_config_cache: tempDir(),
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
    };
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) delete env[name];
    const started = Date.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src-main/shells/electron/start.ts'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.error).toBeUndefined();
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toBe(
      'npm start: the Electron binary is not installed and could not be downloaded: the download server could not be reached (no internet connection?). Run "npm run start:browser" to use the wallet in a browser instead, or run "npm start" again once online.',
    );
    expect(Date.now() - started).toBeLessThan(60_000); // fails fast, never hangs
  });

  it('is what npm start runs', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    expect(pkg.scripts.start).toBe('tsx src-main/shells/electron/start.ts');
  });
});
