// The native KOIN called from wasm contracts on the devnet, as a wasm KOIN would answer them: a contract receives
// KOIN, sends its own (caller == from), spends an allowance an account approved to it and is refused without one;
// KOIN's events keep KOIN as their source; the call is charged the registry's `call` on top of KOIN's own work.
import { describe, expect, it } from 'vitest';
import { COMPUTE } from '../../../src-main/devnet/state/resources.ts';
import type { DevnetNode } from '../../../src-main/devnet/types.ts';
import { COMPUTE_REGISTRY } from '../../../src-main/devnet/vm/computeRegistry.ts';
import { SYSTEM_CALL_IDS } from '../../../src-main/devnet/vm/systemCallIds.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { decode, encode } from '../../../src-main/koinos/codec.ts';
import { encodeKoinArgs, KOIN_METHODS } from '../../../src-main/koinos/koin.ts';
import type { Operation, TransactionReceipt } from '../../../src-main/koinos/types.ts';
import { balanceOf, KOIN, key, koinTx, submit, testNodes, transferTx, type TxOptions } from '../helpers.ts';
import { constantContract, probeContract } from './hostEnv.ts';
import type { DevKey } from '../../../src-main/devnet/chain/devKeys.ts';

const node = testNodes();

/** A contract that calls KOIN `transfer` with these arguments once, whatever it is called with. */
async function transferring(
  n: DevnetNode,
  args: { from: Uint8Array; to: Uint8Array; value: bigint },
): Promise<Uint8Array> {
  return probeContract(
    SYSTEM_CALL_IDS.call,
    encode('koinos.chain.call_arguments', {
      contract_id: addressFromString(n.koinAddress),
      entry_point: KOIN_METHODS.transfer.entryPoint,
      args: encodeKoinArgs('transfer', args),
    }),
  );
}

async function run(
  n: DevnetNode,
  payer: DevKey,
  operations: Operation[],
  options: TxOptions = {},
): Promise<TransactionReceipt> {
  const receipt = await submit(n, await koinTx(n, payer, 'transfer', {}, { operations, ...options }));
  await n.produceBlock();
  return receipt;
}

async function deploy(n: DevnetNode, contract: DevKey, bytecode: Uint8Array): Promise<Uint8Array> {
  const payer = key(0);
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
  expect((await run(n, payer, [upload], { signers: [payer, contract] })).reverted ?? false).toBe(false);
  return contract.addressBytes;
}

const callOp = (contract_id: Uint8Array): Operation => ({
  call_contract: { contract_id, entry_point: 0, args: new Uint8Array(0) },
});

