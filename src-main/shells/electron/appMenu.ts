// The application menu as a pure function of the build and the platform: Electron's default menu offers Reload and
// Toggle Developer Tools, which a packaged wallet must not (review 3, L2: "paste this in the console" scams). The Edit
// menu stays in every build, because on macOS copy and paste shortcuts work only through it.
import type { MenuItemConstructorOptions } from 'electron';

const EDIT_MENU: MenuItemConstructorOptions = {
  label: 'Edit',
  submenu: [
    { role: 'undo' },
    { role: 'redo' },
    { type: 'separator' },
    { role: 'cut' },
    { role: 'copy' },
    { role: 'paste' },
    { role: 'selectAll' },
  ],
};

/**
 * The menu template for `Menu.buildFromTemplate`. Packaged: the app (macOS) or File menu, Edit, View with zoom and
 * full screen only, and Window. Unpackaged (development) adds Reload, Force Reload and Toggle Developer Tools.
 * @example
 * Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenuTemplate(app.isPackaged, process.platform)));
 */
export function applicationMenuTemplate(isPackaged: boolean, platform: NodeJS.Platform): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const first: MenuItemConstructorOptions = mac
    ? {
        label: 'Koinos Wallet',
        submenu: [
          { role: 'about' },
          { type: 'separator' },
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          { type: 'separator' },
          { role: 'quit' },
        ],
      }
    : { label: 'File', submenu: [{ role: 'quit' }] };
  const development: MenuItemConstructorOptions[] = isPackaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }];
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...development,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const window: MenuItemConstructorOptions = {
    label: 'Window',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  };
  return [first, EDIT_MENU, view, window];
}

/** The part of a BrowserWindow that bringing it to the front uses. */
export interface FocusableWindow {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/**
 * Shows the wallet's window (the app launched again, a notification clicked, the dock icon): restored if minimized,
 * then focused; `create` makes a new one when it was closed, a dApp's window being the only one left.
 */
export function bringToFront(window: FocusableWindow | undefined, create: () => void = () => {}): void {
  if (!window) return create();
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
