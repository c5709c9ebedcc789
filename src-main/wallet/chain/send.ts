// Sending a token: prepare (check, fetch chain ID / nonce / mana) returns a review of exactly what will be signed, with
// who pays and who signs, the mana cap and an estimate of the cost that comes from no signature; confirm puts it before
// the approval queue and, only once a person approved it, signs a dry run that sizes rc_limit under the cap, signs the
// transaction (sender and payer account alike), submits it once and follows it until it is irreversible. Nothing
// signed reaches a node before the approval.
import { formatAmount } from '../../koinos/amounts.ts';
import { addressFromString } from '../../koinos/address.ts';
import { prepareTransaction } from '../../koinos/transaction.ts';
import type { KnownAddresses, SubmitReceipt, TransactionReview } from './types.ts';
import type { ApprovalQueue } from '../approvals/approvalQueue.ts';
import type { TransactionSigner } from '../signer.ts';
import type { PayerChoice, SharerOverrides } from './payer.ts';
import type { NetworkService } from './networks.ts';
import { decodeOperation } from './operations.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { ReviewBook } from './reviewBook.ts';
import { readAccountNow } from './submission.ts';
import { assessRisks, knownContractsOf } from './riskFlags.ts';
import type { TokenService } from './tokens.ts';
import type { TransactionFollower } from './transactionFollower.ts';
import { notEnoughMana, planTransfer, type TransferRequest } from './transferPlan.ts';

// Moved to approvedSubmit.ts with the confirmation they belong to; exported here as before for existing importers.
export { RC_MARGIN_PERCENT, REVIEW_TTL_MS, rcLimitFor } from './approvedSubmit.ts';
/** Mana kept aside for the transaction's own cost when no dry run tells it (the "max" button). */
export const DEFAULT_TRANSFER_RESERVE = 5_000_000n;

export interface SendServiceOptions {
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  signer: TransactionSigner;
  approvals: ApprovalQueue;
  /** Where the free mana sharer is on networks where the wallet cannot find it by itself (network id → address). */
  sharers?: SharerOverrides;
  /** The addresses the recipient is compared with (absent: none, as in the CLI). */
  knownAddresses?: KnownAddresses;
}

/** Where the measured cost of a transfer is kept: per network, token and kind of payer (a contract payer costs more). */
function costKeyOf(networkId: string, contract: string, payerKind: string): string {
  return `${networkId} ${contract} ${payerKind}`;
}

/** The words of a token transfer's messages after approval. */
const TRANSFER_HINTS = {
  mana: 'send less, or wait for mana to regenerate.',
  revert: 'Check the amount and the recipient.',
};

/**
 * @example
 * const review = await send.prepare({ from, to, token: 'koin', amount: '1.5' });
 * const receipt = await send.confirm(review.reviewId);
 */
export class SendService {
  private readonly deps: SendServiceOptions;
  private readonly reviews: ReviewBook;

  constructor(options: SendServiceOptions) {
    this.deps = options;
    this.reviews = new ReviewBook(options, 'transfer');
  }

  /**
   * The most of `token` the account can send now: its balance, and for KOIN its mana minus the transaction's cost,
   * less what its transfers waiting for a block will take (for KOIN, their mana too: the KOIN leaves with its mana, and
   * they hold their mana limits); with that expected cost (the form checks an amount against the mana as it is typed)
   * and where it comes from. When `payer` (the choice prepare takes) is another account or the free mana sharer, the
   * cost is theirs: a KOIN transfer still needs as much of the sender's mana as it sends (the KOIN contract's rule), but
   * not its cost.
   */
  async maxAmount(
    networkId: string | undefined,
    from: string,
    token: string,
    payer?: PayerChoice,
  ): Promise<{ amount: bigint; decimals: number; rcEstimate: bigint; estimateSource: 'measured' | 'default' }> {
    // Keyed as prepare keys its measured costs (an account payer that turns out to be a contract is the sharer there).
    const payerKind =
      !payer || (payer.kind === 'account' && payer.address === from)
        ? 'self'
        : payer.kind === 'freeMana'
          ? 'sharer'
          : 'account';
    const { network, node } = await this.deps.networks.node(networkId);
    const info = await this.deps.tokens.resolve(network.id, token);
    // The sender pays its own transfer: its nonce, its mana and what its waiting transactions hold, read as a review
    // reads them.
    const self = { address: from, bytes: addressFromString(from) };
    const [onChain, now] = await Promise.all([
      this.deps.tokens.balanceOf(network.id, info, from),
      readAccountNow(node, this.deps.pending, network.id, self, self),
    ]);
    const outgoing = this.deps.pending.outgoing(network.id, from, info.contract, now.confirmedNonce);
    const balance = onChain > outgoing ? onChain - outgoing : 0n;
    const measured = this.reviews.measured(costKeyOf(network.id, info.contract, payerKind));
    const cost = measured ?? DEFAULT_TRANSFER_RESERVE;
    const estimate = {
      rcEstimate: cost,
      estimateSource: measured !== undefined ? ('measured' as const) : ('default' as const),
    };
    if (info.system !== 'koin') return { amount: balance, decimals: info.decimals, ...estimate };
    const taken = outgoing + now.held + (payerKind === 'self' ? cost : 0n);
    const spendable = now.senderMana > taken ? now.senderMana - taken : 0n;
    return { amount: spendable < balance ? spendable : balance, decimals: info.decimals, ...estimate };
  }

