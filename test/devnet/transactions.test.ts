// Submitting transactions to the devnet: KOIN transfers, mint and burn, receipts, broadcast false, and every
// rejection with the node's code and text, each leaving balances, nonces and the mempool unchanged. As koinos-chain:
// a transaction that reverts is an error at submission; only a block includes one reverted.
import { describe, expect, it } from 'vitest';
import { toHex } from '../../src-main/koinos/bytes.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { koinOperation } from '../../src-main/koinos/koin.ts';
import { nonceToBytes } from '../../src-main/koinos/transaction.ts';
import type { Transaction, TransactionReceipt } from '../../src-main/koinos/types.ts';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import {
  balanceOf,
  genesisKey,
  key,
  KOIN,
  koinTx,
  manaOf,
  nonceOf,
  pendingCount,
  rejection,
  snapshot,
  submit,
  transferTx,
  testNodes,
} from './helpers.ts';

const node = testNodes();

const A = key(0);
const B = key(1);
const C = key(2);

describe('a KOIN transfer', () => {
  it('moves balance and mana, uses the nonce, and emits a transfer event impacting both parties', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, 5n * KOIN);
    const receipt = await submit(n, tx);
    expect(receipt.id).toEqual(tx.id);
    expect(receipt.payer).toEqual(A.addressBytes);
    expect(receipt.reverted).toBe(false);
    expect(receipt.rc_limit).toBe(10n * KOIN);
    expect(receipt.max_payer_rc).toBe(1_000_000n * KOIN);
    expect(receipt.network_bandwidth_used).toBe(BigInt(encode('koinos.protocol.transaction', tx).length));
    expect(receipt.rc_used).toBeGreaterThanOrEqual(2_000_000n);
    expect(receipt.rc_used).toBeLessThanOrEqual(3_000_000n);
    expect(receipt.events).toHaveLength(1);
    const event = receipt.events[0]!;
    expect(event).toMatchObject({
      sequence: 0,
      source: addressFromString(n.koinAddress),
      name: 'token.transfer_event',
    });
    expect(event.impacted).toEqual([B.addressBytes, A.addressBytes]);
    expect(decode('koinos.contracts.token.transfer_event', event.data)).toEqual({
      from: A.addressBytes,
      to: B.addressBytes,
      value: 5n * KOIN,
      memo: '',
    });
    // state delta entries: the nonce, then both balance objects
    const spaces = receipt.state_delta_entries.map((e) => e.object_space?.id);
    expect(spaces).toEqual([4, 1, 1]);
    expect(receipt.state_delta_entries[0]!.value).toEqual(nonceToBytes(1n));

    // Pending until the block: the head state is unchanged, the mempool has it.
    expect(await balanceOf(n, B.addressBytes)).toBe(1_000_000n * KOIN);
    expect(await pendingCount(n)).toBe(1);
    await n.produceBlock();
    expect(await pendingCount(n)).toBe(0);
    expect(await balanceOf(n, A.addressBytes)).toBe(999_995n * KOIN);
    expect(await balanceOf(n, B.addressBytes)).toBe(1_000_005n * KOIN);
    expect(await nonceOf(n, A.addressBytes)).toBe(1n);
    const manaA = await manaOf(n, A.addressBytes);
    expect(manaA).toBeLessThan(999_995n * KOIN);
    expect(manaA).toBeGreaterThan(999_995n * KOIN - KOIN / 10n);
    expect(await manaOf(n, B.addressBytes)).toBe(1_000_005n * KOIN);
  });

  it('changes nothing with broadcast false, and returns the same receipt a broadcast gives', async () => {
    const n = await node({ now: () => 1_700_000_000_000 });
    const tx = await transferTx(n, A, B, KOIN);
    const before = await snapshot(n, [A, B]);
    const dry = await submit(n, tx, false);
    expect(dry.reverted).toBe(false);
    expect(dry.events).toHaveLength(1);
    expect(await snapshot(n, [A, B])).toEqual(before);
    const real = await submit(n, tx, true);
    expect(real).toEqual(dry);
    await n.produceBlock();
    expect(await balanceOf(n, B.addressBytes)).toBe(1_000_001n * KOIN);
  });

  it('accepts a payee (a second signer) whose nonce is used', async () => {
    const n = await node();
    const tx = await transferTx(n, B, C, KOIN, { payer: A, payee: B.addressBytes, signers: [A, B] });
    const receipt = await submit(n, tx);
    expect(receipt.payer).toEqual(A.addressBytes);
    await n.produceBlock();
    expect(await nonceOf(n, B.addressBytes)).toBe(1n);
    expect(await nonceOf(n, A.addressBytes)).toBe(0n);
  });

  it('counts pending transactions for the next nonce', async () => {
    const n = await node();
    await submit(n, await transferTx(n, A, B, 1n, { nonce: 1n }));
    await submit(n, await transferTx(n, A, B, 1n, { nonce: 2n }));
    const { nonce } = (await n.call('mempool.get_pending_nonce', { payee: A.addressBytes })) as { nonce: Uint8Array };
    expect(nonce).toEqual(nonceToBytes(2n));
    expect(await n.call('mempool.get_pending_transaction_count', { payee: A.addressBytes })).toEqual({ count: 2n });
    // the head nonce is still 0, but nonce 1 is taken by a pending transaction
    const e = await rejection(submit(n, await transferTx(n, A, B, 1n, { nonce: 1n })));
    expect(e).toMatchObject({ code: -201, message: 'invalid account nonce' });
    await n.produceBlock();
    expect(await nonceOf(n, A.addressBytes)).toBe(2n);
  });
});

