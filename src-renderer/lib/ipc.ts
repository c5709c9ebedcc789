// The renderer's one way to reach main: a typed call() on the IPC contract that unwraps the envelope and
// re-throws a failure as the WalletError it was in main (WalletError.fromJSON); and for a state main pushes at each
// change, PushCount and followPushed(), so that an answer read before a push never replaces it.
import { WalletError } from '../../src-main/koinos/errors.ts';
import type { IpcArgs, IpcChannel, IpcEvent, IpcEvents, IpcValue } from '../../src-main/ipc/contract.ts';

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

/**
 * Counts the pushes of one state from main, to tell an answer read before the last of them. Main pushes every change
 * once it is made, so a state pushed while a call was on its way is at least as new as the call's answer, which may have
 * been read before the change (or a later push follows it).
 * @example
 * const pushed = heads.mark();
 * const dashboard = await call('dashboard:get', { accountId });
 * if (!pushed()) head = dashboard.head;
 */
export class PushCount {
  #count = 0;

  /** Counts one push. */
  add(): void {
    this.#count += 1;
  }

  /** Returns whether a push has come since this call. */
  mark(): () => boolean {
    const at = this.#count;
    return () => this.#count !== at;
  }

  /** `ask`'s answer, or undefined when a push came while it was on its way. */
  async unlessPushed<T>(ask: () => Promise<T>): Promise<T | undefined> {
    const pushed = this.mark();
    const answer = await ask();
    return pushed() ? undefined : answer;
  }
}

/**
 * Follows a state main pushes on `event` at each of its changes, read once first with `read`: `apply` gets the read
 * state, unless a push came while the read was on its way (see PushCount), then every pushed state. `failed` gets a
 * failed read. Returns the function that stops following (nothing is applied after it).
 * @example
 * $effect(() => followPushed('approvals:changed', () => call('approvals:list'), (next) => (queue = next)));
 */
export function followPushed<E extends IpcEvent>(
  event: E,
  read: () => Promise<IpcEvents[E]>,
  apply: (state: IpcEvents[E]) => void,
  failed: (error: unknown) => void = () => {},
): () => void {
  const pushes = new PushCount();
  let following = true;
  const off = window.koinos.on(event, (state) => {
    pushes.add();
    apply(state);
  });
  const pushed = pushes.mark();
  read().then(
    (state) => {
      if (following && !pushed()) apply(state);
    },
    (error: unknown) => {
      if (following) failed(error);
    },
  );
  return () => {
    following = false;
    off();
  };
}
