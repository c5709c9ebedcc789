// The wallet's per-user data folder, the same for the Electron and the browser shell, so that either opens the same
// wallet: where Electron keeps an app's userData on each system.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The folder name under the system's application data folder (Electron's default: the package name). */
export const DATA_FOLDER_NAME = 'koinos-desktop-wallet';

/**
 * The per-user data folder: `$XDG_CONFIG_HOME` or `~/.config` on Linux, `~/Library/Application Support` on macOS,
 * `%APPDATA%` on Windows, each followed by DATA_FOLDER_NAME.
 * @example
 * defaultDataDir(); // '/home/me/.config/koinos-desktop-wallet'
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), DATA_FOLDER_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', DATA_FOLDER_NAME);
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), DATA_FOLDER_NAME);
}
