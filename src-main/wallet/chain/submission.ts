// The one submission pipeline for any operations, whoever asks (Send, the offline export, an NFT transfer, the CLI's
// `transfer` and `contract` commands, and later dApps): `prepareOperations` reads chain ID, nonce and mana for a new
// transaction at once (the nonce above the chain's, the mempool's and this wallet's own pending transactions; the mana
// pending transactions hold taken off) and builds it unsigned; `submitAndTrack` sends a signed one once and records it
// as pending, so that the next preparation counts it. rc_limit's rules live here too: by hand (a whole number above 0)
// or sized from a dry run's mana (rcNeeded) plus 10 %, never above the mana available.
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { nonceFromBytes, nonceToBytes } from '../../koinos/transaction.ts';
import type { Operation, Transaction, TransactionReceipt } from '../../koinos/types.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import type { TransactionFollower } from './transactionFollower.ts';

/** rc_limit = the dry run's rc_used plus this share (10 %), capped by the available mana. */
export const RC_MARGIN_PERCENT = 10n;

/** rc_used plus 10 %, capped by what the account can spend. */
export function rcLimitFor(rcUsed: bigint, available: bigint): bigint {
  const withMargin = rcUsed + (rcUsed * RC_MARGIN_PERCENT + 99n) / 100n;
  return withMargin < available ? withMargin : available;
}

/**
 * The mana a transaction needs as its rc_limit, from its dry run's receipt and the head block's prices. rc_used is what
 * it cost in the end, after the disk bytes it freed were credited (an allowance taken back, an object removed: koinos-
 * chain session.cpp lets the credit raise what is left), but the limit is checked at every charge before that credit:
 * sized from rc_used alone, such a transaction runs out ("insufficient rc"). Its compute, network and kept disk at the
 * prices bound what it used before the credit (a credit for bytes the same transaction had first written aside), so
 * the larger of the two is needed. Without the prices (a node that does not answer them), rc_used.
 * @example
 * rcNeeded(receipt, { disk: 10n, network: 5n, compute: 1n });
 * // compute + 5 × network + 10 × disk, or rc_used when that is more
 */
export function rcNeeded(
  receipt: Pick<
    TransactionReceipt,
    'rc_used' | 'disk_storage_used' | 'network_bandwidth_used' | 'compute_bandwidth_used'
  >,
  costs: { disk: bigint; network: bigint; compute: bigint } | undefined,
): bigint {
  if (!costs) return receipt.rc_used;
  const charged =
    receipt.disk_storage_used * costs.disk +
    receipt.network_bandwidth_used * costs.network +
    receipt.compute_bandwidth_used * costs.compute;
  return charged > receipt.rc_used ? charged : receipt.rc_used;
}

/**
 * A mana limit typed by hand (base units, decimal string); undefined when none was given.
 * @throws WalletError INVALID_AMOUNT for anything but a whole number above 0.
 * @example
 * parseRcLimit('5000000'); // 5_000_000n
 */
export function parseRcLimit(text: string | undefined): bigint | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,20}$/.test(text.trim()))
    throw new WalletError(
      'INVALID_AMOUNT',
      `expected the mana limit as a whole number of base units, got ${describe(text)}`,
    );
  const value = BigInt(text.trim());
  if (value === 0n)
    throw new WalletError(
      'INVALID_AMOUNT',
      'expected a mana limit above 0, got 0: the chain refuses a transaction that may use no mana',
    );
  if (value >= 2n ** 64n)
    throw new WalletError('INVALID_AMOUNT', `expected a mana limit below 2^64, got ${text.trim()}`);
  return value;
}

/** An account as both forms: its address text and its bytes. */
export interface Party {
  address: string;
  bytes: Uint8Array;
}

/** What the node says of a sender and its payer now, with this wallet's own pending transactions counted in. */
export interface AccountNow {
  chainId: Uint8Array;
  /** The nonce the chain stored for the sender (a dry run, which skips the mempool, must use this plus one). */
  confirmedNonce: bigint;
  /** The nonce a new transaction takes: one above the highest of the stored nonce, the node's pending nonce and this wallet's own pending transactions. */
  nonce: bigint;
  /** The sender's mana (the node's figure). */
  senderMana: bigint;
  /** What pending transactions hold of the payer's mana: the node's figure where it gives one, else this wallet's own count. */
  held: bigint;
}

