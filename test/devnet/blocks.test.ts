// Block production of the devnet: manual, per transaction and on a timer; ids, merkle roots, signatures and
// timestamps checked with the protocol library; the block and transaction stores and their limits.
import { describe, expect, it } from 'vitest';
import { equalBytes, toHex } from '../../src-main/koinos/bytes.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { digestOfMultihash } from '../../src-main/koinos/hash.ts';
import { addressToString } from '../../src-main/koinos/address.ts';
import { recoverAddress } from '../../src-main/koinos/keys.ts';
import { blockId, transactionMerkleRoot } from '../../src-main/koinos/transaction.ts';
import type { Block, BlockReceipt, Transaction } from '../../src-main/koinos/types.ts';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { balanceOf, key, KOIN, nextNonce, nonceOf, pendingCount, submit, transferTx, testNodes } from './helpers.ts';
import { until } from '../helpers/until.ts';
import { fillsBlock } from '../../src-main/devnet/chain/blockFill.ts';

const node = testNodes();

const A = key(0);
const B = key(1);

interface HeadInfo {
  head_topology: { id: Uint8Array; height: bigint; previous?: Uint8Array };
  last_irreversible_block: bigint;
  head_state_merkle_root: Uint8Array;
  head_block_time: bigint;
}
interface BlockItem {
  block_id?: Uint8Array;
  block_height?: bigint;
  block?: Block;
  receipt?: BlockReceipt;
}

async function headInfo(n: DevnetNode): Promise<HeadInfo> {
  return (await n.call('chain.get_head_info', {})) as unknown as HeadInfo;
}

async function blocksByHeight(n: DevnetNode, from: bigint, count: number, head?: Uint8Array): Promise<BlockItem[]> {
  const head_block_id = head ?? (await headInfo(n)).head_topology.id;
  const { block_items } = (await n.call('block_store.get_blocks_by_height', {
    head_block_id,
    ancestor_start_height: from,
    num_blocks: count,
    return_block: true,
    return_receipt: true,
  })) as { block_items: BlockItem[] };
  return block_items;
}

