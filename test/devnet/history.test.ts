// Account history of the devnet (koinos-account-history semantics): records for payer, receiver, the contract and
// the block signer; seq_num from 0; order, offset, limit and the irreversible view.
import { describe, expect, it } from 'vitest';
import { addressFromString } from '../../src-main/koinos/address.ts';
import type { BlockHeader, Transaction, TransactionReceipt } from '../../src-main/koinos/types.ts';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { key, KOIN, submit, transferTx, testNodes } from './helpers.ts';

const node = testNodes();

const A = key(0);
const B = key(1);
const C = key(2);

interface Entry {
  seq_num: bigint;
  trx?: { transaction: Transaction; receipt: TransactionReceipt };
  block?: { header: BlockHeader; receipt: { height: bigint } };
}

async function history(
  n: DevnetNode,
  address: Uint8Array,
  options: { limit?: bigint; seq_num?: bigint; ascending?: boolean; irreversible?: boolean } = {},
): Promise<Entry[]> {
  const { values } = (await n.call('account_history.get_account_history', {
    address,
    limit: options.limit ?? 100n,
    ascending: options.ascending ?? true,
    irreversible: options.irreversible ?? false,
    ...(options.seq_num === undefined ? {} : { seq_num: options.seq_num }),
  })) as { values: Entry[] };
  return values;
}

describe('account history', () => {
  it('records a transfer for the sender, the receiver and KOIN, once each, with the receipt', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, KOIN);
    await submit(n, tx);
    expect(await history(n, A.addressBytes)).toEqual([]);
    await n.produceBlock();
    for (const address of [A.addressBytes, B.addressBytes, addressFromString(n.koinAddress)]) {
      const entries = await history(n, address);
      expect(entries).toHaveLength(1);
      expect(entries[0]!.seq_num).toBe(0n);
      expect(entries[0]!.trx!.transaction.id).toEqual(tx.id);
      expect(entries[0]!.trx!.receipt.events[0]!.name).toBe('token.transfer_event');
    }
    expect(await history(n, C.addressBytes)).toEqual([]);
  });

  it('adds a block record for the block signer for every block', async () => {
    const n = await node();
    await n.produceBlock();
    await n.produceBlock();
    const entries = await history(n, addressFromString(n.genesisAddress));
    expect(entries.map((e) => e.block?.header.height)).toEqual([1n, 2n]);
    expect(entries[1]!.block!.receipt.height).toBe(2n);
  });

  it('pages ascending and descending from an offset, and stops at the ends', async () => {
    const n = await node();
    const ids: Uint8Array[] = [];
    for (let i = 0; i < 5; i++) {
      const tx = await transferTx(n, A, B, BigInt(i + 1));
      ids.push(tx.id);
      await submit(n, tx);
      await n.produceBlock();
    }
    const idsOf = (entries: Entry[]) => entries.map((e) => e.trx!.transaction.id);
    expect(idsOf(await history(n, A.addressBytes))).toEqual(ids);
    expect((await history(n, A.addressBytes, { limit: 2n, seq_num: 1n })).map((e) => e.seq_num)).toEqual([1n, 2n]);
    expect(idsOf(await history(n, A.addressBytes, { ascending: false, limit: 2n }))).toEqual([ids[4], ids[3]]);
    expect((await history(n, A.addressBytes, { ascending: false, seq_num: 1n })).map((e) => e.seq_num)).toEqual([
      1n,
      0n,
    ]);
    expect(await history(n, A.addressBytes, { seq_num: 5n })).toEqual([]);
    expect(await history(n, A.addressBytes, { limit: 0n })).toEqual([]);
  });

  it('shows only records of irreversible blocks with irreversible=true', async () => {
    const n = await node({ irreversibleDepth: 2 });
    for (let i = 0; i < 3; i++) {
      await submit(n, await transferTx(n, A, B, 1n));
      await n.produceBlock();
    }
    // head 3, irreversible 1: one of three records
    expect(await history(n, A.addressBytes, { irreversible: true })).toHaveLength(1);
    expect((await history(n, A.addressBytes, { irreversible: true, ascending: false })).map((e) => e.seq_num)).toEqual([
      0n,
    ]);
    expect(await history(n, A.addressBytes, { irreversible: true, ascending: false, seq_num: 2n })).toEqual([]);
    await n.produceBlock();
    await n.produceBlock();
    expect(await history(n, A.addressBytes, { irreversible: true })).toHaveLength(3);
  });

  it('rejects a limit above 500', async () => {
    const n = await node();
    await expect(
      n.call('account_history.get_account_history', { address: A.addressBytes, limit: 501n }),
    ).rejects.toMatchObject({
      name: 'WalletError',
      code: 'INVALID_ARGUMENT',
      message: 'request limit exceeded',
    });
  });
});
