// The second half of every reviewed transaction the wallet sends itself (a token transfer, an NFT transfer): ask the
// approval queue, and only once a person approved, check the chain ID and the nonce again, size rc_limit with a dry
// run of the approved transaction under the approved cap, sign, submit once and follow. Moved out of send.ts so that
// each kind of review shares the one path to a signature.
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { formatAmount } from '../../koinos/amounts.ts';
import { WalletError } from '../../koinos/errors.ts';
import { equalBytes } from '../../koinos/bytes.ts';
import { prepareTransaction } from '../../koinos/transaction.ts';
import type { Transaction, TransactionReceipt } from '../../koinos/types.ts';
import type { ApprovalReview } from '../approvals/types.ts';
import type { SubmitReceipt } from './types.ts';
import type { Approval, ApprovalQueue } from '../approvals/approvalQueue.ts';
import type { TransactionSigner } from '../signer.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { toSubmitReceipt } from './receipts.ts';
import { rcLimitFor, rcNeeded, submitAndTrack } from './submission.ts';
import type { TransactionFollower } from './transactionFollower.ts';

/** How long a review can be confirmed. */
export const REVIEW_TTL_MS = 10 * 60_000;
// rc_limit's rules moved to submission.ts with the rest of the pipeline; exported here as before.
export { RC_MARGIN_PERCENT, rcLimitFor } from './submission.ts';

/** What a prepared review keeps for its confirmation: the unsigned bytes the approval covers and how to size them. */
export interface PreparedSubmission {
  expires: number;
  networkId: string;
  chainId: Uint8Array;
  /** The sender: its nonce and its signature (absent: the payer is the sender). */
  from?: string;
  /** Who pays the mana. */
  payer: string;
  /** Every account that signs, the sender first (absent: the payer alone); the one approval covers each. */
  signers?: string[];
  /** Added to the measured rc_limit (the free mana sharer's recommended offset; absent: 0). */
  rcOffset?: bigint;
  /** Prepared, unsigned, with rc_limit at the cap: the bytes the approval covers. */
  transaction: Transaction;
  nonce: bigint;
  /** The chain's stored nonce plus one equals `nonce`: a dry run with this very transaction is valid now. */
  dryRunnable: boolean;
  rcCap: bigint;
  rcByHand: boolean;
  /** Where the measured cost of this kind of transaction is kept (`network contract`). */
  costKey: string;
  approval: ApprovalReview;
  /** Words for the messages: what is sent ("transfer"), and what to do when mana is short or the chain would revert it. */
  what: string;
  hints: { mana: string; revert: string };
}

export interface ApprovedSubmitDeps {
  networks: NetworkService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  signer: TransactionSigner;
  approvals: ApprovalQueue;
}

/**
 * Puts the reviewed transaction before the approval queue and waits for the person's decision; once approved, checks
 * the chain ID again, signs a dry run with rc_limit at the cap to size rc_limit (the mana used plus 10 %), signs the
 * transaction with that limit, submits it once (`broadcast: true`) and follows it. When the account has pending
 * transactions the chain would refuse a dry run at this nonce, so rc_limit is sized from the last measured cost.
 * `costs` keeps the measured cost by `costKey` for the next review's estimate.
 * @throws WalletError REJECTED, APPROVAL_EXPIRED, APPROVAL_PENDING, CHAIN_ID_MISMATCH, INVALID_NONCE, NOT_ENOUGH_MANA,
 *   TRANSACTION_REVERTED, node errors.
 */
export async function submitApproved(
  deps: ApprovedSubmitDeps,
  review: PreparedSubmission,
  costs: Map<string, bigint>,
): Promise<SubmitReceipt> {
  const { receipt } = await signApproved(deps, review, costs, true);
  return toSubmitReceipt(receipt!, true);
}

