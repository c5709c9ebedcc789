// Sending a token: prepare (check, fetch chain ID / nonce / mana, a signed dry run to size rc_limit) returns a review
// of exactly what will be signed; confirm signs it (through the signer port), submits it once, and follows it until
// it is irreversible. Nothing is signed for the network before the user confirmed.
import { randomUUID } from 'node:crypto';
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { formatAmount } from '../../koinos/amounts.ts';
import { WalletError } from '../../koinos/errors.ts';
import { equalBytes } from '../../koinos/bytes.ts';
import { addressFromString } from '../../koinos/address.ts';
import { prepareTransaction } from '../../koinos/transaction.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { SubmitReceipt, TransactionReview } from '../../ipc/contract.ts';
import type { TransactionSigner } from '../signer.ts';
import type { NetworkService } from './networks.ts';
import { decodeOperation } from './operations.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { toSubmitReceipt } from './receipts.ts';
import type { TokenService } from './tokens.ts';
import type { TransactionFollower } from './transactionFollower.ts';
import { notEnoughMana, planTransfer, type TransferRequest } from './transferPlan.ts';

/** How long a review can be confirmed. */
export const REVIEW_TTL_MS = 10 * 60_000;
/** rc_limit = the dry run's rc_used plus this share (10 %), capped by the available mana. */
export const RC_MARGIN_PERCENT = 10n;
/** Mana kept aside for the transaction's own cost when no dry run tells it (the "max" button). */
export const DEFAULT_TRANSFER_RESERVE = 5_000_000n;

export interface SendServiceOptions {
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  signer: TransactionSigner;
}

interface Review {
  expires: number;
  networkId: string;
  chainId: Uint8Array;
  payer: string;
  transaction: Transaction;
  nonce: bigint;
  rcLimit: bigint;
}

/** rc_used plus 10 %, capped by what the account can spend. */
export function rcLimitFor(rcUsed: bigint, available: bigint): bigint {
  const withMargin = rcUsed + (rcUsed * RC_MARGIN_PERCENT + 99n) / 100n;
  return withMargin < available ? withMargin : available;
}

/**
 * @example
 * const review = await send.prepare({ from, to, token: 'koin', amount: '1.5' });
 * const receipt = await send.confirm(review.reviewId);
 */
export class SendService {
  private readonly deps: SendServiceOptions;
  private readonly reviews = new Map<string, Review>();
  private readonly lastCost = new Map<string, bigint>();

  constructor(options: SendServiceOptions) {
    this.deps = options;
  }

  /**
   * The most of `token` the account can send now: its balance, and for KOIN its mana minus the transaction's cost.
   */
  async maxAmount(networkId: string | undefined, from: string, token: string): Promise<{ amount: bigint; decimals: number }> {
    const { network, node } = await this.deps.networks.node(networkId);
    const info = await this.deps.tokens.resolve(network.id, token);
    const balance = await this.deps.tokens.balanceOf(network.id, info, from);
    if (info.system !== 'koin') return { amount: balance, decimals: info.decimals };
    const mana = await node.rc(addressFromString(from));
    const cost = this.lastCost.get(`${network.id} ${info.contract}`) ?? DEFAULT_TRANSFER_RESERVE;
    const spendable = mana > cost ? mana - cost : 0n;
    return { amount: spendable < balance ? spendable : balance, decimals: info.decimals };
  }

