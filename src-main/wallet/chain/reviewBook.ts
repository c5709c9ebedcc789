// The reviews a sending service (token transfers, NFT transfers) prepared and has not had confirmed yet: each kept ten
// minutes for one confirmation, with the approval it will ask for, and the cost last measured per kind of transaction
// for the next review's estimate. The one place that turns a prepared transaction into what the review screen shows.
import { randomUUID } from 'node:crypto';
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { ApprovalReview } from '../approvals/types.ts';
import type { DecodedOperation, NetworkInfo, RiskFlag, SubmitReceipt, TransactionReview } from './types.ts';
import { WALLET_ORIGIN } from '../approvals/approvalQueue.ts';
import {
  REVIEW_TTL_MS,
  signApproved,
  submitApproved,
  type ApprovedSignature,
  type ApprovedSubmitDeps,
  type PreparedSubmission,
} from './approvedSubmit.ts';
import type { PayerPlan } from './transferPlan.ts';

/** A transaction prepared for review, unsigned, with rc_limit at the cap. */
export interface ReviewInput {
  network: NetworkInfo;
  chainId: Uint8Array;
  /** The sender: its nonce and its signature. */
  from: string;
  /** Every account that signs, the sender first. */
  signers: string[];
  payer: Pick<PayerPlan, 'kind' | 'address' | 'offset'>;
  /** Prepared (merkle root and id set), unsigned: the bytes the approval covers. */
  transaction: Transaction;
  nonce: bigint;
  /** The chain's stored nonce: a dry run at `nonce` is valid only when `nonce` is one above it. */
  confirmedNonce: bigint;
  rcCap: bigint;
  rcByHand: boolean;
  /** Where the measured cost of this kind of transaction is kept; see {@link ReviewBook.measured}. */
  costKey: string;
  rcEstimate: bigint;
  /** `measured`: rcEstimate is the cost measured last; `default`: none was, a reserve stands in. */
  estimateSource: TransactionReview['estimateSource'];
  availableMana: bigint;
  operations: DecodedOperation[];
  risks: RiskFlag[];
  /** What to do after approval when mana is short, or when the chain would revert it. */
  hints: PreparedSubmission['hints'];
}

/**
 * @example
 * const book = new ReviewBook(deps, 'NFT transfer');
 * const review = book.open({ network, chainId, from, signers: [from], payer, transaction, ... });
 * const receipt = await book.confirm(review.reviewId);
 */
export class ReviewBook {
  private readonly deps: ApprovedSubmitDeps;
  /** What is sent, in the messages ("transfer", "NFT transfer"). */
  private readonly what: string;
  private readonly reviews = new Map<string, PreparedSubmission>();
  /** The reviews confirmed (until they would have expired), so that a second confirmation says so. */
  private readonly confirmed = new Map<string, number>();
  private readonly lastCost = new Map<string, bigint>();

  constructor(deps: ApprovedSubmitDeps, what: string) {
    this.deps = deps;
    this.what = what;
  }

  /** The mana a transaction of this kind (`costKey`) used in the last dry run, if one was measured. */
  measured(costKey: string): bigint | undefined {
    return this.lastCost.get(costKey);
  }

  /** Keeps the prepared transaction for {@link confirm} and returns the review the screen shows. */
  open(input: ReviewInput): TransactionReview {
    const { network, payer } = input;
    const chainId = bytesToJson(input.chainId, BTYPE.BASE64);
    const self = payer.kind === 'self';
    const approval: ApprovalReview = {
      kind: 'send',
      origin: WALLET_ORIGIN,
      networkName: network.name,
      chainId,
      signer: input.from,
      ...(input.signers.length > 1 ? { coSigners: input.signers.slice(1) } : {}),
      payer: payer.address,
      ...(!self ? { payee: input.from } : {}),
      nonce: input.nonce.toString(),
      rcLimit: input.rcCap.toString(),
      rcEstimate: input.rcEstimate.toString(),
      operations: input.operations,
      risks: input.risks,
    };
    const reviewId = randomUUID();
    this.sweep();
    this.reviews.set(reviewId, {
      expires: Date.now() + REVIEW_TTL_MS,
      networkId: network.id,
      chainId: input.chainId,
      from: input.from,
      payer: payer.address,
      signers: input.signers,
      rcOffset: payer.offset,
      transaction: input.transaction,
      nonce: input.nonce,
      dryRunnable: input.nonce === input.confirmedNonce + 1n,
      rcCap: input.rcCap,
      rcByHand: input.rcByHand,
      costKey: input.costKey,
      approval,
      what: this.what,
      hints: input.hints,
    });
    return {
      reviewId,
      networkId: network.id,
      networkName: network.name,
      chainId,
      payer: payer.address,
      payerKind: payer.kind === 'sharer' ? 'freeMana' : payer.kind,
      ...(!self ? { payee: input.from } : {}),
      signers: input.signers,
      nonce: input.nonce.toString(),
      rcLimit: input.rcCap.toString(),
      rcEstimate: input.rcEstimate.toString(),
      estimateSource: input.estimateSource,
      availableMana: input.availableMana.toString(),
      operations: input.operations,
      risks: input.risks,
    };
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, r] of this.reviews) if (r.expires < now) this.reviews.delete(id);
    for (const [id, expires] of this.confirmed) if (expires < now) this.confirmed.delete(id);
  }

  /**
   * Puts the reviewed transaction before the approval queue and, once a person approved it, sizes rc_limit with a dry
   * run, signs, submits and follows it (approvedSubmit.ts). A review is confirmed once: a second click cannot send twice.
   * @throws WalletError NOT_FOUND (unknown or expired review), REJECTED, APPROVAL_EXPIRED, APPROVAL_PENDING,
   *   CHAIN_ID_MISMATCH, INVALID_NONCE, NOT_ENOUGH_MANA, TRANSACTION_REVERTED, node errors.
   */
  async confirm(reviewId: string): Promise<SubmitReceipt> {
    return this.using(reviewId, (review) => submitApproved(this.deps, review, this.lastCost));
  }

  /**
   * confirm's path, giving back the signed transaction and the node's full receipts (the CLI prints the receipt's
   * events decoded with their contracts' ABIs).
   * @throws as confirm.
   */
  async confirmSigned(reviewId: string): Promise<ApprovedSignature> {
    return this.using(reviewId, (review) => signApproved(this.deps, review, this.lastCost, true));
  }

  /**
   * Runs `confirm` with the review kept under `reviewId`, taken out so that it is confirmed once. When the approval
   * queue turns it away before anyone saw it (another of the wallet's requests waits for a decision), nothing was
   * signed or sent: the review is put back, to be confirmed once that one is answered.
   */
  private async using<T>(reviewId: string, confirm: (review: PreparedSubmission) => Promise<T>): Promise<T> {
    this.sweep();
    const review = this.reviews.get(reviewId);
    if (!review) {
      throw new WalletError(
        'NOT_FOUND',
        this.confirmed.has(reviewId)
          ? `This ${this.what} was confirmed already: look for it in History before you prepare it again.`
          : `This review is unknown or older than 10 minutes; nothing was sent. Prepare the ${this.what} again.`,
      );
    }
    this.reviews.delete(reviewId);
    this.confirmed.set(reviewId, review.expires);
    try {
      return await confirm(review);
    } catch (error) {
      if (error instanceof WalletError && error.code === 'APPROVAL_PENDING') {
        this.confirmed.delete(reviewId);
        this.reviews.set(reviewId, review);
      }
      throw error;
    }
  }
}
