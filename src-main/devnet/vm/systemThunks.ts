// The system helper and resource system calls (koinos-chain system_calls.cpp): account nonces, the system authority,
// block signatures, and what mainnet answers through its system contracts (mana from koin, limits from resources,
// names from the name service, contract metadata), answered natively through the node's SystemServices.
import { toBase58, toHex } from '../../koinos/bytes.ts';
import { decode } from '../../koinos/codec.ts';
import { addressFromPublicKey } from '../../koinos/address.ts';
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import {
  HOST_ERROR,
  PRIVILEGE,
  type ContractMetadataObject,
  type ExecutionContext,
  type ResourceLimitData,
  type SystemServices,
} from './executionContext.ts';
import { systemCall } from './hostCalls.ts';
import { KERNEL_SPACE } from './stateThunks.ts';

const EMPTY = new Uint8Array(0);

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The uint64 of a serialized value_type, or undefined when it has none (a malformed one parses as empty). */
function nonceValue(bytes: Uint8Array): bigint | undefined {
  try {
    return decode('koinos.chain.value_type', bytes).uint64_value;
  } catch {
    return undefined;
  }
}

function services(ctx: ExecutionContext): SystemServices {
  const found = ctx.env.services;
  if (!found) throw new ChainError(HOST_ERROR.internal_error, 'the node gives this run no system services');
  return found;
}

/**
 * The genesis address as system_call::get_object(metadata, genesis_key) reads it: charged as that call, empty when
 * the node did not give one.
 */
function genesisAddress(ctx: ExecutionContext): Uint8Array {
  ctx.useCompute(ctx.compute('get_object'));
  return ctx.env.genesisAddress ?? EMPTY;
}

/** The address of the key `signature` recovers for `digest` (system_call::recover_public_key, compressed). */
function signer(ctx: ExecutionContext, signature: Uint8Array, digest: Uint8Array): Uint8Array {
  const key = systemCall(ctx, 'recover_public_key', { type: 0, signature, digest, compressed: true }).value ?? EMPTY;
  return addressFromPublicKey(key);
}

export function verifyAccountNonce(
  ctx: ExecutionContext,
  args: { account?: Uint8Array; nonce?: Uint8Array },
): { value: boolean } {
  const account = args.account ?? EMPTY;
  const nonce = args.nonce ?? EMPTY;
  const value = nonceValue(nonce);
  if (value === undefined) {
    const n = `0x${toHex(nonce)}`;
    const a = toBase58(account);
    throw new ChainError(ERROR_CODE.invalid_nonce, `nonce did not contain uint64 value - nonce: ${n}, account: ${a}`, {
      n,
      a,
    });
  }
  const currentBytes = systemCall(ctx, 'get_account_nonce', { account }).value ?? EMPTY;
  const current = nonceValue(currentBytes);
  if (current === undefined) {
    const n = `0x${toHex(currentBytes)}`;
    const a = toBase58(account);
    throw new ChainError(
      ERROR_CODE.invalid_nonce,
      `current nonce did not contain uint64 value - nonce: ${n}, account: ${a}`,
      { n, a },
    );
  }
  // As system_calls.cpp: at a broadcast submission the execution context's mempool nonce (the pending nonce of the
  // transaction's nonce account) is compared with, whatever account is asked about; otherwise the stored nonce.
  const base = ctx.env.mempoolNonce ?? current;
  return { value: value === base + 1n };
}

export function setAccountNonce(ctx: ExecutionContext, args: { account?: Uint8Array; nonce?: Uint8Array }): undefined {
  if (ctx.callerPrivilege() !== PRIVILEGE.kernel) {
    throw new ChainError(HOST_ERROR.insufficient_privileges, 'calling privileged thunk from non-privileged code');
  }
  const account = args.account ?? EMPTY;
  const nonce = args.nonce ?? EMPTY;
  if (nonceValue(nonce) === undefined) {
    const n = `0x${toHex(nonce)}`;
    const a = toBase58(account);
    throw new ChainError(
      ERROR_CODE.invalid_nonce,
      `set nonce did not contain uint64 value - nonce: ${n}, account: ${a}`,
      { n, a },
    );
  }
  systemCall(ctx, 'put_object', { space: KERNEL_SPACE.transactionNonce, key: account, obj: nonce });
  return undefined;
}

/** check_system_authority: some signature of the transaction is the genesis key's. */
export function checkSystemAuthority(ctx: ExecutionContext): { value: boolean } {
  const genesis = genesisAddress(ctx);
  const tx = ctx.env.transaction;
  if (!tx) throw new ChainError(HOST_ERROR.internal_error, 'transaction does not exist');
  for (const signature of tx.signatures) {
    if (equal(signer(ctx, signature, tx.id), genesis)) return { value: true };
  }
  return { value: false };
}

