// The contract-management system calls (system_calls.cpp): `call` runs another contract (wasm, or a native one of the
// node) in a new frame with the privilege its metadata gives; `exit` ends a contract with its result; the caller,
// arguments and contract id as the frames say; check_authority with signatures or the account's own `authorize`.
import { decode, encode } from '../../koinos/codec.ts';
import { addressFromPublicKey } from '../../koinos/address.ts';
import { multihashSha256 } from '../../koinos/hash.ts';
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import { HOST_ERROR, ExecutionContext, ExitSuccess, PRIVILEGE, type Privilege } from './executionContext.ts';
import { invokeSystemCall, invokeThunk, systemCall } from './hostCalls.ts';
import { prepareModule } from './prepareModule.ts';
import { runModule, type TickMeter } from './runModule.ts';
import { KERNEL_SPACE, type DatabaseObject } from './stateThunks.ts';
import { AUTHORIZE_ENTRY_POINT } from './systemCallIds.ts';

const EMPTY = new Uint8Array(0);

interface ContractMetadata {
  hash?: Uint8Array;
  system?: boolean;
  authorizes_call_contract?: boolean;
  authorizes_transaction_application?: boolean;
  authorizes_upload_contract?: boolean;
}

/** koinos.chain.authorization_type */
export const AUTHORIZATION = { contract_call: 0, transaction_application: 1, contract_upload: 2 } as const;

/** host_api::get_meter_ticks / use_meter_ticks over the run's compute meter. */
function tickMeter(ctx: ExecutionContext): TickMeter {
  const meter = ctx.env.meter;
  return {
    remainingTicks: () => meter.remaining(),
    useTicks: (ticks) => {
      const left = meter.remaining();
      if (ticks > left) {
        meter.use(left);
        meter.use(1n);
      } else meter.use(ticks);
    },
  };
}

/** Runs a contract's bytecode in the top frame (fizzy_vm_backend::run). */
export function runBytecode(ctx: ExecutionContext, bytecode: Uint8Array): void {
  const prepared = prepareModule(bytecode, { metering: ctx.env.unmetered !== true });
  runModule(
    prepared,
    (fn, id, ret, args) =>
      fn === 'invoke_system_call' ? invokeSystemCall(ctx, id, ret, args) : invokeThunk(ctx, id, ret, args),
    tickMeter(ctx),
  );
}

function getKernelObject(
  ctx: ExecutionContext,
  space: (typeof KERNEL_SPACE)[keyof typeof KERNEL_SPACE],
  key: Uint8Array,
): DatabaseObject {
  return systemCall(ctx, 'get_object', { space, key }).value ?? {};
}

/** The metadata object of a contract, if it has one. */
export function contractMetadata(ctx: ExecutionContext, contractId: Uint8Array): ContractMetadata | undefined {
  const found = getKernelObject(ctx, KERNEL_SPACE.contractMetadata, contractId);
  return found.exists ? decode('koinos.chain.contract_metadata_object', found.value ?? EMPTY) : undefined;
}

export function callThunk(
  ctx: ExecutionContext,
  args: { contract_id?: Uint8Array; entry_point?: number; args?: Uint8Array },
): { value?: Uint8Array } {
  const contractId = args.contract_id ?? EMPTY;
  const entryPoint = args.entry_point ?? 0;
  const callArgs = args.args ?? EMPTY;
  const native = ctx.env.nativeContract?.(contractId);
  let bytecode: Uint8Array = EMPTY;
  let privilege: Privilege = PRIVILEGE.user;
  if (!native) {
    const code = getKernelObject(ctx, KERNEL_SPACE.contractBytecode, contractId);
    if (!code.exists) throw new ChainError(ERROR_CODE.invalid_contract, 'contract does not exist');
    const meta = contractMetadata(ctx, contractId);
    if (!meta) throw new ChainError(ERROR_CODE.invalid_contract, 'contract metadata does not exist');
    if (!meta.hash || meta.hash.length === 0)
      throw new ChainError(ERROR_CODE.invalid_contract, 'contract hash does not exist');
    bytecode = code.value ?? new Uint8Array(0);
    privilege = meta.system ? PRIVILEGE.kernel : PRIVILEGE.user;
  } else privilege = PRIVILEGE.kernel;
  if (entryPoint === AUTHORIZE_ENTRY_POINT && ctx.callerPrivilege() !== PRIVILEGE.kernel) {
    throw new ChainError(HOST_ERROR.insufficient_privileges, 'calling privileged thunk from non-privileged code');
  }
  ctx.result = { code: 0 };
  const frame = { contractId, privilege, args: callArgs, entryPoint, sid: 0 };
  if (native) {
    const value = ctx.withFrame(frame, () => native(ctx, entryPoint, callArgs));
    return { value };
  }
  try {
    ctx.withFrame(frame, () => runBytecode(ctx, bytecode));
  } catch (error) {
    if (!(error instanceof ExitSuccess)) throw error;
  }
  const res = ctx.result;
  if (res.code !== 0) throw new ChainError(res.code, res.error ?? '');
  return { value: res.object };
}

