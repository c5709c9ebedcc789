// What a built-in contract runs with: the state layer, the meter, the block it runs in, the transaction's signers and
// the event log, plus the one interface every built-in contract (KOIN, VHP, test tokens) answers calls through.
import { decode, type MessageMap, type MessageType } from '../../koinos/codec.ts';
import type { Block, EventData, Transaction } from '../../koinos/types.ts';
import { ChainError, ERROR_CODE, reversion } from '../state/chainError.ts';
import { COMPUTE, type RcMeter } from '../state/resources.ts';
import type { Space, StateSource, StateView } from '../state/state.ts';
import type { HeadInfo } from '../vm/executionContext.ts';

/** The chain facts of one run (built by chain/chainFacts.ts). */
export interface ChainFacts {
  chainId: Uint8Array;
  /** get_head_info: the head topology, its time and the last irreversible block. */
  headInfo(): HeadInfo;
  /** get_block: the block being applied; undefined outside a block (a submission, a read). */
  block(): Block | undefined;
  /**
   * The state the chain reads system call overrides from (execution_context's parent state node): the head state
   * at a submission or a read, the state before the block inside one. An override set in a block applies from the
   * next block.
   */
  parentState: StateSource;
}

/** The context of one contract call. */
export interface CallContext {
  view: StateView;
  /** Absent for read-only calls (chain.read_contract), which are not metered. */
  meter?: RcMeter;
  /** head_block_time: the head block's at submission, the block's own when a block is applied. */
  headBlockTime: bigint;
  /** header.height of the block the call runs in (the head block at submission). */
  blockHeight: bigint;
  readOnly: boolean;
  genesisAddress: Uint8Array;
  /** The calling contract; empty for a transaction's own operation (System.getCaller().caller). */
  caller: Uint8Array;
  /**
   * The caller runs in kernel mode (System.getCaller().caller_privilege): a system contract such as pob calling. Absent
   * for a transaction's own operation, which the chain runs in user mode.
   */
  kernelCaller?: boolean;
  /** Events of the transaction so far. */
  events: EventData[];
  /** The execution context's event counter: block-wide when a block is applied (chain chronicler.cpp). */
  sequence: { next: number };
  /** check_authority(contract_call, account): whether a signature of the transaction recovers to `account`. */
  authorize(account: Uint8Array): boolean;
  /** The transaction and its receipt's logs, for uploaded (wasm) contracts (wasmContracts.ts). */
  transaction?: Transaction;
  logs?: string[];
  /** Chain id, head and block as the contracts of this run see them (chain/chainFacts.ts). */
  chain?: ChainFacts;
  /**
   * The nonce account's pending nonce at a broadcast submission (controller.cpp set_mempool_nonce): a contract's
   * verify_account_nonce compares with it, as the transaction's own nonce check does; absent in a block and a dry run.
   */
  mempoolNonce?: bigint;
}

/** A contract the devnet runs natively. */
export interface Contract {
  readonly address: Uint8Array;
  /**
   * Runs an entry point with its encoded arguments; returns the encoded result.
   * @throws ChainError with the contract's message and code.
   */
  call(ctx: CallContext, entryPoint: number, args: Uint8Array): Uint8Array;
}

export function useCompute(ctx: CallContext, ticks: number): void {
  ctx.meter?.useCompute(ticks);
}

/** get_object as a contract sees it: metered. */
export function getObject(ctx: CallContext, space: Space, key: Uint8Array): Uint8Array | undefined {
  useCompute(ctx, COMPUTE.get_object);
  return ctx.view.get(space, key);
}

/** put_object: refused in a read-only call, metered, disk charged as state_db counts it. */
export function putObject(ctx: CallContext, space: Space, key: Uint8Array, value: Uint8Array): void {
  if (ctx.readOnly) throw reversion('cannot put object during read only call', ERROR_CODE.read_only_context);
  useCompute(ctx, COMPUTE.put_object);
  const disk = ctx.view.put(space, key, value); // not inside `meter?.` : the write happens metered or not
  ctx.meter?.useDisk(disk);
}

/** remove_object: like putObject; the freed bytes are credited. */
export function removeObject(ctx: CallContext, space: Space, key: Uint8Array): void {
  if (ctx.readOnly) throw reversion('cannot remove object during read only call', ERROR_CODE.read_only_context);
  useCompute(ctx, COMPUTE.remove_object);
  const disk = ctx.view.remove(space, key);
  ctx.meter?.useDisk(disk);
}

/** System.require: a reversion (code 1) unless told otherwise. */
export function check(condition: boolean, message: string, code: number = ERROR_CODE.reversion): asserts condition {
  if (!condition) throw new ChainError(code, message);
}

/**
 * A method's arguments, decoded as a contract's main reads them: bytes that do not decode revert the call
 * ("unable to decode arguments", as koinos-contracts-as contracts answer).
 * @throws ChainError (a reversion).
 */
export function decodeArguments<K extends MessageType>(type: K, args: Uint8Array): MessageMap[K] {
  try {
    return decode(type, args);
  } catch {
    throw new ChainError(ERROR_CODE.reversion, 'unable to decode arguments');
  }
}

/** System.event: appended with the context's next sequence number. */
export function emit(
  ctx: CallContext,
  source: Uint8Array,
  name: string,
  data: Uint8Array,
  impacted: Uint8Array[],
): void {
  useCompute(ctx, COMPUTE.event);
  ctx.events.push({ sequence: ctx.sequence.next++, source, name, data, impacted });
}
