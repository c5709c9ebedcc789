// The application menu of each build and platform (no Reload, no DevTools once packaged; Edit everywhere), and how a
// second launch brings the first window to the front.
import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { applicationMenuTemplate, bringToFront } from '../../src-main/shells/electron/appMenu.ts';

/** Every role in a template, submenus included. */
function roles(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

const DEVELOPER_ROLES = ['reload', 'forceReload', 'toggleDevTools', 'viewMenu', 'defaultMenu'];

describe('applicationMenuTemplate', () => {
  it.each(['linux', 'win32', 'darwin'] as const)(
    'has no Reload and no Developer Tools in a packaged build (%s)',
    (platform) => {
      const template = applicationMenuTemplate(true, platform);
      for (const role of DEVELOPER_ROLES) expect(roles(template)).not.toContain(role);
      expect(JSON.stringify(template)).not.toMatch(/devtools|inspect/i);
    },
  );

  it.each(['linux', 'win32', 'darwin'] as const)(
    'keeps the Edit menu, so that copy and paste work (%s)',
    (platform) => {
      for (const isPackaged of [true, false]) {
        const edit = applicationMenuTemplate(isPackaged, platform).find((item) => item.label === 'Edit');
        expect(roles(edit ? [edit] : [])).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']);
      }
    },
  );

  it('offers Reload and Toggle Developer Tools in development', () => {
    expect(roles(applicationMenuTemplate(false, 'linux'))).toEqual(
      expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']),
    );
  });

  it('has the app menu on macOS and a File menu elsewhere, both with Quit', () => {
    const [macFirst] = applicationMenuTemplate(true, 'darwin');
    const [linuxFirst] = applicationMenuTemplate(true, 'linux');
    expect(macFirst!.label).toBe('Koinos Wallet');
    expect(linuxFirst!.label).toBe('File');
    expect(roles([macFirst!])).toContain('quit');
    expect(roles([linuxFirst!])).toEqual(['quit']);
  });
});

describe('bringToFront', () => {
  function fakeWindow(minimized: boolean) {
    const calls: string[] = [];
    return {
      calls,
      isMinimized: () => minimized,
      restore: () => calls.push('restore'),
      show: () => calls.push('show'),
      focus: () => calls.push('focus'),
    };
  }

  it('restores a minimized window, then shows and focuses it', () => {
    const minimized = fakeWindow(true);
    bringToFront(minimized);
    expect(minimized.calls).toEqual(['restore', 'show', 'focus']);
    const open = fakeWindow(false);
    bringToFront(open);
    expect(open.calls).toEqual(['show', 'focus']);
  });

  it('opens a new window when the wallet has none, and does nothing when it cannot yet', () => {
    const created: string[] = [];
    bringToFront(undefined, () => created.push('window'));
    expect(created).toEqual(['window']);
    expect(() => bringToFront(undefined)).not.toThrow();
  });
});
