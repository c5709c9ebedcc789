// The host as koinos-chain's: system calls from a contract with their messages, frames and permissions, reversions
// that abort user code and failures that come back as codes, exit and its error data, return buffers, read-only runs.
import { describe, expect, it } from 'vitest';
import { ChainError } from '../../../src-main/devnet/state/chainError.ts';
import { devKey } from '../../../src-main/devnet/chain/devKeys.ts';
import { callContract, readContract } from '../../../src-main/devnet/vm/contractOperations.ts';
import { MemoryObjectStore } from '../../../src-main/devnet/vm/objectStore.ts';
import { SYSTEM_CALL_IDS } from '../../../src-main/devnet/vm/systemCallIds.ts';
import { decode, encode } from '../../../src-main/koinos/codec.ts';
import { deploy, probeContract, probeResult, signedTransaction, testEnv, chainErrorOf } from './hostEnv.ts';
import { wat } from './wat.ts';

const CONTRACT_KEY = 20;

async function probe(
  sid: number,
  args: object | Uint8Array,
  options: { retLen?: number; thunk?: boolean; argsType?: string; readOnly?: boolean } = {},
) {
  const state = new MemoryObjectStore();
  const argBytes = args instanceof Uint8Array ? args : encode(options.argsType!, args);
  const id = deploy(state, await probeContract(sid, argBytes, options), CONTRACT_KEY);
  const env = testEnv({ state, readOnly: options.readOnly });
  const run = options.readOnly ? readContract : callContract;
  return { id, env, ...probeResult(run(env, id, 0x1234, new Uint8Array([7, 8, 9])).result) };
}

async function failingProbe(
  sid: number,
  args: object,
  argsType: string,
  options: { retLen?: number; thunk?: boolean; readOnly?: boolean } = {},
): Promise<ChainError> {
  const state = new MemoryObjectStore();
  const id = deploy(state, await probeContract(sid, encode(argsType, args), options), CONTRACT_KEY);
  const env = testEnv({ state, readOnly: options.readOnly });
  return chainErrorOf(() => (options.readOnly ? readContract : callContract)(env, id, 1, new Uint8Array(0)));
}

