// The mempool's per-account nonce bookkeeping (koinos-mempool): the highest pending nonce, kept as transactions come and
// go in any order, the count the pending-transaction limit reads, and the check that refuses a nonce already pending;
// and the resources its transactions used in all, which tell the block timer when a block's worth is waiting.
import { describe, expect, it } from 'vitest';
import type { PreparedTransaction } from '../../src-main/devnet/chain/applyTransaction.ts';
import { Mempool } from '../../src-main/devnet/chain/mempool.ts';
import { key } from './helpers.ts';
import { RESOURCE_LIMITS } from '../../src-main/devnet/state/resources.ts';

const alice = key(0).addressBytes;
const bob = key(1).addressBytes;

/** A pending transaction of `account` with `nonce` that used `compute` when accepted: what the bookkeeping reads. */
function pending(account: Uint8Array, nonce: bigint, compute = 0n) {
  const prepared = {
    idHex: `${key(account === alice ? 0 : 1).address}-${nonce}`,
    payer: account,
    nonceAccount: account,
    nonce,
    rcLimit: 1_000n,
  } as unknown as PreparedTransaction;
  const used = { disk_storage_used: 0n, network_bandwidth_used: 0n, compute_bandwidth_used: compute };
  return { prepared, used, maxPayerRc: 1_000_000n };
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

describe('mempool resources', () => {
  it('says when its transactions, by what they used when accepted, fill a block or two, as they come, go and are cleared', () => {
    const mempool = new Mempool();
    // A block takes no more once a resource reaches 75 % of its limit (blockFill.ts, fill_block's lower bound).
    const bound = (RESOURCE_LIMITS.compute_bandwidth_limit * 75n) / 100n;
    const first = pending(alice, 1n, bound / 2n);
    const second = pending(alice, 2n, bound - bound / 2n - 1n); // one short of the bound, together
    mempool.add(first);
    mempool.add(second);
    expect(mempool.fillsBlock()).toBe(false);
    const third = pending(bob, 1n, 1n);
    mempool.add(third);
    expect(mempool.fillsBlock()).toBe(true);
    // Two blocks' worth is twice that.
    expect(mempool.fillsBlock(2n)).toBe(false);
    const fourth = pending(bob, 2n, bound);
    mempool.add(fourth);
    expect(mempool.fillsBlock(2n)).toBe(true);
    mempool.remove(fourth.prepared.idHex);
    expect(mempool.fillsBlock(2n)).toBe(false);
    mempool.remove(first.prepared.idHex);
    expect(mempool.fillsBlock()).toBe(false);
    mempool.add(first);
    expect(mempool.fillsBlock()).toBe(true);
    mempool.clear();
    expect(mempool.fillsBlock()).toBe(false);
    mempool.add(second);
    expect(mempool.fillsBlock()).toBe(false);
  });
});
