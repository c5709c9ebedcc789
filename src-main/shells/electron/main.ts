// Electron entry: opens the one hardened wallet window and binds it to the wallet facade over the IPC contract.
// Thin on purpose: the services live in wallet/, the handlers in ipc/, every decision in windowPolicy.ts, appMenu.ts
// and appProtocol.ts (pure, tested without Electron).
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  powerMonitor,
  protocol,
  session,
  type WebContents,
} from 'electron';
import { join } from 'node:path';
import type { WalletNotification } from '../../ipc/contract.ts';
import { WalletError } from '../../koinos/errors.ts';
import { DEEP_LINK_SCHEME, deepLinkIn } from '../../wallet/dapps/deepLink.ts';
import { createWalletApp, type WalletApp } from '../../wallet/walletApp.ts';
import { dialogApprover } from './approvalDialog.ts';
import { defaultDataDir } from '../dataDir.ts';
import { acquireDataFolderLock, type DataFolderLock } from '../../wallet/dataFolderLock.ts';
import { applicationMenuTemplate, bringToFront } from './appMenu.ts';
import { APP_ENTRY_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, answerAppRequest } from './appProtocol.ts';
import { registerWalletIpc, sendWalletEvents } from './electronIpc.ts';
import { isDappContents, openDappWindow, registerKondorIpc } from './dappWindow.ts';
import {
  contentSecurityPolicy,
  isAppUrl,
  isNavigationAllowed,
  isPermissionAllowed,
  walletWindowOptions,
  type AppPage,
} from './windowPolicy.ts';

// The dev server is only trusted in an unpackaged build; a packaged app always loads its own files.
const PAGE: AppPage = {
  appUrl: APP_ENTRY_URL,
  devServerUrl: app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'],
};
const RENDERER_DIR = join(import.meta.dirname, '../renderer');
const PRELOAD_PATH = join(import.meta.dirname, '../preload/index.cjs');
const DAPP_PRELOAD_PATH = join(import.meta.dirname, '../preload/dapp.cjs');

let wallet: Promise<WalletApp> | undefined;
let folderLock: DataFolderLock | undefined;
/** The wallet's own window while it is open (dApp windows are others'). */
let walletWindow: BrowserWindow | undefined;