/**
 * Chain ID, nonce and mana for a new transaction of `from` paid by `payer` (the sender itself, or another), read at once.
 * @throws node errors.
 */
export async function readAccountNow(
  node: KoinosNode,
  pending: PendingTransactions,
  networkId: string,
  from: Party,
  payer: Party,
): Promise<AccountNow> {
  const [chainId, { next, confirmed }, senderMana, reserved] = await Promise.all([
    node.chainId(),
    nextNonce(node, pending, networkId, from),
    node.rc(from.bytes),
    node.reservedRc(payer.bytes),
  ]);
  return {
    chainId,
    confirmedNonce: confirmed,
    nonce: next,
    senderMana,
    held: reserved ?? pending.heldMana(networkId, payer.address),
  };
}

/**
 * The nonce a new transaction of `account` takes, one above the highest of the chain's stored nonce, the node's pending
 * nonce and this wallet's own pending transactions; and the chain's (`confirmed`, what a dry run that skips the mempool
 * must build on). Every path that fills a header asks this (send, offline, the CLI, dApp requests).
 * @throws node errors.
 */
export async function nextNonce(
  node: KoinosNode,
  pending: PendingTransactions,
  networkId: string,
  account: Party,
): Promise<{ next: bigint; confirmed: bigint }> {
  const [confirmed, nodePending] = await Promise.all([node.nonce(account.bytes), node.pendingNonce(account.bytes)]);
  const own = pending.highestNonce(networkId, account.address);
  let highest = confirmed;
  if (nodePending !== undefined && nodePending > highest) highest = nodePending;
  if (own !== undefined && own > highest) highest = own;
  return { next: highest + 1n, confirmed };
}

/**
 * An unsigned transaction of `operations` (id and merkle root empty: prepareTransaction fills them). With a payer other
 * than the sender, the sender is the payee: its nonce is used and it signs; the payer's mana is spent.
 */
export function unsignedTransaction(
  header: { chainId: Uint8Array; rcLimit: bigint; nonce: bigint; payer: Uint8Array; payee?: Uint8Array },
  operations: Operation[],
): Transaction {
  return {
    id: new Uint8Array(),
    header: {
      chain_id: header.chainId,
      rc_limit: header.rcLimit,
      nonce: nonceToBytes(header.nonce),
      operation_merkle_root: new Uint8Array(),
      payer: header.payer,
      payee: header.payee ?? new Uint8Array(),
    },
    operations,
    signatures: [],
  };
}

/** What prepareOperations needs: where, who pays, whose nonce, what, and the limits a payer or a person set. */
export interface OperationsRequest {
  node: KoinosNode;
  networkId: string;
  /** This wallet's own transactions not in a block yet (their nonces and the mana they hold count). */
  pending: PendingTransactions;
  /** Who pays the mana (and signs, unless it is a contract that approves by itself). */
  payer: Party;
  /** The nonce account when another account pays (it signs too); absent: the payer is the sender. */
  payee?: Party;
  operations: Operation[];
  /** rc_limit set by hand (parseRcLimit); absent: sized from a dry run under the available mana. */
  rcLimit?: bigint;
  /** The payer's mana when the node's figure is not the one to use (the free mana sharer's own `available_mana`). */
  payerMana?: bigint;
  /** The most rc_limit the payer pays for (the sharer's cap); absent: no cap but the mana. */
  payerCap?: bigint;
}

/** A transaction of operations ready to be reviewed: its header fields read now and the mana it may use. */
export interface PreparedOperations {
  chainId: Uint8Array;
  /** The pending-aware nonce the transaction takes. */
  nonce: bigint;
  /** The nonce the chain stored for the nonce account. */
  confirmedNonce: bigint;
  /** `nonce` is the stored one plus one: a dry run of this very transaction is valid now (none is pending). */
  dryRunnable: boolean;
  /** The nonce account's mana (the node's figure). */
  senderMana: bigint;
  /** The payer's mana now. */
  mana: bigint;
  /** What pending transactions hold of it. */
  held: bigint;
  /** The payer's mana not held by pending transactions, within its cap: what rc_limit may use. */
  availableMana: bigint;
  rcLimitByHand?: bigint;
  /** The transaction with every header field but rc_limit, unsigned (nonce: this one unless told). */
  unsigned(rcLimit: bigint, nonce?: bigint): Transaction;
}

