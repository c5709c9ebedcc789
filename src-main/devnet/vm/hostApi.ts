// The host of koinos-chain (host_api.cpp, thunk_dispatcher.hpp, execution_context.cpp): env.invoke_system_call and
// env.invoke_thunk for a running contract, the thunk table with its argument and result messages, system-call
// overrides from the dispatch space, and `systemCall` for the chain's own nested calls (system_call::NAME). Each call
// runs in a kernel frame, is charged from the compute registry, and maps errors to codes.
import { decode, encode, type MessageType } from '../../koinos/codec.ts';
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import type { ComputeName } from './computeRegistry.ts';
import { recoverPublicKeyThunk, hash, verifyMerkleRoot, verifyVrfProof } from './cryptoThunks.ts';
import {
  callThunk,
  checkAuthority,
  exitThunk,
  getArguments,
  getCaller,
  getContractId,
  runBytecode,
  verifySignature,
} from './contractThunks.ts';
import { HOST_ERROR, ExecutionContext, ExitSuccess, PRIVILEGE, type DispatchTarget } from './executionContext.ts';
import { registerHost } from './hostCalls.ts';
import type { HostResult } from './runModule.ts';

const EMPTY = new Uint8Array(0);
import {
  event,
  getAccountNonce,
  getBlock,
  getBlockField,
  getChainId,
  getHeadInfo,
  getLastIrreversibleBlock,
  getNextObject,
  getObject,
  getOperation,
  getPrevObject,
  getTransaction,
  getTransactionField,
  log,
  putObject,
  removeObject,
  KERNEL_SPACE,
} from './stateThunks.ts';
import { SYSTEM_CALL_IDS, SYSTEM_CALL_NAMES, type SystemCallName } from './systemCallIds.ts';
import { systemCallMessages, type SystemCallArgs, type SystemCallResult } from './systemCallMessages.ts';
import {
  applyFromContract,
  checkSystemAuthority,
  noCallback,
  consumeAccountRc,
  consumeBlockResources,
  getAccountRc,
  getContractAddress,
  getContractMetadata,
  getContractName,
  getResourceLimits,
  processBlockSignature,
  setAccountNonce,
  verifyAccountNonce,
} from './systemThunks.ts';

/** A thunk: its implementation (its messages are its system call's, systemCallMessages.ts). */
interface Thunk {
  // Arguments arrive decoded from the contract's bytes (or given by the chain's own calls).
  run(ctx: ExecutionContext, args: never): object | undefined;
  /** Registered after genesis (THUNK_REGISTER): callable only as the target of an override. */
  notGenesis?: true;
}

/** The thunks of koinos-chain's thunk dispatcher (system_calls.cpp register_thunks), by system call name. */
const THUNKS: Partial<Record<SystemCallName, Thunk>> = {
  nop: { run: () => undefined, notGenesis: true },
  apply_block: { run: applyFromContract('apply_block') },
  apply_transaction: { run: applyFromContract('apply_transaction') },
  apply_upload_contract_operation: { run: applyFromContract('apply_upload_contract_operation') },
  apply_call_contract_operation: { run: applyFromContract('apply_call_contract_operation') },
  apply_set_system_call_operation: { run: applyFromContract('apply_set_system_call_operation') },
  apply_set_system_contract_operation: { run: applyFromContract('apply_set_system_contract_operation') },
  pre_block_callback: { run: noCallback },
  post_block_callback: { run: noCallback },
  pre_transaction_callback: { run: noCallback },
  post_transaction_callback: { run: noCallback },
  get_head_info: { run: getHeadInfo },
  get_chain_id: { run: getChainId },
  process_block_signature: { run: processBlockSignature },
  get_transaction: { run: getTransaction },
  get_transaction_field: { run: getTransactionField },
  get_block: { run: getBlock },
  get_block_field: { run: getBlockField },
  get_last_irreversible_block: { run: getLastIrreversibleBlock },
  get_account_nonce: { run: getAccountNonce },
  verify_account_nonce: { run: verifyAccountNonce },
  set_account_nonce: { run: setAccountNonce },
  check_system_authority: { run: checkSystemAuthority },
  get_operation: { run: getOperation },
  get_account_rc: { run: getAccountRc },
  consume_account_rc: { run: consumeAccountRc },
  get_resource_limits: { run: getResourceLimits },
  consume_block_resources: { run: consumeBlockResources },
  put_object: { run: putObject },
  remove_object: { run: removeObject },
  get_object: { run: getObject },
  get_next_object: { run: getNextObject },
  get_prev_object: { run: getPrevObject },
  log: { run: log },
  event: { run: event },
  hash: { run: hash },
  recover_public_key: { run: recoverPublicKeyThunk },
  verify_merkle_root: { run: verifyMerkleRoot },
  verify_signature: { run: verifySignature },
  verify_vrf_proof: { run: verifyVrfProof },
  call: { run: callThunk },
  exit: { run: exitThunk },
  get_arguments: { run: getArguments },
  get_contract_id: { run: getContractId },
  get_caller: { run: getCaller },
  check_authority: { run: checkAuthority },
};