/** What signApproved gives back: the signed transaction, the dry run's receipt (when one ran) and the broadcast's. */
export interface ApprovedSignature {
  signed: Transaction;
  /** The dry run after the approval (absent when a pending transaction holds the nonce, so none could run). */
  dryRun?: TransactionReceipt;
  /** The node's receipt of the broadcast (absent when `broadcast` was false). */
  receipt?: TransactionReceipt;
}

/** What a release hold is shown: the signed transaction, the rc_limit it carries, and the dry run that sized it. */
export interface HeldSignature {
  approval: Approval;
  signed: Transaction;
  rcLimit: bigint;
  /** Absent when a pending transaction held the nonce, so no dry run could run. */
  dryRun?: TransactionReceipt;
}

/**
 * A pause between the signatures and their release, for a request that shows what its dry run did before anything
 * signed leaves main (a dApp's transaction: ApprovalQueue.requestEffects). The approval is asked with `effectsStep`.
 */
export interface ReleaseHold {
  /** Every signature exists and nothing has left main: resolves to release `signed`, throws to discard it. */
  release(held: HeldSignature): Promise<void>;
  /** A step after the approval failed (the error is thrown on once this settles): nothing signed is released. */
  failed(approval: Approval, error: unknown): Promise<void>;
}

/**
 * submitApproved's path, with the choice to hand the signed transaction back instead of sending it (a dApp's
 * `signTransaction`): the same approval, chain ID and nonce checks and dry run after the approval, then, when
 * `broadcast`, the submission and its following. With `hold`, nothing is returned or submitted before it releases.
 * @throws as submitApproved, and what `hold.release` throws.
 */
export async function signApproved(
  deps: ApprovedSubmitDeps,
  review: PreparedSubmission,
  costs: Map<string, bigint>,
  broadcast: boolean,
  hold?: ReleaseHold,
): Promise<ApprovedSignature> {
  const [first, ...others] = signersOf(review);
  const approval = await deps.approvals.request(review.approval, {
    signer: first!,
    ...(others.length > 0 ? { coSigners: others } : {}),
    transaction: review.transaction,
    uses: 2,
    lowerRcLimit: true,
    ...(hold ? { effectsStep: true } : {}),
  });
  const { network, node, signed, rcLimit, dryRun } = await signUnderApproval(deps, review, costs, approval).catch(
    async (error: unknown) => {
      await hold?.failed(approval, error);
      throw error;
    },
  );
  await hold?.release({ approval, signed, rcLimit, ...(dryRun ? { dryRun } : {}) });
  if (!broadcast) return { signed, ...(dryRun ? { dryRun } : {}) };
  const receipt = await submitAndTrack({ networkId: network.id, node, follower: deps.follower }, signed, true);
  return { signed, receipt, ...(dryRun ? { dryRun } : {}) };
}

/** After the approval: the chain ID and nonce checked again, rc_limit sized by a dry run, every signature made. */
async function signUnderApproval(
  deps: ApprovedSubmitDeps,
  review: PreparedSubmission,
  costs: Map<string, bigint>,
  approval: Approval,
) {
  const { network, node } = await deps.networks.node(review.networkId);
  const chainId = await node.chainId();
  if (!equalBytes(chainId, review.chainId)) {
    await deps.networks.observeChainId(network.id, chainId);
    throw new WalletError(
      'CHAIN_ID_MISMATCH',
      `${network.name} has a new chain ID since this ${review.what} was reviewed (the network was restarted). Nothing was signed or sent; prepare the ${review.what} again.`,
      {
        details: `reviewed for ${bytesToJson(review.chainId, BTYPE.BASE64)}, the node now reports ${bytesToJson(chainId, BTYPE.BASE64)}`,
      },
    );
  }
  const own = deps.pending.highestNonce(network.id, review.from ?? review.payer);
  if (own !== undefined && own >= review.nonce) {
    throw new WalletError(
      'INVALID_NONCE',
      `Another transaction of this account took this nonce after the review. Nothing was sent; prepare the ${review.what} again.`,
    );
  }
  const { rcLimit, dryRun } = await sizeRcLimit(deps, review, approval, node, costs);
  const final =
    rcLimit === review.rcCap
      ? review.transaction
      : prepareTransaction({ ...review.transaction, header: { ...review.transaction.header!, rc_limit: rcLimit } });
  const signed = await signAll(deps, review, final, approval);
  if (!equalBytes(signed.id, final.id)) {
    throw new WalletError('INTERNAL', 'The signer changed the transaction it was asked to sign; nothing was sent.');
  }
  return { network, node, signed, rcLimit, dryRun };
}

