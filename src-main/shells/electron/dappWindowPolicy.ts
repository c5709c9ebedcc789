// What makes a dApp window (a kondor-js page the wallet opened) safe, as pure values and checks: its options, its own
// session per origin, which navigations stay, which ask the person, which are refused, and which IPC sender frames speak
// for the page. The Electron side (dappWindow.ts) applies them; a unit test reads them without Electron.
import type { BrowserWindowConstructorOptions } from 'electron';
import { WalletError, describe } from '../../koinos/errors.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** What a subframe may load besides https: plain http, and the frames pages make themselves. */
const SUBFRAME_SCHEMES = /^(https?:|about:(blank|srcdoc)$|blob:https?:|data:)/;

/**
 * The origin of a dApp page the person asked to open: https, or http on loopback (a dApp under development).
 * @throws WalletError INVALID_ARGUMENT for any other URL (file:, javascript:, http on the network, credentials).
 * @example
 * dappOrigin('https://koinscan.io/tokens'); // 'https://koinscan.io'
 */
export function dappOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected a dApp's address such as https://app.example, got ${describe(raw)}`,
    );
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  if (!secure || url.username !== '' || url.password !== '') {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected an https address (or http on this computer), got ${describe(`${url.protocol}//${url.host}`)}`,
    );
  }
  return url.origin;
}

/** The in-memory partition of an origin: no cookie, storage or permission is shared with the wallet or another dApp. */
export function dappPartition(origin: string): string {
  return `dapp:${origin}`;
}

/** A dApp window: sandboxed, context-isolated, no Node anywhere, no webviews; the preload is its only bridge. */
export function dappWindowOptions(
  preloadPath: string,
  origin: string,
  partition: string,
): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    title: origin,
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      partition,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

/** What happens to a navigation: it goes on, the person is asked (it then opens in a dApp window of its own), or not. */
export type NavigationDecision = 'allow' | 'ask' | 'deny';

/**
 * A navigation of a dApp window (`will-navigate`, `will-frame-navigate`, `will-redirect`, window.open). The main frame
 * stays on the window's origin; another https (or loopback http) origin is asked; anything else is refused. Subframes
 * navigate freely on the web (never to file: or an app scheme): they cannot reach the wallet (only the top frame's IPC
 * is answered).
 * @example
 * navigationDecision({ url: 'https://evil.example/', isMainFrame: true }, 'https://app.example'); // 'ask'
 */
export function navigationDecision(
  navigation: { url: string; isMainFrame: boolean },
  origin: string,
): NavigationDecision {
  let target: string;
  try {
    target = dappOrigin(navigation.url);
  } catch {
    return navigation.isMainFrame || !SUBFRAME_SCHEMES.test(navigation.url) ? 'deny' : 'allow';
  }
  if (!navigation.isMainFrame) return 'allow';
  return target === origin ? 'allow' : 'ask';
}

/** The part of Electron's WebFrameMain the sender check reads. */
export interface DappSenderFrame {
  url: string;
  origin: string;
  /** null for a top-level frame. */
  parent: unknown;
}

/**
 * The origin a kondor request speaks for: the sending frame's, when it is the top frame of a dApp window and still on
 * that window's origin; undefined otherwise (the request is refused).
 */
export function senderOrigin(
  frame: DappSenderFrame | null | undefined,
  windowOrigin: string | undefined,
): string | undefined {
  if (!frame || frame.parent !== null || windowOrigin === undefined) return undefined;
  return frame.origin === windowOrigin ? windowOrigin : undefined;
}

/**
 * Asks with `ask` only while no earlier question of the same window is open: a request that comes meanwhile is dropped
 * (the page stays where it is). A page that opens windows or navigates away in a loop would otherwise stack a native
 * dialog per request over the window, each to be answered before the window can be used or closed.
 * @example
 * const elsewhere = oneQuestionAtATime((target: string) => askToOpen(target));
 * elsewhere('https://a.example'); // asks
 * elsewhere('https://b.example'); // dropped while the first question is open
 */
export function oneQuestionAtATime<T>(ask: (subject: T) => Promise<void>): (subject: T) => void {
  let open = false;
  return (subject) => {
    if (open) return;
    open = true;
    void ask(subject).finally(() => (open = false));
  };
}