/**
 * System calls with no thunk in koinos-chain that mainnet answers with a contract override set at genesis (the
 * name service, get_contract_metadata): the devnet answers them natively while no override is set.
 */
const DEVNET_SYSTEM_CALLS: Partial<Record<SystemCallName, Thunk>> = {
  get_contract_metadata: { run: getContractMetadata },
  get_contract_name: { run: getContractName },
  get_contract_address: { run: getContractAddress },
};

/** Whether the chain's thunk dispatcher has this thunk id (set_system_call's thunk_exists). */
export function thunkExists(id: number): boolean {
  const name = SYSTEM_CALL_NAMES.get(id);
  return name !== undefined && THUNKS[name] !== undefined;
}

/** Protobuf's ParseFromArray as the chain calls it: a malformed message is not an error, fields default. */
function parseArgs(type: MessageType | undefined, bytes: Uint8Array): object {
  if (!type) return {};
  try {
    return decode(type, bytes);
  } catch {
    return {};
  }
}

/** The system call dispatch key of an id: the id as 4 bytes big-endian (koinos util converter::as<std::string>). */
export function dispatchKey(id: number): Uint8Array {
  const key = new Uint8Array(4);
  new DataView(key.buffer).setUint32(0, id >>> 0, false);
  return key;
}

/** Dispatch keys by system call id: resolve runs for every system call id a contract call uses. Never mutated. */
const dispatchKeys = new Map<number, Uint8Array>();

function sharedDispatchKey(id: number): Uint8Array {
  let key = dispatchKeys.get(id);
  if (!key) {
    key = dispatchKey(id);
    if (dispatchKeys.size < 4096) dispatchKeys.set(id, key);
  }
  return key;
}

/**
 * execution_context::cache_system_call: the override in the dispatch space of the parent state, if any, resolved
 * once per context (a bundle with its bytecode and metadata), else the thunk of the same id.
 * @throws ChainError invalid_contract when an override names a contract without metadata or bytecode.
 */
function resolve(ctx: ExecutionContext, sid: number): DispatchTarget {
  const cached = ctx.dispatch.get(sid);
  if (cached) return cached;
  let target: DispatchTarget = { kind: 'thunk', thunkId: sid, override: false };
  const source = ctx.env.dispatchState ?? ctx.env.state;
  const bytes = source.get(KERNEL_SPACE.systemCallDispatch, sharedDispatchKey(sid));
  if (bytes) {
    const found = decode('koinos.protocol.system_call_target', bytes);
    if (found.system_call_bundle) {
      const contractId = found.system_call_bundle.contract_id ?? EMPTY;
      const meta = source.get(KERNEL_SPACE.contractMetadata, contractId);
      const bytecode = source.get(KERNEL_SPACE.contractBytecode, contractId);
      if (!meta) throw new ChainError(ERROR_CODE.invalid_contract, `contract metadata for call id ${sid} not found`);
      // A built-in contract of the node (the devnet's name service) has metadata but no bytecode: it runs natively.
      const native = bytecode ? undefined : ctx.env.nativeContract?.(contractId);
      if (!bytecode && !native)
        throw new ChainError(ERROR_CODE.invalid_contract, `contract bytecode for call id ${sid} not found`);
      target = {
        kind: 'bundle',
        contractId,
        entryPoint: found.system_call_bundle.entry_point ?? 0,
        bytecode: bytecode ?? EMPTY,
        metadata: decode('koinos.chain.contract_metadata_object', meta),
        native,
      };
    } else target = { kind: 'thunk', thunkId: found.thunk_id ?? 0, override: true };
  }
  ctx.dispatch.set(sid, target);
  return target;
}

/**
 * execution_context::thunk_translation plus the thunk lookup of host_api::call: an override's thunk, or the call's
 * own thunk when it is a genesis thunk; the devnet's native answers stand where mainnet has a genesis override.
 */