describe('manual block production', () => {
  it('starts at height 0 with no head block time', async () => {
    const n = await node();
    const head = await headInfo(n);
    expect(head.head_topology.height).toBe(0n);
    expect(head.head_block_time).toBe(0n);
    expect(head.last_irreversible_block).toBe(0n);
  });

  it('produces blocks from height 1 whose id, merkle root and signature verify', async () => {
    const n = await node();
    const first = await n.produceBlock();
    expect(first.height).toBe(1n);
    const t1 = await transferTx(n, A, B, KOIN);
    const t2 = await transferTx(n, B, A, 2n * KOIN);
    await submit(n, t1);
    await submit(n, t2);
    const second = await n.produceBlock();
    expect(second.height).toBe(2n);

    const [b1, b2] = await blocksByHeight(n, 1n, 10);
    const block1 = b1!.block!;
    const block2 = b2!.block!;
    expect(b2!.block_id).toEqual(second.id);
    expect(block1.header!.previous).toEqual(Uint8Array.of(0x12, 0x20, ...new Array(32).fill(0)));
    expect(block2.header!.previous).toEqual(first.id);
    expect(blockId(block2.header!)).toEqual(block2.id);
    expect(block2.header!.transaction_merkle_root).toEqual(transactionMerkleRoot(block2.transactions));
    expect(block2.transactions.map((t) => t.id)).toEqual([t1.id, t2.id]);
    expect(block1.header!.transaction_merkle_root).toEqual(transactionMerkleRoot([]));
    // signed by the genesis key: the signature recovers to the header's signer
    const signer = recoverAddress(block2.signature, digestOfMultihash(block2.id));
    expect(addressToString(signer)).toBe(n.genesisAddress);
    expect(block2.header!.signer).toEqual(signer);
    expect(block2.header!.timestamp).toBeGreaterThan(block1.header!.timestamp);
    // the state root chain links each block to its parent's receipt
    expect(block2.header!.previous_state_merkle_root).toEqual(b1!.receipt!.state_merkle_root);
    expect((await headInfo(n)).head_state_merkle_root).toEqual(b2!.receipt!.state_merkle_root);

    const receipt = b2!.receipt!;
    expect(receipt.transaction_receipts.map((r) => r.id)).toEqual([t1.id, t2.id]);
    expect(receipt.network_bandwidth_used).toBe(BigInt(encode('koinos.protocol.block', block2).length));
    expect(receipt.network_bandwidth_charged).toBe(receipt.network_bandwidth_used);
    expect(receipt.compute_bandwidth_used).toBe(
      receipt.transaction_receipts.reduce((s, r) => s + r.compute_bandwidth_used, 0n),
    );
    expect(receipt.state_delta_entries.length).toBeGreaterThanOrEqual(4);
    expect(receipt.events).toEqual([]);
  });

  it('keeps timestamps strictly increasing even when the clock stands still', async () => {
    const n = await node({ now: () => 1_700_000_000_000 });
    await n.produceBlock();
    await n.produceBlock();
    const [b1, b2] = await blocksByHeight(n, 1n, 2);
    expect(b1!.block!.header!.timestamp).toBe(1_700_000_000_000n);
    expect(b2!.block!.header!.timestamp).toBe(1_700_000_000_001n);
    expect((await headInfo(n)).head_block_time).toBe(1_700_000_000_001n);
  });

  it('produces a block through devnet.produce_block', async () => {
    const n = await node();
    const r = (await n.call('devnet.produce_block', {})) as { block_id: Uint8Array; block_height: bigint };
    expect(r.block_height).toBe(1n);
    expect((await headInfo(n)).head_topology.id).toEqual(r.block_id);
  });

  it('trails the head by the irreversible depth', async () => {
    const n = await node({ irreversibleDepth: 2 });
    for (let i = 0; i < 5; i++) await n.produceBlock();
    const head = await headInfo(n);
    expect(head.last_irreversible_block).toBe(3n);
    const forks = (await n.call('chain.get_fork_heads', {})) as {
      last_irreversible_block: { height: bigint; id: Uint8Array };
      fork_heads: { id: Uint8Array }[];
    };
    expect(forks.last_irreversible_block.height).toBe(3n);
    expect(forks.fork_heads[0]!.id).toEqual(head.head_topology.id);
    const [lib] = await blocksByHeight(n, 3n, 1);
    expect(forks.last_irreversible_block.id).toEqual(lib!.block_id);
  });
});

