// The browser shell's command line and the per-user data folder both shells share.
import { describe, expect, it } from 'vitest';
import { parseBrowserShellArgs } from '../../src-main/shells/browser/main.ts';
import { DATA_FOLDER_NAME, defaultDataDir } from '../../src-main/shells/dataDir.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';

describe('parseBrowserShellArgs', () => {
  it('defaults to any free port, the per-user data folder, and opening a browser', () => {
    expect(parseBrowserShellArgs([])).toEqual({ port: 0, dataDir: defaultDataDir(), open: true, help: false });
  });

  it('reads --port, --data-dir, --no-open and --help', () => {
    expect(parseBrowserShellArgs(['--port', '8090', '--data-dir=/tmp/w', '--no-open'])).toEqual({
      port: 8090,
      dataDir: '/tmp/w',
      open: false,
      help: false,
    });
    expect(parseBrowserShellArgs(['-h']).help).toBe(true);
  });

  it('refuses a bad port, an empty folder and unknown options', () => {
    for (const port of ['65536', '-1', 'http', '80.5', '']) {
      expect(
        expectWalletError(() => parseBrowserShellArgs([`--port=${port}`]), 'INVALID_ARGUMENT').shortMessage,
      ).toMatch(/^expected --port to be a number from 0 to 65535/);
    }
    expect(expectWalletError(() => parseBrowserShellArgs(['--data-dir', '']), 'INVALID_ARGUMENT').shortMessage).toBe(
      'expected --data-dir to name a folder, got an empty string',
    );
    expect(
      expectWalletError(() => parseBrowserShellArgs(['--host', '0.0.0.0']), 'INVALID_ARGUMENT').shortMessage,
    ).toMatch(/--host.*see --help$/);
    expect(expectWalletError(() => parseBrowserShellArgs(['extra']), 'INVALID_ARGUMENT').shortMessage).toMatch(
      /see --help$/,
    );
  });
});

describe('defaultDataDir', () => {
  it('is where Electron keeps userData on each system', () => {
    expect(defaultDataDir({}, 'linux', '/home/me')).toBe(`/home/me/.config/${DATA_FOLDER_NAME}`);
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/me')).toBe(`/cfg/${DATA_FOLDER_NAME}`);
    expect(defaultDataDir({}, 'darwin', '/Users/me')).toBe(`/Users/me/Library/Application Support/${DATA_FOLDER_NAME}`);
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me')).toContain(
      DATA_FOLDER_NAME,
    );
  });
});
