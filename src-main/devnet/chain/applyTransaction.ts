// Applying one transaction as the chain's apply_transaction does (chain system_calls.cpp): the checks in the node's
// order with its texts and codes, the operations in a child state, mana charged from the payer, and the receipt.
// Failures (code <= -1) throw and change nothing. A failure inside a contract becomes a reversion (code 1, the
// contract's message), as apply_call_contract_operation does; a reversion gives a receipt with reverted=true whose
// payer is charged and whose nonce is used, plus the reversion itself, which a submission rethrows (controller.cpp)
// and a block keeps (apply_block).
import { hash } from 'node:crypto';
import { concatAll, equalBytes, toBase58, toHex } from '../../koinos/bytes.ts';
import { decode, encode, lengthDelimitedFields, type MessageInput } from '../../koinos/codec.ts';
import { multihashSha256 } from '../../koinos/hash.ts';
import { merkleRoot, nonceToBytes } from '../../koinos/transaction.ts';
import type { EventData, Operation, Transaction, TransactionHeader, TransactionReceipt } from '../../koinos/types.ts';
import { ChainError, ERROR_CODE, failure } from '../state/chainError.ts';
import type { CallContext } from '../contracts/context.ts';
import type { ChainFacts } from '../contracts/context.ts';
import { builtInAt, KOIN } from '../contracts/registry.ts';
import {
  authorizesTransactionApplication,
  callWasmContract,
  checkTransactionAuthority,
  isWasmContract,
  setSystemCallOperation,
  setSystemContractOperation,
  uploadWasmContract,
} from './wasmContracts.ts';
import {
  COMPUTE,
  hashCompute,
  merkleCompute,
  RcMeter,
  RESOURCE_LIMITS,
  type BlockResources,
} from '../state/resources.ts';
import { deltaEntries, KERNEL_SPACES, stateKey, StateView, type StateSink, type StateSource } from '../state/state.ts';

/**
 * sha256 through node:crypto (about twice as fast as the pure-JS hash on this hot path). The one-shot `hash` makes no
 * Hash object: each of those is a native object behind a weak handle, which every scavenge of a busy node processed.
 */
export function sha256Fast(data: Uint8Array): Uint8Array {
  const digest = hash('sha256', data, 'buffer');
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}

/**
 * Most signatures the devnet checks in one transaction. The node has no such limit, but it recovers signatures
 * lazily while metering; a 1 MiB request could otherwise make the devnet recover ~15,000 keys (seconds of work)
 * for a transaction that is then rejected and pays nothing. Real transactions carry one signature per signer.
 */
export const MAX_TRANSACTION_SIGNATURES = 64;

/** Mana the recovery of one signature costs (compute `recover_public_key` at the compute price). */
const RECOVERY_RC = BigInt(COMPUTE.recover_public_key) * RESOURCE_LIMITS.compute_bandwidth_cost;

/**
 * How many of a transaction's first signatures its rc_limit can pay the recovery of. check_authority charges a
 * recovery before it looks at a signature, so signature i (from 0) is only reached after (i + 1) recoveries were
 * charged: signatures from this count on can never be looked at, and need not be recovered. Recovering just these
 * bounds the work by rc_limit exactly as the node's lazy, metered recovery does, without changing any outcome.
 * (A transaction the node accepts always gets all of them: its rc_limit also pays the network bandwidth of its
 * signatures, 3,000 mana a byte, far more than their recovery.)
 * @example
 * recoverableSignatures(1000, 200_000n); // 3 (a recovery costs 59,260 mana)
 */
export function recoverableSignatures(count: number, rcLimit: bigint): number {
  const affordable = rcLimit / RECOVERY_RC;
  return affordable < BigInt(count) ? Number(affordable) : count;
}

/** What a signature check found: the signer's 25-byte address, or the node's error text. */
export type SignerCheck = { address: Uint8Array } | { error: string };

