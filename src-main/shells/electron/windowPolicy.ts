// What makes the wallet window hardened, as pure values and checks the Electron entry applies and a unit test reads
// without launching Electron: the window's options, the content security policy, and which URLs are the app's own.
import type { BrowserWindowConstructorOptions } from 'electron';

/** Where the app's page comes from: the built index.html, or (unpackaged development only) the dev server. */
export interface AppPage {
  /** file:// URL of out/renderer/index.html. */
  rendererFileUrl: string;
  /** The electron-vite dev server, trusted only in an unpackaged build. */
  devServerUrl?: string;
}

/**
 * The policy of src-renderer/index.html's <meta>, sent as a header too, where it can also carry frame-ancestors.
 * Vite's dev server injects component styles as <style> elements, so inline styles are allowed in development only.
 */
export function contentSecurityPolicy(development: boolean): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    development ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The one wallet window: sandboxed, context-isolated, no Node, no webviews; the preload is the only bridge. */
export function walletWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
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
    },
  };
}

/** True when `raw` is the wallet's own page: the dev server's origin, or the built index.html. */
export function isAppUrl(raw: string, page: AppPage): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (page.devServerUrl) return url.origin === new URL(page.devServerUrl).origin;
  const own = new URL(page.rendererFileUrl);
  return url.protocol === 'file:' && url.host === own.host && url.pathname === own.pathname;
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
