// The one entry every shell calls with a renderer's request: checks the channel and its arguments, runs the
// wallet's handler, and answers the envelope. Shells add only their transport (Electron IPC, loopback HTTP).
import { describe } from '../koinos/errors.ts';
import {
  CHANNEL_ACTIVITY,
  isIpcChannel,
  type IpcArgs,
  type IpcChannel,
  type IpcResult,
  type IpcValue,
} from './contract.ts';
import { parseArguments } from './argumentParsers.ts';
import { toIpcError } from './toIpcError.ts';

/** What main does for each channel; a missing or misspelled channel is a compile error. */
export type IpcHandlers = { [C in IpcChannel]: (...args: IpcArgs<C>) => Promise<IpcValue<C>> };

/** Answers one request; never throws. */
export type IpcDispatch = (channel: unknown, args: unknown) => Promise<IpcResult<unknown>>;

export interface IpcDispatcherOptions {
  handlers: IpcHandlers;
  /**
   * Called before every call that is the user's doing (CHANNEL_ACTIVITY 'user'): the vault's idle timer restarts.
   * Background reads (the dashboard's refresh on each block) are not reported, so an unattended wallet still locks.
   */
  onCall?: (channel: IpcChannel) => void;
  /** Receives one line per unexpected error (default: console.error). */
  log?: (line: string) => void;
}

/**
 * Makes the dispatcher the shells share.
 * @example
 * const dispatch = createIpcDispatcher({ handlers: wallet.handlers, onCall: () => wallet.touch() });
 * await dispatch('vault:status', []); // { ok: true, value: { exists: false, ... } }
 */
export function createIpcDispatcher(options: IpcDispatcherOptions): IpcDispatch {
  const log = options.log ?? ((line: string) => console.error(line));
  return async (channel, args) => {
    if (!isIpcChannel(channel)) {
      const name = typeof channel === 'string' ? describe(channel.slice(0, 60)) : describe(channel);
      return {
        ok: false,
        error: { code: 'INVALID_ARGUMENT', shortMessage: `expected a wallet IPC channel, got ${name}` },
      };
    }
    try {
      if (CHANNEL_ACTIVITY[channel] === 'user') options.onCall?.(channel);
      return { ok: true, value: await run(options.handlers, channel, parseArguments(channel, args)) };
    } catch (error) {
      return { ok: false, error: toIpcError(channel, error, log) };
    }
  };
}

function run<C extends IpcChannel>(handlers: IpcHandlers, channel: C, args: IpcArgs<C>): Promise<IpcValue<C>> {
  // The table's type pairs each channel with its own handler; TypeScript cannot follow that through a generic index.
  const handler = handlers[channel] as (...a: IpcArgs<C>) => Promise<IpcValue<C>>;
  return handler(...args);
}
