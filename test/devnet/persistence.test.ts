// The devnet on disk: a restart continues the same chain (ID, balances, nonces, history, blocks), reset starts a
// new chain with a new ID, and a config that asks for another genesis is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { FORMAT_VERSION } from '../../src-main/devnet/store/chainData.ts';
import { openNode } from '../../src-main/devnet/node.ts';
import { LevelStore } from '../../src-main/devnet/store/store.ts';
import { metaKey } from '../../src-main/devnet/store/storeKeys.ts';
import type { DevnetConfig, DevnetNode } from '../../src-main/devnet/types.ts';
import { balanceOf, key, KOIN, koinTx, manaOf, nonceOf, pendingCount, submit, transferTx } from './helpers.ts';

const dirs: string[] = [];
const open: DevnetNode[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'devnet-test-'));
  dirs.push(dir);
  return dir;
}
async function node(config: DevnetConfig): Promise<DevnetNode> {
  const n = await openNode({ manual: true, accounts: 3, signatureThreads: 0, log: () => {}, ...config });
  open.push(n);
  return n;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((n) => n.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const A = key(0);
const B = key(1);

describe('persistence', () => {
  it('continues the same chain after a restart', async () => {
    const dataDir = tempDir();
    const first = await node({ dataDir });
    const tx = await transferTx(first, A, B, 3n * KOIN);
    await submit(first, tx);
    const { id } = await first.produceBlock();
    await submit(first, await transferTx(first, B, A, KOIN)); // pending: not persisted
    const before = {
      chainId: first.chainId,
      head: await first.call('chain.get_head_info', {}),
      a: await balanceOf(first, A.addressBytes),
      b: await balanceOf(first, B.addressBytes),
      manaA: await manaOf(first, A.addressBytes),
      nonceA: await nonceOf(first, A.addressBytes),
      history: await first.call('account_history.get_account_history', {
        address: B.addressBytes,
        limit: 10n,
        ascending: true,
      }),
    };
    await first.close();
    open.splice(open.indexOf(first), 1);

    const second = await node({ dataDir });
    expect(second.chainId).toEqual(before.chainId);
    expect(await second.call('chain.get_head_info', {})).toEqual(before.head);
    expect(await balanceOf(second, A.addressBytes)).toBe(before.a);
    expect(await balanceOf(second, B.addressBytes)).toBe(before.b);
    expect(await manaOf(second, A.addressBytes)).toBe(before.manaA);
    expect(await nonceOf(second, A.addressBytes)).toBe(1n);
    expect(before.nonceA).toBe(1n);
    expect(
      await second.call('account_history.get_account_history', {
        address: B.addressBytes,
        limit: 10n,
        ascending: true,
      }),
    ).toEqual(before.history);
    const { transactions } = (await second.call('transaction_store.get_transactions_by_id', {
      transaction_ids: [tx.id],
    })) as {
      transactions: { containing_blocks: Uint8Array[] }[];
    };
    expect(transactions[0]!.containing_blocks).toEqual([id]);
    // the pending transaction was lost with the process; the chain goes on from block 1
    expect(await pendingCount(second)).toBe(0);
    const next = await second.produceBlock();
    expect(next.height).toBe(2n);
    await submit(second, await transferTx(second, A, B, 1n));
    await second.produceBlock();
    expect(await nonceOf(second, A.addressBytes)).toBe(2n);
  });

  it('restarts after transfers to addresses that are not 25 bytes long (KOIN accepts any to != from)', async () => {
    const dataDir = tempDir();
    const first = await node({ dataDir });
    const short = Uint8Array.of(1, 2, 3);
    const long = new Uint8Array(300).fill(7);
    await submit(first, await koinTx(first, A, 'transfer', { from: A.addressBytes, to: short, value: KOIN }));
    await submit(first, await koinTx(first, A, 'transfer', { from: A.addressBytes, to: long, value: 2n * KOIN }));
    await first.produceBlock();
    const history = (n: DevnetNode, address: Uint8Array) =>
      n.call('account_history.get_account_history', { address, limit: 10n, ascending: true }) as Promise<{
        values: { seq_num: bigint }[];
      }>;
    const before = {
      short: await history(first, short),
      long: await history(first, long),
      a: await history(first, A.addressBytes),
    };
    expect(before.short.values.map((v) => v.seq_num)).toEqual([0n]);
    expect(before.long.values.map((v) => v.seq_num)).toEqual([0n]);
    expect(before.a.values).toHaveLength(2);
    await first.close();
    open.splice(open.indexOf(first), 1);

    const second = await node({ dataDir });
    expect(await history(second, short)).toEqual(before.short);
    expect(await history(second, long)).toEqual(before.long);
    expect(await history(second, A.addressBytes)).toEqual(before.a);
    expect(await balanceOf(second, short)).toBe(KOIN);
    expect(await balanceOf(second, long)).toBe(2n * KOIN);
    // the restarted chain goes on appending to the same histories
    await submit(second, await koinTx(second, A, 'transfer', { from: A.addressBytes, to: short, value: KOIN }));
    await second.produceBlock();
    expect((await history(second, short)).values.map((v) => v.seq_num)).toEqual([0n, 1n]);
  });

  it('gives the same chain ID as the same config in memory, and a new one on reset', async () => {
    const dataDir = tempDir();
    const memory = await node({});
    const disk = await node({ dataDir });
    expect(disk.chainId).toEqual(memory.chainId);
    await disk.close();
    open.splice(open.indexOf(disk), 1);
    const reset = await node({ dataDir, reset: true });
    expect(reset.chainId).not.toEqual(memory.chainId);
    expect(await nonceOf(reset, A.addressBytes)).toBe(0n);
    const resetId = reset.chainId;
    await reset.close();
    open.splice(open.indexOf(reset), 1);
    // the reset chain (and its salt) is what the directory continues with
    const again = await node({ dataDir });
    expect(again.chainId).toEqual(resetId);
  });

  it('refuses to continue a chain with a config for another genesis', async () => {
    const dataDir = tempDir();
    const first = await node({ dataDir, genesisSeed: 'one' });
    await first.close();
    open.splice(open.indexOf(first), 1);
    await expect(openNode({ dataDir, genesisSeed: 'two', manual: true })).rejects.toThrow(
      /created with genesis seed "one"/,
    );
    await expect(openNode({ dataDir, accounts: 7, manual: true })).rejects.toThrow(/3 accounts/);
  });

  // format 1 had history keys with a fixed 25-byte address; format 2 had state keys without the object space; format 3
  // had the devnet's old, very large block limits in its genesis
  it.each([1, 2, 3])('refuses a data directory written in the older key layout %i', async (older) => {
    const dataDir = tempDir();
    const first = await node({ dataDir });
    await first.close();
    open.splice(open.indexOf(first), 1);
    const store = await LevelStore.open(dataDir, false);
    const meta = decode('koinos.devnet.chain_meta', (await store.get(metaKey()))!);
    store.write([
      { type: 'put', key: metaKey(), value: encode('koinos.devnet.chain_meta', { ...meta, format_version: older }) },
    ]);
    await store.close();
    await expect(openNode({ dataDir, manual: true, signatureThreads: 0 })).rejects.toThrow(
      new RegExp(`has format ${older}, this devnet reads format ${FORMAT_VERSION}`),
    );
  });

  it('refuses a data directory another devnet has open', async () => {
    const dataDir = tempDir();
    await node({ dataDir });
    await expect(openNode({ dataDir, manual: true })).rejects.toThrow(/cannot open the devnet data directory/);
  });
});
