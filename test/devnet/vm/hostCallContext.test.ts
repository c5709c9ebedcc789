// The chain facts a contract sees on the devnet: get_chain_id, get_head_info and get_last_irreversible_block answer
// what chain.get_chain_id / chain.get_head_info answer over JSON-RPC; inside a block, get_head_info and
// get_block_field answer the block being applied (the one the devnet then writes); outside one there is no block.
import { describe, expect, it } from 'vitest';
import { SYSTEM_CALL_IDS } from '../../../src-main/devnet/vm/systemCallIds.ts';
import type { DevnetNode } from '../../../src-main/devnet/types.ts';
import { decode, encode } from '../../../src-main/koinos/codec.ts';
import type { Operation } from '../../../src-main/koinos/types.ts';
import { genesisKey, key, koinTx, rejection, storedBlock, submit, testNodes } from '../helpers.ts';
import { eventProbeContract, probeContract, probeResult } from './hostEnv.ts';

const M = 'koinos.chain.';
const node = testNodes({ irreversibleDepth: 2 });

async function deploy(n: DevnetNode, keyIndex: number, bytecode: Uint8Array): Promise<Uint8Array> {
  const contract = key(keyIndex);
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
  const receipt = await submit(
    n,
    await koinTx(n, payer, 'transfer', {}, { operations: [upload], signers: [payer, contract] }),
  );
  expect(receipt.reverted ?? false).toBe(false);
  await n.produceBlock();
  return contract.addressBytes;
}

async function read(n: DevnetNode, contractId: Uint8Array) {
  const { result } = (await n.call('chain.read_contract', {
    contract_id: contractId,
    entry_point: 0,
    args: new Uint8Array(0),
  })) as { result: Uint8Array };
  return probeResult(result);
}

describe('chain facts inside contracts', () => {
  it('answers the chain id, the head and the last irreversible block as JSON-RPC does', async () => {
    const n = await node();
    const chainProbe = await deploy(n, 50, await probeContract(SYSTEM_CALL_IDS.get_chain_id, new Uint8Array(0)));
    const headProbe = await deploy(
      n,
      51,
      await probeContract(SYSTEM_CALL_IDS.get_head_info, new Uint8Array(0), { retLen: 120 }),
    );
    const libProbe = await deploy(
      n,
      52,
      await probeContract(SYSTEM_CALL_IDS.get_last_irreversible_block, new Uint8Array(0)),
    );
    await n.produceBlock();
    await n.produceBlock();

    const chainId = await read(n, chainProbe);
    expect(decode(`${M}get_chain_id_result`, chainId.bytes)).toEqual({
      value: ((await n.call('chain.get_chain_id', {})) as { chain_id: Uint8Array }).chain_id,
    });

    const rpcHead = (await n.call('chain.get_head_info', {})) as {
      head_topology: object;
      head_block_time: bigint;
      last_irreversible_block: bigint;
    };
    const head = await read(n, headProbe);
    expect(head.code).toBe(0);
    expect(decode(`${M}get_head_info_result`, head.bytes)).toEqual({
      value: {
        head_topology: rpcHead.head_topology,
        head_block_time: rpcHead.head_block_time,
        last_irreversible_block: rpcHead.last_irreversible_block,
      },
    });
    expect(rpcHead.last_irreversible_block).toBeGreaterThan(0n);
    expect(decode(`${M}get_last_irreversible_block_result`, (await read(n, libProbe)).bytes)).toEqual({
      value: rpcHead.last_irreversible_block,
    });
  });

  it('gives a contract inside a block that block: its head info and its fields', async () => {
    const n = await node();
    const headProbe = await deploy(n, 53, await eventProbeContract(SYSTEM_CALL_IDS.get_head_info, new Uint8Array(0)));
    // A system contract: in kernel mode a failed system call comes back as a code, so the submission (no block yet)
    // goes through, and inside the block the field is there.
    const idProbe = await deploy(
      n,
      54,
      await eventProbeContract(
        SYSTEM_CALL_IDS.get_block_field,
        encode(`${M}get_block_field_arguments`, { field: 'id' }),
      ),
    );
    const system: Operation = { set_system_contract: { contract_id: idProbe, system_contract: true } };
    expect(
      (await submit(n, await koinTx(n, genesisKey(), 'transfer', {}, { operations: [system] }))).reverted ?? false,
    ).toBe(false);
    await n.produceBlock();
    const before = (await n.call('chain.get_head_info', {})) as { head_topology: { id: Uint8Array; height: bigint } };
    const payer = key(0);
    const calls: Operation[] = [headProbe, idProbe].map((contract_id) => ({
      call_contract: { contract_id, entry_point: 0, args: new Uint8Array(0) },
    }));
    const tx = await koinTx(n, payer, 'transfer', {}, { operations: calls });
    const submitted = await submit(n, tx);
    // At submission there is no block: the head is the head block.
    const seenAtSubmission = decode(`${M}get_head_info_result`, submitted.events[0]!.data);
    expect(seenAtSubmission.value?.head_topology?.id).toEqual(before.head_topology.id);
    expect(decode(`${M}error_data`, submitted.events[1]!.data)).toEqual({ message: 'block does not exist' });

    const block = await n.produceBlock();
    const item = await storedBlock(n, block);
    const events = item.receipt.transaction_receipts[0]!.events;
    const head = decode(`${M}get_head_info_result`, events[0]!.data);
    expect(head.value).toEqual({
      head_topology: { id: block.id, previous: before.head_topology.id, height: block.height },
      head_block_time: item.block.header.timestamp,
      last_irreversible_block: block.height - 2n,
    });
    expect(decode(`${M}get_block_field_result`, events[1]!.data)).toEqual({ value: { bytes_value: block.id } });
  });

  it('has no block outside one: get_block fails with the chain internal error', async () => {
    const n = await node();
    const blockProbe = await deploy(n, 55, await probeContract(SYSTEM_CALL_IDS.get_block, new Uint8Array(0)));
    const error = await rejection(
      n.call('chain.read_contract', { contract_id: blockProbe, entry_point: 0, args: new Uint8Array(0) }),
    );
    expect(error.message).toBe('block does not exist');
  });

  it('answers mana and resource limits as chain.get_account_rc and chain.get_resource_limits do', async () => {
    const n = await node();
    const account = key(1).addressBytes;
    const rcProbe = await deploy(
      n,
      56,
      await probeContract(SYSTEM_CALL_IDS.get_account_rc, encode(`${M}get_account_rc_arguments`, { account })),
    );
    const limitsProbe = await deploy(
      n,
      57,
      await probeContract(SYSTEM_CALL_IDS.get_resource_limits, new Uint8Array(0)),
    );
    const { rc } = (await n.call('chain.get_account_rc', { account })) as { rc: bigint };
    expect(decode(`${M}get_account_rc_result`, (await read(n, rcProbe)).bytes)).toEqual({ value: rc });
    const { resource_limit_data } = (await n.call('chain.get_resource_limits', {})) as { resource_limit_data: object };
    expect(decode(`${M}get_resource_limits_result`, (await read(n, limitsProbe)).bytes)).toEqual({
      value: resource_limit_data,
    });
  });
});