export function exitThunk(
  ctx: ExecutionContext,
  args: { code?: number; res?: { object?: Uint8Array; error?: { message?: string } } },
): undefined {
  const code = args.code ?? 0;
  ctx.result = { code, object: args.res?.object, error: args.res?.error?.message };
  if (code === 0) throw new ExitSuccess();
  if (!args.res?.error) throw new ChainError(ERROR_CODE.reversion, 'exit error did not contain error data');
  const message = args.res.error.message ?? '';
  if (message.includes('\uFFFD')) throw new ChainError(ERROR_CODE.reversion, 'error message contains invalid utf-8');
  throw new ChainError(code, message);
}

export function getArguments(ctx: ExecutionContext): { value: { entry_point: number; arguments: Uint8Array } } {
  const { entryPoint, args } = ctx.contractCall();
  return { value: { entry_point: entryPoint, arguments: args } };
}

export function getContractId(ctx: ExecutionContext): { value: Uint8Array } {
  return { value: ctx.contractId() };
}

/** get_caller: the caller of the contract that asks, i.e. below its frame and the get_caller frame. */
export function getCaller(ctx: ExecutionContext): { value: { caller: Uint8Array; caller_privilege: number } } {
  const own = ctx.popFrame();
  const contract = ctx.popFrame();
  try {
    return { value: { caller: ctx.caller(), caller_privilege: ctx.callerPrivilege() } };
  } finally {
    ctx.pushFrame(contract);
    ctx.pushFrame(own);
  }
}

export function verifySignature(
  ctx: ExecutionContext,
  args: { type?: number; public_key?: Uint8Array; signature?: Uint8Array; digest?: Uint8Array; compressed?: boolean },
): { value: boolean } {
  if ((args.type ?? 0) !== 0) throw new ChainError(HOST_ERROR.unknown_dsa, 'unexpected dsa');
  const recovered =
    systemCall(ctx, 'recover_public_key', {
      type: 0,
      signature: args.signature ?? EMPTY,
      digest: args.digest ?? EMPTY,
      compressed: args.compressed ?? false,
    }).value ?? EMPTY;
  const key = args.public_key ?? EMPTY;
  return { value: recovered.length === key.length && recovered.every((b, i) => b === key[i]) };
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function checkAuthority(
  ctx: ExecutionContext,
  args: { type?: number; account?: Uint8Array; data?: Uint8Array },
): { value: boolean } {
  if (ctx.env.readOnly)
    throw new ChainError(ERROR_CODE.read_only_context, 'unable to perform action while context is read only');
  const account = args.account ?? EMPTY;
  let type: number = AUTHORIZATION.contract_call;
  if (ctx.caller().length === 0) {
    type = ctx.env.operation?.upload_contract ? AUTHORIZATION.contract_upload : AUTHORIZATION.transaction_application;
  }
  const meta = contractMetadata(ctx, account);
  const override =
    meta !== undefined &&
    ((type === AUTHORIZATION.contract_call && meta.authorizes_call_contract === true) ||
      (type === AUTHORIZATION.transaction_application && meta.authorizes_transaction_application === true) ||
      (type === AUTHORIZATION.contract_upload && meta.authorizes_upload_contract === true));
  if (override) {
    const authorizeArgs: Record<string, unknown> = { type };
    if (type === AUTHORIZATION.contract_call) {
      authorizeArgs.call = {
        contract_id: ctx.caller(),
        entry_point: ctx.callerEntryPoint(),
        caller: getCaller(ctx).value.caller,
        data: args.data ?? EMPTY,
      };
    }
    const result = systemCall(ctx, 'call', {
      contract_id: account,
      entry_point: AUTHORIZE_ENTRY_POINT,
      args: encode('koinos.chain.authorize_call_arguments', authorizeArgs),
    }).value;
    return { value: decode('koinos.chain.bool_result', result ?? EMPTY).value === true };
  }
  const tx = ctx.env.transaction;
  if (!tx) throw new ChainError(HOST_ERROR.internal_error, 'transaction does not exist');
  const digest = multihashSha256(tx.id.length === 34 ? tx.id.subarray(2) : tx.id);
  for (const signature of tx.signatures) {
    const key =
      systemCall(ctx, 'recover_public_key', {
        type: 0,
        signature,
        digest,
        compressed: true,
      }).value ?? EMPTY;
    if (equal(addressFromPublicKey(key), account)) return { value: true };
  }
  return { value: false };
}