describe('system calls from a contract', () => {
  it('answers get_contract_id, get_arguments and get_caller from the frames', async () => {
    const own = await probe(SYSTEM_CALL_IDS.get_contract_id, new Uint8Array(0));
    expect(own.code).toBe(0);
    expect(decode('koinos.chain.bytes_result', own.bytes).value).toEqual(devKey(CONTRACT_KEY).addressBytes);

    const args = await probe(SYSTEM_CALL_IDS.get_arguments, new Uint8Array(0));
    expect(decode('koinos.chain.get_arguments_result', args.bytes)).toEqual({
      value: { entry_point: 0x1234, arguments: new Uint8Array([7, 8, 9]) },
    });

    const caller = await probe(SYSTEM_CALL_IDS.get_caller, new Uint8Array(0));
    // A transaction's own operation: no calling contract, user mode (apply_call_contract_operation drops to it).
    expect(decode('koinos.chain.get_caller_result', caller.bytes)).toEqual({
      value: { caller: new Uint8Array(0), caller_privilege: 1 },
    });
  });

  it('puts, gets and walks objects in its own zone, charging disk', async () => {
    const state = new MemoryObjectStore();
    const zone = devKey(CONTRACT_KEY).addressBytes;
    const put = await probeContract(
      SYSTEM_CALL_IDS.put_object,
      encode('koinos.chain.put_object_arguments', {
        space: { zone, id: 1 },
        key: new Uint8Array([5]),
        obj: new Uint8Array([42]),
      }),
    );
    const id = deploy(state, put, CONTRACT_KEY);
    const env = testEnv({ state });
    expect(probeResult(callContract(env, id, 0, new Uint8Array(0)).result).code).toBe(0);
    expect(env.disk).toBeGreaterThan(0);
    expect(state.get({ system: false, zone, id: 1 }, new Uint8Array([5]))).toEqual(new Uint8Array([42]));

    const get = await probe(
      SYSTEM_CALL_IDS.get_object,
      { space: { zone, id: 1 }, key: new Uint8Array([5]) },
      { argsType: 'koinos.chain.object_arguments' },
    );
    expect(get.code).toBe(0);
    expect(get.bytes.length).toBe(0); // a fresh store: nothing there, and an empty result message as the chain sends
  });

  it('refuses another contract zone, and system spaces to user code', async () => {
    const other = devKey(21).addressBytes;
    const zoneError = await failingProbe(
      SYSTEM_CALL_IDS.put_object,
      { space: { zone: other, id: 1 }, key: new Uint8Array([1]), obj: new Uint8Array([1]) },
      'koinos.chain.put_object_arguments',
    );
    expect([zoneError.code, zoneError.message]).toEqual([1, 'user code cannot access other contract space']);
    const systemError = await failingProbe(
      SYSTEM_CALL_IDS.get_object,
      { space: { system: true, id: 2 }, key: new Uint8Array([1]) },
      'koinos.chain.object_arguments',
    );
    expect([systemError.code, systemError.message]).toEqual([103, 'user code cannot access system space']);
  });

  it('returns failures to the contract as codes with their error data', async () => {
    const result = await probe(
      SYSTEM_CALL_IDS.hash,
      { code: 0x99n, obj: new Uint8Array([1]) },
      { argsType: 'koinos.chain.hash_arguments' },
    );
    expect(result.code).toBe(-101);
    expect(decode('koinos.chain.error_data', result.bytes)).toEqual({ message: 'unknown hash code' });
  });

  it('hashes with sha2-256 into a multihash', async () => {
    const result = await probe(
      SYSTEM_CALL_IDS.hash,
      { code: 0x12n, obj: new TextEncoder().encode('abc') },
      { argsType: 'koinos.chain.hash_arguments' },
    );
    const value = decode('koinos.chain.bytes_result', result.bytes).value;
    expect(Buffer.from(value).toString('hex')).toBe(
      '1220ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('aborts user code on a return buffer too small (105)', async () => {
    const error = await failingProbe(SYSTEM_CALL_IDS.get_head_info, {}, 'koinos.chain.log_arguments', { retLen: 2 });
    expect([error.code, error.message]).toEqual([105, 'return buffer is not large enough for the return value']);
  });

  it('refuses invoke_thunk from user mode', async () => {
    const error = await failingProbe(SYSTEM_CALL_IDS.get_head_info, {}, 'koinos.chain.log_arguments', { thunk: true });
    expect([error.code, error.message]).toEqual([103, "'invoke_thunk' must be called from a system context"]);
  });

  it('refuses writes in a read-only call', async () => {
    const zone = devKey(CONTRACT_KEY).addressBytes;
    const error = await failingProbe(
      SYSTEM_CALL_IDS.put_object,
      { space: { zone, id: 1 }, key: new Uint8Array([1]), obj: new Uint8Array([1]) },
      'koinos.chain.put_object_arguments',
      { readOnly: true },
    );
    expect([error.code, error.message]).toEqual([108, 'cannot put object during read only call']);
  });

  it('records logs and events with the contract as source', async () => {
    const logged = await probe(SYSTEM_CALL_IDS.log, { message: 'hello' }, { argsType: 'koinos.chain.log_arguments' });
    expect(logged.env.logs).toEqual(['hello']);
    const emitted = await probe(
      SYSTEM_CALL_IDS.event,
      { name: 'my.event', data: new Uint8Array([1]), impacted: [devKey(1).addressBytes] },
      { argsType: 'koinos.chain.event_arguments' },
    );
    expect(emitted.env.events).toEqual([
      {
        sequence: 0,
        source: emitted.id,
        name: 'my.event',
        data: new Uint8Array([1]),
        impacted: [devKey(1).addressBytes],
      },
    ]);
    const unnamed = await failingProbe(SYSTEM_CALL_IDS.event, { name: '' }, 'koinos.chain.event_arguments');
    expect(unnamed.message).toBe('event name cannot be empty');
  });

  it('answers an account without a nonce object with a uint64 0 value_type', async () => {
    const result = await probe(
      SYSTEM_CALL_IDS.get_account_nonce,
      { account: devKey(3).addressBytes },
      { argsType: 'koinos.chain.get_account_nonce_arguments' },
    );
    const { value } = decode('koinos.chain.get_account_nonce_result', result.bytes);
    expect(Buffer.from(value).toString('hex')).toBe('2800');
  });

  it('answers transaction fields as value_type', async () => {
    const result = await probe(
      SYSTEM_CALL_IDS.get_transaction_field,
      { field: 'id' },
      { argsType: 'koinos.chain.get_transaction_field_arguments' },
    );
    expect(decode('koinos.chain.get_transaction_field_result', result.bytes)).toEqual({
      value: { bytes_value: signedTransaction('no signer').id },
    });
    const missing = await probe(
      SYSTEM_CALL_IDS.get_transaction_field,
      { field: 'nope' },
      { argsType: 'koinos.chain.get_transaction_field_arguments' },
    );
    expect(missing.code).toBe(-100);
  });
});

describe('exit', () => {
  async function exitContract(code: number, message?: string): Promise<Uint8Array> {
    const args = encode(
      'koinos.chain.exit_arguments',
      message === undefined ? { code } : { code, res: { error: { message } } },
    );
    const bytes = [...args].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
    return wat(`(module
      (import "env" "invoke_system_call" (func $sys (param i32 i32 i32 i32 i32 i32) (result i32)))
      (memory 1) (data (i32.const 0) "${bytes}")
      (func (export "_start") (drop (call $sys (i32.const 602) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const ${args.length}) (i32.const 512)))))`);
  }

  async function run(code: number, message?: string) {
    const state = new MemoryObjectStore();
    const id = deploy(state, await exitContract(code, message), CONTRACT_KEY);
    return {
      call: chainErrorOf(() => callContract(testEnv({ state }), id, 0, new Uint8Array(0))),
      read: chainErrorOf(() => readContract(testEnv({ state, readOnly: true }), id, 0, new Uint8Array(0))),
    };
  }

  it('reverts with the contract message and code', async () => {
    const { call } = await run(5, 'not today');
    expect([call.code, call.message]).toEqual([5, 'not today']);
  });

  it('turns a failure into a reversion for a transaction, but not for a read', async () => {
    const { call, read } = await run(-1, 'insufficient balance');
    expect([call.code, call.message]).toEqual([1, 'insufficient balance']);
    expect([read.code, read.message]).toEqual([-1, 'insufficient balance']);
  });

  it('refuses an error exit without error data', async () => {
    const { call } = await run(7);
    expect([call.code, call.message]).toEqual([1, 'exit error did not contain error data']);
  });

  it('reports a contract that does not exist', () => {
    const error = chainErrorOf(() => callContract(testEnv(), devKey(30).addressBytes, 0, new Uint8Array(0)));
    expect([error.code, error.message]).toEqual([102, 'contract does not exist']);
  });
});

describe('upload', () => {
  it('needs the signature of the contract key', async () => {
    const state = new MemoryObjectStore();
    const env = testEnv({ state, transaction: signedTransaction('upload by someone else', 3) });
    const { uploadContract } = await import('../../../src-main/devnet/vm/contractOperations.ts');
    const key = devKey(CONTRACT_KEY);
    const error = chainErrorOf(() =>
      uploadContract(
        env,
        {
          contract_id: key.addressBytes,
          bytecode: new Uint8Array([1]),
          abi: '',
          authorizes_call_contract: false,
          authorizes_transaction_application: false,
          authorizes_upload_contract: false,
        },
        key.address,
      ),
    );
    expect([error.code, error.message]).toEqual([-200, `account ${key.address} has not authorized action`]);
  });

  it('stores bytecode and metadata with the sha256 multihash', async () => {
    const state = new MemoryObjectStore();
    const bytecode = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    const id = deploy(state, bytecode, CONTRACT_KEY, { authorizes_call_contract: true });
    expect(state.get({ system: true, zone: new Uint8Array(0), id: 2 }, id)).toEqual(bytecode);
    const meta = decode(
      'koinos.chain.contract_metadata_object',
      state.get({ system: true, zone: new Uint8Array(0), id: 3 }, id)!,
    );
    expect(meta.authorizes_call_contract).toBe(true);
    expect(Buffer.from(meta.hash as Uint8Array).toString('hex')).toBe(
      '1220' + Buffer.from(await crypto.subtle.digest('SHA-256', bytecode)).toString('hex'),
    );
  });
});

describe('object order', () => {
  it('walks keys in the order of their serialized database key: empty, then shorter, then longer', () => {
    const store = new MemoryObjectStore();
    const space = { system: false, zone: new Uint8Array([1]), id: 1 };
    for (const key of [[1, 2], [5], [], [9]]) store.put(space, new Uint8Array(key), new Uint8Array([key.length]));
    store.put({ ...space, id: 2 }, new Uint8Array([0]), new Uint8Array([0]));
    const walk: number[][] = [];
    for (let o = store.next(space, new Uint8Array(0)); o; o = store.next(space, o.key)) walk.push([...o.key]);
    expect(walk).toEqual([[5], [9], [1, 2]]);
    expect([...store.prev(space, new Uint8Array([1, 2]))!.key]).toEqual([9]);
    expect(store.prev(space, new Uint8Array(0))).toBeUndefined();
    expect(store.next(space, new Uint8Array([1, 2]))).toBeUndefined();
  });
});