/** process_block_signature: the signature recovers to the genesis address (the chain's own block signature rule). */
export function processBlockSignature(
  ctx: ExecutionContext,
  args: { digest?: Uint8Array; signature?: Uint8Array },
): { value: boolean } {
  const genesis = genesisAddress(ctx);
  return { value: equal(genesis, signer(ctx, args.signature ?? EMPTY, args.digest ?? EMPTY)) };
}

/** get_account_rc as KOIN answers it on mainnet (its override): the account's mana now. */
export function getAccountRc(ctx: ExecutionContext, args: { account?: Uint8Array }): { value: bigint } {
  return { value: services(ctx).accountRc(args.account ?? EMPTY) };
}

/**
 * consume_account_rc as KOIN answers it (koinos-contracts-as koin `consume_account_rc`): only from kernel mode, and
 * only what the account has; otherwise false with KOIN's log line.
 */
export function consumeAccountRc(
  ctx: ExecutionContext,
  args: { account?: Uint8Array; value?: bigint },
): { value: boolean } {
  if (ctx.callerPrivilege() !== PRIVILEGE.kernel) {
    ctx.env.logs.push('The system call consume_account_rc must be called from kernel context');
    return { value: false };
  }
  if (ctx.env.readOnly) throw new ChainError(ERROR_CODE.read_only_context, 'cannot put object during read only call');
  if (!services(ctx).consumeAccountRc(args.account ?? EMPTY, args.value ?? 0n)) {
    ctx.env.logs.push('Account has insufficient mana for consumption');
    return { value: false };
  }
  return { value: true };
}

/** get_resource_limits: the limits and prices the node meters with. */
export function getResourceLimits(ctx: ExecutionContext): { value: ResourceLimitData } {
  return { value: services(ctx).resourceLimits() };
}

/**
 * consume_block_resources as the resources contract answers it (koinos-system-contracts resources.cpp): only from
 * kernel mode (else false and its log line); true when the amounts fit the block limits the node meters with.
 */
export function consumeBlockResources(
  ctx: ExecutionContext,
  args: { disk_storage_consumed?: bigint; network_bandwidth_consumed?: bigint; compute_bandwidth_consumed?: bigint },
): { value: boolean } {
  if (ctx.callerPrivilege() !== PRIVILEGE.kernel) {
    ctx.env.logs.push('The system call consume_block_resources must be called from kernel context');
    return { value: false };
  }
  const limits = services(ctx).resourceLimits();
  return {
    value:
      (args.disk_storage_consumed ?? 0n) <= limits.disk_storage_limit &&
      (args.network_bandwidth_consumed ?? 0n) <= limits.network_bandwidth_limit &&
      (args.compute_bandwidth_consumed ?? 0n) <= limits.compute_bandwidth_limit,
  };
}

/**
 * get_contract_metadata as mainnet's get_contract_metadata contract answers it: the metadata object of the contract
 * (an empty result when there is none); the node's native contracts answer theirs.
 */
export function getContractMetadata(
  ctx: ExecutionContext,
  args: { contract_id?: Uint8Array },
): { value?: ContractMetadataObject } {
  const id = args.contract_id ?? EMPTY;
  ctx.useCompute(ctx.compute('get_object'));
  const native = ctx.env.services?.nativeMetadata(id);
  if (native) return { value: native };
  const bytes = ctx.env.state.get(KERNEL_SPACE.contractMetadata, id);
  return bytes ? { value: decode('koinos.chain.contract_metadata_object', bytes) } : {};
}

/** get_contract_name as the name service answers it: the system name of an address, or an empty result. */
export function getContractName(ctx: ExecutionContext, args: { address?: Uint8Array }): { value?: { name: string } } {
  ctx.useCompute(ctx.compute('get_object'));
  const name = ctx.env.services?.contractName(args.address ?? EMPTY);
  return name === undefined ? {} : { value: { name } };
}

/** get_contract_address as the name service answers it: the address of a system name, or an empty result. */
export function getContractAddress(
  ctx: ExecutionContext,
  args: { name?: string },
): { value?: { address: Uint8Array } } {
  ctx.useCompute(ctx.compute('get_object'));
  const address = ctx.env.services?.contractAddress(args.name ?? '');
  return address === undefined ? {} : { value: { address } };
}

/** pre/post block and transaction callbacks: genesis thunks that do nothing (system_calls.cpp), charged as listed. */
export function noCallback(): undefined {
  return undefined;
}

/**
 * apply_block, apply_transaction and the apply_*_operation thunks called by a contract: the chain refuses user code
 * first (insufficient_privileges); the devnet applies blocks, transactions and operations itself and does not run
 * them for kernel code either (internal_error, with what to do instead).
 */
export function applyFromContract(name: string): (ctx: ExecutionContext) => undefined {
  return (ctx) => {
    if (ctx.callerPrivilege() !== PRIVILEGE.kernel) {
      throw new ChainError(HOST_ERROR.insufficient_privileges, 'calling privileged thunk from non-privileged code');
    }
    throw new ChainError(
      HOST_ERROR.internal_error,
      `${name} is not run from contracts by the devnet: submit a transaction instead`,
    );
  };
}
