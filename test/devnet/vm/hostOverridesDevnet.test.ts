// set_system_contract and set_system_call on a running devnet: a transaction signed by the genesis key points
// get_contract_name at an uploaded contract, whose answer a wasm contract then reads; without the genesis key the
// transaction reverts with the chain's system_authorization_failure.
import { describe, expect, it } from 'vitest';
import { SYSTEM_CALL_IDS } from '../../../src-main/devnet/vm/systemCallIds.ts';
import { decode, encode } from '../../../src-main/koinos/codec.ts';
import type { Operation } from '../../../src-main/koinos/types.ts';
import { genesisKey, key, koinTx, rejection, submit, testNodes } from '../helpers.ts';
import { constantContract, probeContract, probeResult } from './hostEnv.ts';

const NS = 'koinos.contracts.name_service.';
const node = testNodes();

function upload(contractId: Uint8Array, bytecode: Uint8Array): Operation {
  return {
    upload_contract: {
      contract_id: contractId,
      bytecode,
      abi: '',
      authorizes_call_contract: false,
      authorizes_transaction_application: false,
      authorizes_upload_contract: false,
    },
  };
}

describe('system call overrides on the devnet', () => {
  it('overrides get_contract_name with an uploaded system contract under the genesis key', async () => {
    const n = await node();
    const names = key(40);
    const reader = key(41);
    const answer = encode(`${NS}get_name_result`, { value: { name: 'devnet-override' } });
    const args = encode(`${NS}get_name_arguments`, { address: key(0).addressBytes });
    const operations: Operation[] = [
      upload(names.addressBytes, await constantContract(answer)),
      { set_system_contract: { contract_id: names.addressBytes, system_contract: true } },
      {
        set_system_call: {
          call_id: SYSTEM_CALL_IDS.get_contract_name,
          target: { system_call_bundle: { contract_id: names.addressBytes, entry_point: 0 } },
        },
      },
      upload(reader.addressBytes, await probeContract(SYSTEM_CALL_IDS.get_contract_name, args)),
    ];
    const genesis = genesisKey();
    const tx = await koinTx(n, genesis, 'transfer', {}, { operations, signers: [genesis, names, reader] });
    const receipt = await submit(n, tx);
    expect(receipt.reverted ?? false).toBe(false);
    expect(receipt.events.map((e) => e.name)).toEqual([
      'koinos.chain.set_system_contract_event',
      'koinos.chain.set_system_call_event',
    ]);
    await n.produceBlock();

    const { result } = (await n.call('chain.read_contract', {
      contract_id: reader.addressBytes,
      entry_point: 0,
      args: new Uint8Array(0),
    })) as { result: Uint8Array };
    const { code, bytes } = probeResult(result);
    expect(code).toBe(0);
    expect(decode(`${NS}get_name_result`, bytes)).toEqual({ value: { name: 'devnet-override' } });
  });

  it('reverts set_system_call without a signature of the genesis key', async () => {
    const n = await node();
    const user = key(0);
    const tx = await koinTx(
      n,
      user,
      'transfer',
      {},
      {
        operations: [{ set_system_call: { call_id: SYSTEM_CALL_IDS.log, target: { thunk_id: SYSTEM_CALL_IDS.nop } } }],
      },
    );
    const error = await rejection(submit(n, tx));
    expect(error.message).toBe('system authority required');
    expect(error.data.code ?? error.code).toBe(101);
  });

  it('applies an override from the block after the one that sets it, as the chain reads overrides from the parent state', async () => {
    const n = await node();
    const logger = key(42);
    const logArgs = encode('koinos.chain.log_arguments', { message: 'hello' });
    const payer = key(0);
    await submit(
      n,
      await koinTx(
        n,
        payer,
        'transfer',
        {},
        {
          operations: [upload(logger.addressBytes, await probeContract(SYSTEM_CALL_IDS.log, logArgs))],
          signers: [payer, logger],
        },
      ),
    );
    await n.produceBlock();
    const callLogger: Operation = {
      call_contract: { contract_id: logger.addressBytes, entry_point: 0, args: new Uint8Array(0) },
    };

    // log answered by the event thunk: its log_arguments read as event_arguments name an event "hello".
    const genesis = genesisKey();
    await submit(
      n,
      await koinTx(
        n,
        genesis,
        'transfer',
        {},
        {
          operations: [
            { set_system_call: { call_id: SYSTEM_CALL_IDS.log, target: { thunk_id: SYSTEM_CALL_IDS.event } } },
          ],
        },
      ),
    );
    const sameBlock = await submit(n, await koinTx(n, payer, 'transfer', {}, { operations: [callLogger] }));
    expect(sameBlock.logs).toEqual(['hello']);
    const block = await n.produceBlock();
    const { block_items } = (await n.call('block_store.get_blocks_by_height', {
      head_block_id: block.id,
      ancestor_start_height: block.height,
      num_blocks: 1,
      return_block: false,
      return_receipt: true,
    })) as { block_items: { receipt: { transaction_receipts: { logs: string[]; events: { name: string }[] }[] } }[] };
    const inBlock = block_items[0]!.receipt.transaction_receipts[1]!;
    expect([inBlock.logs, inBlock.events]).toEqual([['hello'], []]);

    const nextBlock = await submit(n, await koinTx(n, payer, 'transfer', {}, { operations: [callLogger] }));
    expect(nextBlock.logs).toEqual([]);
    expect(nextBlock.events.map((e) => [e.name, e.source])).toEqual([['hello', logger.addressBytes]]);
  });
});
