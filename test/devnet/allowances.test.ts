// KOIN allowances on the devnet as koinos-contracts-as Koin.ts keeps them (since PR #112, 2025): an allowance spent to
// zero by its contract is removed, not stored as a zero, so get_allowances no longer lists it; one partly spent keeps
// the rest; and, since an absent allowance reads as 0 there, a contract caller moving 0 needs none.
import { describe, expect, it } from 'vitest';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { SYSTEM_CALL_IDS } from '../../src-main/devnet/vm/systemCallIds.ts';
import type { DevKey } from '../../src-main/devnet/chain/devKeys.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { encode } from '../../src-main/koinos/codec.ts';
import { decodeKoinResult, encodeKoinArgs, KOIN_METHODS, type KoinResult } from '../../src-main/koinos/koin.ts';
import type { Operation, TransactionReceipt } from '../../src-main/koinos/types.ts';
import { balanceOf, KOIN, key, koinTx, submit, testNodes } from './helpers.ts';
import { probeContract } from './vm/hostEnv.ts';

const node = testNodes();

async function run(
  n: DevnetNode,
  payer: DevKey,
  operations: Operation[],
  signers: DevKey[] = [payer],
): Promise<TransactionReceipt> {
  const receipt = await submit(n, await koinTx(n, payer, 'transfer', {}, { operations, signers }));
  await n.produceBlock();
  return receipt;
}

/** Uploads a contract at `contract`'s address that calls KOIN transfer with `args` whenever it is called. */
async function transferring(
  n: DevnetNode,
  contract: DevKey,
  args: { from: Uint8Array; to: Uint8Array; value: bigint },
): Promise<Uint8Array> {
  const bytecode = await probeContract(
    SYSTEM_CALL_IDS.call,
    encode('koinos.chain.call_arguments', {
      contract_id: addressFromString(n.koinAddress),
      entry_point: KOIN_METHODS.transfer.entryPoint,
      args: encodeKoinArgs('transfer', args),
    }),
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
  expect((await run(n, key(0), [upload], [key(0), contract])).reverted ?? false).toBe(false);
  return contract.addressBytes;
}

const callOp = (contract_id: Uint8Array): Operation => ({
  call_contract: { contract_id, entry_point: 0, args: new Uint8Array(0) },
});

async function read<N extends 'allowance' | 'get_allowances'>(
  n: DevnetNode,
  method: N,
  args: object,
): Promise<KoinResult<N>> {
  const { result } = (await n.call('chain.read_contract', {
    contract_id: addressFromString(n.koinAddress),
    entry_point: KOIN_METHODS[method].entryPoint,
    args: encodeKoinArgs(method, args),
  })) as { result: Uint8Array };
  return decodeKoinResult(method, result);
}

const listed = async (n: DevnetNode, owner: DevKey) =>
  (
    await read(n, 'get_allowances', {
      owner: owner.addressBytes,
      start: new Uint8Array(0),
      limit: 10,
      descending: false,
    })
  ).allowances ?? [];

describe('KOIN allowances spent by a contract', () => {
  it('removes an allowance spent exactly to zero, and keeps what is left of one partly spent', async () => {
    const n = await node();
    const [alice, bob] = [key(0), key(1)];
    const exact = await transferring(n, key(70), { from: alice.addressBytes, to: bob.addressBytes, value: 2n * KOIN });
    const partly = await transferring(n, key(71), { from: alice.addressBytes, to: bob.addressBytes, value: 1n * KOIN });
    await submit(n, await koinTx(n, alice, 'approve', { owner: alice.addressBytes, spender: exact, value: 2n * KOIN }));
    await n.produceBlock();
    await submit(
      n,
      await koinTx(n, alice, 'approve', { owner: alice.addressBytes, spender: partly, value: 3n * KOIN }),
    );
    await n.produceBlock();
    expect((await listed(n, alice)).length).toBe(2);

    const before = await balanceOf(n, bob.addressBytes);
    const spent = await run(n, bob, [callOp(exact), callOp(partly)]);
    expect(spent.events.map((e) => e.name)).toEqual(['token.transfer_event', 'token.transfer_event']);
    expect(await balanceOf(n, bob.addressBytes)).toBe(before + 3n * KOIN);
    // Not { spender: exact, value: 0 }: the object is gone.
    expect((await listed(n, alice)).map((a) => [Buffer.from(a.spender).toString('hex'), a.value])).toEqual([
      [Buffer.from(partly).toString('hex'), 2n * KOIN],
    ]);
    expect((await read(n, 'allowance', { owner: alice.addressBytes, spender: exact })).value ?? 0n).toBe(0n);

    // With nothing left, the next spend is refused (the failure comes back to the contract as a code) and nothing moves.
    const refused = await run(n, bob, [callOp(exact)]);
    expect(refused.events).toEqual([]);
    expect(await balanceOf(n, bob.addressBytes)).toBe(before + 3n * KOIN);
  });

  it('lets a contract caller move 0 from an account without an allowance, as an absent allowance reads as 0', async () => {
    const n = await node();
    const [bob, carol] = [key(1), key(2)];
    const zero = await transferring(n, key(72), { from: carol.addressBytes, to: bob.addressBytes, value: 0n });
    const one = await transferring(n, key(73), { from: carol.addressBytes, to: bob.addressBytes, value: 1n });
    const receipt = await run(n, bob, [callOp(zero), callOp(one)]);
    expect(receipt.events.map((e) => e.name)).toEqual(['token.transfer_event']);
    expect(await listed(n, carol)).toEqual([]);
  });
});
