// System-call overrides as koinos-chain applies and dispatches them: set_system_contract and set_system_call under
// the genesis authority (checks, dispatch key, events), then WAT contracts whose `log` and `get_contract_name` calls
// go to an override contract with their raw argument bytes, and a call id pointed at another thunk.
import { describe, expect, it } from 'vitest';
import { devKey, GENESIS_KEY_INDEX } from '../../../src-main/devnet/chain/devKeys.ts';
import {
  callContract,
  setSystemCall,
  setSystemContract,
  type SetSystemCallOperation,
} from '../../../src-main/devnet/vm/contractOperations.ts';
import { COMPUTE_REGISTRY } from '../../../src-main/devnet/vm/computeRegistry.ts';
import { MemoryObjectStore } from '../../../src-main/devnet/vm/objectStore.ts';
import { KERNEL_SPACE } from '../../../src-main/devnet/vm/stateThunks.ts';
import { SYSTEM_CALL_IDS } from '../../../src-main/devnet/vm/systemCallIds.ts';
import { decode, encode } from '../../../src-main/koinos/codec.ts';
import {
  constantContract,
  deploy,
  probeContract,
  probeResult,
  signedTransaction,
  testEnv,
  chainErrorOf,
} from './hostEnv.ts';
import { wat } from './wat.ts';

const NS = 'koinos.contracts.name_service.';

function watBytes(bytes: Uint8Array): string {
  return [...bytes].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
}

const HOST = `(type $h (func (param i32 i32 i32 i32 i32 i32) (result i32)))
    (import "env" "invoke_thunk" (func $thunk (type $h)))
    (import "env" "invoke_system_call" (func $sys (type $h)))
    (memory (export "memory") 1)`;

/** A contract that emits an event "log.override" whose data is its get_arguments result, then exits. */
function recordingContract(): Promise<Uint8Array> {
  const prefix = Uint8Array.from([0x0a, 12, ...new TextEncoder().encode('log.override'), 0x12]);
  return wat(`(module ${HOST}
    (data (i32.const 200) "${watBytes(prefix)}")
    (func (export "_start") (local $n i32)
      (drop (call $sys (i32.const 603) (i32.const 216) (i32.const 100) (i32.const 0) (i32.const 0) (i32.const 1024)))
      (local.set $n (i32.load (i32.const 1024)))
      (i32.store8 (i32.const 215) (local.get $n))
      (drop (call $sys (i32.const 402) (i32.const 0) (i32.const 0) (i32.const 200) (i32.add (i32.const 16) (local.get $n)) (i32.const 1024)))
      (drop (call $sys (i32.const 602) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 1024)))))`);
}

const genesisSigned = () => signedTransaction('set system', GENESIS_KEY_INDEX);

/** Uploads `bytecode` at key `keyIndex` and makes it a system contract; returns its id. */
function systemContract(state: MemoryObjectStore, bytecode: Uint8Array, keyIndex: number): Uint8Array {
  const id = deploy(state, bytecode, keyIndex);
  setSystemContract(testEnv({ state, transaction: genesisSigned() }), { contract_id: id, system_contract: true });
  return id;
}

function override(state: MemoryObjectStore, op: SetSystemCallOperation) {
  const env = testEnv({ state, transaction: genesisSigned() });
  setSystemCall(env, op);
  return env;
}

describe('set_system_contract', () => {
  it('flips system in the metadata under the genesis authority, with its event and charge', async () => {
    const state = new MemoryObjectStore();
    const id = deploy(state, await constantContract(new Uint8Array(0)), 30);
    const env = testEnv({ state, transaction: genesisSigned() });
    setSystemContract(env, { contract_id: id, system_contract: true });
    const meta = decode('koinos.chain.contract_metadata_object', state.get(KERNEL_SPACE.contractMetadata, id)!);
    expect(meta.system).toBe(true);
    expect(meta.hash?.length).toBe(34);
    expect(env.events).toEqual([
      {
        sequence: 0,
        source: new Uint8Array(0),
        name: 'koinos.chain.set_system_contract_event',
        data: encode('koinos.chain.set_system_contract_event', { contract_id: id, system_contract: true }),
        impacted: [],
      },
    ]);
    expect(env.meter.used).toBeGreaterThan(
      BigInt(COMPUTE_REGISTRY.apply_set_system_contract_operation + COMPUTE_REGISTRY.check_system_authority),
    );
  });

  it('needs a signature of the genesis key, and an uploaded contract', async () => {
    const state = new MemoryObjectStore();
    const id = deploy(state, await constantContract(new Uint8Array(0)), 30);
    const unsigned = chainErrorOf(() =>
      setSystemContract(testEnv({ state, transaction: signedTransaction('user', 30) }), {
        contract_id: id,
        system_contract: true,
      }),
    );
    expect([unsigned.code, unsigned.message]).toEqual([101, 'system authority required']);
    const missing = chainErrorOf(() =>
      setSystemContract(testEnv({ state, transaction: genesisSigned() }), {
        contract_id: devKey(31).addressBytes,
        system_contract: true,
      }),
    );
    expect([missing.code, missing.message]).toEqual([102, 'contract does not exist']);
  });

  it('runs a system contract in kernel mode, where invoke_thunk is allowed', async () => {
    const state = new MemoryObjectStore();
    const probe = await probeContract(SYSTEM_CALL_IDS.get_contract_id, new Uint8Array(0), { thunk: true });
    const id = deploy(state, probe, 32);
    expect(chainErrorOf(() => callContract(testEnv({ state }), id, 0, new Uint8Array(0))).code).toBe(103);
    setSystemContract(testEnv({ state, transaction: genesisSigned() }), { contract_id: id, system_contract: true });
    const { code, bytes } = probeResult(callContract(testEnv({ state }), id, 0, new Uint8Array(0)).result);
    expect(code).toBe(0);
    expect(decode('koinos.chain.bytes_result', bytes)).toEqual({ value: id });
  });
});