describe('rejections', () => {
  /** Submits, expects the code and message, and checks that balances, mana, nonces and the mempool did not change. */
  async function expectRejected(
    n: DevnetNode,
    tx: Transaction,
    code: number,
    message: string | RegExp,
    broadcast = true,
  ) {
    const before = await snapshot(n, [A, B, C]);
    const e = await rejection(submit(n, tx, broadcast));
    expect(e.code).toBe(code);
    if (typeof message === 'string') expect(e.message).toBe(message);
    else expect(e.message).toMatch(message);
    expect(await snapshot(n, [A, B, C])).toEqual(before);
    return e;
  }

  it('rejects missing header fields and signatures with -1002', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, 1n);
    await expectRejected(n, { ...tx, signatures: [] }, -1002, 'missing expected field in transaction: signature_data');
    await expectRejected(
      n,
      { ...tx, header: { ...tx.header!, rc_limit: 0n } },
      -1002,
      'missing expected field in transaction header: rc_limit',
    );
    await expectRejected(n, { ...tx, id: new Uint8Array() }, -1002, 'missing expected field in transaction: id');
    const { header: _header, ...noHeader } = tx;
    await expectRejected(n, noHeader as Transaction, -1002, 'missing expected field in transaction: header');
    await expectRejected(
      n,
      { ...tx, header: { ...tx.header!, payer: new Uint8Array() } },
      -1002,
      'missing expected field in transaction: payer',
    );
  });

  it('rejects an rc_limit above the payer mana', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, 1n, { rcLimit: 1_000_001n * KOIN });
    const e = await expectRejected(n, tx, -1, 'payer does not have the rc to cover transaction rc limit', false);
    expect(e.data.logs).toEqual([]);
  });

  it('rejects a transaction signed for another chain', async () => {
    const n = await node();
    const other = await node({ genesisSeed: 'another chain' });
    await expectRejected(n, await transferTx(other, A, B, 1n, { nonce: 1n }), -1, 'chain id mismatch');
  });

  it('rejects a transaction whose id does not match its header', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, 1n);
    const id = Uint8Array.from(tx.id);
    id[10]! ^= 1;
    await expectRejected(n, { ...tx, id }, -1, 'transaction contains an invalid transaction id');
  });

  it('rejects operations that do not match the merkle root', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, 1n);
    const operations = [
      koinOperation(addressFromString(n.koinAddress), 'transfer', {
        from: A.addressBytes,
        to: B.addressBytes,
        value: 2n,
      }),
    ];
    await expectRejected(n, { ...tx, operations }, -1, 'operation merkle root does not match');
  });

  it('rejects a transaction the payer did not sign, and one the payee did not sign', async () => {
    const n = await node();
    await expectRejected(
      n,
      await transferTx(n, A, B, 1n, { signers: [B] }),
      -200,
      `account ${A.address} has not authorized transaction`,
    );
    const payeeMissing = await transferTx(n, B, C, 1n, { payer: A, payee: B.addressBytes, signers: [A] });
    await expectRejected(n, payeeMissing, -200, `account ${B.address} has not authorized transaction`);
  });

  it('rejects a signature whose recovery byte was changed', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, 1n);
    const signature = Uint8Array.from(tx.signatures[0]!);
    signature[0] = signature[0] === 31 ? 32 : 31;
    await expectRejected(
      n,
      { ...tx, signatures: [signature] },
      -200,
      `account ${A.address} has not authorized transaction`,
    );
  });

  it('rejects a non-canonical (high S) signature and a signature of the wrong length with -202', async () => {
    const n = await nodeWithWorkers();
    const tx = await transferTx(n, A, B, 1n);
    const signature = Uint8Array.from(tx.signatures[0]!);
    const order = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${toHex(signature.subarray(33))}`);
    signature.set(Buffer.from((order - s).toString(16).padStart(64, '0'), 'hex'), 33);
    signature[0] = signature[0] === 31 ? 32 : 31;
    await expectRejected(n, { ...tx, signatures: [signature] }, -202, 'signature must be canonical');
    await expectRejected(
      n,
      { ...tx, signatures: [tx.signatures[0]!.subarray(0, 64)] },
      -202,
      'unexpected signature length',
    );
  });

  it('rejects a wrong nonce with the node text, in hex', async () => {
    const n = await node();
    const e = await expectRejected(
      n,
      await transferTx(n, A, B, 1n, { nonce: 5n }),
      -201,
      `invalid transaction nonce - account: ${A.address}, nonce: 0x2805, current nonce: 0x2800`,
    );
    expect(e.data).toMatchObject({ a: A.address, n: '0x2805', c: '0x2800' });
  });

  it('names the pending nonce it checked against as the current nonce', async () => {
    const n = await node();
    await submit(n, await transferTx(n, A, B, 1n, { nonce: 1n }));
    const e = await expectRejected(
      n,
      await transferTx(n, A, B, 1n, { nonce: 5n }),
      -201,
      `invalid transaction nonce - account: ${A.address}, nonce: 0x2805, current nonce: 0x2801`,
    );
    expect(e.data).toMatchObject({ a: A.address, n: '0x2805', c: '0x2801' });
  });

  it('checks a dry run (broadcast false) against the head nonce, not the pending one', async () => {
    const n = await node();
    await submit(n, await transferTx(n, A, B, 1n, { nonce: 1n }));
    const before = await snapshot(n, [A, B, C]);
    const dry = await submit(n, await transferTx(n, A, B, 1n, { nonce: 1n }), false);
    expect(dry.reverted).toBe(false);
    expect(await snapshot(n, [A, B, C])).toEqual(before);
    await expectRejected(
      n,
      await transferTx(n, A, B, 1n, { nonce: 2n }),
      -201,
      `invalid transaction nonce - account: ${A.address}, nonce: 0x2802, current nonce: 0x2800`,
      false,
    );
  });

  it('charges the network bandwidth before the operations: a limit that cannot cover it rejects the transaction', async () => {
    const n = await node();
    // A transaction without operations uses only what comes before them: the checks, the nonce, the network bandwidth.
    const probe = await koinTx(n, A, 'name', {}, { operations: [], rcLimit: 2_000_000n });
    const size = BigInt(encode('koinos.protocol.transaction', probe).length);
    const dry = await submit(n, probe, false);
    expect(dry.network_bandwidth_used).toBe(size);
    const tx = await koinTx(n, A, 'name', {}, { operations: [], rcLimit: dry.rc_used - 1n });
    expect(BigInt(encode('koinos.protocol.transaction', tx).length)).toBe(size);
    const e = await expectRejected(n, tx, -1, 'insufficient rc');
    expect(e.data.logs).toEqual([]);
    // one unit more is enough
    const ok = await submit(n, await koinTx(n, A, 'name', {}, { operations: [], rcLimit: dry.rc_used }));
    expect(ok).toMatchObject({ reverted: false, rc_used: dry.rc_used, network_bandwidth_used: size });
  });

  it('rejects a transfer the sender cannot cover with the contract message, as a reversion (code 1)', async () => {
    const n = await node();
    const e = await expectRejected(
      n,
      await transferTx(n, A, B, 2_000_000n * KOIN),
      1,
      "account 'from' has insufficient balance",
    );
    expect(e.data.logs).toEqual(["transaction reverted: account 'from' has insufficient balance"]);
  });

  it('rejects a transfer of KOIN whose mana is in use (balance covers it, mana does not)', async () => {
    const n = await node();
    await submit(n, await transferTx(n, A, B, 999_990n * KOIN));
    await n.produceBlock();
    // A holds 10 KOIN, and a little less mana: the first transfer's fee used some
    expect(await balanceOf(n, A.addressBytes)).toBe(10n * KOIN);
    expect(await manaOf(n, A.addressBytes)).toBeLessThan(10n * KOIN);
    const spend = await transferTx(n, A, C, 10n * KOIN, { rcLimit: KOIN / 10n });
    await expectRejected(n, spend, 1, "account 'from' has insufficient mana for transfer");
  });

  it('rejects a transfer from an account that did not sign it (the contract failure becomes a reversion)', async () => {
    const n = await node();
    const tx = await koinTx(n, A, 'transfer', { from: B.addressBytes, to: C.addressBytes, value: 1n });
    const e = await expectRejected(n, tx, 1, "account 'from' has not authorized transfer");
    expect(e.data.logs).toEqual(["transaction reverted: account 'from' has not authorized transfer"]);
  });

  it('rejects more pending transactions than the limit', async () => {
    const n = await node({ pendingTransactionLimit: 2 });
    await submit(n, await transferTx(n, A, B, 1n, { rcLimit: KOIN }));
    await submit(n, await transferTx(n, A, B, 1n, { rcLimit: KOIN }));
    await expectRejected(
      n,
      await transferTx(n, A, B, 1n, { rcLimit: KOIN }),
      -206,
      'pending transaction limit exceeded',
    );
  });

  it('rejects a transaction whose rc_limit the pending ones already reserved', async () => {
    const n = await node();
    await submit(n, await transferTx(n, A, B, 1n, { rcLimit: 600_000n * KOIN }));
    expect(await n.call('mempool.get_reserved_account_rc', { account: A.addressBytes })).toEqual({
      rc: 600_000n * KOIN,
    });
    await expectRejected(
      n,
      await transferTx(n, A, B, 1n, { rcLimit: 500_000n * KOIN }),
      104,
      'insufficient pending account resources',
    );
    // without broadcast the mempool is not asked (neither for the reservation nor for the pending nonce)
    const dry = await submit(n, await transferTx(n, A, B, 1n, { rcLimit: 500_000n * KOIN, nonce: 1n }), false);
    expect(dry.reverted).toBe(false);
  });

  it('rejects an rc_limit too small for the checks before the operations', async () => {
    const n = await node();
    await expectRejected(n, await transferTx(n, A, B, 1n, { rcLimit: 1000n }), -1, 'insufficient rc');
  });
});

describe('reversions', () => {
  /** Submits with and without broadcast; expects the reversion (code, message, logs) and no change at all. */
  async function expectReverted(n: DevnetNode, tx: Transaction, code: number, message: string) {
    for (const broadcast of [false, true]) {
      const before = await snapshot(n, [A, B, C]);
      const e = await rejection(submit(n, tx, broadcast));
      expect(e.code).toBe(code);
      expect(e.message).toBe(message);
      expect(e.data.logs).toEqual([`transaction reverted: ${message}`]);
      expect(await snapshot(n, [A, B, C])).toEqual(before);
    }
    await n.produceBlock();
    const { transactions } = (await n.call('transaction_store.get_transactions_by_id', {
      transaction_ids: [tx.id],
    })) as { transactions: unknown[] };
    expect(transactions).toEqual([]);
  }

  it('rejects at submission a transaction that runs past its rc_limit, changing nothing', async () => {
    const n = await node();
    const full = await submit(n, await transferTx(n, A, B, KOIN), false);
    await expectReverted(
      n,
      await transferTx(n, A, B, KOIN, { rcLimit: full.rc_used - 300_000n }),
      104,
      'insufficient rc',
    );
  });

  it('rejects a transfer to oneself (the contract reverts it), changing nothing', async () => {
    const n = await node();
    await expectReverted(n, await transferTx(n, A, A, KOIN), 1, 'cannot transfer to yourself');
  });

  it('rejects a call to a contract that does not exist, and an unknown entry point', async () => {
    const n = await node();
    const missing = [{ call_contract: { contract_id: C.addressBytes, entry_point: 1, args: new Uint8Array() } }];
    await expectReverted(n, await koinTx(n, A, 'name', {}, { operations: missing }), 102, 'contract does not exist');
    const unknown = [
      { call_contract: { contract_id: addressFromString(n.koinAddress), entry_point: 1, args: new Uint8Array() } },
    ];
    await expectReverted(
      n,
      await koinTx(n, A, 'name', {}, { operations: unknown }),
      1,
      'unknown entry point 0x00000001',
    );
  });

  it('includes reverted, and charged, a transaction whose state changed between its submission and its block', async () => {
    const n = await node();
    // Each spend is covered by the head state when submitted; together they exceed the balance.
    expect((await submit(n, await transferTx(n, A, B, 600_000n * KOIN))).reverted).toBe(false);
    const second = await transferTx(n, A, C, 600_000n * KOIN);
    expect((await submit(n, second)).reverted).toBe(false);
    const manaBefore = await manaOf(n, A.addressBytes);
    const { id } = await n.produceBlock();
    const { block_items } = (await n.call('block_store.get_blocks_by_id', {
      block_ids: [id],
      return_block: false,
      return_receipt: true,
    })) as {
      block_items: { receipt: { transaction_receipts: TransactionReceipt[] } }[];
    };
    const [ok, reverted] = block_items[0]!.receipt.transaction_receipts;
    expect(ok).toMatchObject({ reverted: false });
    expect(reverted).toMatchObject({
      id: second.id,
      reverted: true,
      logs: ["transaction reverted: account 'from' has insufficient balance"],
      events: [],
    });
    expect(reverted!.rc_used).toBeGreaterThan(0n);
    expect(await balanceOf(n, A.addressBytes)).toBe(400_000n * KOIN);
    expect(await balanceOf(n, C.addressBytes)).toBe(1_000_000n * KOIN);
    expect(await nonceOf(n, A.addressBytes)).toBe(2n);
    // both paid their mana: the transferred 600,000 and the fees of both
    expect(await manaOf(n, A.addressBytes)).toBe(manaBefore - 600_000n * KOIN - ok!.rc_used - reverted!.rc_used);
    const { transactions } = (await n.call('transaction_store.get_transactions_by_id', {
      transaction_ids: [second.id],
    })) as { transactions: unknown[] };
    expect(transactions).toHaveLength(1);
  });
});

describe('as koinos-chain at submission', () => {
  it('runs on the head state with the head block time: max_payer_rc equals get_account_rc', async () => {
    let clock = 1_700_000_000_000;
    const n = await node({ now: () => clock });
    await submit(n, await transferTx(n, A, B, 100_000n * KOIN));
    await n.produceBlock();
    clock += 60_000; // the clock moves on, the head block does not
    const receipt = await submit(n, await transferTx(n, A, B, KOIN), false);
    expect(receipt.max_payer_rc).toBe(await manaOf(n, A.addressBytes));
  });

  it('numbers events across the whole block, each submission from 0', async () => {
    const n = await node();
    const r1 = await submit(n, await transferTx(n, A, B, KOIN));
    const r2 = await submit(n, await transferTx(n, B, C, KOIN));
    expect([r1.events[0]!.sequence, r2.events[0]!.sequence]).toEqual([0, 0]);
    const { id } = await n.produceBlock();
    const { block_items } = (await n.call('block_store.get_blocks_by_id', {
      block_ids: [id],
      return_block: false,
      return_receipt: true,
    })) as {
      block_items: { receipt: { transaction_receipts: TransactionReceipt[] } }[];
    };
    expect(block_items[0]!.receipt.transaction_receipts.map((r) => r.events[0]!.sequence)).toEqual([0, 1]);
  });

  it('counts disk bytes as state_db does: the two public mainnet transfer receipts, 35 and 112', async () => {
    const n = await node({ now: () => 1_700_000_000_000 });
    await n.produceBlock();
    // Touch A, B and C once, so that their KOIN records carry a last_mana_update (as mainnet records do).
    await submit(n, await transferTx(n, A, B, KOIN));
    await submit(n, await transferTx(n, A, C, KOIN));
    await n.produceBlock();
    // An account's first transaction to an existing account: a new nonce object (33-byte database_key + 2 bytes).
    expect((await submit(n, await transferTx(n, B, A, KOIN))).disk_storage_used).toBe(35n);
    // ... to a new account: also a new KOIN record (60-byte database_key + 17-byte mana_balance_object).
    const D = key(7);
    expect((await submit(n, await transferTx(n, C, D, KOIN))).disk_storage_used).toBe(112n);
  });
});

describe('mint and burn', () => {
  it('mints for a transaction the genesis key signs, and refuses others', async () => {
    const n = await node();
    const G = genesisKey();
    const receipt = await submit(n, await koinTx(n, G, 'mint', { to: C.addressBytes, value: 7n * KOIN }));
    expect(receipt.events[0]).toMatchObject({ name: 'token.mint_event', impacted: [C.addressBytes] });
    await n.produceBlock();
    expect(await balanceOf(n, C.addressBytes)).toBe(1_000_007n * KOIN);
    const e = await rejection(submit(n, await koinTx(n, A, 'mint', { to: A.addressBytes, value: 1n })));
    expect(e).toMatchObject({ code: 1, message: 'insufficient privileges to mint' });
  });

  it('burns from a signing account and lowers the supply', async () => {
    const n = await node();
    const receipt = await submit(n, await koinTx(n, A, 'burn', { from: A.addressBytes, value: 3n * KOIN }));
    expect(receipt.events[0]).toMatchObject({ name: 'token.burn_event', impacted: [A.addressBytes] });
    await n.produceBlock();
    expect(await balanceOf(n, A.addressBytes)).toBe(999_997n * KOIN);
  });
});

describe('mempool', () => {
  it('lists pending transactions with their resources, by id, and checks nonces and resources', async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, 1n);
    const receipt = await submit(n, tx);
    const { pending_transactions } = (await n.call('mempool.get_pending_transactions', { limit: 10n })) as {
      pending_transactions: { transaction: Transaction; network_bandwidth_used: bigint }[];
    };
    expect(pending_transactions).toHaveLength(1);
    expect(pending_transactions[0]!.transaction.id).toEqual(tx.id);
    expect(pending_transactions[0]!.network_bandwidth_used).toBe(receipt.network_bandwidth_used);
    const byId = (await n.call('mempool.get_pending_transactions_by_id', {
      transaction_ids: [tx.id, new Uint8Array(34)],
    })) as { pending_transactions: unknown[] };
    expect(byId.pending_transactions).toHaveLength(1);
    expect(await n.call('mempool.check_account_nonce', { payee: A.addressBytes, nonce: nonceToBytes(1n) })).toEqual({
      success: false,
    });
    expect(await n.call('mempool.check_account_nonce', { payee: A.addressBytes, nonce: nonceToBytes(2n) })).toEqual({
      success: true,
    });
    expect(
      await n.call('mempool.check_pending_account_resources', {
        payer: A.addressBytes,
        max_payer_rc: 20n * KOIN,
        rc_limit: 10n * KOIN,
      }),
    ).toEqual({ success: true });
    expect(
      await n.call('mempool.check_pending_account_resources', {
        payer: A.addressBytes,
        max_payer_rc: 10n * KOIN,
        rc_limit: 10n * KOIN,
      }),
    ).toEqual({ success: false });
    await expect(n.call('mempool.get_pending_transactions', { limit: 2001n })).rejects.toMatchObject({
      name: 'WalletError',
      code: 'INVALID_ARGUMENT',
    });
  });

  it('answers an empty pending nonce for an account with nothing pending', async () => {
    const n = await node();
    expect(await n.call('mempool.get_pending_nonce', { payee: C.addressBytes })).toEqual({ nonce: new Uint8Array() });
  });
});

describe('mana', () => {
  it('regenerates lazily with the head block time, 20% of the balance a day', async () => {
    let clock = 1_700_000_000_000;
    const n = await node({ now: () => clock });
    await n.produceBlock();
    await submit(n, await transferTx(n, A, B, 100_000n * KOIN));
    const { id } = await n.produceBlock();
    // A's KOIN record right after the transfer, as the block receipt's state delta shows it
    const { block_items } = (await n.call('block_store.get_blocks_by_id', {
      block_ids: [id],
      return_block: false,
      return_receipt: true,
    })) as {
      block_items: { receipt: { transaction_receipts: TransactionReceipt[] } }[];
    };
    const receipt = block_items[0]!.receipt.transaction_receipts[0]!;
    const entry = receipt.state_delta_entries.find(
      (e) => e.object_space?.id === 1 && Buffer.from(e.key).equals(Buffer.from(A.addressBytes)),
    )!;
    const record = decode('koinos.contracts.koin.mana_balance_object', entry.value!);
    expect(record.mana).toBeLessThan(record.balance);
    const { head_block_time: blockTime } = (await n.call('chain.get_head_info', {})) as { head_block_time: bigint };
    // the block applied the transfer in its own context (its own time)
    expect(record.last_mana_update).toBe(blockTime);
    const expected = (t: bigint) => {
      const mana = record.mana + ((t - record.last_mana_update) * record.balance) / 432_000_000n;
      return mana < record.balance ? mana : record.balance;
    };
    for (const step of [0, 1, 3]) {
      clock += step;
      const { height } = await n.produceBlock();
      const { head_block_time } = (await n.call('chain.get_head_info', {})) as { head_block_time: bigint };
      expect(height).toBeGreaterThan(1n);
      expect(await manaOf(n, A.addressBytes)).toBe(expected(head_block_time));
    }
    expect(await manaOf(n, A.addressBytes)).toBeLessThan(record.balance);
    clock += 5 * 86_400_000;
    await n.produceBlock();
    expect(await manaOf(n, A.addressBytes)).toBe(record.balance);
  });

  it('gives a transfer cost of 0.02 to 0.03 mana', async () => {
    const n = await node();
    const receipt = await submit(n, await transferTx(n, A, B, KOIN));
    expect(Number(receipt.rc_used) / 1e8).toBeGreaterThanOrEqual(0.02);
    expect(Number(receipt.rc_used) / 1e8).toBeLessThanOrEqual(0.03);
  });
});

async function nodeWithWorkers(): Promise<DevnetNode> {
  return node({ signatureThreads: 1 });
}