/** A transaction with everything that does not depend on state computed once (at submission). */
export interface PreparedTransaction {
  tx: Transaction;
  header: TransactionHeader;
  /** Canonical serialized transaction (its size is the network bandwidth used). */
  bytes: Uint8Array;
  idHex: string;
  /** sha256 of the canonical header bytes: what the id must hold and what signatures sign. */
  idDigest: Uint8Array;
  headerLength: number;
  idMatches: boolean;
  /** Multihash code of operation_merkle_root (-1 when it does not parse). */
  merkleCode: number;
  merkleMatches: boolean;
  operationLengths: number[];
  payer: Uint8Array;
  /** Empty when not set. */
  payee: Uint8Array;
  /** payee when set and different from payer, else payer. */
  nonceAccount: Uint8Array;
  /** The nonce's uint64_value, or undefined when the header nonce is not a value_type with one. */
  nonce?: bigint;
  rcLimit: bigint;
  /** sha256 of all signatures concatenated (the second block merkle leaf of this transaction). */
  signaturesDigest: Uint8Array;
  /** One entry per signature the rc_limit pays the recovery of (see recoverableSignatures), in order. */
  signers: SignerCheck[];
}

function missing(field: string, where: 'transaction' | 'transaction header', id: Uint8Array): ChainError {
  return new ChainError(ERROR_CODE.missing_required_arguments, `missing expected field in ${where}: ${field}`, {
    field,
    transaction_id: `0x${toHex(id)}`,
  });
}

/** The code of a binary multihash, or -1 when the bytes are not one. */
function multihashCode(bytes: Uint8Array): number {
  if (bytes.length < 2) return -1;
  let code = 0;
  let shift = 0;
  let i = 0;
  for (; i < bytes.length && i < 4; i++) {
    code |= (bytes[i]! & 0x7f) << shift;
    shift += 7;
    if (bytes[i]! < 0x80) break;
  }
  return i < bytes.length - 1 ? code : -1;
}

/**
 * The canonical bytes of the header and of each operation, read out of a transaction's canonical bytes
 * (codec.ts lengthDelimitedFields): the bytes encoding them again would give. Header is field 2, operations field 3.
 */
export function transactionParts(bytes: Uint8Array): { header: Uint8Array; operations: Uint8Array[] } {
  let header: Uint8Array = new Uint8Array(0);
  const operations: Uint8Array[] = [];
  for (const { field, bytes: part } of lengthDelimitedFields('koinos.protocol.transaction', bytes)) {
    if (field === 2) header = part;
    else if (field === 3) operations.push(part);
  }
  return { header, operations };
}

/**
 * Checks the required fields (chain `validate_transaction`) and computes id, merkle root and sizes. `complete` says
 * the input already has every default filled (the strict JSON reader's, or a decoded message): it is then read as it
 * is instead of through a decode of its bytes.
 * @throws ChainError -1002 "missing expected field in transaction: <field>" / "... transaction header: <field>";
 *   -1 when the transaction has more than MAX_TRANSACTION_SIGNATURES signatures (a devnet limit).
 */
