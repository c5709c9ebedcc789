// The host of koinos-chain (host_api.cpp, thunk_dispatcher.hpp): env.invoke_system_call and env.invoke_thunk for a
// running contract, the thunk table with its argument and result messages, and `systemCall` for the chain's own
// nested calls. Each call runs in a kernel frame, is charged from the compute registry, and maps errors to codes.
import { decode, encode } from '../../koinos/codec.ts';
import { ChainError, ERROR_CODE } from '../chainError.ts';
import type { ComputeName } from './computeRegistry.ts';
import { recoverPublicKeyThunk, hash } from './cryptoThunks.ts';
import { callThunk, checkAuthority, exitThunk, getArguments, getCaller, getContractId, verifySignature } from './contractThunks.ts';
import { HOST_ERROR, ExecutionContext, ExitSuccess, PRIVILEGE } from './executionContext.ts';
import type { HostResult } from './runModule.ts';
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
} from './stateThunks.ts';
import { SYSTEM_CALL_IDS, SYSTEM_CALL_NAMES, type SystemCallName } from './systemCallIds.ts';

/** A thunk: its argument and result message types (none for empty messages) and its implementation. */
interface Thunk {
  args?: string;
  result?: string;
  // Arguments arrive decoded from the contract's bytes (or given by the chain's own calls).
  run(ctx: ExecutionContext, args: never): object | undefined;
}

const M = 'koinos.chain.';

/** The thunks the devnet has, by system call name (genesis thunks of thunk_dispatcher.cpp). */
export const THUNKS: Partial<Record<SystemCallName, Thunk>> = {
  get_head_info: { result: `${M}get_head_info_result`, run: getHeadInfo },
  get_chain_id: { result: `${M}get_chain_id_result`, run: getChainId },
  get_transaction: { result: `${M}get_transaction_result`, run: getTransaction },
  get_transaction_field: { args: `${M}get_transaction_field_arguments`, result: `${M}get_transaction_field_result`, run: getTransactionField },
  get_block: { result: `${M}get_block_result`, run: getBlock },
  get_block_field: { args: `${M}get_block_field_arguments`, result: `${M}get_block_field_result`, run: getBlockField },
  get_last_irreversible_block: { result: `${M}get_last_irreversible_block_result`, run: getLastIrreversibleBlock },
  get_account_nonce: { args: `${M}get_account_nonce_arguments`, result: `${M}get_account_nonce_result`, run: getAccountNonce },
  get_operation: { result: `${M}get_operation_result`, run: getOperation },
  put_object: { args: `${M}put_object_arguments`, run: putObject },
  remove_object: { args: `${M}object_arguments`, run: removeObject },
  get_object: { args: `${M}object_arguments`, result: `${M}database_object_result`, run: getObject },
  get_next_object: { args: `${M}object_arguments`, result: `${M}database_object_result`, run: getNextObject },
  get_prev_object: { args: `${M}object_arguments`, result: `${M}database_object_result`, run: getPrevObject },
  log: { args: `${M}log_arguments`, run: log },
  event: { args: `${M}event_arguments`, run: event },
  hash: { args: `${M}hash_arguments`, result: `${M}bytes_result`, run: hash },
  recover_public_key: { args: `${M}recover_public_key_arguments`, result: `${M}bytes_result`, run: recoverPublicKeyThunk },
  verify_signature: { args: `${M}verify_signature_arguments`, result: `${M}bool_result`, run: verifySignature },
  call: { args: `${M}call_arguments`, result: `${M}bytes_result`, run: callThunk },
  exit: { args: `${M}exit_arguments`, run: exitThunk },
  get_arguments: { result: `${M}get_arguments_result`, run: getArguments },
  get_contract_id: { result: `${M}bytes_result`, run: getContractId },
  get_caller: { result: `${M}get_caller_result`, run: getCaller },
  check_authority: { args: `${M}check_authority_arguments`, result: `${M}bool_result`, run: checkAuthority },
};

