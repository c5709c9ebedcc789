// Contract calls of an account's own, paid by that account, put up for review as one transaction: an NFT transfer,
// allowances taken back. Reads chain ID, nonce and mana at once (as token transfers do, transferPlan.ts), refuses when the account has
// too little mana for what the last such call cost, caps rc_limit at the available mana, flags the risks and keeps the
// review in its service's ReviewBook, through which the approval, signature and submission go. Nothing is signed here.
import { formatAmount } from '../../koinos/amounts.ts';
import { prepareTransaction } from '../../koinos/transaction.ts';
import type { Operation, Transaction } from '../../koinos/types.ts';
import type { ApprovedSubmitDeps, PreparedSubmission } from './approvedSubmit.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { ReviewBook } from './reviewBook.ts';
import { assessRisks, knownContractsOf } from './riskFlags.ts';
import { DEFAULT_TRANSFER_RESERVE } from './send.ts';
import type { TokenService } from './tokens.ts';
import { notEnoughMana, readAccountNow, unsignedTransaction } from './transferPlan.ts';
import type { DecodedOperation, KnownAddresses, NetworkInfo, TransactionReview } from './types.ts';

export interface OwnCallDeps extends ApprovedSubmitDeps {
  tokens: TokenService;
  /** The addresses a recipient in the call is compared with (absent: none). */
  knownAddresses?: KnownAddresses;
}

export interface OwnCall {
  network: NetworkInfo;
  node: KoinosNode;
  /** The account that signs and pays, base58 and bytes. */
  from: string;
  fromBytes: Uint8Array;
  operations: Operation[];
  /** The operations as the review shows them, read from the transaction that will be signed. */
  decode(transaction: Transaction): DecodedOperation[] | Promise<DecodedOperation[]>;
  /** Where the cost of this kind of call is measured (the next review's estimate). */
  costKey: string;
  /** What the call does, in the mana message: "send this NFT". */
  purpose: string;
  /** Contracts the wallet lists besides its tokens (NFT collections). */
  listed: readonly string[];
  /** Contracts whose call is decoded with an ABI (not flagged as undecoded). */
  contractsWithAbi: readonly string[];
  hints: PreparedSubmission['hints'];
}

/**
 * The review of `call`, kept in `reviews` for one confirmation.
 * @throws WalletError NOT_ENOUGH_MANA (with the figures), node errors.
 */
export async function reviewOwnCall(deps: OwnCallDeps, reviews: ReviewBook, call: OwnCall): Promise<TransactionReview> {
  const { network, node, from, fromBytes } = call;
  const payer = { kind: 'self', address: from, bytes: fromBytes, offset: 0n } as const;
  const {
    chainId,
    nonce,
    confirmedNonce,
    senderMana: mana,
    held,
  } = await readAccountNow(node, deps.pending, network.id, payer, payer);
  const chainIdChanged = (await deps.networks.observeChainId(network.id, chainId)) !== undefined;
  const availableMana = mana > held ? mana - held : 0n;
  const measured = reviews.measured(call.costKey);
  const rcEstimate = measured ?? DEFAULT_TRANSFER_RESERVE;
  if (availableMana === 0n || (measured !== undefined && availableMana < measured)) {
    const koin = await deps.tokens.resolve(network.id, 'koin');
    const max = await deps.tokens.balanceOf(network.id, koin, from);
    throw notEnoughMana(
      `The account has too little mana to ${call.purpose} (about ${formatAmount(rcEstimate)} mana). Wait for mana to regenerate.`,
      { needed: rcEstimate, available: availableMana, current: mana, max },
    );
  }

  const transaction = prepareTransaction(
    unsignedTransaction({ chainId, rcLimit: availableMana, nonce, payer: fromBytes }, call.operations),
  );
  const operations = await call.decode(transaction);
  const known = (await deps.tokens.known(network.id)).map((t) => t.contract);
  const risks = assessRisks(transaction, {
    signers: [from],
    knownContracts: knownContractsOf(network.kind, [...known, ...call.listed]),
    contractsWithAbi: [...call.contractsWithAbi],
    chainIdChanged,
    knownAddresses: (await deps.knownAddresses?.(network.id)) ?? [],
  });
  return reviews.open({
    network,
    chainId,
    from,
    signers: [from],
    payer,
    transaction,
    nonce,
    confirmedNonce,
    rcCap: availableMana,
    rcByHand: false,
    costKey: call.costKey,
    rcEstimate,
    estimateSource: measured !== undefined ? 'measured' : 'default',
    availableMana,
    operations,
    risks,
    hints: call.hints,
  });
}
