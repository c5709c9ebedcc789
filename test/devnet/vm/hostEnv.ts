// Test helpers for the host: an environment over an in-memory object store, a compute meter with a limit, transactions
// signed by development keys, and a WAT probe contract that makes one system call and exits with what it got back.
import { expect } from 'vitest';
import { ChainError, ERROR_CODE } from '../../../src-main/devnet/state/chainError.ts';
import { devKey, GENESIS_KEY_INDEX } from '../../../src-main/devnet/chain/devKeys.ts';
import type {
  ComputeMeter,
  HostEnvironment,
  ResourceLimitData,
  SystemServices,
} from '../../../src-main/devnet/vm/executionContext.ts';
import { MemoryObjectStore } from '../../../src-main/devnet/vm/objectStore.ts';
import { uploadContract } from '../../../src-main/devnet/vm/contractOperations.ts';
import { multihashSha256, sha256 } from '../../../src-main/koinos/hash.ts';
import { signDigest } from '../../../src-main/koinos/keys.ts';
import { encode } from '../../../src-main/koinos/codec.ts';
import type { Transaction } from '../../../src-main/koinos/types.ts';
import { wat } from './wat.ts';

export class TestComputeMeter implements ComputeMeter {
  used = 0n;
  limit: bigint;

  constructor(limit = 100_000_000n) {
    this.limit = limit;
  }

  remaining(): bigint {
    return this.limit - this.used;
  }

  use(compute: bigint): void {
    if (compute > this.remaining()) {
      this.used = this.limit;
      throw new ChainError(ERROR_CODE.insufficient_rc, 'insufficient rc');
    }
    this.used += compute;
  }
}

/** A transaction whose id is the sha256 multihash of `label`, signed by the given development keys. */
export function signedTransaction(label: string, ...keyIndexes: number[]): Transaction {
  const digest = sha256(new TextEncoder().encode(label));
  return {
    id: multihashSha256(digest),
    operations: [],
    signatures: keyIndexes.map((i) => signDigest(digest, devKey(i).privateKey)),
  };
}

/** System services over plain maps: mana by address (hex), system names, native contract metadata. */
export class TestServices implements SystemServices {
  readonly mana = new Map<string, bigint>();
  readonly names = new Map<string, Uint8Array>();
  limits: ResourceLimitData = {
    disk_storage_limit: 1n,
    disk_storage_cost: 2n,
    network_bandwidth_limit: 3n,
    network_bandwidth_cost: 4n,
    compute_bandwidth_limit: 5n,
    compute_bandwidth_cost: 6n,
  };
  readonly natives = new Map<string, { hash: Uint8Array; system: boolean }>();

  accountRc(account: Uint8Array): bigint {
    return this.mana.get(Buffer.from(account).toString('hex')) ?? 0n;
  }

  consumeAccountRc(account: Uint8Array, rc: bigint): boolean {
    const have = this.accountRc(account);
    if (have < rc) return false;
    this.mana.set(Buffer.from(account).toString('hex'), have - rc);
    return true;
  }

  resourceLimits(): ResourceLimitData {
    return this.limits;
  }

  contractName(address: Uint8Array): string | undefined {
    return [...this.names].find(([, a]) => Buffer.compare(a, address) === 0)?.[0];
  }

  contractAddress(name: string): Uint8Array | undefined {
    return this.names.get(name);
  }

  nativeMetadata(contractId: Uint8Array) {
    return this.natives.get(Buffer.from(contractId).toString('hex'));
  }
}

export type TestEnv = HostEnvironment & {
  meter: TestComputeMeter;
  state: MemoryObjectStore;
  disk: number;
  services: TestServices;
};

export function testEnv(
  options: { readOnly?: boolean; transaction?: Transaction; limit?: bigint; state?: MemoryObjectStore } = {},
): TestEnv {
  const env: TestEnv = {
    state: options.state ?? new MemoryObjectStore(),
    meter: new TestComputeMeter(options.limit),
    readOnly: options.readOnly ?? false,
    chainId: multihashSha256(sha256(new TextEncoder().encode('test chain'))),
    headInfo: () => ({
      head_topology: { id: new Uint8Array(34), previous: new Uint8Array(34), height: 7n },
      head_block_time: 1_700_000_000_000n,
      last_irreversible_block: 0n,
    }),
    transaction: options.transaction ?? signedTransaction('no signer'),
    events: [],
    logs: [],
    sequence: { next: 0 },
    disk: 0,
    genesisAddress: devKey(GENESIS_KEY_INDEX).addressBytes,
    services: new TestServices(),
    useDisk(bytes: number) {
      env.disk += bytes;
    },
  };
  return env;
}