export function prepareTransaction(
  input: Transaction | MessageInput<Transaction> | undefined,
  complete = false,
): PreparedTransaction {
  // Encoding checks every field's type; decoding the canonical bytes gives the copy with every default filled
  // that the checks below read.
  const bytes = encode('koinos.protocol.transaction', input ?? {});
  const tx = complete && input ? (input as Transaction) : decode('koinos.protocol.transaction', bytes);
  const id = tx.id;
  if (id.length === 0) throw missing('id', 'transaction', id);
  if (!tx.header) throw missing('header', 'transaction', id);
  const header = tx.header;
  if (header.payer.length === 0) throw missing('payer', 'transaction', id);
  if (header.rc_limit === 0n) throw missing('rc_limit', 'transaction header', id);
  if (header.operation_merkle_root.length === 0) throw missing('operation_merkle_root', 'transaction header', id);
  if (tx.signatures.length === 0) throw missing('signature_data', 'transaction', id);
  if (tx.signatures.length > MAX_TRANSACTION_SIGNATURES) {
    throw failure(
      `transaction has ${tx.signatures.length} signatures, the devnet checks at most ${MAX_TRANSACTION_SIGNATURES}`,
      {
        transaction_id: `0x${toHex(id)}`,
      },
    );
  }
  const { header: headerBytes, operations: operationBytes } = transactionParts(bytes);
  const idDigest = sha256Fast(headerBytes);
  const expectedId = multihashSha256(idDigest);
  const root = multihashSha256(merkleRoot(operationBytes.map(sha256Fast), sha256Fast));
  const merkleCode = multihashCode(header.operation_merkle_root);

  let nonce: bigint | undefined;
  try {
    nonce = decode('koinos.chain.value_type', header.nonce).uint64_value;
  } catch {
    nonce = undefined;
  }
  const payee = header.payee;
  return {
    tx,
    header,
    bytes,
    idHex: toHex(id),
    idDigest,
    headerLength: headerBytes.length,
    idMatches: equalBytes(expectedId, id),
    merkleCode,
    merkleMatches: equalBytes(root, header.operation_merkle_root),
    operationLengths: operationBytes.map((b) => b.length),
    payer: header.payer,
    payee,
    nonceAccount: payee.length > 0 && !equalBytes(payee, header.payer) ? payee : header.payer,
    nonce,
    rcLimit: header.rc_limit,
    signaturesDigest: sha256Fast(concatAll(tx.signatures)),
    signers: [],
  };
}

/** The state and chain facts a transaction applies against. */
export interface ApplyContext {
  /** The layer the transaction runs on: the head state at submission, the block's state in a block. */
  base: StateSource & StateSink;
  /** head_block_time for mana regeneration: the head block's time at submission, the block's time in a block. */
  headBlockTime: bigint;
  /** header.height of the block the transaction runs in (the head block at submission). */
  blockHeight: bigint;
  chainId: Uint8Array;
  genesisAddress: Uint8Array;
  /**
   * The nonce account's highest pending nonce, when a broadcast submission should check against the mempool
   * (controller.cpp set_mempool_nonce); undefined to check against the state.
   */
  mempoolNonce?: bigint;
  /** The execution context's event counter (block-wide in a block). */
  sequence: { next: number };
  /** Chain id, head and block as contracts see them (the head at submission, the block being applied in one). */
  chain?: ChainFacts;
  /** What the block has left of each resource (a block of its own when absent: a submission). */
  block?: BlockResources;
}

/** The outcome of applying a transaction that did not fail. */
export interface AppliedTransaction {
  receipt: TransactionReceipt;
  /** The transaction's changes, not yet committed into `ApplyContext.base` (for a reverted one: nonce and mana). */
  view: StateView;
  /** The reversion, when the operations reverted (receipt.reverted): a submission rethrows it. */
  reversion?: ChainError;
}

/** The stored nonce of an account (value_type bytes), or KAA= (0) when it has none. */
export function nonceBytesOf(source: StateSource, account: Uint8Array): Uint8Array {
  return source.lookup(stateKey(KERNEL_SPACES.nonce, account)) ?? nonceToBytes(0n);
}

/**
 * Applies a prepared transaction (signers recovered) on top of `ctx.base` without committing.
 * @throws ChainError for a failure (code <= -1), with `logs` set: nothing is applied.
 */
