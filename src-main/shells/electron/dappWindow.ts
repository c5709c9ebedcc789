// The Electron side of kondor-js pages: a dApp window per page the person opens (its own in-memory session, every
// permission denied, navigation kept on its origin unless the person agrees in a native dialog), and the one IPC channel
// its preload invokes, answered for the window's top frame only with the origin read from that frame. Thin: the
// decisions are dappWindowPolicy.ts's, the answers kondorRequests.ts's.
import { BrowserWindow, dialog, session, type IpcMain, type Session, type WebContents } from 'electron';
import { KONDOR_IPC_CHANNEL } from '../../wallet/dapps/kondorCommands.ts';
import { answerKondor } from '../../wallet/dapps/kondorRequests.ts';
import type { DappService } from '../../wallet/dapps/dappService.ts';
import {
  dappOrigin,
  dappPartition,
  dappWindowOptions,
  navigationDecision,
  oneQuestionAtATime,
  senderOrigin,
} from './dappWindowPolicy.ts';

/** The sessions of dApp windows: the app's general lock-down leaves their contents to this file. */
const dappSessions = new WeakSet<Session>();
/** The origin each dApp window's web contents was opened for. */
const windowOrigins = new Map<number, string>();

/** True for the web contents of a dApp window (main.ts's lock-down of the wallet's own windows skips them). */
export function isDappContents(contents: WebContents): boolean {
  return dappSessions.has(contents.session);
}

/**
 * Opens `url` in a dApp window of its own. `onLastClosed` is told an origin once its last window closed (what its page
 * asked and still waits is refused then: DappService.pageClosed).
 * @throws WalletError INVALID_ARGUMENT when it is not https (or http on this computer).
 */
export function openDappWindow(
  url: string,
  preloadPath: string,
  onLastClosed: (origin: string) => void,
): BrowserWindow {
  const origin = dappOrigin(url);
  const partition = dappPartition(origin);
  const own = session.fromPartition(partition);
  own.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  own.setPermissionCheckHandler(() => false);
  dappSessions.add(own);
  const window = new BrowserWindow(dappWindowOptions(preloadPath, origin, partition));
  const contents = window.webContents;
  const id = contents.id;
  windowOrigins.set(id, origin);
  window.on('closed', () => {
    windowOrigins.delete(id);
    if (![...windowOrigins.values()].includes(origin)) onLastClosed(origin);
  });

  /**
   * Another origin: asked, and opened in a window of its own (its own session and grant) when the person agrees. One
   * question at a time: what the page asks while one is open is dropped.
   */
  const elsewhere = oneQuestionAtATime(async (target: string) => {
    const { response } = await dialog.showMessageBox(window, {
      type: 'question',
      title: 'Leave this dApp?',
      message: `${origin} wants to open ${target}.`,
      detail: 'It opens in a window of its own, with its own connection to the wallet.',
      buttons: ['Stay', 'Open'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    if (response === 1) openDappWindow(target, preloadPath, onLastClosed);
  });
  const guard = (event: { url: string; isMainFrame: boolean; preventDefault(): void }): void => {
    const decision = navigationDecision({ url: event.url, isMainFrame: event.isMainFrame }, origin);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'ask') elsewhere(event.url);
  };
  contents.on('will-navigate', (event) =>
    guard({ url: event.url, isMainFrame: true, preventDefault: () => event.preventDefault() }),
  );
  contents.on('will-frame-navigate', (event) =>
    guard({ url: event.url, isMainFrame: event.isMainFrame, preventDefault: () => event.preventDefault() }),
  );
  contents.on('will-redirect', (event) =>
    guard({ url: event.url, isMainFrame: event.isMainFrame, preventDefault: () => event.preventDefault() }),
  );
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url: target }) => {
    // New windows never open from the page itself: its own origin loads here, another is asked first.
    const decision = navigationDecision({ url: target, isMainFrame: true }, origin);
    if (decision === 'allow') void contents.loadURL(target);
    else if (decision === 'ask') elsewhere(target);
    return { action: 'deny' };
  });
  void window.loadURL(url);
  return window;
}

/**
 * Answers the dApp windows' preloads on KONDOR_IPC_CHANNEL: the top frame of a dApp window, on that window's origin,
 * speaks for the origin; anything else is refused. Returns a function that unregisters it.
 */
export function registerKondorIpc(ipcMain: IpcMain, dapps: DappService, log: (line: string) => void): () => void {
  ipcMain.handle(KONDOR_IPC_CHANNEL, async (event, payload: unknown) => {
    const origin = senderOrigin(event.senderFrame, windowOrigins.get(event.sender.id));
    if (origin === undefined) return { error: 'Only the page the wallet opened may ask it.' };
    const { command, args } =
      typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
    return answerKondor(dapps, { origin, command, args }, log);
  });
  return () => ipcMain.removeHandler(KONDOR_IPC_CHANNEL);
}
