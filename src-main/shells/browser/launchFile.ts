// Opening the browser shell's page without putting its token on any command line (review 3, M2): the browser is
// given a private redirect file from the data folder, and the file holds the address with the token.
//
// Why a redirect file rather than a single-use launch code: a code in the browser's argv would still be readable in
// /proc/*/cmdline by other users for as long as the browser runs, and whoever read it first would win the session,
// so the server would need a race-free exchange and a way to tell the user they lost it. A 0600 file in the 0700 data
// folder is readable by this user only, changes nothing on the server, and is what Jupyter does for the same reason
// (jupyter/notebook PR #4260). The file lives while the shell runs and is removed when it stops.
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The redirect file's name in the data folder. */
export const LAUNCH_FILE_NAME = 'browser-launch.html';

/** An executable to open the launch file with instead of the system's default browser (tests, unusual setups). */
export const BROWSER_ENV = 'KOINOS_WALLET_BROWSER';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The redirect page: a meta refresh (no script, so its own policy can forbid everything) and a link for a browser
 * that does not follow refreshes. A file:// page sends no Referer, so the address does not leak on the way.
 */
export function launchPageHtml(url: string): string {
  const href = escapeHtml(url);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'" />
    <meta name="referrer" content="no-referrer" />
    <meta http-equiv="refresh" content="0;url=${href}" />
    <title>Opening the Koinos wallet</title>
  </head>
  <body>
    <p><a href="${href}">Open the Koinos wallet</a></p>
  </body>
</html>
`;
}

/**
 * Writes the redirect file to `url` in `dataDir`, readable by this user only, and returns its path. An older file
 * (left by a shell that was killed) is replaced, never reused: its mode could have been changed.
 */
export async function writeLaunchFile(dataDir: string, url: string): Promise<string> {
  const path = join(dataDir, LAUNCH_FILE_NAME);
  await rm(path, { force: true });
  await writeFile(path, launchPageHtml(url), { mode: 0o600, flag: 'wx' });
  return path;
}

/** Removes the redirect file; a missing one is fine. */
export async function removeLaunchFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/**
 * The command that opens `target` (a URL) in a browser: `$KOINOS_WALLET_BROWSER` when set, else the system's opener.
 * @example
 * openerCommand('file:///home/me/x.html', 'linux', {}); // { command: 'xdg-open', args: ['file:///home/me/x.html'] }
 */
export function openerCommand(
  target: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): { command: string; args: string[] } {
  const custom = env[BROWSER_ENV];
  if (custom) return { command: custom, args: [target] };
  if (platform === 'darwin') return { command: 'open', args: [target] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', target] };
  return { command: 'xdg-open', args: [target] };
}

/** Opens the launch file at `path` in a browser; a failure only means the user opens it (or runs --no-open) by hand. */
export function openLaunchFile(path: string): void {
  const { command, args } = openerCommand(pathToFileURL(path).href);
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // the caller has printed how to open the wallet by hand
  }
}