describe('block and transaction stores', () => {
  it('finds blocks by id, with or without block and receipt, and answers an empty item for an unknown id', async () => {
    const n = await node();
    const { id } = await n.produceBlock();
    const full = (await n.call('block_store.get_blocks_by_id', {
      block_ids: [id],
      return_block: true,
      return_receipt: true,
    })) as {
      block_items: BlockItem[];
    };
    expect(full.block_items[0]!.block!.id).toEqual(id);
    expect(full.block_items[0]!.receipt!.height).toBe(1n);
    const bare = (await n.call('block_store.get_blocks_by_id', { block_ids: [id, new Uint8Array(34)] })) as {
      block_items: BlockItem[];
    };
    expect(bare.block_items).toEqual([{ block_id: id, block_height: 1n }, {}]);
    expect(await n.call('block_store.get_highest_block', {})).toEqual({
      topology: { id, height: 1n, previous: expect.any(Uint8Array) },
    });
  });

  it('enforces the block store limits', async () => {
    const n = await node();
    const { id } = await n.produceBlock();
    await expect(
      n.call('block_store.get_blocks_by_height', { ancestor_start_height: 1n, num_blocks: 1 }),
    ).rejects.toMatchObject({
      message: 'head_block_id is required',
    });
    await expect(
      n.call('block_store.get_blocks_by_height', { head_block_id: id, ancestor_start_height: 0n, num_blocks: 1 }),
    ).rejects.toMatchObject({
      message: 'ancestor_start_height must be greater than 0',
    });
    await expect(
      n.call('block_store.get_blocks_by_height', { head_block_id: id, ancestor_start_height: 1n, num_blocks: 1001 }),
    ).rejects.toThrow(/too many blocks/);
    await expect(
      n.call('block_store.get_blocks_by_id', { block_ids: Array.from({ length: 1001 }, () => id) }),
    ).rejects.toThrow(/too many blocks/);
    // Above the head: the block store's error (koilib crashes on an empty list), not an empty list.
    await expect(blocksByHeight(n, 2n, 5, id)).rejects.toMatchObject({
      name: 'WalletError',
      code: 'INVALID_ARGUMENT',
      message: 'Block height mismatch',
    });
  });

  it('finds an included transaction with its containing block, and not a pending one', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, KOIN);
    await submit(n, tx);
    const none = (await n.call('transaction_store.get_transactions_by_id', { transaction_ids: [tx.id] })) as {
      transactions: unknown[];
    };
    expect(none.transactions).toEqual([]);
    const { id } = await n.produceBlock();
    const found = (await n.call('transaction_store.get_transactions_by_id', { transaction_ids: [tx.id] })) as {
      transactions: { transaction: Transaction; containing_blocks: Uint8Array[] }[];
    };
    expect(found.transactions).toHaveLength(1);
    expect(found.transactions[0]!.transaction).toEqual(
      decode('koinos.protocol.transaction', encode('koinos.protocol.transaction', tx)),
    );
    expect(found.transactions[0]!.containing_blocks).toEqual([id]);
  });
});