function thunkFor(
  sid: number,
  target: DispatchTarget & { kind: 'thunk' },
): { name: SystemCallName; thunk: Thunk; native: boolean } {
  const id = target.thunkId;
  const name = SYSTEM_CALL_NAMES.get(id);
  if (!target.override) {
    const native = name ? DEVNET_SYSTEM_CALLS[name] : undefined;
    if (name && native) return { name, thunk: native, native: true };
    const thunk = name ? THUNKS[name] : undefined;
    if (!name || !thunk || thunk.notGenesis)
      throw new ChainError(HOST_ERROR.unknown_thunk, `thunk ${sid} is not enabled`);
    return { name, thunk, native: false };
  }
  const thunk = name ? THUNKS[name] : undefined;
  if (!name || !thunk) throw new ChainError(HOST_ERROR.unknown_thunk, `thunk ${id} does not exist`);
  return { name, thunk, native: false };
}

/**
 * execution_context::system_call: runs an override contract at its entry point with the raw argument bytes, in a
 * frame with the privilege its metadata gives; answers the object its exit left (the chain does not clear the
 * previous result first, nor does this).
 */
function runBundle(
  ctx: ExecutionContext,
  target: DispatchTarget & { kind: 'bundle' },
  args: Uint8Array,
): Uint8Array | undefined {
  const frame = {
    contractId: target.contractId,
    privilege: target.metadata.system ? PRIVILEGE.kernel : PRIVILEGE.user,
    args,
    entryPoint: target.entryPoint,
    sid: 0,
  };
  const native = target.native;
  if (native) return ctx.withFrame(frame, () => native(ctx, target.entryPoint, args));
  try {
    ctx.withFrame(frame, () => runBytecode(ctx, target.bytecode));
  } catch (error) {
    if (!(error instanceof ExitSuccess)) throw error;
  }
  return ctx.result.object;
}

/** The registry charge of a thunk run for a system call; the devnet's native answers charge their own work. */
function chargeThunk(ctx: ExecutionContext, name: SystemCallName, native: boolean): void {
  if (!native) ctx.useCompute(ctx.compute(name as ComputeName));
}

/**
 * A system call the chain makes itself (koinos-chain `system_call::NAME`, thunk_utils.hpp): in a kernel frame, an
 * override contract with the serialized arguments, or the thunk charged the registry's compute for its name (no
 * per-byte deserialization); returns the decoded result.
 */
export function systemCall<N extends SystemCallName>(
  ctx: ExecutionContext,
  name: N,
  args: SystemCallArgs<N>,
): SystemCallResult<N> {
  const sid = SYSTEM_CALL_IDS[name];
  return ctx.withFrame(ExecutionContext.systemFrame(sid), () => {
    const target = resolve(ctx, sid);
    const own = systemCallMessages(name);
    let result: object | undefined;
    if (target.kind === 'bundle') {
      const object = runBundle(ctx, target, own?.args ? encode(own.args, args) : EMPTY);
      if (sid === SYSTEM_CALL_IDS.exit) throw new ExitSuccess();
      result = own?.result ? decode(own.result, object ?? EMPTY) : {};
    } else {
      const { name: thunkName, thunk, native } = thunkFor(sid, target);
      chargeThunk(ctx, thunkName, native);
      result = thunk.run(ctx, args as never) ?? {};
    }
    // The result message of `name` (systemCallMessages.ts), decoded or as the thunk built it; the compiler cannot
    // follow the table lookup to the type.
    return result as SystemCallResult<N>;
  });
}

/** thunk_dispatcher: deserialize (charged per byte), run, serialize into the return buffer; returns bytes written. */
function dispatch(
  ctx: ExecutionContext,
  name: SystemCallName,
  thunk: Thunk,
  args: Uint8Array,
  ret: Uint8Array,
): number {
  const messages = systemCallMessages(name);
  ctx.useCompute(ctx.compute('deserialize_message_per_byte') * args.length);
  const result = thunk.run(ctx, parseArgs(messages?.args, args) as never);
  if (!messages?.result) return 0;
  const bytes = encode(messages.result, result ?? {});
  return writeResult(bytes, ret);
}

function writeResult(bytes: Uint8Array, ret: Uint8Array): number {
  if (bytes.length > ret.length) {
    throw new ChainError(
      HOST_ERROR.insufficient_return_buffer,
      'return buffer is not large enough for the return value',
    );
  }
  ret.set(bytes);
  return bytes.length;
}