describe('set_system_call', () => {
  it('stores the target under the id as 4 big-endian bytes and emits the chain event', async () => {
    const state = new MemoryObjectStore();
    const target = systemContract(state, await constantContract(new Uint8Array(0)), 30);
    const op = {
      call_id: SYSTEM_CALL_IDS.get_contract_name,
      target: { system_call_bundle: { contract_id: target, entry_point: 7 } },
    };
    const env = override(state, op);
    const stored = state.get(KERNEL_SPACE.systemCallDispatch, new Uint8Array([0, 0, 0x27, 0x10]));
    expect(decode('koinos.protocol.system_call_target', stored!)).toEqual(op.target);
    expect(env.events.map((e) => [e.name, e.source.length])).toEqual([['koinos.chain.set_system_call_event', 0]]);
    expect(decode('koinos.chain.set_system_call_event', env.events[0]!.data)).toEqual(op);
  });

  it('refuses without the genesis key, a contract that is not a system one, call itself and a thunk that does not exist', async () => {
    const state = new MemoryObjectStore();
    const user = deploy(state, await constantContract(new Uint8Array(0)), 33);
    const system = systemContract(state, await constantContract(new Uint8Array(0)), 34);
    const unsigned = chainErrorOf(() =>
      setSystemCall(testEnv({ state, transaction: signedTransaction('user', 33) }), {
        call_id: 401,
        target: { thunk_id: 401 },
      }),
    );
    expect([unsigned.code, unsigned.message]).toEqual([101, 'system authority required']);
    const notSystem = chainErrorOf(() =>
      override(state, { call_id: 401, target: { system_call_bundle: { contract_id: user, entry_point: 0 } } }),
    );
    expect([notSystem.code, notSystem.message]).toEqual([102, 'contract is not a system contract']);
    const callItself = chainErrorOf(() =>
      override(state, {
        call_id: SYSTEM_CALL_IDS.call,
        target: { system_call_bundle: { contract_id: system, entry_point: 0 } },
      }),
    );
    expect([callItself.code, callItself.message]).toEqual([1, 'cannot override call_contract']);
    const noThunk = chainErrorOf(() =>
      override(state, { call_id: 401, target: { thunk_id: SYSTEM_CALL_IDS.get_contract_name } }),
    );
    expect([noThunk.code, noThunk.message]).toEqual([106, 'thunk 10000 does not exist']);
  });
});

describe('overridden system calls', () => {
  it('sends log to the override contract with the raw argument bytes, in its own frame', async () => {
    const state = new MemoryObjectStore();
    const recorder = systemContract(state, await recordingContract(), 35);
    override(state, {
      call_id: SYSTEM_CALL_IDS.log,
      target: { system_call_bundle: { contract_id: recorder, entry_point: 0x1234 } },
    });
    const logArgs = encode('koinos.chain.log_arguments', { message: 'hello' });
    const caller = deploy(state, await probeContract(SYSTEM_CALL_IDS.log, logArgs), 36);
    const env = testEnv({ state });
    expect(probeResult(callContract(env, caller, 0, new Uint8Array(0)).result).code).toBe(0);
    expect(env.logs).toEqual([]);
    expect(env.events.map((e) => [e.name, e.source])).toEqual([['log.override', recorder]]);
    expect(decode('koinos.chain.get_arguments_result', env.events[0]!.data)).toEqual({
      value: { entry_point: 0x1234, arguments: logArgs },
    });
  });

  it('answers get_contract_name with what the override contract exits with', async () => {
    const state = new MemoryObjectStore();
    const answer = encode(`${NS}get_name_result`, { value: { name: 'overridden' } });
    const names = systemContract(state, await constantContract(answer), 37);
    const args = encode(`${NS}get_name_arguments`, { address: devKey(1).addressBytes });
    const caller = deploy(state, await probeContract(SYSTEM_CALL_IDS.get_contract_name, args), 38);
    const before = probeResult(callContract(testEnv({ state }), caller, 0, new Uint8Array(0)).result);
    expect([before.code, before.bytes.length]).toEqual([0, 0]); // the devnet's own answer: no name for that address
    override(state, {
      call_id: SYSTEM_CALL_IDS.get_contract_name,
      target: { system_call_bundle: { contract_id: names, entry_point: 1 } },
    });
    const after = probeResult(callContract(testEnv({ state }), caller, 0, new Uint8Array(0)).result);
    expect(after.code).toBe(0);
    expect(decode(`${NS}get_name_result`, after.bytes)).toEqual({ value: { name: 'overridden' } });
  });

  it('runs another thunk for an overridden id, charged that thunk compute', async () => {
    const state = new MemoryObjectStore();
    override(state, { call_id: 13, target: { thunk_id: SYSTEM_CALL_IDS.get_chain_id } });
    const caller = deploy(state, await probeContract(13, new Uint8Array(0)), 39);
    const env = testEnv({ state });
    const { code, bytes } = probeResult(callContract(env, caller, 0, new Uint8Array(0)).result);
    expect(code).toBe(0);
    expect(decode('koinos.chain.get_chain_id_result', bytes)).toEqual({ value: env.chainId });
    const plain = deploy(state, await probeContract(SYSTEM_CALL_IDS.get_chain_id, new Uint8Array(0)), 40);
    const reference = testEnv({ state });
    callContract(reference, plain, 0, new Uint8Array(0));
    expect(env.meter.used).toBe(reference.meter.used);
  });
});