  /**
   * Checks the transfer, fetches chain ID, nonce and mana, sizes rc_limit with a signed dry run (unless set by hand),
   * and returns the review. Nothing is sent to the network but the dry run (`broadcast: false`).
   * @throws WalletError INVALID_ADDRESS, INVALID_AMOUNT, INSUFFICIENT_BALANCE, NOT_ENOUGH_MANA, TRANSACTION_REVERTED, node errors.
   */
  async prepare(request: TransferRequest): Promise<TransactionReview> {
    const plan = await planTransfer(this.deps, request);
    const { node, network } = plan;
    // The dry run skips the mempool, so it uses the nonce the chain has stored; the cost does not depend on it.
    const dry = await this.deps.signer.signTransaction(plan.from, prepareTransaction(plan.unsigned(plan.mana, plan.confirmedNonce + 1n)));
    const costKey = `${network.id} ${plan.token.contract}`;
    const dryReceipt = await node.submit(dry, false).catch(async (error: unknown) => {
      if (!(error instanceof WalletError) || error.code !== 'NOT_ENOUGH_MANA') throw error;
      // The node refused the dry run itself: its cost is unknown, so the last one measured (or the reserve) stands in.
      const cost = this.lastCost.get(costKey) ?? DEFAULT_TRANSFER_RESERVE;
      const koin = plan.token.system === 'koin';
      throw notEnoughMana(
        koin
          ? `Sending ${formatAmount(plan.amount)} KOIN leaves too little mana for the transfer's own cost (about ${formatAmount(cost)} mana). Send less, or wait for mana to regenerate.`
          : `The account has too little mana for this transfer (about ${formatAmount(cost)} mana). Wait for mana to regenerate.`,
        { needed: (koin ? plan.amount : 0n) + cost, available: plan.availableMana, current: plan.mana, max: await plan.maxMana() },
        error,
      );
    });
    const rcEstimate = dryReceipt.rc_used;
    if (dryReceipt.reverted) {
      throw new WalletError('TRANSACTION_REVERTED', 'The chain would revert this transfer. Check the amount and the recipient.', {
        metaMessages: dryReceipt.logs.length > 0 ? [`Node log: ${dryReceipt.logs.join(' | ')}`] : [],
      });
    }
    this.lastCost.set(costKey, rcEstimate);
    const rcLimit = plan.rcLimitByHand ?? rcLimitFor(rcEstimate, plan.availableMana);
    if (rcLimit < rcEstimate) {
      throw notEnoughMana(`The mana limit ${formatAmount(rcLimit)} is below the ${formatAmount(rcEstimate)} mana this transfer uses. Raise it, or wait for mana.`, {
        needed: rcEstimate,
        available: plan.availableMana,
        current: plan.mana,
        max: await plan.maxMana(),
      });
    }
    if (plan.token.system === 'koin' && plan.amount + rcLimit > plan.mana) {
      const most = plan.mana > rcLimit ? plan.mana - rcLimit : 0n;
      throw notEnoughMana(`The transfer's own cost (up to ${formatAmount(rcLimit)} mana) leaves room to send at most ${formatAmount(most)} KOIN. Send less.`, {
        needed: plan.amount + rcLimit,
        available: plan.mana,
        current: plan.mana,
        max: plan.balance,
      });
    }
    const transaction = prepareTransaction(plan.unsigned(rcLimit));
    const reviewId = randomUUID();
    this.sweep();
    this.reviews.set(reviewId, {
      expires: Date.now() + REVIEW_TTL_MS,
      networkId: network.id,
      chainId: plan.chainId,
      payer: plan.from,
      transaction,
      nonce: plan.nonce,
      rcLimit,
    });
    const known = await this.deps.tokens.known(network.id);
    return {
      reviewId,
      networkId: network.id,
      networkName: network.name,
      chainId: bytesToJson(plan.chainId, BTYPE.BASE64),
      payer: plan.from,
      nonce: plan.nonce.toString(),
      rcLimit: rcLimit.toString(),
      rcEstimate: rcEstimate.toString(),
      availableMana: plan.availableMana.toString(),
      operations: transaction.operations.map((op) => decodeOperation(op, [plan.token, ...known])),
    };
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, r] of this.reviews) if (r.expires < now) this.reviews.delete(id);
  }

  /**
   * Signs the reviewed transaction and submits it once (`broadcast: true`); returns the node's receipt. The chain ID is
   * fetched again first: when it changed since the review (a testnet restart) nothing is signed or sent.
   * @throws WalletError NOT_FOUND (unknown or expired review), CHAIN_ID_MISMATCH, INVALID_NONCE, NOT_ENOUGH_MANA, node errors.
   */
  async confirm(reviewId: string): Promise<SubmitReceipt> {
    this.sweep();
    const review = this.reviews.get(reviewId);
    if (!review) throw new WalletError('NOT_FOUND', 'This review is no longer valid (it was sent already or is older than 10 minutes). Prepare the transfer again.');
    this.reviews.delete(reviewId); // one confirmation per review: a second click cannot send twice
    const { network, node } = await this.deps.networks.node(review.networkId);
    const chainId = await node.chainId();
    if (!equalBytes(chainId, review.chainId)) {
      await this.deps.networks.observeChainId(network.id, chainId);
      throw new WalletError(
        'CHAIN_ID_MISMATCH',
        `${network.name} has a new chain ID since this transfer was reviewed (the network was restarted). Nothing was signed or sent; prepare the transfer again.`,
        { details: `reviewed for ${bytesToJson(review.chainId, BTYPE.BASE64)}, the node now reports ${bytesToJson(chainId, BTYPE.BASE64)}` },
      );
    }
    const own = this.deps.pending.highestNonce(network.id, review.payer);
    if (own !== undefined && own >= review.nonce) {
      throw new WalletError('INVALID_NONCE', 'Another transaction of this account took this nonce after the review. Nothing was sent; prepare the transfer again.');
    }
    const signed = await this.deps.signer.signTransaction(review.payer, review.transaction);
    if (!equalBytes(signed.id, review.transaction.id)) {
      throw new WalletError('INTERNAL', 'The signer changed the transaction it was asked to sign; nothing was sent.');
    }
    const receipt = await node.submit(signed, true);
    const id = bytesToJson(signed.id, BTYPE.TRANSACTION_ID);
    this.deps.follower.track({
      networkId: network.id,
      id,
      payer: review.payer,
      nonce: review.nonce,
      rcLimit: review.rcLimit,
      transaction: signed,
      submittedAt: Date.now(),
      status: 'pending',
    });
    return toSubmitReceipt(receipt, true);
  }
}