export function applyTransaction(ctx: ApplyContext, prepared: PreparedTransaction): AppliedTransaction {
  const { header, payer } = prepared;
  const meter = new RcMeter(prepared.rcLimit, ctx.block);
  const logs: string[] = [];
  const view = new StateView(ctx.base);

  /**
   * check_authority by signatures: the thunk, its read of the account's contract metadata, then some signature,
   * recovered in order, is the account's; a bad signature on the way throws.
   */
  const authorize = (account: Uint8Array): boolean => {
    meter.useCompute(COMPUTE.check_authority + COMPUTE.get_object);
    for (let i = 0; i < prepared.tx.signatures.length; i++) {
      meter.useCompute(COMPUTE.recover_public_key);
      const signer = prepared.signers[i];
      // Unreachable: the meter runs out before a signature past those rc_limit pays for (recoverableSignatures).
      if (!signer) throw new ChainError(ERROR_CODE.insufficient_rc, 'insufficient rc');
      if ('error' in signer) throw new ChainError(ERROR_CODE.invalid_signature, signer.error);
      if (equalBytes(signer.address, account)) return true;
    }
    return false;
  };

  const events: EventData[] = [];
  const callContext = (on: StateView): CallContext => ({
    view: on,
    meter,
    headBlockTime: ctx.headBlockTime,
    blockHeight: ctx.blockHeight,
    readOnly: false,
    genesisAddress: ctx.genesisAddress,
    caller: new Uint8Array(0),
    events,
    sequence: ctx.sequence,
    authorize,
    transaction: prepared.tx,
    logs,
    chain: ctx.chain,
    mempoolNonce: ctx.mempoolNonce,
  });

  /**
   * apply_transaction's check_authority(transaction_application, account): an uploaded contract whose metadata says
   * authorizes_transaction_application answers through its own `authorize` entry point (run in the VM, charged there);
   * any other account by signatures.
   */
  const authorizeTransaction = (account: Uint8Array): boolean =>
    authorizesTransactionApplication(view, account)
      ? checkTransactionAuthority(callContext(view), prepared.tx, logs, account)
      : authorize(account);

  let payerRc = 0n;
  try {
    try {
      meter.useCompute(COMPUTE.get_account_rc + COMPUTE.koin_get_account_rc);
      payerRc = KOIN.accountRc(view, payer, ctx.headBlockTime);
      if (payerRc < prepared.rcLimit) throw failure('payer does not have the rc to cover transaction rc limit');
      meter.useCompute(COMPUTE.get_object + COMPUTE.object_serialization_per_byte * ctx.chainId.length);
      if (!equalBytes(header.chain_id, ctx.chainId)) throw failure('chain id mismatch');
      meter.useCompute(hashCompute(prepared.headerLength));
      if (!prepared.idMatches) throw failure('transaction contains an invalid transaction id');
      if (prepared.merkleCode !== 0x12) {
        const o = Math.max(prepared.merkleCode, 0);
        throw failure(`unexpected operation merkle root hash code - was: ${o}, expected: 18`, { o, e: 18 });
      }
      for (const length of prepared.operationLengths) meter.useCompute(hashCompute(length));
      meter.useCompute(merkleCompute(prepared.operationLengths.length));
      if (!prepared.merkleMatches) throw failure('operation merkle root does not match');
      for (const account of equalBytes(prepared.nonceAccount, payer) ? [payer] : [payer, prepared.nonceAccount]) {
        if (!authorizeTransaction(account)) {
          const b58 = toBase58(account);
          throw new ChainError(ERROR_CODE.authorization_failure, `account ${b58} has not authorized transaction`, {
            account: b58,
          });
        }
      }
      // verify_account_nonce and the get_account_nonce it makes (the nonce object read back).
      meter.useCompute(COMPUTE.verify_account_nonce + COMPUTE.get_account_nonce);
      // The nonce checked against: the mempool's pending nonce when there is one (broadcast), else the state's.
      const currentBytes =
        ctx.mempoolNonce !== undefined ? nonceToBytes(ctx.mempoolNonce) : nonceBytesOf(view, prepared.nonceAccount);
      const current = decode('koinos.chain.value_type', currentBytes).uint64_value ?? 0n;
      if (prepared.nonce === undefined) {
        throw new ChainError(ERROR_CODE.invalid_nonce, 'nonce did not contain uint64 value');
      }
      if (prepared.nonce !== current + 1n) {
        const a = toBase58(prepared.nonceAccount);
        const n = `0x${toHex(header.nonce)}`;
        const c = `0x${toHex(currentBytes)}`;
        throw new ChainError(
          ERROR_CODE.invalid_nonce,
          `invalid transaction nonce - account: ${a}, nonce: ${n}, current nonce: ${c}`,
          { a, n, c },
        );
      }
      // set_account_nonce and its put_object of the nonce object.
      const nonceBytes = nonceToBytes(prepared.nonce);
      meter.useCompute(
        COMPUTE.set_account_nonce + COMPUTE.put_object + COMPUTE.object_serialization_per_byte * nonceBytes.length,
      );
      meter.useDisk(view.put(KERNEL_SPACES.nonce, prepared.nonceAccount, nonceBytes));
      // Step 8 of apply_transaction: the whole serialized transaction, before any operation runs (facts §3.6).
      meter.useNetwork(prepared.bytes.length);
    } catch (error) {
      // All reversions before the operations become failures (chain apply_transaction).
      if (error instanceof ChainError && error.isReversion) throw failure(error.message);
      throw error;
    }

    const opsView = new StateView(view);
    let reversion: ChainError | undefined;
    try {
      const callCtx = callContext(opsView);
      for (const op of prepared.tx.operations) applyOperation(callCtx, op);
      opsView.commit();
    } catch (error) {
      if (!(error instanceof ChainError)) throw error;
      logs.push(`transaction reverted: ${error.message}`);
      // A failure inside the operations rejects the whole transaction; a reversion leaves it included, reverted.
      if (!error.isReversion) throw error;
      reversion = error;
    }
    const reverted = reversion !== undefined;

    const used = meter.rcUsed;
    if (!KOIN.consumeAccountRc(view, payer, used, ctx.headBlockTime)) {
      throw failure(`unable to consume rc for payer: ${toBase58(payer)}`, { p: toBase58(payer) });
    }
    const receipt: TransactionReceipt = {
      id: prepared.tx.id,
      payer,
      max_payer_rc: payerRc,
      rc_limit: prepared.rcLimit,
      rc_used: used,
      disk_storage_used: meter.diskUsed,
      network_bandwidth_used: meter.network,
      compute_bandwidth_used: meter.compute,
      reverted,
      events: reverted ? [] : events,
      logs,
      state_delta_entries: deltaEntries(view.changes),
    };
    if (reversion) reversion.logs = logs;
    return { receipt, view, reversion };
  } catch (error) {
    if (error instanceof ChainError) error.logs = logs;
    throw error;
  }
}

