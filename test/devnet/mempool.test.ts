// The mempool's per-account nonce bookkeeping (koinos-mempool): the highest pending nonce, kept as transactions come and
// go in any order, the count the pending-transaction limit reads, and the check that refuses a nonce already pending.
import { describe, expect, it } from 'vitest';
import type { PreparedTransaction } from '../../src-main/devnet/chain/applyTransaction.ts';
import { Mempool } from '../../src-main/devnet/chain/mempool.ts';
import type { TransactionReceipt } from '../../src-main/koinos/types.ts';
import { key } from './helpers.ts';

const alice = key(0).addressBytes;
const bob = key(1).addressBytes;

/** A pending transaction of `account` with `nonce`: only what the mempool's bookkeeping reads. */
function pending(account: Uint8Array, nonce: bigint) {
  const prepared = {
    idHex: `${key(account === alice ? 0 : 1).address}-${nonce}`,
    payer: account,
    nonceAccount: account,
    nonce,
    rcLimit: 1_000n,
  } as unknown as PreparedTransaction;
  return { prepared, receipt: {} as TransactionReceipt, maxPayerRc: 1_000_000n };
}

describe('mempool nonces', () => {
  it('answers the highest pending nonce of each account as transactions are added and removed in any order', () => {
    const mempool = new Mempool();
    expect(mempool.pendingNonce(alice)).toBeUndefined();
    const entries = [3n, 1n, 5n, 2n, 4n].map((n) => pending(alice, n));
    for (const entry of entries) mempool.add(entry);
    mempool.add(pending(bob, 7n));
    expect(mempool.pendingNonce(alice)).toBe(5n);
    expect(mempool.pendingNonce(bob)).toBe(7n);
    expect(mempool.pendingCount(alice)).toBe(5);
    expect(mempool.checkAccountNonce(alice, 4n)).toBe(false);
    expect(mempool.checkAccountNonce(alice, 6n)).toBe(true);

    // A block takes the oldest; a dropped transaction may be the newest.
    mempool.remove(entries[1]!.prepared.idHex); // nonce 1
    expect(mempool.pendingNonce(alice)).toBe(5n);
    mempool.remove(entries[2]!.prepared.idHex); // nonce 5, the highest
    expect(mempool.pendingNonce(alice)).toBe(4n);
    expect(mempool.checkAccountNonce(alice, 5n)).toBe(true);
    mempool.add(pending(alice, 9n));
    expect(mempool.pendingNonce(alice)).toBe(9n);
    expect(mempool.pendingCount(alice)).toBe(4);

    for (const n of [2n, 3n, 4n, 9n]) mempool.remove(pending(alice, n).prepared.idHex);
    expect(mempool.pendingNonce(alice)).toBeUndefined();
    expect(mempool.pendingCount(alice)).toBe(0);
    expect(mempool.pendingNonce(bob)).toBe(7n);
  });
});
