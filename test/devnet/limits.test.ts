// Mainnet's per-block limits on the devnet: what get_resource_limits reports, transactions drawing on what their block
// has left, a burst larger than a block rolling over into the next block(s) rather than being refused, the next block
// made as soon as a block's worth is pending while a sender goes on, a sender held back while the timed blocks are
// behind it, and an endless contract loop ending at the rc limit or at the block's compute limit with nothing changed.
import { describe, expect, it, vi } from 'vitest';
import type { Transaction } from '../../src-main/koinos/types.ts';
import { ChainError } from '../../src-main/devnet/state/chainError.ts';
import { openNode } from '../../src-main/devnet/node.ts';
import { BlockResources, RcMeter, RESOURCE_LIMITS } from '../../src-main/devnet/state/resources.ts';
import type { DevnetConfig, DevnetNode } from '../../src-main/devnet/types.ts';
import { until } from '../helpers/until.ts';
import { wat } from './vm/wat.ts';
import {
  balanceOf,
  key,
  KOIN,
  koinTx,
  pendingCount,
  rejection,
  snapshot,
  submit,
  testNodes,
  transferTx,
} from './helpers.ts';

const node = testNodes();
const A = key(0);
const B = key(1);
const C = key(2);

/**
 * `count` transfers of 1 from A to B, nonces 1 to `count`, signed on a node of the tests' genesis, so that a node opened
 * afterwards (same genesis, same chain ID) takes them.
 */
async function presignedTransfers(count: number): Promise<Transaction[]> {
  const probe = await node();
  const txs: Transaction[] = [];
  for (let i = 0; i < count; i++)
    txs.push(await transferTx(probe, A, B, 1n, { nonce: BigInt(i + 1), rcLimit: KOIN / 10n }));
  return txs;
}

/**
 * A node whose timer makes its blocks an hour apart: after block 1, which comes at once, only a block's worth pending
 * makes one sooner. The caller closes it.
 */
function timedNode(config: DevnetConfig): Promise<DevnetNode> {
  return openNode({ accounts: 3, signatureThreads: 0, log: () => {}, blockTimeMs: 3_600_000, ...config });
}

/**
 * One sender's `count` transfers (presignedTransfers) and a timed node that notes, at each block, how many of them had
 * been answered (`send` counts them). The caller waits for block 1, which comes at once, and closes the node.
 */
async function senderAndBlocks(count: number) {
  const txs = await presignedTransfers(count);
  let answered = 0;
  const blocks: { answered: number; transactions: number }[] = [];
  const timed = await timedNode({
    pendingTransactionLimit: 10_000,
    onBlock: ({ transactionCount }) => blocks.push({ answered, transactions: transactionCount }),
  });
  return {
    txs,
    timed,
    blocks,
    get answered() {
      return answered;
    },
    async send(transaction: Transaction): Promise<void> {
      await timed.call('chain.submit_transaction', { transaction, broadcast: true });
      answered++;
    },
  };
}