/** Protobuf's ParseFromArray as the chain calls it: a malformed message is not an error, fields default. */
function parseArgs(type: string | undefined, bytes: Uint8Array): object {
  if (!type) return {};
  try {
    return decode(type, bytes);
  } catch {
    return {};
  }
}

function thunkOf(id: number): { name: SystemCallName; thunk: Thunk } {
  const name = SYSTEM_CALL_NAMES.get(id);
  const thunk = name ? THUNKS[name] : undefined;
  if (!name || !thunk) throw new ChainError(HOST_ERROR.unknown_thunk, `thunk ${id} does not exist`);
  return { name, thunk };
}

/**
 * A system call the chain makes itself (koinos-chain `system_call::NAME`): in a kernel frame, charged the registry's
 * compute for the name (no per-byte deserialization), returning the decoded result.
 */
export function systemCall<R = Record<string, unknown>>(ctx: ExecutionContext, name: SystemCallName, args: object): R {
  const thunk = THUNKS[name];
  if (!thunk) throw new ChainError(HOST_ERROR.unknown_thunk, `thunk ${SYSTEM_CALL_IDS[name]} does not exist`);
  return ctx.withFrame(ExecutionContext.systemFrame(SYSTEM_CALL_IDS[name]), () => {
    ctx.useCompute(ctx.compute(name as ComputeName));
    return (thunk.run(ctx, args as never) ?? {}) as R;
  });
}

/** thunk_dispatcher: deserialize (charged per byte), run, serialize into the return buffer; returns bytes written. */
function dispatch(ctx: ExecutionContext, thunk: Thunk, args: Uint8Array, ret: Uint8Array): number {
  ctx.useCompute(ctx.compute('deserialize_message_per_byte') * args.length);
  const result = thunk.run(ctx, parseArgs(thunk.args, args) as never);
  if (!thunk.result) return 0;
  const bytes = encode(thunk.result, result ?? {});
  if (bytes.length > ret.length) {
    throw new ChainError(HOST_ERROR.insufficient_return_buffer, 'return buffer is not large enough for the return value');
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

/** host_api::invoke_system_call: what a contract's env.invoke_system_call does. */
export function invokeSystemCall(ctx: ExecutionContext, sid: number, ret: Uint8Array, args: Uint8Array): HostResult {
  let code = 0;
  let message = '';
  let written = 0;
  let exited = false;
  try {
    written = ctx.withFrame(ExecutionContext.systemFrame(sid), () => {
      const { name, thunk } = thunkOf(sid);
      ctx.useCompute(ctx.compute(name as ComputeName));
      return dispatch(ctx, thunk, args, ret);
    });
  } catch (error) {
    if (error instanceof ExitSuccess) exited = true;
    else ({ code, message } = codeOf(error));
  }
  if (ctx.privilege() === PRIVILEGE.user && code >= ERROR_CODE.reversion) throw new ChainError(code, message);
  if (sid === SYSTEM_CALL_IDS.exit) {
    if (code !== 0) throw new ChainError(code, message);
    if (exited) throw new ExitSuccess();
  }
  if (code !== 0) return errorResult(code, message, ret);
  return { code: 0, written };
}

/** host_api::invoke_thunk: a thunk by id without a frame or registry charge, from kernel code only. */
export function invokeThunk(ctx: ExecutionContext, tid: number, ret: Uint8Array, args: Uint8Array): HostResult {
  if (ctx.privilege() !== PRIVILEGE.kernel) {
    throw new ChainError(HOST_ERROR.insufficient_privileges, "'invoke_thunk' must be called from a system context");
  }
  let code = 0;
  let message = '';
  let written = 0;
  let exited = false;
  try {
    const { thunk } = thunkOf(tid);
    written = dispatch(ctx, thunk, args, ret);
  } catch (error) {
    if (error instanceof ExitSuccess) exited = true;
    else ({ code, message } = codeOf(error));
  }
  if (tid === SYSTEM_CALL_IDS.exit) {
    if (code !== 0) throw new ChainError(code, message);
    if (exited) throw new ExitSuccess();
  }
  if (code !== 0) return errorResult(code, message, ret);
  return { code: 0, written };
}
