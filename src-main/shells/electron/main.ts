// Electron entry: opens the one hardened wallet window and binds it to the wallet facade over the IPC contract.
// Thin on purpose: the services live in wallet/, the handlers in ipc/, the window's policy in windowPolicy.ts.
import { app, BrowserWindow, ipcMain, powerMonitor, session, type WebContents } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createWalletApp, type WalletApp } from '../../wallet/walletApp.ts';
import { defaultDataDir } from '../dataDir.ts';
import { registerWalletIpc, sendWalletEvents } from './electronIpc.ts';
import { contentSecurityPolicy, isAppUrl, walletWindowOptions, type AppPage } from './windowPolicy.ts';

// The dev server is only trusted in an unpackaged build; a packaged app always loads its own files.
const PAGE: AppPage = {
  rendererFileUrl: pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).href,
  devServerUrl: app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'],
};
const PRELOAD_PATH = join(import.meta.dirname, '../preload/index.cjs');

let wallet: Promise<WalletApp> | undefined;

/** Denies navigation, new windows, webviews and permissions for every web contents the app ever creates. */
function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (event.url !== contents.getURL()) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url, PAGE)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

function createWindow(ready: WalletApp): void {
  const window = new BrowserWindow(walletWindowOptions(PRELOAD_PATH));
  const stopEvents = sendWalletEvents(ready, window.webContents);
  window.on('closed', stopEvents);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(PAGE.devServerUrl ?? PAGE.rendererFileUrl);
}

// ---- App lifecycle ---------------------------------------------------------------------------------------------

// One folder for both shells (Electron and browser), whatever the app's display name.
app.setPath('userData', defaultDataDir());
app.enableSandbox();
app.on('web-contents-created', (_event, contents) => lockDown(contents));

void app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy(PAGE.devServerUrl !== undefined)] },
    });
  });

  wallet = createWalletApp({ dataDir: app.getPath('userData') });
  let ready: WalletApp;
  try {
    ready = await wallet;
  } catch (error) {
    console.error('[wallet] failed to start:', error);
    app.exit(1);
    return;
  }
  registerWalletIpc(ipcMain, ready, PAGE);
  // Decrypted keys leave memory when the machine sleeps or its screen locks.
  const lockNow = (): void => void ready.lock().catch((error: unknown) => console.error('[wallet] lock failed:', error));
  powerMonitor.on('suspend', lockNow);
  powerMonitor.on('lock-screen', lockNow);

  createWindow(ready);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(ready);
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Quitting waits once for the wallet to close (lock, stop the devnet so that its store is closed cleanly).
let closed = false;
app.on('will-quit', (event) => {
  if (!wallet || closed) return;
  event.preventDefault();
  closed = true;
  wallet
    .then((ready) => ready.close())
    .catch((error: unknown) => console.error('[wallet] failed to close:', error))
    .finally(() => app.quit());
});
