// `npm start`: makes sure the Electron binary is there (Electron 42+ no longer downloads it on install, and
// electron-vite does not either), fetching it with Electron's own installer when missing, then runs the app.
// Without internet it prints one line saying what happened and what to run instead, and exits 1.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Exit code when the binary is missing and cannot be fetched. */
export const EXIT_NO_ELECTRON = 1;

/** What to run when Electron cannot be had: the same wallet in a browser. */
export const BROWSER_COMMAND = 'npm run start:browser';

/** The executable inside Electron's dist folder on this platform (as electron/install.js names it). */
function platformPath(): string {
  switch (process.env.ELECTRON_INSTALL_PLATFORM ?? process.env.npm_config_platform ?? process.platform) {
    case 'darwin':
    case 'mas':
      return 'Electron.app/Contents/MacOS/Electron';
    case 'win32':
      return 'electron.exe';
    default:
      return 'electron';
  }
}

/**
 * Where the Electron executable is, and whether it is there. Reads the package's files only: requiring `electron`
 * itself would start a download.
 * @example
 * electronBinary(); // { path: '…/node_modules/electron/dist/electron', installed: false }
 */
export function electronBinary(): { path: string; installed: boolean; packageDir: string } {
  const packageDir = dirname(require.resolve('electron/package.json'));
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(packageDir, 'dist');
  const path = join(dist, platformPath());
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  let installedVersion = '';
  try {
    installedVersion = readFileSync(join(packageDir, 'dist', 'version'), 'utf8')
      .trim()
      .replace(/^v/, '');
  } catch {
    // no version file: not installed (or installed elsewhere through ELECTRON_OVERRIDE_DIST_PATH)
  }
  const versionOk = process.env.ELECTRON_OVERRIDE_DIST_PATH ? true : installedVersion === version;
  return { path, installed: versionOk && existsSync(path), packageDir };
}

/** The one line printed when the download fails: what happened, why (as far as known), and what to run instead. */
export function downloadFailureLine(output: string): string {
  const network =
    /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo|socket hang up/i.test(
      output,
    );
  const why = network
    ? 'the download server could not be reached (no internet connection?)'
    : `the download failed (${
        output
          .split('\n')
          .find((l) => l.trim() !== '')
          ?.trim()
          .slice(0, 120) ?? 'no output'
      })`;
  return `npm start: the Electron binary is not installed and could not be downloaded: ${why}. Run "${BROWSER_COMMAND}" to use the wallet in a browser instead, or run "npm start" again once online.`;
}

/**
 * Fetches the Electron binary with Electron's own installer (`install-electron`, node_modules/electron/install.js).
 * Its progress and errors are captured, not shown: on failure the caller prints one line.
 */
function installElectron(packageDir: string): { ok: true } | { ok: false; output: string } {
  // A progress note for a person at a terminal; a script sees only the one line that says what happened.
  if (process.stderr.isTTY) process.stderr.write('npm start: downloading the Electron binary (first run only)...\n');
  const result = spawnSync(process.execPath, [join(packageDir, 'install.js')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status === 0) return { ok: true };
  return { ok: false, output: `${result.stderr ?? ''}\n${result.stdout ?? ''}\n${result.error?.message ?? ''}` };
}

/** Runs `electron-vite preview` (build, then start the app) with the given arguments; resolves with its exit code. */
function runApp(args: string[]): Promise<number> {
  const bin = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  const child = spawn(process.execPath, [bin, 'preview', ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/**
 * The launcher: installs the Electron binary when missing, then starts the app. Returns the exit code.
 * @example
 * process.exitCode = await start(process.argv.slice(2));
 */
export async function start(args: string[]): Promise<number> {
  const binary = electronBinary();
  if (!binary.installed) {
    const installed = installElectron(binary.packageDir);
    if (!installed.ok || !electronBinary().installed) {
      process.stderr.write(
        `${downloadFailureLine(installed.ok ? 'the installer finished but the binary is still missing' : installed.output)}\n`,
      );
      return EXIT_NO_ELECTRON;
    }
  }
  return runApp(args);
}

process.exitCode = await start(process.argv.slice(2));
