// The one mapper from any error to its IPC wire form: a WalletError crosses as its toJSON() (code, sentence, hints,
// details; the renderer revives it with WalletError.fromJSON),
// anything else becomes a generic notice plus one log line in main (never a stack or a secret across the boundary).
import { WalletError } from '../koinos/errors.ts';
import type { IpcError } from './contract.ts';

/** What the renderer sees when something unexpected failed in main. */
export const GENERIC_NOTICE = 'Something went wrong inside the wallet. The details are in its log.';

/** Removes `user:password@` from every URL in a text, so that a log line never carries credentials. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1***@');
}

/**
 * Turns any error into the IpcError a call answers with.
 * @param log receives one line for an unexpected error (its name, message and stack, URL credentials removed).
 * @example
 * toIpcError('vault:unlock', new WalletError('INVALID_ARGUMENT', 'expected a password'), console.error);
 * // { code: 'INVALID_ARGUMENT', shortMessage: 'expected a password' }
 */
export function toIpcError(channel: string, error: unknown, log: (line: string) => void): IpcError {
  if (error instanceof WalletError) {
    const { details, metaMessages, ...rest } = error.toJSON();
    return {
      ...rest,
      ...(details ? { details: redactUrlCredentials(details) } : {}),
      ...(metaMessages ? { metaMessages: metaMessages.map(redactUrlCredentials) } : {}),
    };
  }
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  log(`[ipc] ${channel} failed unexpectedly: ${redactUrlCredentials(text)}`);
  return { code: 'INTERNAL', shortMessage: GENERIC_NOTICE };
}