describe('block limits', () => {
  it("reports mainnet's per-block limits of resources.cpp", async () => {
    const n = await node();
    const { resource_limit_data: limits } = (await n.call('chain.get_resource_limits', {})) as {
      resource_limit_data: typeof RESOURCE_LIMITS;
    };
    // koinos-system-contracts contracts/resources/resources.cpp: max_disk_per_block 200 << 10, max_network_per_block
    // 1 << 20, max_compute_per_block 287'500'000
    expect(limits.disk_storage_limit).toBe(200n << 10n);
    expect(limits.network_bandwidth_limit).toBe(1n << 20n);
    expect(limits.compute_bandwidth_limit).toBe(287_500_000n);
  });

  it("checks each use against the block's remaining resources before the transaction's mana (resource_meter.cpp)", () => {
    const block = new BlockResources();
    const first = new RcMeter(10n ** 12n, block);
    first.useCompute(287_000_000);
    first.useDisk(200_000);
    first.useDisk(-100_000); // freed disk goes back to the block
    expect(block.disk).toBe(204_800n - 100_000n);
    const second = new RcMeter(10n ** 12n, block);
    expect(second.computeRemaining()).toBe(500_000n);
    const error = (() => {
      try {
        second.useCompute(500_001);
      } catch (e) {
        return e as ChainError;
      }
    })();
    expect([error?.code, error?.message]).toEqual([-1013, 'compute bandwidth limit exceeded']);
    expect(second.used).toBe(0n); // nothing charged
    // with little mana, the rc limit binds first: the reversion "insufficient rc"
    const poor = new RcMeter(100n, block);
    expect(poor.computeRemaining()).toBe(50n);
    expect(() => poor.useCompute(51)).toThrow(expect.objectContaining({ code: 104, message: 'insufficient rc' }));
    expect(() => second.useNetwork(1_048_577)).toThrow(expect.objectContaining({ code: -1012 }));
    expect(() => second.useDisk(104_801)).toThrow(expect.objectContaining({ code: -1014 }));
  });

  it('credits freed bytes within the transaction: a credit pays for later charges, never above the limit (session.cpp)', () => {
    const disk = RESOURCE_LIMITS.disk_storage_cost;
    const compute = RESOURCE_LIMITS.compute_bandwidth_cost;
    const meter = new RcMeter(1_000n * compute);
    meter.useCompute(100);
    meter.useDisk(-1); // freed: worth more than the 100 ticks charged so far
    expect(meter.used).toBe(100n * compute - disk);
    expect(meter.rcUsed).toBe(0n); // session::used_rc: never below 0
    expect(meter.computeRemaining()).toBe(1_000n); // remaining_rc is min(begin, end): the credit does not raise it
    meter.useCompute(3_000); // 3,100 ticks for a limit of 1,000: the credit pays for the rest
    expect(meter.rcUsed).toBe(3_100n * compute - disk);
    // The limit binds each charge before a credit that comes later: 900 ticks, then 200 more, then bytes freed.
    const first = new RcMeter(1_000n * compute);
    first.useCompute(900);
    expect(() => first.useCompute(200)).toThrow(expect.objectContaining({ code: 104, message: 'insufficient rc' }));
  });

  it('leaves the transfers a full block has no room for pending, and includes them in the next block', async () => {
    const n = await node({ pendingTransactionLimit: 1000 });
    const count = 500;
    for (let i = 0; i < count; i++)
      await submit(n, await transferTx(n, A, B, 1n, { nonce: BigInt(i + 1), rcLimit: KOIN / 10n }));
    const first = await blockReceipt(n, (await n.produceBlock()).height);
    const compute = BigInt(first.compute_bandwidth_used);
    // koinos-block-producer fill_block: the block takes transactions until one resource reaches 75 % of its limit,
    // each only while the block stays under 90 %
    expect(first.transaction_receipts.length).toBeGreaterThan(100);
    expect(first.transaction_receipts.length).toBeLessThan(count);
    expect(compute * 100n).toBeGreaterThanOrEqual(RESOURCE_LIMITS.compute_bandwidth_limit * 75n);
    expect(compute * 100n).toBeLessThanOrEqual(RESOURCE_LIMITS.compute_bandwidth_limit * 90n);
    expect(await pendingCount(n)).toBe(count - first.transaction_receipts.length);
    const second = await blockReceipt(n, (await n.produceBlock()).height);
    expect(first.transaction_receipts.length + second.transaction_receipts.length).toBe(count);
    expect(await pendingCount(n)).toBe(0);
    expect(await balanceOf(n, B.addressBytes)).toBe(KOIN * 1_000_000n + BigInt(count)); // none dropped
  });

  it('rolls over to the next block at once when a timed block is full', async () => {
    // Transactions signed before the node opens (same genesis, same chain ID), then all submitted before its first
    // block: the first block is full, and the next comes at once rather than an hour later.
    const txs = await presignedTransfers(500);
    const timed = await timedNode({ pendingTransactionLimit: 1000 });
    try {
      const accepted = txs.map((transaction) =>
        timed.call('chain.submit_transaction', { transaction, broadcast: true }),
      );
      await Promise.all(accepted);
      await until(
        'every transaction in a block',
        async () => ((await pendingCount(timed)) === 0 ? true : undefined),
        60_000,
      );
      const { head_topology } = (await timed.call('chain.get_head_info', {})) as { head_topology: { height: bigint } };
      expect(head_topology.height).toBeGreaterThanOrEqual(2n);
      expect(await balanceOf(timed, B.addressBytes)).toBe(KOIN * 1_000_000n + 500n);
    } finally {
      await timed.close();
    }
  });

  it("makes the next block once a block's worth is pending while a sender goes on, each transfer a turn apart", async () => {
    // A sender as a client over HTTP is: each transfer sent once the last is answered, the event loop turning in
    // between (setImmediate), far more often than every millisecond. The block timer, set for now once a block's worth
    // is pending, fires at the first turn after its millisecond. It was set again at each submission, so each put it
    // off: under a steady 3,000 transfers a second it fired only once the sender was held back at three blocks' worth
    // (node.ts produceWhenFull), and every submission then waited for a block. Here a turn that took a millisecond (a
    // collection) let it fire after 17 to 167 submissions, so the test counts the timers set for now too.
    const sender = await senderAndBlocks(900);
    const { blocks } = sender;
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await until('block 1', () => (blocks.length > 0 ? true : undefined));
      timers.mockClear();
      for (const transaction of sender.txs) {
        await sender.send(transaction);
        if (blocks.length > 1) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const second = blocks[1];
      expect(second, `no block 2 while ${sender.answered} transfers were answered one after another`).toBeDefined();
      // A full block (a KOIN transfer is about 1/380 of one), made while the sender was less than half a block ahead.
      expect(second!.transactions).toBeGreaterThan(300);
      expect(second!.answered).toBeLessThan(1.5 * second!.transactions);
      // Set for now once the mempool filled a block, and once more after block 2 if it left transfers pending.
      expect(timers.mock.calls.filter(([, ms]) => ms === 0).length).toBeLessThanOrEqual(2);
    } finally {
      timers.mockRestore();
      await sender.timed.close();
    }
  });

  it('holds a sender back while the timed blocks are behind it, and answers it once a block has caught up', async () => {
    // A KOIN transfer uses about 1/380 of a block's compute, so 1,300 of them are more than the three blocks' worth
    // pending at which the blocks are behind (node.ts BACKLOG_BLOCKS).
    const count = 1300;
    const sender = await senderAndBlocks(count);
    const { timed, blocks } = sender;
    try {
      await until('block 1', () => (blocks.length > 0 ? true : undefined));
      // One sender, each transfer sent once the last is answered. Nothing else gives the event loop a turn, so without
      // the backpressure every transfer is answered before a block is planned.
      for (const transaction of sender.txs) await sender.send(transaction);
      await until('every transfer included', async () => ((await pendingCount(timed)) === 0 ? true : undefined));
      const second = blocks[1]!;
      // The sender was held before it was done, after it had gone two blocks ahead.
      expect(second.answered).toBeLessThan(count);
      expect(second.answered).toBeGreaterThan(2 * second.transactions);
      expect(blocks.reduce((sum, block) => sum + block.transactions, 0)).toBe(count);
      expect(await balanceOf(timed, B.addressBytes)).toBe(KOIN * 1_000_000n + BigInt(count));
    } finally {
      await timed.close();
    }
  });

  it('ends an endless loop at the rc limit or at the block compute limit, changing nothing, and keeps serving', async () => {
    const n = await node();
    const endless = await wat('(module (memory 1) (func (export "_start") (loop $l br $l)))');
    await submit(
      n,
      await koinTx(
        n,
        C,
        'transfer',
        {},
        {
          operations: [
            {
              upload_contract: {
                contract_id: C.addressBytes,
                bytecode: endless,
                abi: '',
                authorizes_call_contract: false,
                authorizes_transaction_application: false,
                authorizes_upload_contract: false,
              },
            },
          ],
        },
      ),
    );
    await n.produceBlock();
    const call = (rcLimit: bigint) =>
      koinTx(
        n,
        A,
        'transfer',
        {},
        {
          rcLimit,
          operations: [{ call_contract: { contract_id: C.addressBytes, entry_point: 1, args: new Uint8Array() } }],
        },
      );
    const before = await snapshot(n, [A, B, C]);

    // 0.1 KOIN of mana buys 5,000,000 compute at 2 mana each: the rc limit binds
    const byRc = await rejection(submit(n, await call(KOIN / 10n)));
    expect([byRc.code, byRc.message]).toEqual([104, 'insufficient rc']);
    // 10 KOIN would buy 500,000,000: the block's 287,500,000 bind, and apply_call_contract_operation turns the
    // resource meter's failure into a reversion
    const byBlock = await rejection(submit(n, await call(10n * KOIN)));
    expect([byBlock.code, byBlock.message]).toEqual([1, 'compute bandwidth limit exceeded']);
    expect(await snapshot(n, [A, B, C])).toEqual(before);

    await submit(n, await transferTx(n, A, B, KOIN));
    await n.produceBlock();
    expect(await balanceOf(n, B.addressBytes)).toBe(KOIN * 1_000_000n + KOIN);
  });
});

async function blockReceipt(
  n: DevnetNode,
  height: bigint,
): Promise<{ compute_bandwidth_used: bigint; transaction_receipts: unknown[] }> {
  const { topology } = (await n.call('block_store.get_highest_block', {})) as { topology: { id: Uint8Array } };
  const { block_items } = (await n.call('block_store.get_blocks_by_height', {
    head_block_id: topology.id,
    ancestor_start_height: height,
    num_blocks: 1,
    return_block: false,
    return_receipt: true,
  })) as { block_items: { receipt: { compute_bandwidth_used: bigint; transaction_receipts: unknown[] } }[] };
  return block_items[0]!.receipt;
}