/** Uploads `bytecode` at the address of development key `keyIndex`, signed by that key; returns the address. */
export function deploy(
  state: MemoryObjectStore,
  bytecode: Uint8Array,
  keyIndex: number,
  flags: Partial<
    Record<'authorizes_call_contract' | 'authorizes_transaction_application' | 'authorizes_upload_contract', boolean>
  > = {},
): Uint8Array {
  const key = devKey(keyIndex);
  const env = testEnv({ state, transaction: signedTransaction(`upload ${keyIndex}`, keyIndex) });
  uploadContract(
    env,
    {
      contract_id: key.addressBytes,
      bytecode,
      abi: '',
      authorizes_call_contract: flags.authorizes_call_contract ?? false,
      authorizes_transaction_application: flags.authorizes_transaction_application ?? false,
      authorizes_upload_contract: flags.authorizes_upload_contract ?? false,
    },
    key.address,
  );
  return key.addressBytes;
}

function watBytes(bytes: Uint8Array): string {
  return [...bytes].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
}

/**
 * A contract that calls system call `sid` (through invoke_thunk when `thunk`) with `args`, then exits with result
 * object = the return code (i32 little-endian) followed by the bytes the call wrote (at most 100).
 */
export async function probeContract(
  sid: number,
  args: Uint8Array,
  options: { retLen?: number; thunk?: boolean } = {},
): Promise<Uint8Array> {
  const retLen = options.retLen ?? 100;
  const fn = options.thunk ? '$thunk' : '$sys';
  return wat(`(module
    (type $h (func (param i32 i32 i32 i32 i32 i32) (result i32)))
    (import "env" "invoke_thunk" (func $thunk (type $h)))
    (import "env" "invoke_system_call" (func $sys (type $h)))
    (memory (export "memory") 1)
    (data (i32.const 0) "${watBytes(args)}")
    (func (export "_start") (local $rc i32) (local $n i32)
      (local.set $rc (call ${fn} (i32.const ${sid}) (i32.const 4110) (i32.const ${retLen}) (i32.const 0) (i32.const ${args.length}) (i32.const 1024)))
      (local.set $n (i32.load (i32.const 1024)))
      (i32.store (i32.const 4106) (local.get $rc))
      (i32.store8 (i32.const 4102) (i32.const 0x12))
      (i32.store8 (i32.const 4103) (i32.add (local.get $n) (i32.const 6)))
      (i32.store8 (i32.const 4104) (i32.const 0x0a))
      (i32.store8 (i32.const 4105) (i32.add (local.get $n) (i32.const 4)))
      (drop (call $sys (i32.const 602) (i32.const 0) (i32.const 0) (i32.const 4102) (i32.add (local.get $n) (i32.const 8)) (i32.const 1024)))))`);
}

/** The return code and bytes a probe contract exited with. */
export function probeResult(result: Uint8Array): { code: number; bytes: Uint8Array } {
  const view = new DataView(result.buffer, result.byteOffset, result.byteLength);
  return { code: view.getInt32(0, true), bytes: result.subarray(4) };
}

/** A contract that exits at once with `object` as its result (an override that answers a constant). */
export function constantContract(object: Uint8Array): Promise<Uint8Array> {
  const exitArgs = encode('koinos.chain.exit_arguments', { code: 0, res: { object } });
  return wat(`(module
    (type $h (func (param i32 i32 i32 i32 i32 i32) (result i32)))
    (import "env" "invoke_system_call" (func $sys (type $h)))
    (memory (export "memory") 1)
    (data (i32.const 0) "${watBytes(exitArgs)}")
    (func (export "_start") (drop (call $sys (i32.const 602) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const ${exitArgs.length}) (i32.const 1024)))))`);
}

/**
 * A contract that calls system call `sid` with `args` and emits an event "probe" whose data is what the call wrote
 * (at most 127 bytes), then exits: what a contract saw inside a block shows in the block's receipt.
 */
export function eventProbeContract(sid: number, args: Uint8Array): Promise<Uint8Array> {
  const prefix = Uint8Array.from([0x0a, 5, ...new TextEncoder().encode('probe'), 0x12]);
  return wat(`(module
    (type $h (func (param i32 i32 i32 i32 i32 i32) (result i32)))
    (import "env" "invoke_system_call" (func $sys (type $h)))
    (memory (export "memory") 1)
    (data (i32.const 0) "${watBytes(args)}")
    (data (i32.const 2000) "${watBytes(prefix)}")
    (func (export "_start") (local $n i32)
      (drop (call $sys (i32.const ${sid}) (i32.const 2009) (i32.const 127) (i32.const 0) (i32.const ${args.length}) (i32.const 1024)))
      (local.set $n (i32.load (i32.const 1024)))
      (i32.store8 (i32.const 2008) (local.get $n))
      (drop (call $sys (i32.const 402) (i32.const 0) (i32.const 0) (i32.const 2000) (i32.add (i32.const 9) (local.get $n)) (i32.const 1024)))
      (drop (call $sys (i32.const 602) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 1024)))))`);
}

/** The chain error `fn` throws (the test fails when it throws something else or nothing). */
export function chainErrorOf(fn: () => unknown): ChainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ChainError);
    return error as ChainError;
  }
  throw new Error('expected a chain error');
}