describe('the native KOIN called from wasm', () => {
  it('lets a contract receive KOIN and send its own, with KOIN as the events source', async () => {
    const n = await node();
    const [alice, bob] = [key(0), key(1)];
    const wallet = key(60);
    const id = await deploy(
      n,
      wallet,
      await transferring(n, { from: wallet.addressBytes, to: bob.addressBytes, value: 3n * KOIN }),
    );
    await submit(n, await transferTx(n, alice, wallet, 10n * KOIN));
    await n.produceBlock();
    expect(await balanceOf(n, id)).toBe(10n * KOIN);

    const bobBefore = await balanceOf(n, bob.addressBytes);
    // Signed by bob only: the contract's own account needs no signature of its key.
    const receipt = await run(n, bob, [callOp(id)]);
    expect(receipt.reverted ?? false).toBe(false);
    expect(await balanceOf(n, id)).toBe(7n * KOIN);
    expect(await balanceOf(n, bob.addressBytes)).toBe(bobBefore + 3n * KOIN);
    expect(receipt.events.map((e) => [e.name, e.source])).toEqual([
      ['token.transfer_event', addressFromString(n.koinAddress)],
    ]);
    expect(decode('koinos.contracts.token.transfer_event', receipt.events[0]!.data)).toMatchObject({
      from: id,
      to: bob.addressBytes,
      value: 3n * KOIN,
    });
    // The chain's `call` from wasm, KOIN's own transfer work, and the contract's instructions and other calls.
    expect(receipt.compute_bandwidth_used).toBeGreaterThan(
      BigInt(COMPUTE_REGISTRY.call + COMPUTE.koin_transfer + COMPUTE_REGISTRY.exit),
    );
  });

  it('spends an allowance approved to the contract, as its caller, and only what is left', async () => {
    const n = await node();
    const [alice, bob] = [key(0), key(1)];
    const spender = key(61);
    const id = await deploy(
      n,
      spender,
      await transferring(n, { from: alice.addressBytes, to: bob.addressBytes, value: 2n * KOIN }),
    );
    await submit(n, await koinTx(n, alice, 'approve', { owner: alice.addressBytes, spender: id, value: 5n * KOIN }));
    await n.produceBlock();
    const [aliceBefore, bobBefore] = [await balanceOf(n, alice.addressBytes), await balanceOf(n, bob.addressBytes)];

    expect((await run(n, bob, [callOp(id)])).reverted ?? false).toBe(false);
    expect(await balanceOf(n, alice.addressBytes)).toBe(aliceBefore - 2n * KOIN);
    expect(await balanceOf(n, bob.addressBytes)).toBe(bobBefore + 2n * KOIN);
    const allowance = async () => {
      const { result } = (await n.call('chain.read_contract', {
        contract_id: addressFromString(n.koinAddress),
        entry_point: KOIN_METHODS.allowance.entryPoint,
        args: encodeKoinArgs('allowance', { owner: alice.addressBytes, spender: id }),
      })) as { result: Uint8Array };
      return decode(KOIN_METHODS.allowance.resultType, result).value ?? 0n;
    };
    expect(await allowance()).toBe(3n * KOIN);

    // 2 more fit in the 3 left; then 1 is left and the next 2 are refused, nothing moving.
    await run(n, bob, [callOp(id)]);
    expect(await allowance()).toBe(1n * KOIN);
    const aliceLeft = await balanceOf(n, alice.addressBytes);
    await run(n, bob, [callOp(id)]);
    expect(await balanceOf(n, alice.addressBytes)).toBe(aliceLeft);
    expect(await allowance()).toBe(1n * KOIN);
  });

  it('refuses a contract moving an account KOIN without an allowance, even when that account signed', async () => {
    const n = await node();
    const [bob, carol] = [key(1), key(2)];
    const thief = key(62);
    const id = await deploy(
      n,
      thief,
      await transferring(n, { from: carol.addressBytes, to: bob.addressBytes, value: 1n * KOIN }),
    );
    const [carolBefore, bobBefore] = [await balanceOf(n, carol.addressBytes), await balanceOf(n, bob.addressBytes)];
    // The KOIN failure (authorization_failure) comes back to the contract as a code; nothing moves.
    expect((await run(n, carol, [callOp(id)])).reverted ?? false).toBe(false);
    expect(await balanceOf(n, carol.addressBytes)).toBe(carolBefore);
    expect(await balanceOf(n, bob.addressBytes)).toBe(bobBefore);
  });

  it('moves KOIN of a contract account that authorizes calls only when its authorize says yes', async () => {
    const n = await node();
    const [alice, bob] = [key(0), key(1)];
    const results: Record<string, bigint> = {};
    for (const [label, answer, walletKey, moverKey] of [
      ['yes', true, 63, 64],
      ['no', false, 65, 66],
    ] as const) {
      const wallet = key(walletKey);
      // A smart wallet: every call, `authorize` included, answers bool_result { value: answer }.
      const upload: Operation = {
        upload_contract: {
          contract_id: wallet.addressBytes,
          bytecode: await constantContract(encode('koinos.chain.bool_result', { value: answer })),
          abi: '',
          authorizes_call_contract: true,
          authorizes_transaction_application: false,
          authorizes_upload_contract: false,
        },
      };
      expect((await run(n, alice, [upload], { signers: [alice, wallet] })).reverted ?? false).toBe(false);
      await submit(n, await transferTx(n, alice, wallet, 5n * KOIN));
      await n.produceBlock();
      const mover = await deploy(
        n,
        key(moverKey),
        await transferring(n, { from: wallet.addressBytes, to: bob.addressBytes, value: 1n * KOIN }),
      );
      await run(n, bob, [callOp(mover)]);
      results[label] = await balanceOf(n, wallet.addressBytes);
    }
    expect(results).toEqual({ yes: 4n * KOIN, no: 5n * KOIN });
  });
});
