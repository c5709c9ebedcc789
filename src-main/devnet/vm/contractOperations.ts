// The operations and the read that run contracts, as koinos-chain applies them: upload_contract (authority of the
// contract id, bytecode and metadata in the kernel spaces), call_contract (user mode; failures become reversions),
// set_system_call and set_system_contract (system authority) and chain.read_contract (read-only, user frame). The
// node gives the environment: state layer, meter, transaction.
import { decode, encode } from '../../koinos/codec.ts';
import type { UploadContractOperation } from '../../koinos/types.ts';
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import { ExecutionContext, HOST_ERROR, PRIVILEGE, type HostEnvironment } from './executionContext.ts';
import { dispatchKey, systemCall, thunkExists } from './hostApi.ts';
import { KERNEL_SPACE } from './stateThunks.ts';
import { SYSTEM_CALL_IDS } from './systemCallIds.ts';
import { AUTHORIZATION } from './contractThunks.ts';

const EMPTY = new Uint8Array(0);

/** koinos-chain's default `read_compute_bandwidth_limit` for chain.read_contract (koinos_chain.cpp). */
export const READ_COMPUTE_LIMIT = 10_000_000n;

/** The result and outputs of a contract run. */
export interface ContractRun {
  result: Uint8Array;
}

/**
 * apply_call_contract_operation: runs the contract in user mode below a kernel operation frame; a failure of the
 * contract becomes a reversion with its message.
 * @throws ChainError reversion (code >= 1) when the contract reverts, fails, traps or runs out of compute.
 */
export function callContract(
  env: HostEnvironment,
  contractId: Uint8Array,
  entryPoint: number,
  args: Uint8Array,
): ContractRun {
  const ctx = new ExecutionContext(env);
  const frame = ExecutionContext.systemFrame(SYSTEM_CALL_IDS.apply_call_contract_operation);
  return ctx.withFrame(frame, () => {
    ctx.useCompute(ctx.compute('apply_call_contract_operation'));
    if (env.readOnly)
      throw new ChainError(ERROR_CODE.read_only_context, 'unable to perform action while context is read only');
    frame.privilege = PRIVILEGE.user;
    try {
      const { value } = systemCall(ctx, 'call', { contract_id: contractId, entry_point: entryPoint, args });
      return { result: value ?? EMPTY };
    } catch (error) {
      if (error instanceof ChainError && error.code <= ERROR_CODE.failure)
        throw new ChainError(ERROR_CODE.reversion, error.message);
      throw error;
    }
  });
}

/** chain.read_contract: the contract called from a user frame, read-only (the environment says so). */
export function readContract(
  env: HostEnvironment,
  contractId: Uint8Array,
  entryPoint: number,
  args: Uint8Array,
): ContractRun {
  const ctx = new ExecutionContext(env);
  const frame = { contractId: EMPTY, privilege: PRIVILEGE.user, args: EMPTY, entryPoint: 0, sid: 0 };
  return ctx.withFrame(frame, () => {
    const { value } = systemCall(ctx, 'call', { contract_id: contractId, entry_point: entryPoint, args });
    return { result: value ?? EMPTY };
  });
}

interface ContractMetadata {
  hash?: Uint8Array;
  system?: boolean;
  authorizes_call_contract?: boolean;
  authorizes_transaction_application?: boolean;
  authorizes_upload_contract?: boolean;
}

/**
 * apply_upload_contract_operation: the contract id must authorize the upload (its key's signature, or its own
 * `authorize` when its current metadata says `authorizes_upload_contract`); the bytecode is not parsed.
 * @throws ChainError authorization_failure (-200) "account … has not authorized action".
 */
export function uploadContract(env: HostEnvironment, op: UploadContractOperation, accountText: string): void {
  const ctx = new ExecutionContext({ ...env, operation: { upload_contract: op } });
  ctx.withFrame(ExecutionContext.systemFrame(SYSTEM_CALL_IDS.apply_upload_contract_operation), () => {
    ctx.useCompute(ctx.compute('apply_upload_contract_operation'));
    if (env.readOnly)
      throw new ChainError(ERROR_CODE.read_only_context, 'unable to perform action while context is read only');
    const authorized = systemCall(ctx, 'check_authority', {
      type: AUTHORIZATION.contract_upload,
      account: op.contract_id,
    }).value;
    if (!authorized)
      throw new ChainError(ERROR_CODE.authorization_failure, `account ${accountText} has not authorized action`);
    const existing =
      systemCall(ctx, 'get_object', {
        space: KERNEL_SPACE.contractMetadata,
        key: op.contract_id,
      }).value ?? {};
    const meta: ContractMetadata = existing.exists
      ? decode('koinos.chain.contract_metadata_object', existing.value ?? EMPTY)
      : {};
    meta.hash = systemCall(ctx, 'hash', { code: 0x12n, obj: op.bytecode }).value ?? EMPTY;
    meta.authorizes_call_contract = op.authorizes_call_contract;
    meta.authorizes_transaction_application = op.authorizes_transaction_application;
    meta.authorizes_upload_contract = op.authorizes_upload_contract;
    systemCall(ctx, 'put_object', { space: KERNEL_SPACE.contractBytecode, key: op.contract_id, obj: op.bytecode });
    systemCall(ctx, 'put_object', {
      space: KERNEL_SPACE.contractMetadata,
      key: op.contract_id,
      obj: encode('koinos.chain.contract_metadata_object', meta),
    });
  });
}