function applyOperation(ctx: CallContext, op: Operation): void {
  const call = op.call_contract;
  // Looked up once: the built-in contract a call goes to, when it goes to one.
  const contract = call ? builtInAt(ctx.view, call.contract_id) : undefined;
  if (call && !contract && isWasmContract(ctx.view, call.contract_id)) {
    callWasmContract(ctx, ctx.transaction, ctx.logs ?? [], call.contract_id, call.entry_point, call.args);
    return;
  }
  if (op.upload_contract) return uploadWasmContract(ctx, ctx.transaction, ctx.logs ?? [], op.upload_contract);
  if (call) {
    ctx.meter?.useCompute(COMPUTE.call);
    if (!contract) throw new ChainError(ERROR_CODE.invalid_contract, 'contract does not exist');
    try {
      contract.call(ctx, call.entry_point, call.args);
    } catch (error) {
      // apply_call_contract_operation: a failure inside the contract reverts the transaction with its message.
      if (error instanceof ChainError && !error.isReversion) throw new ChainError(ERROR_CODE.reversion, error.message);
      throw error;
    }
    return;
  }
  if (op.set_system_call) return setSystemCallOperation(ctx, ctx.transaction, ctx.logs ?? [], op.set_system_call);
  if (op.set_system_contract)
    return setSystemContractOperation(ctx, ctx.transaction, ctx.logs ?? [], op.set_system_contract);
  throw new ChainError(ERROR_CODE.unknown_operation, 'unknown operation');
}
