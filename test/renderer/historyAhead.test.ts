// The History screen's first page fetched ahead (src-renderer/lib/historyAhead.ts): asked once for an account on a
// chain while one is kept, taken once and only for the account, network and chain it is for, not after MAX_AGE_MS,
// and gone after a drop or a failed answer. The browser side (the Dashboard fetching it, History painting it and then
// the fresh page) is in test/e2e/sendAndHistory.test.ts.
import { describe, expect, it } from 'vitest';
import type { HistoryPage } from '../../src-main/ipc/contract.ts';
import { HistoryAhead, MAX_AGE_MS, type PageFor } from '../../src-renderer/lib/historyAhead.ts';

const TARGET: PageFor = { accountId: 'account-1', networkId: 'local', chainId: 'chain-a' };

/** A HistoryAhead on a clock the test moves, that records what it was asked for and answers each ask with its own page. */
function setup(answer: (accountId: string, n: number) => Promise<HistoryPage> = async (_, n) => page(n)) {
  const clock = { now: 1_000_000 };
  const asked: string[] = [];
  const ahead = new HistoryAhead(
    (accountId) => {
      asked.push(accountId);
      return answer(accountId, asked.length);
    },
    () => clock.now,
  );
  return { ahead, asked, clock };
}

/** A page whose one record names the ask that made it. */
function page(n: number): HistoryPage {
  return { records: [{ status: 'included', transactionId: `tx-${n}`, entries: [] }] } as unknown as HistoryPage;
}

describe('HistoryAhead', () => {
  it('asks once for a target while a page for it is kept, and hands that page over once', async () => {
    const { ahead, asked } = setup();
    ahead.fetch(TARGET);
    ahead.fetch({ ...TARGET });
    expect(asked).toEqual(['account-1']);
    const taken = ahead.take(TARGET);
    expect(taken).toBeDefined();
    expect((await taken!).records[0]!.transactionId).toBe('tx-1');
    expect(ahead.take(TARGET)).toBeUndefined();
    ahead.fetch(TARGET);
    expect(asked).toEqual(['account-1', 'account-1']);
  });

  it('hands over a page still on its way: History waits for that answer instead of asking again', async () => {
    let settle!: (page: HistoryPage) => void;
    const { ahead, asked } = setup(() => new Promise((resolve) => (settle = resolve)));
    ahead.fetch(TARGET);
    const taken = ahead.take(TARGET);
    expect(taken).toBeDefined();
    settle(page(7));
    expect((await taken!).records[0]!.transactionId).toBe('tx-7');
    expect(asked).toHaveLength(1);
  });

  it('keeps nothing for another account, network or chain (a restarted testnet has a new chain ID)', () => {
    for (const other of [
      { ...TARGET, accountId: 'account-2' },
      { ...TARGET, networkId: 'testnet' },
      { ...TARGET, chainId: 'chain-b' },
    ]) {
      const { ahead } = setup();
      ahead.fetch(TARGET);
      expect(ahead.take(other), JSON.stringify(other)).toBeUndefined();
      // The wrong take dropped it: a page is never kept for later once History opened without it.
      expect(ahead.take(TARGET)).toBeUndefined();
    }
  });

  it('asks for a newer page for another target, which replaces the kept one', () => {
    const { ahead, asked } = setup();
    ahead.fetch(TARGET);
    ahead.fetch({ ...TARGET, accountId: 'account-2' });
    expect(asked).toEqual(['account-1', 'account-2']);
    expect(ahead.take(TARGET)).toBeUndefined();
  });

  it('stops standing in for the first page MAX_AGE_MS after it was asked for, and is then asked for again', () => {
    const { ahead, asked, clock } = setup();
    ahead.fetch(TARGET);
    clock.now += MAX_AGE_MS - 1;
    ahead.fetch(TARGET);
    expect(asked).toHaveLength(1);
    clock.now += 1;
    expect(ahead.take(TARGET)).toBeUndefined();
    ahead.fetch(TARGET);
    expect(asked).toHaveLength(2);
    expect(ahead.take(TARGET)).toBeDefined();
  });

  it('forgets the page on a drop (news of a transaction, a lock)', () => {
    const { ahead } = setup();
    ahead.fetch(TARGET);
    ahead.drop();
    expect(ahead.take(TARGET)).toBeUndefined();
  });

  it('forgets a page whose answer failed, so that the next fetch asks again', async () => {
    const { ahead, asked } = setup(async () => {
      throw new Error('node unreachable');
    });
    ahead.fetch(TARGET);
    // Every reaction to the rejection (microtasks) has run by the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    expect(ahead.take(TARGET)).toBeUndefined();
    ahead.fetch(TARGET);
    expect(asked).toHaveLength(2);
  });
});