/** koinos.protocol.set_system_call_operation */
export interface SetSystemCallOperation {
  call_id?: number;
  target?: { thunk_id?: number; system_call_bundle?: { contract_id?: Uint8Array; entry_point?: number } };
}

/** koinos.protocol.set_system_contract_operation */
export interface SetSystemContractOperation {
  contract_id?: Uint8Array;
  system_contract?: boolean;
}

function requireSystemAuthority(ctx: ExecutionContext): void {
  if (ctx.env.readOnly)
    throw new ChainError(ERROR_CODE.read_only_context, 'unable to perform action while context is read only');
  if (!systemCall(ctx, 'check_system_authority', {}).value) {
    throw new ChainError(HOST_ERROR.system_authorization_failure, 'system authority required');
  }
}

function getKernelObject(
  ctx: ExecutionContext,
  space: (typeof KERNEL_SPACE)[keyof typeof KERNEL_SPACE],
  key: Uint8Array,
): { exists?: boolean; value?: Uint8Array } {
  return systemCall(ctx, 'get_object', { space, key }).value ?? {};
}

/**
 * apply_set_system_call_operation (system_calls.cpp): under the system authority, points a system call at a thunk
 * or at an entry point of a system contract; the target goes to the dispatch space under the id's 4 big-endian
 * bytes, and the chain's `koinos.chain.set_system_call_event` is emitted.
 * @throws ChainError system_authorization_failure (101), invalid_contract (102), unknown_thunk (106), reversion.
 */
export function setSystemCall(env: HostEnvironment, op: SetSystemCallOperation): void {
  const ctx = new ExecutionContext({ ...env, operation: { set_system_call: op as never } });
  ctx.withFrame(ExecutionContext.systemFrame(SYSTEM_CALL_IDS.apply_set_system_call_operation), () => {
    ctx.useCompute(ctx.compute('apply_set_system_call_operation'));
    requireSystemAuthority(ctx);
    const callId = op.call_id ?? 0;
    const bundle = op.target?.system_call_bundle;
    if (bundle) {
      const contractId = bundle.contract_id ?? EMPTY;
      if (!getKernelObject(ctx, KERNEL_SPACE.contractBytecode, contractId).exists)
        throw new ChainError(ERROR_CODE.invalid_contract, 'contract does not exist');
      const meta = getKernelObject(ctx, KERNEL_SPACE.contractMetadata, contractId);
      if (!meta.exists) throw new ChainError(ERROR_CODE.invalid_contract, 'contract metadata does not exist');
      if (!decode('koinos.chain.contract_metadata_object', meta.value ?? EMPTY).system) {
        throw new ChainError(ERROR_CODE.invalid_contract, 'contract is not a system contract');
      }
      if (callId === SYSTEM_CALL_IDS.call) throw new ChainError(ERROR_CODE.reversion, 'cannot override call_contract');
    } else {
      const thunkId = op.target?.thunk_id ?? 0;
      if (!thunkExists(thunkId)) throw new ChainError(HOST_ERROR.unknown_thunk, `thunk ${thunkId} does not exist`);
    }
    const target = encode('koinos.protocol.system_call_target', op.target ?? {});
    systemCall(ctx, 'put_object', { space: KERNEL_SPACE.systemCallDispatch, key: dispatchKey(callId), obj: target });
    systemCall(ctx, 'event', {
      name: 'koinos.chain.set_system_call_event',
      data: encode('koinos.chain.set_system_call_event', { call_id: callId, target: op.target ?? {} }),
      impacted: [],
    });
  });
}

/**
 * apply_set_system_contract_operation (system_calls.cpp): under the system authority, sets `system` in the metadata
 * of an uploaded contract (its calls then run in kernel mode) and emits `koinos.chain.set_system_contract_event`.
 * @throws ChainError system_authorization_failure (101), invalid_contract (102).
 */
export function setSystemContract(env: HostEnvironment, op: SetSystemContractOperation): void {
  const ctx = new ExecutionContext({ ...env, operation: { set_system_contract: op as never } });
  ctx.withFrame(ExecutionContext.systemFrame(SYSTEM_CALL_IDS.apply_set_system_contract_operation), () => {
    ctx.useCompute(ctx.compute('apply_set_system_contract_operation'));
    requireSystemAuthority(ctx);
    const contractId = op.contract_id ?? EMPTY;
    if (!getKernelObject(ctx, KERNEL_SPACE.contractBytecode, contractId).exists)
      throw new ChainError(ERROR_CODE.invalid_contract, 'contract does not exist');
    const found = getKernelObject(ctx, KERNEL_SPACE.contractMetadata, contractId);
    if (!found.exists) throw new ChainError(ERROR_CODE.invalid_contract, 'contract does not exist');
    const meta = decode('koinos.chain.contract_metadata_object', found.value ?? EMPTY);
    if (!meta.hash || meta.hash.length === 0)
      throw new ChainError(ERROR_CODE.invalid_contract, 'contract hash does not exist');
    meta.system = op.system_contract === true;
    systemCall(ctx, 'put_object', {
      space: KERNEL_SPACE.contractMetadata,
      key: contractId,
      obj: encode('koinos.chain.contract_metadata_object', meta),
    });
    systemCall(ctx, 'event', {
      name: 'koinos.chain.set_system_contract_event',
      data: encode('koinos.chain.set_system_contract_event', { contract_id: contractId, system_contract: meta.system }),
      impacted: [],
    });
  });
}
