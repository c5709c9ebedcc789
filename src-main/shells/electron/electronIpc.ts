// The Electron side of the IPC contract: every channel registered on ipcMain with the sender frame checked, and the
// wallet's push events sent to the window. Takes ipcMain and the window as arguments so that a test runs it without Electron.
import type { IpcEvent } from '../../ipc/contract.ts';
import { createIpcDispatcher } from '../../ipc/dispatcher.ts';
import { forwardEvents } from '../../ipc/eventHub.ts';
import { registerIpcHandlers, type IpcMainLike } from '../../ipc/registerIpcHandlers.ts';
import type { WalletApp } from '../../wallet/walletApp.ts';
import { isTrustedSenderFrame, type AppPage, type SenderFrame } from './windowPolicy.ts';

/** The part of Electron's IpcMainInvokeEvent the sender check reads. */
export interface InvokeEventLike {
  senderFrame: SenderFrame | null;
}

/** The part of a window's WebContents events are sent to. */
export interface EventTarget {
  send(channel: IpcEvent, payload: unknown): void;
  isDestroyed(): boolean;
}

/**
 * Registers the wallet's handlers on `ipcMain`; calls from any frame but the top frame of the wallet's own page are
 * refused. Every accepted call restarts the vault's idle timer. Returns a function that unregisters them.
 */
export function registerWalletIpc<E extends InvokeEventLike>(
  ipcMain: IpcMainLike<E>,
  wallet: WalletApp,
  page: AppPage,
  log?: (line: string) => void,
): () => void {
  const dispatch = createIpcDispatcher({ handlers: wallet.handlers, onCall: () => wallet.touch(), log });
  return registerIpcHandlers(ipcMain, {
    dispatch,
    isTrustedSender: (event) => isTrustedSenderFrame(event.senderFrame, page),
    log,
  });
}

/** Sends every push event of the wallet to `target` while it lives; returns a function that stops. */
export function sendWalletEvents(wallet: WalletApp, target: EventTarget): () => void {
  const stop = forwardEvents(wallet.events, (event, payload) => {
    if (target.isDestroyed()) stop();
    else target.send(event, payload);
  });
  return stop;
}
