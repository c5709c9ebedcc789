// The devnet's contract meta store: the ABI of an upload is kept when its block is applied, outside consensus state
// (the state merkle root does not depend on it), across a restart and a revert; a reverted upload keeps nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AbiStore } from '../../src-main/devnet/store/abiStore.ts';
import { MemoryStore } from '../../src-main/devnet/store/store.ts';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { koinOperation } from '../../src-main/koinos/koin.ts';
import type { Transaction } from '../../src-main/koinos/types.ts';
import { balanceOf, key, koinTx, storedBlock, submit, testNodes, transferTx } from './helpers.ts';
import { wat } from './vm/wat.ts';

const node = testNodes();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const ABI = JSON.stringify({ methods: { get: { argument: '', return: '', entry_point: 1, read_only: true } } });

/** Uploads a tiny module as the contract of dev account `index` (its own key signs and pays), with `abi`. */
async function upload(n: DevnetNode, index: number, abi: string): Promise<void> {
  const contract = key(index);
  const bytecode = await wat('(module (memory (export "memory") 1) (func (export "_start")))');
  const tx = await koinTx(
    n,
    contract,
    'transfer',
    {},
    {
      operations: [
        {
          upload_contract: {
            contract_id: contract.addressBytes,
            bytecode,
            abi,
            authorizes_call_contract: false,
            authorizes_transaction_application: false,
            authorizes_upload_contract: false,
          },
        },
      ],
    },
  );
  await submit(n, tx);
  await n.call('devnet.produce_block', {});
}

async function metaOf(n: DevnetNode, index: number): Promise<unknown> {
  return n.call('contract_meta_store.get_contract_meta', { contract_id: key(index).addressBytes });
}

describe('the contract meta store', () => {
  it('returns the ABI of an uploaded contract once its block is applied, and nothing for a contract without one', async () => {
    const n = await node();
    await upload(n, 0, ABI);
    expect(await metaOf(n, 0)).toEqual({ meta: { abi: ABI } });
    expect(await metaOf(n, 1)).toEqual({});
    // An upload without an ABI replaces the item with none, as koinos-contract-meta-store stores what the upload sent.
    await upload(n, 0, '');
    expect(await metaOf(n, 0)).toEqual({});
  });

  it('keeps the ABI out of consensus state: the same upload with two ABIs gives the same state merkle root', async () => {
    const roots: unknown[] = [];
    // Two ABIs of the same length: the transaction's size (network bandwidth, so the payer's mana) is the same.
    for (const abi of [ABI, ABI.replace('"get"', '"put"')]) {
      const n = await node({ now: () => 1_700_000_000_000 });
      await upload(n, 0, abi);
      const head = (await n.call('chain.get_head_info', {})) as {
        head_state_merkle_root: Uint8Array;
        head_topology: { id: Uint8Array };
      };
      roots.push(Array.from(head.head_state_merkle_root));
      expect(await metaOf(n, 0)).toEqual({ meta: { abi } });
    }
    expect(roots[0]).toEqual(roots[1]);
  });

  it('keeps the ABI across a restart of a data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'devnet-abi-'));
    dirs.push(dataDir);
    const first = await node({ dataDir });
    await upload(first, 2, ABI);
    await first.close();
    const second = await node({ dataDir });
    expect(await metaOf(second, 2)).toEqual({ meta: { abi: ABI } });
  });

  it('forgets an ABI uploaded after a snapshot when the devnet reverts to it, and every ABI on a reset', async () => {
    const n = await node();
    await upload(n, 0, ABI);
    const { id } = (await n.call('devnet.snapshot', {})) as { id: bigint };
    await upload(n, 1, ABI);
    await upload(n, 0, '');
    await n.call('devnet.revert', { id });
    expect(await metaOf(n, 0)).toEqual({ meta: { abi: ABI } });
    expect(await metaOf(n, 1)).toEqual({});
    await n.call('devnet.reset', {});
    expect(await metaOf(n, 0)).toEqual({});
  });

  it('keeps nothing of an upload whose transaction passed at submission but reverts in its block', async () => {
    const n = await node();
    const [sender, payer, contract] = [key(1), key(2), key(5)];
    // Two transfers of more than half the sender's balance: each passes alone against the head state, as at
    // submission, but in the block the second finds too little left and its transaction reverts.
    const value = (await balanceOf(n, sender.addressBytes)) / 2n + 1n;
    const first = await transferTx(n, sender, key(0), value);
    await submit(n, first);
    const bytecode = await wat('(module (memory (export "memory") 1) (func (export "_start")))');
    const tx = await koinTx(
      n,
      sender,
      'transfer',
      {},
      {
        payer,
        signers: [payer, sender, contract],
        operations: [
          {
            upload_contract: {
              contract_id: contract.addressBytes,
              bytecode,
              abi: ABI,
              authorizes_call_contract: false,
              authorizes_transaction_application: false,
              authorizes_upload_contract: false,
            },
          },
          koinOperation(addressFromString(n.koinAddress), 'transfer', {
            from: sender.addressBytes,
            to: key(0).addressBytes,
            value,
          }),
        ],
      },
    );
    expect((await submit(n, tx)).reverted ?? false).toBe(false);
    const receipts = (await storedBlock(n, await n.produceBlock())).receipt.transaction_receipts;
    expect(receipts.map((r) => [r.id, r.reverted ?? false])).toEqual([
      [first.id, false],
      [tx.id, true],
    ]);
    expect(await metaOf(n, 5)).toEqual({});
  });

  it('takes the uploads of transactions that did not revert, the last one of a block winning', async () => {
    const store = new AbiStore(new MemoryStore());
    const id = key(0).addressBytes;
    const op = (abi: string) => ({
      upload_contract: {
        contract_id: id,
        bytecode: new Uint8Array(0),
        abi,
        authorizes_call_contract: false,
        authorizes_transaction_application: false,
        authorizes_upload_contract: false,
      },
    });
    const entry = (abi: string, reverted: boolean) => ({
      tx: { operations: [op(abi)] } as unknown as Transaction,
      reverted,
    });
    const update = store.blockUpdate([entry('first', false), entry('second', false), entry('reverted', true)]);
    expect(update.ops).toHaveLength(1);
    update.commit();
    expect(await store.get(id)).toBe('second');
    expect(store.blockUpdate([entry('reverted', true)]).ops).toEqual([]);
  });
});
