// The execution context of the host, as koinos-chain's: a stack of frames (contract, privilege, arguments, entry
// point, system call id; 256 at most), the result a contract leaves with `exit`, and what the run may touch (state,
// meter, transaction, block, events and logs) given by the node that runs it.
import type { Block } from '../../koinos/types.ts';
import type { EventData, Operation, Transaction } from '../../koinos/types.ts';
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import { COMPUTE_REGISTRY, type ComputeName } from './computeRegistry.ts';
import type { ObjectStore } from './objectStore.ts';

/** koinos.chain.privilege */
export const PRIVILEGE = { kernel: 0, user: 1 } as const;
export type Privilege = (typeof PRIVILEGE)[keyof typeof PRIVILEGE];

/** Chain error codes the host raises besides those of chainError.ts (koinos/chain/error.proto). */
export const HOST_ERROR = {
  internal_error: 100,
  insufficient_privileges: 103,
  insufficient_return_buffer: 105,
  unknown_thunk: 106,
  system_authorization_failure: 101,
  field_not_found: -100,
  unknown_hash_code: -101,
  unknown_dsa: -102,
  operation_not_found: -104,
} as const;

/** execution_context.hpp `stack_limit`. */
const STACK_LIMIT = 256;

export interface StackFrame {
  /** Empty for the chain itself and for system call frames. */
  contractId: Uint8Array;
  privilege: Privilege;
  args: Uint8Array;
  entryPoint: number;
  sid: number;
}

/**
 * The compute a run may use (koinos-chain resource_meter): `use` charges, and past the limit charges what is left
 * and throws the chain's error for the limit that binds (insufficient rc, or the block's compute limit).
 */
export interface ComputeMeter {
  remaining(): bigint;
  use(compute: bigint): void;
}

export interface HeadInfo {
  head_topology: { id: Uint8Array; previous: Uint8Array; height: bigint };
  head_block_time: bigint;
  last_irreversible_block: bigint;
}

/** A contract the node runs natively (KOIN, VHP, test tokens) behind the same `call` as wasm. */
export type NativeCall = (ctx: ExecutionContext, entryPoint: number, args: Uint8Array) => Uint8Array;

/** koinos.chain.resource_limit_data */
export interface ResourceLimitData {
  disk_storage_limit: bigint;
  disk_storage_cost: bigint;
  network_bandwidth_limit: bigint;
  network_bandwidth_cost: bigint;
  compute_bandwidth_limit: bigint;
  compute_bandwidth_cost: bigint;
}

/** koinos.chain.contract_metadata_object */
export interface ContractMetadataObject {
  hash?: Uint8Array;
  system?: boolean;
  authorizes_call_contract?: boolean;
  authorizes_transaction_application?: boolean;
  authorizes_upload_contract?: boolean;
}

/**
 * What mainnet's system contracts answer through system-call overrides (koin: get_account_rc / consume_account_rc;
 * resources: get_resource_limits / consume_block_resources; name service: get_contract_name / get_contract_address;
 * get_contract_metadata), answered natively by the node that runs the host.
 */
export interface SystemServices {
  /** KOIN's mana of an account now (regenerated to the head block time). */
  accountRc(account: Uint8Array): bigint;
  /** Takes mana from an account; false, nothing written, when it has less. */
  consumeAccountRc(account: Uint8Array, rc: bigint): boolean;
  /** The resource limits the node meters with (read at each call: they may change). */
  resourceLimits(): ResourceLimitData;
  /** The system name of a contract address (koin, vhp, ...), if it has one. */
  contractName(address: Uint8Array): string | undefined;
  contractAddress(name: string): Uint8Array | undefined;
  /** The metadata of a contract the node runs natively (no object in the metadata space). */
  nativeMetadata(contractId: Uint8Array): ContractMetadataObject | undefined;
}

/** What the node gives a run. */
export interface HostEnvironment {
  state: ObjectStore;
  meter: ComputeMeter;
  /** Disk bytes a write uses (negative: freed), charged as the node charges them. */
  useDisk?(bytes: number): void;
  /** chain.read_contract runs read-only: no writes, no check_authority. */
  readOnly: boolean;
  chainId: Uint8Array;
  /** get_head_info: the head (at a submission) or the block being applied; computed when asked. */
  headInfo(): HeadInfo;
  transaction?: Transaction;
  /** The operation being applied (check_authority asks whether it is an upload). */
  operation?: Operation;
  /** The block being applied, if any (get_block); computed when asked. */
  block?(): Block | undefined;
  /** The events and logs of the run (the chronicler); events get `sequence.next++`. */
  events: EventData[];
  logs: string[];
  sequence: { next: number };
  /** Runs contracts without metering: only for the benchmark that measures what metering costs; never set by a node. */
  unmetered?: boolean;
  /** A native contract at this address, if the node has one there. */
  nativeContract?(contractId: Uint8Array): NativeCall | undefined;
  /** The genesis address (the chain's metadata object genesis_key): check_system_authority, process_block_signature. */
  genesisAddress?: Uint8Array;
  /** The nonce account's pending nonce at a broadcast submission (execution_context mempool nonce). */
  mempoolNonce?: bigint;
  /** Native answers for the system calls mainnet overrides with its system contracts. */
  services?: SystemServices;
  /**
   * Where system call overrides are read (execution_context::cache_system_call reads the parent state node): the
   * state before the block being applied; `state` when not given.
   */
  dispatchState?: Pick<ObjectStore, 'get'>;
}