  /**
   * Checks the transfer, fetches chain ID, nonce and mana, and returns the review: rc_limit is shown as a cap (the
   * most the transfer may use) beside an estimate from the last transfer measured on this network (or a reserve when
   * none was). Nothing is signed and nothing is sent to the node.
   * @throws WalletError INVALID_ADDRESS, INVALID_AMOUNT, INSUFFICIENT_BALANCE, NOT_ENOUGH_MANA, node errors.
   */
  async prepare(request: TransferRequest): Promise<TransactionReview> {
    const plan = await planTransfer(this.deps, request);
    const { network } = plan;
    // A payer changes the cost (a second signature, the sharer's authorize call): measured apart.
    const costKey = costKeyOf(network.id, plan.token.contract, plan.payer.kind);
    const measured = this.reviews.measured(costKey);
    const rcEstimate = measured ?? DEFAULT_TRANSFER_RESERVE;
    // KOIN is the mana: what the sender sends cannot also pay for the transfer (another payer's mana can).
    const koin = plan.token.system === 'koin' && plan.payer.kind === 'self';
    const spendable = koin ? (plan.mana > plan.amount ? plan.mana - plan.amount : 0n) : plan.availableMana;
    const manaCap = spendable < plan.availableMana ? spendable : plan.availableMana;
    const figures = async (needed: bigint) => ({
      needed,
      available: plan.availableMana,
      current: plan.mana,
      max: await plan.maxMana(),
    });
    if (plan.rcLimitByHand !== undefined && measured !== undefined && plan.rcLimitByHand < measured) {
      throw notEnoughMana(
        `The mana limit ${formatAmount(plan.rcLimitByHand)} is below the ${formatAmount(measured)} mana this transfer used last time. Raise it, or wait for mana.`,
        await figures(measured),
      );
    }
    const rcCap = plan.rcLimitByHand ?? manaCap;
    if (
      rcCap === 0n ||
      (koin && plan.rcLimitByHand !== undefined && plan.amount + plan.rcLimitByHand > plan.mana) ||
      (measured !== undefined && rcCap < measured)
    ) {
      const most = plan.mana > rcEstimate ? plan.mana - rcEstimate : 0n;
      throw notEnoughMana(
        koin
          ? `Sending ${formatAmount(plan.amount)} KOIN leaves too little mana for the transfer's own cost (about ${formatAmount(rcEstimate)} mana): send at most about ${formatAmount(most)} KOIN, or wait for mana to regenerate.`
          : plan.payer.kind === 'self'
            ? `The account has too little mana for this transfer (about ${formatAmount(rcEstimate)} mana). Choose another account of this wallet or the network's free mana sharer to pay the mana, or wait for mana to regenerate.`
            : `The payer ${plan.payer.address} has too little mana for this transfer (about ${formatAmount(rcEstimate)} mana). Choose another payer, or wait for its mana to regenerate.`,
        await figures((koin ? plan.amount : 0n) + rcEstimate),
      );
    }
    const transaction = prepareTransaction(plan.unsigned(rcCap));
    const known = await this.deps.tokens.known(network.id);
    const chainIdChanged = (await this.deps.networks.observeChainId(network.id, plan.chainId)) !== undefined;
    const operations = transaction.operations.map((op) => decodeOperation(op, [plan.token, ...known]));
    const risks = assessRisks(transaction, {
      signers: plan.signers,
      knownContracts: knownContractsOf(
        network.kind,
        known.map((t) => t.contract),
      ),
      chainIdChanged,
      knownAddresses: (await this.deps.knownAddresses?.(network.id)) ?? [],
    });
    return this.reviews.open({
      network,
      chainId: plan.chainId,
      from: plan.from,
      signers: plan.signers,
      payer: plan.payer,
      transaction,
      nonce: plan.nonce,
      confirmedNonce: plan.confirmedNonce,
      rcCap,
      rcByHand: plan.rcLimitByHand !== undefined,
      costKey,
      rcEstimate,
      estimateSource: measured !== undefined ? 'measured' : 'default',
      availableMana: plan.availableMana,
      operations,
      risks,
      hints: TRANSFER_HINTS,
    });
  }

  /**
   * Puts the reviewed transfer before the approval queue and waits for the person's decision; once approved, checks
   * the chain ID again, signs a dry run with rc_limit at the cap to size rc_limit (the mana used plus 10 %), signs the
   * transaction with that limit, submits it once (`broadcast: true`) and follows it. When the account has pending
   * transactions the chain would refuse a dry run at this nonce, so rc_limit is sized from the last measured cost.
   * @throws WalletError NOT_FOUND (unknown or expired review), REJECTED, APPROVAL_EXPIRED, APPROVAL_PENDING,
   *   CHAIN_ID_MISMATCH, INVALID_NONCE, NOT_ENOUGH_MANA, TRANSACTION_REVERTED, node errors.
   */
  confirm(reviewId: string): Promise<SubmitReceipt> {
    return this.reviews.confirm(reviewId);
  }
}