/**
 * rc_limit under the approved cap, from a dry run of the approved transaction itself (after the approval, so what
 * the node sees is what the person approved, at the nonce the transaction will use): the mana it needs (rcNeeded: its
 * rc_used, or more when it frees bytes) plus 10 %, or the limit set by hand, which the dry run shows to be enough. When
 * a pending transaction holds the stored nonce the chain would refuse that dry run, so the last measured cost (or the
 * cap when none was measured) sizes it.
 */
async function sizeRcLimit(
  deps: ApprovedSubmitDeps,
  review: PreparedSubmission,
  approval: Approval,
  node: KoinosNode,
  costs: Map<string, bigint>,
): Promise<{ rcLimit: bigint; dryRun?: TransactionReceipt }> {
  if (!review.dryRunnable) {
    const measured = costs.get(review.costKey);
    return {
      rcLimit:
        review.rcByHand || measured === undefined
          ? review.rcCap
          : withOffset(review, rcLimitFor(measured, review.rcCap)),
    };
  }
  const dry = await signAll(deps, review, review.transaction, approval);
  // The prices, asked beside the dry run: a transaction that frees bytes needs more than its rc_used (rcNeeded).
  const prices = node.resourceCosts().catch(() => undefined);
  const receipt = await node.submit(dry, false).catch((error: unknown) => {
    if (error instanceof WalletError && error.code === 'NOT_ENOUGH_MANA') {
      throw new WalletError(
        'NOT_ENOUGH_MANA',
        `The node found too little mana for this ${review.what} within the approved cap of ${formatAmount(review.rcCap)} mana. Nothing was sent; ${review.hints.mana}`,
        { details: error.details ?? error.shortMessage, cause: error },
      );
    }
    throw error;
  });
  if (receipt.reverted) {
    throw new WalletError(
      'TRANSACTION_REVERTED',
      `The chain would revert this ${review.what}, so it was not sent. ${review.hints.revert}`,
      {
        metaMessages: receipt.logs.length > 0 ? [`Node log: ${receipt.logs.join(' | ')}`] : [],
      },
    );
  }
  const needed = rcNeeded(receipt, await prices);
  costs.set(review.costKey, needed);
  return {
    rcLimit: review.rcByHand ? review.rcCap : withOffset(review, rcLimitFor(needed, review.rcCap)),
    dryRun: receipt,
  };
}

/** The accounts that sign, the sender first. */
function signersOf(review: PreparedSubmission): string[] {
  return review.signers && review.signers.length > 0 ? review.signers : [review.payer];
}

/** The transaction signed by every signer in turn (the sender, then a payer account), under the one approval. */
async function signAll(
  deps: ApprovedSubmitDeps,
  review: PreparedSubmission,
  transaction: Transaction,
  approval: Approval,
): Promise<Transaction> {
  let signed = transaction;
  for (const signer of signersOf(review)) signed = await deps.signer.signTransaction(signer, signed, approval);
  return signed;
}

/** A sized rc_limit plus the payer's recommended offset, never above the approved cap. */
function withOffset(review: PreparedSubmission, sized: bigint): bigint {
  const total = sized + (review.rcOffset ?? 0n);
  return total < review.rcCap ? total : review.rcCap;
}
