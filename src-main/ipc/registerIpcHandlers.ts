// Registers every channel of the contract on an `ipcMain`-like object (Electron's, or a test's) and checks the
// sender of each call before dispatching it: a frame that is not the wallet's own page is refused.
import { IPC_CHANNELS, type IpcChannel, type IpcResult } from './contract.ts';
import type { IpcDispatch } from './dispatcher.ts';

/** The part of Electron's `ipcMain` this needs; `E` is the invoke event (Electron's IpcMainInvokeEvent). */
export interface IpcMainLike<E> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface RegisterIpcOptions<E> {
  dispatch: IpcDispatch;
  /** True when the event comes from the wallet's own top-level page (Electron: `event.senderFrame`). */
  isTrustedSender: (event: E) => boolean;
  /** Receives one line per refused call (default: console.warn). */
  log?: (line: string) => void;
}

/** The answer to a call from a frame that is not the wallet's page. */
export const REFUSED_SENDER: IpcResult<never> = Object.freeze({
  ok: false,
  error: Object.freeze({
    code: 'INVALID_ARGUMENT',
    shortMessage: 'The request was refused because it did not come from the wallet.',
  }),
});

/**
 * Registers a handler for every channel of the contract, and returns a function that removes them all.
 * @example
 * const unregister = registerIpcHandlers(ipcMain, { dispatch, isTrustedSender: (e) => isWalletFrame(e.senderFrame) });
 */
export function registerIpcHandlers<E>(ipcMain: IpcMainLike<E>, options: RegisterIpcOptions<E>): () => void {
  const log = options.log ?? ((line: string) => console.warn(line));
  const registered: IpcChannel[] = [];
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, async (event, ...args) => {
      let trusted = false;
      try {
        trusted = options.isTrustedSender(event);
      } catch {
        trusted = false; // a frame that went away while the call was on its way
      }
      if (!trusted) {
        log(`[ipc] refused ${channel}: the sender is not the wallet's page`);
        return REFUSED_SENDER;
      }
      return options.dispatch(channel, args);
    });
    registered.push(channel);
  }
  return () => {
    for (const channel of registered) ipcMain.removeHandler(channel);
  };
}
