// The renderer's one way to reach main: a typed call() on the IPC contract that unwraps the envelope and
// re-throws a failure as the WalletError it was in main.
import { ERROR_CODES, WalletError, type ErrorCode } from '../../src-main/koinos/errors.ts';
import type { IpcArgs, IpcChannel, IpcError, IpcValue } from '../../src-main/ipc/contract.ts';

/**
 * Calls `channel` in main and returns its value.
 * @throws {WalletError} with main's `code`, `shortMessage` and `details` when the call fails.
 * @example
 * const { chainId, headHeight } = await call('devnet:status');
 */
export async function call<C extends IpcChannel>(channel: C, ...args: IpcArgs<C>): Promise<IpcValue<C>> {
  const result = await window.koinos.call(channel, ...args);
  if (result.ok) return result.value;
  const { code, shortMessage, details, metaMessages } = result.error as IpcError & { metaMessages?: string[] };
  throw new WalletError(isErrorCode(code) ? code : 'INTERNAL', shortMessage, { details, metaMessages });
}

function isErrorCode(code: string): code is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code);
}