describe('automatic block production', () => {
  it('produces one block per transaction with blockTimeMs 0', async () => {
    const n = await node({ manual: false, blockTimeMs: 0 });
    expect((await headInfo(n)).head_topology.height).toBe(0n);
    const tx = await transferTx(n, A, B, KOIN);
    await submit(n, tx);
    const head = await until('block 1', async () => {
      const h = await headInfo(n);
      return h.head_topology.height === 1n ? h : undefined;
    });
    const [item] = await blocksByHeight(n, 1n, 1, head.head_topology.id);
    expect(item!.block!.transactions.map((t) => t.id)).toEqual([tx.id]);
  });

  it('puts each of several concurrent transactions in its own block with blockTimeMs 0, before answering', async () => {
    const n = await node({ manual: false, blockTimeMs: 0 });
    const txs = await Promise.all([1n, 2n, 3n, 4n].map((nonce) => transferTx(n, A, B, KOIN, { nonce })));
    const dry = await submit(n, await transferTx(n, B, A, KOIN, { nonce: 1n }), false);
    expect(dry.reverted).toBe(false);
    expect((await headInfo(n)).head_topology.height).toBe(0n); // a dry run makes no block
    await Promise.all(txs.map((tx) => submit(n, tx)));
    const head = await headInfo(n);
    expect(head.head_topology.height).toBe(4n);
    const items = await blocksByHeight(n, 1n, 10, head.head_topology.id);
    expect(items.map((i) => i.block!.transactions.map((t) => t.id))).toEqual(txs.map((tx) => [tx.id]));
  });

  it("takes every submission into exactly one block while the timer's blocks, submissions and developer methods interleave", async () => {
    // The timer's blocks are planned outside the queue, pausing between transactions so that submissions go on;
    // blocks made meanwhile by devnet methods (produce_block, set_balance) move the head under such a plan, which must
    // then be made again on the new head: nothing lost, nothing twice.
    const n = await node({ manual: false, blockTimeMs: 1, accounts: 6, pendingTransactionLimit: 1000 });
    const senders = [key(1), key(2), key(3)];
    const receiver = key(4);
    const perSender = 120;
    const before = await balanceOf(n, receiver.addressBytes);
    const queues = await Promise.all(
      senders.map(async (sender) => {
        const first = await nextNonce(n, sender.addressBytes);
        const txs: Transaction[] = [];
        for (let i = 0n; i < BigInt(perSender); i++)
          txs.push(await transferTx(n, sender, receiver, 1n, { nonce: first + i }));
        return txs;
      }),
    );
    // Each call in its own turn of the event loop, as requests arriving over a network are: the timer's blocks run
    // between them (calls chained only through promises would run before any timer fires).
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    let submitting = true;
    const developer = (async () => {
      let value = 1n;
      while (submitting) {
        await n.produceBlock();
        await nextTurn();
        await n.setBalance({ account: key(5).addressBytes, value: value++ });
        await nextTurn();
      }
      return value - 1n;
    })();
    await Promise.all(
      queues.map(async (txs) => {
        for (const tx of txs) {
          await submit(n, tx);
          await nextTurn();
        }
      }),
    );
    submitting = false;
    const lastValue = await developer;
    await until('the mempool empty', async () => ((await pendingCount(n)) === 0 ? true : undefined));

    const head = await headInfo(n);
    const items = await blocksByHeight(n, 1n, Number(head.head_topology.height), head.head_topology.id);
    const included = items.flatMap((item) => item.block!.transactions.map((tx) => toHex(tx.id)));
    const submitted = queues.flat().map((tx) => toHex(tx.id));
    expect(included.length).toBe(submitted.length);
    expect(new Set(included)).toEqual(new Set(submitted));
    expect(items.every((i, k) => k === 0 || equalBytes(i.block!.header!.previous, items[k - 1]!.block_id!))).toBe(true);
    expect(await balanceOf(n, receiver.addressBytes)).toBe(before + BigInt(submitted.length));
    expect(await balanceOf(n, key(5).addressBytes)).toBe(lastValue);
    for (const sender of senders) expect(await nonceOf(n, sender.addressBytes)).toBe(BigInt(perSender));
  });

  it('produces blocks on a timer, empty ones too, starting at once', async () => {
    const n = await node({ manual: false, blockTimeMs: 20 });
    const head = await until('block 3', async () => {
      const h = await headInfo(n);
      return h.head_topology.height >= 3n ? h : undefined;
    });
    expect(head.head_block_time).toBeGreaterThan(0n);
    const items = await blocksByHeight(n, 1n, 3, head.head_topology.id);
    expect(items.every((i, k) => k === 0 || equalBytes(i.block!.header!.previous, items[k - 1]!.block_id!))).toBe(true);
  });

  it("makes the timer's block as soon as the pending transactions fill one, not at the end of its slot", async () => {
    const n = await node({ manual: false, blockTimeMs: 600_000, pendingTransactionLimit: 10_000 });
    await until('block 1', async () => ((await headInfo(n)).head_topology.height === 1n ? true : undefined));
    // Transfers until, by what they used when accepted, the pending ones fill a block (blockFill.ts's lower bound).
    const used = [0n, 0n, 0n];
    let pending = 0;
    while (!fillsBlock(used)) {
      expect((await headInfo(n)).head_topology.height, `${pending} pending, not a block's worth`).toBe(1n);
      const receipt = await submit(n, await transferTx(n, A, B, 1n, { nonce: BigInt(pending + 1) }));
      used[0]! += receipt.disk_storage_used;
      used[1]! += receipt.network_bandwidth_used;
      used[2]! += receipt.compute_bandwidth_used;
      pending++;
    }
    // The ten-minute slot has not ended: the block came because the mempool held a block's worth, all of it.
    const head = await until('block 2', async () => {
      const h = await headInfo(n);
      return h.head_topology.height === 2n ? h : undefined;
    });
    const [item] = await blocksByHeight(n, 2n, 1, head.head_topology.id);
    expect(item!.block!.transactions).toHaveLength(pending);
    expect(await pendingCount(n)).toBe(0);
  });
});
