// The operations and the read that run contracts, as koinos-chain applies them: upload_contract (authority of the
// contract id, bytecode and metadata in the kernel spaces), call_contract (user mode; failures become reversions) and
// chain.read_contract (read-only, user frame). The node gives the environment: state layer, meter, transaction.
import { decode, encode } from '../../koinos/codec.ts';
import type { UploadContractOperation } from '../../koinos/types.ts';
import { ChainError, ERROR_CODE } from '../chainError.ts';
import { ExecutionContext, PRIVILEGE, type HostEnvironment } from './executionContext.ts';
import { systemCall } from './hostApi.ts';
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
export function callContract(env: HostEnvironment, contractId: Uint8Array, entryPoint: number, args: Uint8Array): ContractRun {
  const ctx = new ExecutionContext(env);
  const frame = ExecutionContext.systemFrame(SYSTEM_CALL_IDS.apply_call_contract_operation);
  return ctx.withFrame(frame, () => {
    ctx.useCompute(ctx.compute('apply_call_contract_operation'));
    if (env.readOnly) throw new ChainError(ERROR_CODE.read_only_context, 'unable to perform action while context is read only');
    frame.privilege = PRIVILEGE.user;
    try {
      const { value } = systemCall<{ value?: Uint8Array }>(ctx, 'call', { contract_id: contractId, entry_point: entryPoint, args });
      return { result: value ?? EMPTY };
    } catch (error) {
      if (error instanceof ChainError && error.code <= ERROR_CODE.failure) throw new ChainError(ERROR_CODE.reversion, error.message);
      throw error;
    }
  });
}

/** chain.read_contract: the contract called from a user frame, read-only (the environment says so). */
export function readContract(env: HostEnvironment, contractId: Uint8Array, entryPoint: number, args: Uint8Array): ContractRun {
  const ctx = new ExecutionContext(env);
  const frame = { contractId: EMPTY, privilege: PRIVILEGE.user, args: EMPTY, entryPoint: 0, sid: 0 };
  return ctx.withFrame(frame, () => {
    const { value } = systemCall<{ value?: Uint8Array }>(ctx, 'call', { contract_id: contractId, entry_point: entryPoint, args });
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
    if (env.readOnly) throw new ChainError(ERROR_CODE.read_only_context, 'unable to perform action while context is read only');
    const authorized = systemCall<{ value?: boolean }>(ctx, 'check_authority', {
      type: AUTHORIZATION.contract_upload,
      account: op.contract_id,
    }).value;
    if (!authorized) throw new ChainError(ERROR_CODE.authorization_failure, `account ${accountText} has not authorized action`);
    const existing =
      systemCall<{ value?: { exists?: boolean; value?: Uint8Array } }>(ctx, 'get_object', {
        space: KERNEL_SPACE.contractMetadata,
        key: op.contract_id,
      }).value ?? {};
    const meta: ContractMetadata = existing.exists ? decode<ContractMetadata>('koinos.chain.contract_metadata_object', existing.value ?? EMPTY) : {};
    meta.hash = systemCall<{ value?: Uint8Array }>(ctx, 'hash', { code: 0x12n, obj: op.bytecode }).value ?? EMPTY;
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