/** The error message bytes a failed call leaves in the return buffer (error_data), or code 105 when they do not fit. */
function errorResult(code: number, message: string, ret: Uint8Array): HostResult {
  const bytes = encode('koinos.chain.error_data', { message });
  if (bytes.length > ret.length) return { code: HOST_ERROR.insufficient_return_buffer, written: 0 };
  ret.set(bytes);
  return { code, written: bytes.length };
}

function codeOf(error: unknown): { code: number; message: string } {
  if (error instanceof ChainError) return { code: error.code, message: error.message };
  throw error;
}

/** host_api::call: the override contract, or the thunk charged from the registry, in a kernel frame. */
function call(ctx: ExecutionContext, sid: number, ret: Uint8Array, args: Uint8Array): number {
  return ctx.withFrame(ExecutionContext.systemFrame(sid), () => {
    const target = resolve(ctx, sid);
    if (target.kind === 'bundle') {
      const object = runBundle(ctx, target, args);
      return object ? writeResult(object, ret) : 0;
    }
    const { name, thunk, native } = thunkFor(sid, target);
    chargeThunk(ctx, name, native);
    return dispatch(ctx, name, thunk, args, ret);
  });
}

/** Room for a system call's result when the node itself asks (chain.invoke_system_call): the chain's 1 MiB buffer. */
const NODE_RESULT_BUFFER = 1 << 20;

/**
 * chain.invoke_system_call (controller.cpp invoke_system_call): the call by id, as host_api::call runs it (override
 * or thunk), from a kernel frame; answers the result bytes.
 * @throws ChainError as the call or its override contract fails.
 */
export function nodeSystemCall(ctx: ExecutionContext, sid: number, args: Uint8Array): Uint8Array {
  const frame = { contractId: EMPTY, privilege: PRIVILEGE.kernel, args: EMPTY, entryPoint: 0, sid: 0 };
  const ret = new Uint8Array(NODE_RESULT_BUFFER);
  const written = ctx.withFrame(frame, () => call(ctx, sid, ret, args));
  return ret.slice(0, written);
}

/** host_api::invoke_system_call: what a contract's env.invoke_system_call does. */
export function invokeSystemCall(ctx: ExecutionContext, sid: number, ret: Uint8Array, args: Uint8Array): HostResult {
  let code = 0;
  let message = '';
  let written = 0;
  let exited = false;
  try {
    written = call(ctx, sid, ret, args);
  } catch (error) {
    if (error instanceof ExitSuccess) exited = true;
    else ({ code, message } = codeOf(error));
  }
  if (ctx.privilege() === PRIVILEGE.user && code >= ERROR_CODE.reversion) throw new ChainError(code, message);
  if (sid === SYSTEM_CALL_IDS.exit) {
    if (code !== 0) throw new ChainError(code, message);
    throw new ExitSuccess();
  }
  // A success_exception from anything but exit (an override contract exited) is not caught by the chain either.
  if (exited) throw new ExitSuccess();
  if (code !== 0) return errorResult(code, message, ret);
  return { code: 0, written };
}

/** host_api::invoke_thunk: a thunk by id without a frame or registry charge, from kernel code only. */
function invokeThunk(ctx: ExecutionContext, tid: number, ret: Uint8Array, args: Uint8Array): HostResult {
  if (ctx.privilege() !== PRIVILEGE.kernel) {
    throw new ChainError(HOST_ERROR.insufficient_privileges, "'invoke_thunk' must be called from a system context");
  }
  let code = 0;
  let message = '';
  let written = 0;
  let exited = false;
  try {
    const name = SYSTEM_CALL_NAMES.get(tid);
    const thunk = name ? THUNKS[name] : undefined;
    if (!name || !thunk) throw new ChainError(HOST_ERROR.unknown_thunk, `thunk ${tid} not found`);
    written = dispatch(ctx, name, thunk, args, ret);
  } catch (error) {
    if (error instanceof ExitSuccess) exited = true;
    else ({ code, message } = codeOf(error));
  }
  if (tid === SYSTEM_CALL_IDS.exit) {
    if (code !== 0) throw new ChainError(code, message);
    throw new ExitSuccess();
  }
  if (exited) throw new ExitSuccess();
  if (code !== 0) return errorResult(code, message, ret);
  return { code: 0, written };
}

// The thunks reach the host through hostCalls.ts (they cannot import this module, which imports them).
registerHost({ systemCall, invokeSystemCall, invokeThunk });