/** The outcome `exit` leaves: code, and the result object or the error message. */
export interface ExitResult {
  code: number;
  object?: Uint8Array;
  error?: string;
}

/**
 * Thrown by `exit` with code 0: unwinds the contract; `call` catches it. Not an Error on purpose: every successful
 * contract call throws one, and an Error would capture a stack trace each time.
 */
export class ExitSuccess {
  readonly name = 'ExitSuccess';
}

const EMPTY = new Uint8Array(0);

/** A system call's target as execution_context::cache_system_call resolves it. */
export type DispatchTarget =
  | { kind: 'thunk'; thunkId: number; override: boolean }
  | {
      kind: 'bundle';
      contractId: Uint8Array;
      entryPoint: number;
      bytecode: Uint8Array;
      metadata: ContractMetadataObject;
      /** A contract the node runs natively (the devnet's name service) stands where bytecode would. */
      native?: NativeCall;
    };

export class ExecutionContext {
  readonly env: HostEnvironment;
  readonly stack: StackFrame[] = [];
  result: ExitResult = { code: 0 };
  /** Resolved system call targets: the chain caches them for the life of the execution context. */
  readonly dispatch = new Map<number, DispatchTarget>();

  constructor(env: HostEnvironment) {
    this.env = env;
  }

  pushFrame(frame: StackFrame): void {
    if (this.stack.length >= STACK_LIMIT) throw new ChainError(ERROR_CODE.reversion, 'apply context stack overflow');
    this.stack.push(frame);
  }

  popFrame(): StackFrame {
    const frame = this.stack.pop();
    if (!frame) throw new ChainError(HOST_ERROR.internal_error, 'stack is empty');
    return frame;
  }

  /** Runs `fn` with `frame` pushed, popping it however `fn` ends (koinos-chain with_stack_frame). */
  withFrame<T>(frame: StackFrame, fn: () => T): T {
    this.pushFrame(frame);
    try {
      return fn();
    } finally {
      this.stack.pop();
    }
  }

  /** A frame of the chain calling system call `sid` in kernel mode. */
  static systemFrame(sid: number): StackFrame {
    return { contractId: EMPTY, privilege: PRIVILEGE.kernel, args: EMPTY, entryPoint: 0, sid };
  }

  private below(): StackFrame | undefined {
    return this.stack.length > 1 ? this.stack[this.stack.length - 2] : undefined;
  }

  /** The contract of the frame below the top, or empty (the chain itself). */
  caller(): Uint8Array {
    return this.below()?.contractId ?? EMPTY;
  }

  callerPrivilege(): Privilege {
    return this.below()?.privilege ?? PRIVILEGE.kernel;
  }

  callerEntryPoint(): number {
    return this.below()?.entryPoint ?? 0;
  }

  /** The privilege of the top frame. */
  privilege(): Privilege {
    const top = this.stack[this.stack.length - 1];
    if (!top) throw new ChainError(HOST_ERROR.internal_error, 'stack empty');
    return top.privilege;
  }

  /** The contract running: the nearest frame with a contract id. */
  contractId(): Uint8Array {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const id = this.stack[i]!.contractId;
      if (id.length > 0) return id;
    }
    return EMPTY;
  }

  /** Arguments and entry point of the contract frame under the top (get_arguments runs in its own frame). */
  contractCall(): { entryPoint: number; args: Uint8Array } {
    const frame = this.below();
    if (!frame) throw new ChainError(HOST_ERROR.internal_error, 'stack is empty');
    return { entryPoint: frame.entryPoint, args: frame.args };
  }

  useCompute(compute: number | bigint): void {
    this.env.meter.use(BigInt(compute));
  }

  /**
   * The registry's compute for a name.
   * @throws ChainError reversion "unable to find compute bandwidth for NAME" for a name the registry lacks (nop).
   */
  compute(name: ComputeName | string): number {
    const compute = (COMPUTE_REGISTRY as Record<string, number>)[name];
    if (compute === undefined)
      throw new ChainError(ERROR_CODE.reversion, `unable to find compute bandwidth for ${name}`);
    return compute;
  }
}
