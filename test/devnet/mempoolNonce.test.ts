// verify_account_nonce as a contract calls it on the devnet, as koinos-chain answers it (system_calls.cpp): at a
// broadcast submission against the mempool's pending nonce of the transaction's nonce account (controller.cpp
// set_mempool_nonce), in a block and in a dry run against the stored nonce, which by then is the transaction's own.
import { describe, expect, it } from 'vitest';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { SYSTEM_CALL_IDS } from '../../src-main/devnet/vm/systemCallIds.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { nonceToBytes } from '../../src-main/koinos/transaction.ts';
import type { Operation, TransactionReceipt } from '../../src-main/koinos/types.ts';
import { key, koinTx, nonceOf, submit, testNodes, transferTx } from './helpers.ts';
import { eventProbeContract } from './vm/hostEnv.ts';

const node = testNodes();

/** A contract that asks verify_account_nonce(account, nonce) and emits the answer as an event "probe". */
async function nonceProbe(n: DevnetNode, keyIndex: number, account: Uint8Array, nonce: bigint): Promise<Uint8Array> {
  const contract = key(keyIndex);
  const bytecode = await eventProbeContract(
    SYSTEM_CALL_IDS.verify_account_nonce,
    encode('koinos.chain.verify_account_nonce_arguments', { account, nonce: nonceToBytes(nonce) }),
  );
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
  const receipt = await submit(
    n,
    await koinTx(n, key(2), 'transfer', {}, { operations: [upload], signers: [key(2), contract] }),
  );
  expect(receipt.reverted ?? false).toBe(false);
  await n.produceBlock();
  return contract.addressBytes;
}

const answer = (receipt: TransactionReceipt): boolean =>
  decode('koinos.chain.bool_result', receipt.events[0]!.data).value ?? false;

async function blockReceipts(n: DevnetNode, block: { id: Uint8Array; height: bigint }): Promise<TransactionReceipt[]> {
  const { block_items } = (await n.call('block_store.get_blocks_by_height', {
    head_block_id: block.id,
    ancestor_start_height: block.height,
    num_blocks: 1,
    return_block: false,
    return_receipt: true,
  })) as { block_items: { receipt: { transaction_receipts: TransactionReceipt[] } }[] };
  return block_items[0]!.receipt.transaction_receipts;
}

describe('verify_account_nonce inside a contract', () => {
  it('compares with the mempool pending nonce at a broadcast submission, and with the stored nonce in the block', async () => {
    const n = await node();
    const [alice, bob] = [key(0), key(1)];
    const stored = await nonceOf(n, alice.addressBytes);
    // Asks whether stored + 2 is the next nonce: it is while stored + 1 is pending, it is not once stored + 2 is used.
    const probe = await nonceProbe(n, 80, alice.addressBytes, stored + 2n);
    const call: Operation = { call_contract: { contract_id: probe, entry_point: 0, args: new Uint8Array(0) } };

    // A dry run of the call as the next transaction (nonce stored + 1): no mempool nonce, the stored one (now stored + 1).
    const dry = await submit(
      n,
      await koinTx(n, alice, 'transfer', {}, { operations: [call], nonce: stored + 1n }),
      false,
    );
    expect(answer(dry)).toBe(true);

    await submit(n, await transferTx(n, alice, bob, 1n));
    const submitted = await submit(
      n,
      await koinTx(n, alice, 'transfer', {}, { operations: [call], nonce: stored + 2n }),
    );
    // The mempool's pending nonce is stored + 1: stored + 2 is the next one.
    expect(answer(submitted)).toBe(true);

    const receipts = await blockReceipts(n, await n.produceBlock());
    expect(receipts).toHaveLength(2);
    // In the block the transaction's own nonce stored + 2 is already set: stored + 2 is no longer the next one.
    expect(answer(receipts[1]!)).toBe(false);
  });

  it('uses the mempool nonce of the transaction whatever account the contract asks about, as the chain does', async () => {
    const n = await node();
    const [alice, bob, carol] = [key(0), key(1), key(2)];
    const aliceStored = await nonceOf(n, alice.addressBytes);
    // Asks about carol, with the nonce that follows alice's two pending transactions.
    const probe = await nonceProbe(n, 81, carol.addressBytes, aliceStored + 3n);
    const carolStored = await nonceOf(n, carol.addressBytes);
    expect(aliceStored + 3n).not.toBe(carolStored + 1n); // so the answer tells which nonce was compared with
    const call: Operation = { call_contract: { contract_id: probe, entry_point: 0, args: new Uint8Array(0) } };
    await submit(n, await transferTx(n, alice, bob, 1n));
    await submit(n, await transferTx(n, alice, bob, 2n));
    const submitted = await submit(
      n,
      await koinTx(n, alice, 'transfer', {}, { operations: [call], nonce: aliceStored + 3n }),
    );
    expect(answer(submitted)).toBe(true);
  });
});