/**
 * Reads what a new transaction of `operations` needs at once and returns the way to build it: chain ID, the nonce (one
 * above the highest of the chain's stored nonce, the node's pending nonce and this wallet's own pending transactions
 * of the nonce account), the payer's mana minus what pending transactions hold (the node's figure, else this wallet's
 * count), within the payer's cap. The checks that depend on what is sent (balances, an rc_limit above the mana, with
 * words for each case) stay with the caller.
 * @throws node errors.
 * @example
 * const prepared = await prepareOperations({ node, networkId, pending, payer, operations: [call] });
 * const tx = prepareTransaction(prepared.unsigned(prepared.rcLimitByHand ?? prepared.availableMana));
 */
export async function prepareOperations(request: OperationsRequest): Promise<PreparedOperations> {
  const { node, networkId, pending, payer, payee } = request;
  const sender = payee ?? payer;
  const [now, payerMana] = await Promise.all([
    readAccountNow(node, pending, networkId, sender, payer),
    request.payerMana !== undefined
      ? Promise.resolve(request.payerMana)
      : payee
        ? node.rc(payer.bytes)
        : Promise.resolve(undefined),
  ]);
  const mana = payerMana ?? now.senderMana;
  const unheld = mana > now.held ? mana - now.held : 0n;
  const availableMana = request.payerCap !== undefined && request.payerCap < unheld ? request.payerCap : unheld;
  const { chainId, nonce } = now;
  return {
    chainId,
    nonce,
    confirmedNonce: now.confirmedNonce,
    dryRunnable: nonce === now.confirmedNonce + 1n,
    senderMana: now.senderMana,
    mana,
    held: now.held,
    availableMana,
    ...(request.rcLimit !== undefined ? { rcLimitByHand: request.rcLimit } : {}),
    unsigned: (rcLimit, nonceOverride) =>
      unsignedTransaction(
        {
          chainId,
          rcLimit,
          nonce: nonceOverride ?? nonce,
          payer: payer.bytes,
          ...(payee ? { payee: payee.bytes } : {}),
        },
        request.operations,
      ),
  };
}

/** Where a signed transaction goes and who follows it. */
export interface SubmitTarget {
  networkId: string;
  node: KoinosNode;
  follower: TransactionFollower;
}

/**
 * Submits a signed transaction once; with `broadcast` the node sends it to the network and it is recorded as pending
 * (its nonce and rc_limit count for the next preparation) and followed until it is irreversible. Without, the node
 * only runs it (a dry run) and nothing is recorded. A broadcast whose answer was lost, cut short or unreadable may
 * have arrived: it is recorded and followed all the same (it shows as pending, its nonce is not used again, and the
 * follower drops it once the node shows it does not have it), so that nobody sends it twice believing it was not sent.
 * @throws WalletError SUBMISSION_UNKNOWN for that case; the node's errors otherwise (nothing is recorded then).
 */
export async function submitAndTrack(
  target: SubmitTarget,
  signed: Transaction,
  broadcast: boolean,
): Promise<TransactionReceipt> {
  if (!broadcast) return target.node.submit(signed, false);
  // The wallet, closing, waits for a broadcast under way to be answered and recorded.
  return target.follower.broadcasting(async () => {
    let receipt: TransactionReceipt;
    try {
      receipt = await target.node.submit(signed, true);
    } catch (error) {
      if (!(error instanceof WalletError && error.deliveryUnknown)) throw error;
      const id = track(target, signed);
      throw new WalletError(
        'SUBMISSION_UNKNOWN',
        `Transaction ${id} was sent, but no answer says whether the node received it. The wallet follows it: History ` +
          'shows it as pending until a block includes it, or drops it once the node shows it does not have it (within ' +
          'about three minutes). Check History before sending it again: if it arrived, a second one is a second transfer.',
        { cause: error },
      );
    }
    track(target, signed);
    return receipt;
  });
}

/** Records a broadcast transaction as pending and follows it; returns its id. */
function track(target: SubmitTarget, signed: Transaction): string {
  const header = signed.header!;
  const id = bytesToJson(signed.id, BTYPE.TRANSACTION_ID);
  target.follower.track({
    networkId: target.networkId,
    id,
    payer: bytesToJson(header.payer, BTYPE.ADDRESS),
    nonce: nonceFromBytes(header.nonce),
    rcLimit: header.rc_limit,
    transaction: signed,
    submittedAt: Date.now(),
    status: 'pending',
  });
  return id;
}
