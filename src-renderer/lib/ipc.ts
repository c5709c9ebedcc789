// The renderer's one way to reach main: a typed call() on the IPC contract that unwraps the envelope and
// re-throws a failure as the WalletError it was in main (WalletError.fromJSON).
import { WalletError } from '../../src-main/koinos/errors.ts';
import type { IpcArgs, IpcChannel, IpcValue } from '../../src-main/ipc/contract.ts';

/**
 * Calls `channel` in main and returns its value.
 * @throws {WalletError} with main's `code`, `shortMessage`, `details` and `metaMessages` when the call fails.
 * @example
 * const { chainId, headHeight } = await call('devnet:status');
 */
export async function call<C extends IpcChannel>(channel: C, ...args: IpcArgs<C>): Promise<IpcValue<C>> {
  const result = await window.koinos.call(channel, ...args);
  if (result.ok) return result.value;
  // main wrote it with WalletError.toJSON (ipc/toIpcError.ts); a code this catalog does not know becomes INTERNAL.
  throw WalletError.fromJSON(result.error);
}
