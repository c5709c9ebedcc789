// The History screen's first page, fetched ahead. The Dashboard, one click from History, asks main for it once it has
// shown the account's figures and the page is idle; History then paints those rows at once and asks for the first page
// again at the same time, as it does at every new head, so that the page on screen is the node's newest within one
// answer. A page fetched ahead is for one account on one network and chain, is taken once, and is dropped after
// MAX_AGE_MS, at a transaction's news from main, when this window's send is answered (so that History never shows a
// page from before it) and on a lock.
import type { HistoryPage } from '../../src-main/ipc/contract.ts';

/** How long a page fetched ahead may stand in for the first page: older, History waits for a fresh one. */
export const MAX_AGE_MS = 30_000;

/** What a page is for: History takes it only for the same account, network and chain. */
export interface PageFor {
  accountId: string;
  networkId: string;
  chainId: string;
}

interface Kept extends PageFor {
  at: number;
  answer: Promise<HistoryPage>;
}

/**
 * At most one first page, fetched ahead by {@link fetch} and taken by {@link take}.
 * @example
 * const ahead = new HistoryAhead((accountId) => call('history:page', { accountId, limit: 40, ascending: false, irreversibleOnly: false }));
 * ahead.fetch(target); // on the Dashboard
 * const page = ahead.take(target); // on History: the page, or undefined (ask main)
 */
export class HistoryAhead {
  #kept: Kept | undefined;

  constructor(
    private readonly ask: (accountId: string) => Promise<HistoryPage>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asks for the first page of `target` unless one for it, younger than MAX_AGE_MS, is kept or on its way. */
  fetch(target: PageFor): void {
    if (this.#usable(target)) return;
    const kept: Kept = { ...target, at: this.now(), answer: this.ask(target.accountId) };
    this.#kept = kept;
    // A failure drops it: History asks again, and shows the failure of its own request.
    kept.answer.catch(() => {
      if (this.#kept === kept) this.#kept = undefined;
    });
  }

  /** The kept page for `target` (answered or on its way), once; undefined when there is none for it. */
  take(target: PageFor): Promise<HistoryPage> | undefined {
    const kept = this.#usable(target) ? this.#kept : undefined;
    this.#kept = undefined;
    return kept?.answer;
  }

  /** Forgets the kept page: the account's history changed, or the wallet locked. */
  drop(): void {
    this.#kept = undefined;
  }

  #usable(target: PageFor): boolean {
    const kept = this.#kept;
    return (
      kept !== undefined &&
      kept.accountId === target.accountId &&
      kept.networkId === target.networkId &&
      kept.chainId === target.chainId &&
      this.now() - kept.at < MAX_AGE_MS
    );
  }
}