/** Denies navigation, new windows, webviews and permissions for every web contents the app ever creates. */
function lockDown(contents: WebContents): void {
  // A dApp window's page navigates within its origin and asks for others: dappWindow.ts guards it.
  if (isDappContents(contents)) return;
  contents.on('will-navigate', (event) => {
    if (!isNavigationAllowed({ url: event.url, isMainFrame: true }, contents.getURL())) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isNavigationAllowed({ url: event.url, isMainFrame: event.isMainFrame }, contents.getURL()))
      event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url, PAGE)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

function createWindow(ready: WalletApp): void {
  const window = new BrowserWindow(walletWindowOptions(PRELOAD_PATH, { isPackaged: app.isPackaged }));
  walletWindow = window;
  const stopEvents = sendWalletEvents(ready, window.webContents);
  window.on('closed', () => {
    stopEvents();
    if (walletWindow === window) walletWindow = undefined;
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(PAGE.devServerUrl ?? PAGE.appUrl);
}

/** The wallet's window to the front, a new one when it was closed; before the wallet is ready, its window opens then. */
function showWalletWindow(): void {
  void wallet?.then(
    (ready) => bringToFront(walletWindow, () => createWindow(ready)),
    () => undefined,
  );
}

// Shown notifications are kept until clicked or closed: a collected Notification loses its click handler.
const shownNotifications = new Set<Notification>();

/** Shows a notification the wallet decided on (the words are main's); a click brings the window forward and opens its entry. */
function showNotification(ready: WalletApp, notification: WalletNotification): void {
  if (!Notification.isSupported()) return;
  const shown = new Notification({ title: notification.title, body: notification.body });
  shownNotifications.add(shown);
  shown.on('close', () => shownNotifications.delete(shown));
  shown.on('click', () => {
    shownNotifications.delete(shown);
    bringToFront(walletWindow, () => createWindow(ready));
    ready.openNotification(notification.target);
  });
  shown.show();
}

/** Shows why the app cannot start (a dialog: a packaged app has no terminal), then quits with exit code 1. */
function failToStart(error: unknown): void {
  console.error('[wallet] failed to start:', error);
  const message =
    error instanceof WalletError ? error.shortMessage : 'The wallet could not start. The details are in its log.';
  dialog.showErrorBox('Koinos Wallet cannot start', message);
  app.exit(1);
}

/** Pairs with the dApp of a koinos-wallet://wc link; its proposal then asks for a grant in the approval dialog. */
const linksBeforeReady = new Set<string>();
function pairFromLink(link: string | undefined): void {
  if (!link) return;
  if (!wallet) {
    linksBeforeReady.add(link); // macOS may send links before the wallet opened: paired once it has
    return;
  }
  void wallet
    .then((ready) => ready.handlers['dapps:pair']({ uri: link }))
    .catch((error: unknown) => {
      const message = error instanceof WalletError ? error.shortMessage : 'The link could not be opened.';
      console.error('[wallet] pairing from a link failed:', message);
      // Not showErrorBox: it blocks the main process until dismissed, and any web page can open such a link.
      const options = {
        type: 'error' as const,
        title: 'Koinos Wallet',
        message: 'The dApp could not be connected.',
        detail: message,
      };
      void (walletWindow ? dialog.showMessageBox(walletWindow, options) : dialog.showMessageBox(options));
    });
}

// ---- App lifecycle ---------------------------------------------------------------------------------------------

// One folder for both shells (Electron and browser), whatever the app's display name. Set before the single-instance
// lock, which Electron keys on this folder.
app.setPath('userData', defaultDataDir());
// Schemes get their privileges before the app is ready, or never.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

if (!app.requestSingleInstanceLock()) {
  // Another instance has the window: it comes to the front (second-instance below), and this one leaves.
  app.quit();
} else {
  app.on('second-instance', (_event, argv) => {
    showWalletWindow();
    pairFromLink(deepLinkIn(argv));
  });
  // macOS hands a koinos-wallet:// link to the running app this way (also when it starts the app for it).
  app.on('open-url', (event, url) => {
    event.preventDefault();
    pairFromLink(deepLinkIn([url]));
  });
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => lockDown(contents));

  void app.whenReady().then(async () => {
    Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenuTemplate(app.isPackaged, process.platform)));
    protocol.handle(APP_SCHEME, (request) => answerAppRequest(request, RENDERER_DIR));
    session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
      callback(isPermissionAllowed(permission, details.requestingUrl, PAGE)),
    );
    session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
      isPermissionAllowed(permission, requestingOrigin, PAGE),
    );
    // The app scheme sends its policy itself; this covers the dev server.
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: {
          ...details.responseHeaders,
          'Content-Security-Policy': [contentSecurityPolicy(PAGE.devServerUrl !== undefined)],
        },
      });
    });

    let ready: WalletApp;
    try {
      // The browser shell or a CLI command may hold the same folder: a second writer deletes keys (review 3, M4).
      folderLock = await acquireDataFolderLock(app.getPath('userData'), { holder: 'electron' });
      // Every signature is approved in a native dialog main draws itself: the window can show the request, not approve it.
      const approver = dialogApprover((options) => {
        const parent = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
        return parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options);
      });
      wallet = createWalletApp({
        dataDir: app.getPath('userData'),
        approver,
        notificationPresenter: 'main',
        // A page opens from a screen, so once the wallet is ready.
        openDappPage: (url) => void openDappWindow(url, DAPP_PRELOAD_PATH, (origin) => ready.dapps.pageClosed(origin)),
      });
      ready = await wallet;
    } catch (error) {
      folderLock?.release();
      failToStart(error);
      return;
    }
    registerWalletIpc(ipcMain, ready, PAGE);
    registerKondorIpc(ipcMain, ready.dapps, (line) => console.error(line));
    ready.events.on('notifications:new', (notification) => showNotification(ready, notification));
    // Decrypted keys leave memory when the machine sleeps or its screen locks.
    const lockNow = (): void =>
      void ready.lock().catch((error: unknown) => console.error('[wallet] lock failed:', error));
    powerMonitor.on('suspend', lockNow);
    powerMonitor.on('lock-screen', lockNow);

    createWindow(ready);
    // A dApp's koinos-wallet://wc?uri=… link hands its WalletConnect URI to this instance (Windows and Linux pass it
    // on the command line, to the first instance or through second-instance). Only a packaged app registers: a
    // development build would take the links from the installed wallet (and Electron's bare binary could not open
    // them); it takes a link on its command line.
    if (app.isPackaged) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
    for (const link of new Set([deepLinkIn(process.argv), ...linksBeforeReady])) pairFromLink(link);
    linksBeforeReady.clear();
    // The dock icon (macOS) shows the wallet's window, also when a dApp's window is the only one open.
    app.on('activate', showWalletWindow);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Quitting waits once for the wallet to close (lock, stop the devnet so that its store is closed cleanly), then
  // frees the data folder. Electron turns SIGINT and SIGTERM into a quit, so this runs for them too.
  let closed = false;
  app.on('will-quit', (event) => {
    if (!wallet || closed) return;
    event.preventDefault();
    closed = true;
    wallet
      .then((ready) => ready.close())
      .catch((error: unknown) => console.error('[wallet] failed to close:', error))
      .finally(() => {
        folderLock?.release();
        app.quit();
      });
  });
}
