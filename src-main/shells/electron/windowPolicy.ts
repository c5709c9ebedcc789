// What makes the wallet window hardened, as pure values and checks the Electron entry applies and a unit test reads
// without launching Electron: the window's options, which URLs, origins and frames count as the app's own, which
// navigations and permissions are allowed.
import type { BrowserWindowConstructorOptions } from 'electron';
import { APP_HOST, APP_SCHEME } from './appProtocol.ts';

export { contentSecurityPolicy } from '../rendererFiles.ts';

/** Where the app's page comes from: the built renderer on the app scheme, or (unpackaged development only) the dev server. */
export interface AppPage {
  /** The page on the app scheme, APP_ENTRY_URL (app://wallet/index.html). */
  appUrl: string;
  /** The electron-vite dev server, trusted only in an unpackaged build. */
  devServerUrl?: string;
}

/**
 * The one wallet window: sandboxed, context-isolated, no Node, no webviews; the preload is the only bridge.
 * DevTools exist only in an unpackaged build: in a packaged one, "paste this in the console" scams have no console.
 */
export function walletWindowOptions(
  preloadPath: string,
  { isPackaged }: { isPackaged: boolean },
): BrowserWindowConstructorOptions {
  return {
    width: 1100,
    height: 760,
    minWidth: 720,
    minHeight: 520,
    title: 'Koinos Wallet',
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      devTools: !isPackaged,
    },
  };
}

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/**
 * True when `raw` (a URL or a bare origin) is on the app's own origin: app://wallet, or the dev server's origin
 * when one is configured (and then only it).
 */
export function isAppOrigin(raw: string, page: AppPage): boolean {
  const url = parse(raw);
  if (!url) return false;
  if (page.devServerUrl) return url.origin === new URL(page.devServerUrl).origin;
  // Node gives non-special schemes an opaque origin, so the scheme and host are compared instead.
  return (
    url.protocol === `${APP_SCHEME}:` &&
    url.host === APP_HOST &&
    url.username === '' &&
    url.password === '' &&
    url.port === ''
  );
}

/** True when `raw` is the wallet's own page: the dev server's origin, or the built index.html on the app scheme. */
export function isAppUrl(raw: string, page: AppPage): boolean {
  if (!isAppOrigin(raw, page)) return false;
  if (page.devServerUrl) return true;
  return parse(raw)!.pathname === new URL(page.appUrl).pathname;
}

/** The part of Electron's WebFrameMain the sender check reads. */
export interface SenderFrame {
  url: string;
  /** null for a top-level frame. */
  parent: unknown;
}

/** True when an IPC call comes from the top frame of the wallet's own page (not an iframe, not another page). */
export function isTrustedSenderFrame(frame: SenderFrame | null | undefined, page: AppPage): boolean {
  return frame !== null && frame !== undefined && frame.parent === null && isAppUrl(frame.url, page);
}

/**
 * Whether a navigation may go ahead (`will-navigate`, `will-frame-navigate`): the main frame may only reload its own
 * URL; a subframe may never navigate (the page has no frames, so one that navigates was injected).
 */
export function isNavigationAllowed(navigation: { url: string; isMainFrame: boolean }, currentUrl: string): boolean {
  return navigation.isMainFrame && navigation.url === currentUrl;
}

/**
 * The one permission the wallet page gets: writing text to the clipboard (the Copy buttons). Everything else is
 * denied, for every origin - reading the clipboard too (the Paste button then tells the user to press Ctrl+V).
 * @example
 * isPermissionAllowed('clipboard-sanitized-write', 'app://wallet', page); // true
 * isPermissionAllowed('clipboard-read', 'app://wallet', page); // false
 */
export function isPermissionAllowed(permission: string, requestingUrl: string, page: AppPage): boolean {
  return permission === 'clipboard-sanitized-write' && isAppOrigin(requestingUrl, page);
}
