// The block a contract sees while a block is applied is the block the devnet writes: when a pending transaction fails
// at block time it is dropped and the block proposed again without it (as koinos-block-producer re-proposes after the
// chain rejects a block), so get_head_info / get_block_field inside the block name the block that is then stored.
import { describe, expect, it } from 'vitest';
import { proposeBlock } from '../../src-main/devnet/chain/blockFill.ts';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { SYSTEM_CALL_IDS } from '../../src-main/devnet/vm/systemCallIds.ts';
import { decode } from '../../src-main/koinos/codec.ts';
import type { Operation } from '../../src-main/koinos/types.ts';
import {
  KOIN,
  balanceOf,
  key,
  koinTx,
  manaOf,
  pendingCount,
  storedBlock,
  submit,
  testNodes,
  transferTx,
} from './helpers.ts';
import { eventProbeContract } from './vm/hostEnv.ts';

const logs: string[] = [];
const node = testNodes({ log: (m) => logs.push(m) });

async function deploy(n: DevnetNode, keyIndex: number, bytecode: Uint8Array): Promise<Uint8Array> {
  const contract = key(keyIndex);
  const payer = key(2);
  const upload: Operation = {
    upload_contract: {
      contract_id: contract.addressBytes,
      bytecode,
      abi: '',
      authorizes_call_contract: false,
      authorizes_transaction_application: false,
      authorizes_upload_contract: false,
    },
  };
  expect(
    (await submit(n, await koinTx(n, payer, 'transfer', {}, { operations: [upload], signers: [payer, contract] })))
      .reverted ?? false,
  ).toBe(false);
  await n.produceBlock();
  return contract.addressBytes;
}

describe('the block contracts see is the block written', () => {
  it('proposes again without a transaction that fails at block time, so a contract in the block saw the stored block', async () => {
    logs.length = 0;
    const n = await node();
    const [alice, bob, carol] = [key(0), key(1), key(2)];
    const probe = await deploy(n, 90, await eventProbeContract(SYSTEM_CALL_IDS.get_head_info, new Uint8Array(0)));

    // Both are accepted against the head; in the block the first spends nearly all of alice's mana (a KOIN transfer
    // uses mana), so the second's rc_limit is no longer covered: it fails there and is dropped.
    const mana = await manaOf(n, alice.addressBytes);
    const bobBefore = await balanceOf(n, bob.addressBytes);
    const spend = await transferTx(n, alice, bob, mana - 100n * KOIN, { rcLimit: 10n * KOIN });
    await submit(n, spend);
    const starved = await transferTx(n, alice, bob, 1n, { rcLimit: 1000n * KOIN });
    await submit(n, starved);
    const looks = await koinTx(
      n,
      carol,
      'transfer',
      {},
      { operations: [{ call_contract: { contract_id: probe, entry_point: 0, args: new Uint8Array(0) } }] },
    );
    await submit(n, looks);

    const block = await n.produceBlock();
    const stored = await storedBlock(n, block);
    expect(stored.block.transactions.map((t) => t.id)).toEqual([spend.id, looks.id]);
    expect(logs.some((m) => m.includes('payer does not have the rc to cover transaction rc limit'))).toBe(true);
    const seen = decode('koinos.chain.get_head_info_result', stored.receipt.transaction_receipts[1]!.events[0]!.data);
    expect(seen.value?.head_topology).toMatchObject({ id: block.id, height: block.height });
    expect(stored.block_id).toEqual(block.id);
    expect(await balanceOf(n, bob.addressBytes)).toBe(bobBefore + mana - 100n * KOIN);
    expect(await pendingCount(n)).toBe(0); // the dropped one left the mempool
  });
});

describe('proposeBlock', () => {
  const candidate = (idHex: string) => ({
    idHex,
    receipt: { disk_storage_used: 0n, network_bandwidth_used: 0n, compute_bandwidth_used: 0n },
  });

  it('runs again without what failed, dropping failures and keeping those that wait, until a run applies whole', async () => {
    const runs: string[][] = [];
    const proposal = await proposeBlock(
      [candidate('a'), candidate('b'), candidate('c'), candidate('d')],
      false,
      (chosen) => {
        const ids = chosen.map((c) => c.idHex);
        runs.push(ids);
        if (ids.includes('b'))
          return {
            failed: [
              { idHex: 'b', wait: false },
              { idHex: 'd', wait: true },
            ],
          };
        if (ids.includes('c') && runs.length === 2) return { failed: [{ idHex: 'c', wait: false }] };
        return { applied: ids.join('') };
      },
    );
    expect(runs).toEqual([['a', 'b', 'c', 'd'], ['a', 'c'], ['a']]);
    expect(proposal.applied).toBe('a');
    expect(proposal.chosen.map((c) => c.idHex)).toEqual(['a']);
    expect(proposal.dropped.map((c) => c.idHex)).toEqual(['b', 'c']);
    expect(proposal.full).toBe(true); // d waits for a later block
  });

  it('applies once when nothing fails, and says the block is not full', async () => {
    let count = 0;
    const proposal = await proposeBlock([candidate('a')], false, (chosen) => ({ applied: (count++, chosen.length) }));
    expect([count, proposal.applied, proposal.dropped, proposal.full]).toEqual([1, 1, [], false]);
  });
});
