// Offline signing: export an unsigned transfer (chain ID, nonce and rc_limit fixed at export; a payer other than the
// sender when asked) as URL-safe base64 and JSON; read either form back and show it decoded with warnings, risk flags and
// the signatures present and still needed; sign it with no node reachable, in any order of signers; submit a signed one.
// The forms are the ones `koinos-wallet tx` and koinos-cli exchange (the same base64 of the protobuf bytes).
import { BTYPE, bytesFromJson, bytesToJson } from '../../koinos/codec.ts';
import { formatAmount } from '../../koinos/amounts.ts';
import { equalBytes } from '../../koinos/bytes.ts';
import { WalletError } from '../../koinos/errors.ts';
import {
  checkTransaction,
  nonceFromBytes,
  prepareTransaction,
  transactionToBase64,
  transactionToJson,
} from '../../koinos/transaction.ts';
import type { Transaction } from '../../koinos/types.ts';
import type {
  InspectedTransaction,
  KnownAddress,
  KnownAddresses,
  NetworkInfo,
  SubmitReceipt,
  TokenInfo,
  TransactionWarning,
} from './types.ts';
import { parseTransactionText } from '../../koinos/transactionText.ts';
import { WALLET_ORIGIN, type ApprovalQueue } from '../approvals/approvalQueue.ts';
import type { TransactionSigner } from '../signer.ts';
import type { NetworkService } from './networks.ts';
import { decodeOperation } from './operations.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { assessRisks, knownContractsOf } from './riskFlags.ts';
import { knownChainName } from '../dapps/chains.ts';
import { toSubmitReceipt } from './receipts.ts';
import { submitAndTrack } from './submission.ts';
import type { TokenService } from './tokens.ts';
import type { TransactionFollower } from './transactionFollower.ts';
import { planTransfer, type TransferRequest } from './transferPlan.ts';
import { authorizesByContract, isKnownSharer, partiesOf, signaturesNeeded, type SharerOverrides } from './payer.ts';

/** rc_limit of an exported transfer when none is set by hand: a tenth of the available mana, as koinos-cli does. */
const EXPORT_RC_SHARE = 10n;

export interface OfflineServiceOptions {
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  signer: TransactionSigner;
  approvals: ApprovalQueue;
  /** Where the free mana sharer is on networks where the wallet cannot find it by itself (network id → address). */
  sharers?: SharerOverrides;
  /** The addresses a transfer's recipient is compared with (absent: none, as in the CLI). */
  knownAddresses?: KnownAddresses;
}

/** What the network says about a transaction, when it can be asked. */
export interface NetworkFacts {
  chainId?: Uint8Array;
  /** The nonce the chain stored for the nonce account. */
  confirmedNonce?: bigint;
  /** The network's chain ID differs from the one last seen on it (NetworkService.observeChainId). */
  chainIdChanged?: boolean;
  /** The kind of the network the transaction is reviewed on, for the contracts known there; absent: none chosen. */
  networkKind?: NetworkInfo['kind'];
  /**
   * When `chainId` is not the transaction's: the name of another network last seen with the transaction's chain.
   * Absent then, no network was, and the review flags OTHER_CHAIN.
   */
  chainSeenOn?: string;
  /** The account about to sign it, for the flags that depend on who signs (an upload over its own address). */
  signer?: string;
  /**
   * The payer is a contract that approves through its own `authorize` (the free mana sharer), so it signs nothing;
   * absent: known only for the public networks' sharers.
   */
  contractPayer?: boolean;
}

/**
 * Reads a transaction as base64 (bare or a JSON string) or JSON (the node's form, or with decoded token operations).
 * @throws WalletError INVALID_TRANSACTION / INVALID_JSON saying what was expected and what was found.
 */
function readTransaction(input: string): Transaction {
  if (typeof input !== 'string' || input.trim() === '')
    throw new WalletError('INVALID_TRANSACTION', 'expected a transaction as base64 or JSON, got nothing');
  if (input.length > 2_000_000)
    throw new WalletError(
      'INVALID_TRANSACTION',
      `expected a transaction of at most 2 MB of text, got ${input.length} characters`,
    );
  const tx = parseTransactionText(input);
  if (!tx.header)
    throw new WalletError(
      'INVALID_TRANSACTION',
      'expected a transaction with a header (chain ID, nonce, rc_limit, payer), got one without',
    );
  return tx;
}

/**
 * The decoded view of a transaction with its warnings and risk flags. Works offline; `facts` add the checks that need
 * the network. The risks are assessed as if its payer and payee (and whoever signed already) sign: the accounts the
 * chain makes sign it. Known contracts: `tokens` and the system tokens of `facts.networkKind` (of every known network
 * when absent, as on a computer that never chose one). A transfer's recipient is compared with `known`.
 * @throws WalletError INVALID_TRANSACTION when the header's nonce is not a nonce.
 */
function inspectTransaction(
  tx: Transaction,
  tokens: readonly TokenInfo[],
  facts: NetworkFacts = {},
  known: readonly KnownAddress[] = [],
): InspectedTransaction {
  const header = tx.header!;
  const check = checkTransaction(tx);
  const warnings: TransactionWarning[] = [];
  const { payer, payee } = partiesOf(header);
  const nonce = header.nonce.length > 0 ? nonceFromBytes(header.nonce) : 0n;
  const signers = check.signers.map((s) => s.address ?? '(does not recover)');
  // Only signatures over this very content count: one made before the content changed recovers to someone else.
  const present = [payer, ...(payee && payee !== payer ? [payee] : [])].filter((a) => a !== '' && signers.includes(a));
  const needed = signaturesNeeded(
    { payer, ...(payee ? { payee } : {}) },
    present,
    facts.contractPayer ?? isKnownSharer(payer),
  );
  if (tx.signatures.length === 0) warnings.push({ code: 'UNSIGNED', message: 'The transaction is not signed yet.' });
  if (tx.id.length > 0 && !check.idMatches) {
    warnings.push({
      code: 'ID_MISMATCH',
      message: `Its id does not match its content (the content gives ${bytesToJson(check.computedId, BTYPE.TRANSACTION_ID)}): it was changed after it was made.`,
    });
  }
  if (header.operation_merkle_root.length > 0 && !check.merkleRootMatches) {
    warnings.push({
      code: 'MERKLE_MISMATCH',
      message:
        'Its operation merkle root does not match its operations: the operations were changed after it was made.',
    });
  }
  const foreign = signers.filter((s) => s !== payer && s !== payee);
  if (foreign.length > 0) {
    warnings.push({
      code: 'SIGNER_NOT_PAYER',
      message: `Signed by ${foreign.join(', ')}, not by the payer ${payer}: the node will refuse it unless the payer signs too.`,
    });
  }
  const otherChain =
    facts.chainId && !equalBytes(facts.chainId, header.chain_id) ? bytesToJson(facts.chainId, BTYPE.BASE64) : undefined;
  if (otherChain !== undefined) {
    const seen = facts.chainSeenOn !== undefined ? ` (${facts.chainSeenOn}'s)` : '';
    warnings.push({
      code: 'CHAIN_ID_MISMATCH',
      message: `It is made for chain ${bytesToJson(header.chain_id, BTYPE.BASE64)}${seen}, but the selected network's chain ID is ${otherChain}: the node will refuse it.`,
    });
  }
  if (facts.confirmedNonce !== undefined && nonce <= facts.confirmedNonce) {
    warnings.push({
      code: 'NONCE_USED',
      message: `Its nonce ${nonce} is already used (the account is at ${facts.confirmedNonce}): the node will refuse it.`,
    });
  }
  const operations = tx.operations.map((op) => decodeOperation(op, tokens));
  const risks = assessRisks(tx, {
    signers: [
      payer,
      ...(payee ? [payee] : []),
      ...(facts.signer ? [facts.signer] : []),
      ...check.signers.flatMap((s) => (s.address ? [s.address] : [])),
    ],
    knownContracts: knownContractsOf(
      facts.networkKind,
      tokens.map((t) => t.contract),
    ),
    chainIdChanged: facts.chainIdChanged === true,
    knownAddresses: known,
    // A network restarted since (CHAIN_ID_CHANGED) was seen with the transaction's chain: that flag says it.
    ...(otherChain !== undefined && facts.chainSeenOn === undefined && !facts.chainIdChanged ? { otherChain } : {}),
  });
  return {
    base64: transactionToBase64(tx),
    json: transactionToJson(tx),
    ...(tx.id.length > 0 ? { id: bytesToJson(tx.id, BTYPE.TRANSACTION_ID) } : {}),
    chainId: bytesToJson(header.chain_id, BTYPE.BASE64),
    payer,
    ...(payee !== undefined ? { payee } : {}),
    nonce: nonce.toString(),
    rcLimit: header.rc_limit.toString(),
    operations,
    signers,
    signaturesPresent: present,
    signaturesNeeded: needed,
    warnings,
    risks,
  };
}

/**
 * @example
 * const unsigned = await offline.exportUnsigned({ from, to, token: 'koin', amount: '1' }); // online
 * const signed = await offline.sign(unsigned.base64, from);                                 // offline
 * await offline.submit(signed.base64, true);                                                 // online
 */
export class OfflineService {
  private readonly deps: OfflineServiceOptions;

  constructor(options: OfflineServiceOptions) {
    this.deps = options;
  }

  /**
   * An unsigned transfer with chain ID, nonce and rc_limit fixed now (rc_limit by hand, or a tenth of the payer's
   * available mana, plus the free mana sharer's recommended offset when it pays), ready to be signed on other machines:
   * with a payer account, by the sender and the payer in either order.
   * @throws WalletError as SendService.prepare, and NOT_ENOUGH_MANA when the amount leaves no room for rc_limit.
   */
  async exportUnsigned(request: TransferRequest): Promise<InspectedTransaction> {
    const plan = await planTransfer(this.deps, request);
    let rcLimit = plan.rcLimitByHand ?? plan.availableMana / EXPORT_RC_SHARE + plan.payer.offset;
    if (rcLimit > plan.availableMana) rcLimit = plan.availableMana;
    if (rcLimit === 0n) rcLimit = 1n;
    if (plan.token.system === 'koin' && plan.payer.kind === 'self' && plan.amount + rcLimit > plan.mana) {
      throw new WalletError(
        'NOT_ENOUGH_MANA',
        `With a mana limit of ${formatAmount(rcLimit)}, at most ${formatAmount(plan.mana > rcLimit ? plan.mana - rcLimit : 0n)} KOIN can be sent. Send less, or set a lower mana limit.`,
      );
    }
    const tx = prepareTransaction(plan.unsigned(rcLimit));
    const tokens = await this.deps.tokens.known(plan.network.id);
    const change = await this.deps.networks.observeChainId(plan.network.id, plan.chainId);
    return inspectTransaction(
      tx,
      [plan.token, ...tokens],
      {
        chainId: plan.chainId,
        confirmedNonce: plan.confirmedNonce,
        chainIdChanged: change !== undefined,
        networkKind: plan.network.kind,
        contractPayer: plan.payer.kind === 'sharer',
      },
      await this.known(plan.network.id),
    );
  }

  /** What a recipient is compared with on the network (every network: undefined). */
  private known(networkId: string | undefined): Promise<KnownAddress[]> {
    return this.deps.knownAddresses?.(networkId) ?? Promise.resolve([]);
  }

  /**
   * The network's chain ID (and whether it changed), the nonce account's nonce and whether a payer other than the payee
   * is a contract, when the node answers (undefined parts when it does not).
   */
  private async facts(
    tx: Transaction,
    networkId?: string,
  ): Promise<{ facts: NetworkFacts; tokens: TokenInfo[]; known: KnownAddress[] }> {
    const network = await this.deps.networks.get(networkId);
    const tokens = await this.deps.tokens.known(network.id);
    const known = await this.known(network.id);
    try {
      const { node } = await this.deps.networks.node(network.id);
      const header = tx.header!;
      const account = header.payee.length > 0 ? header.payee : header.payer;
      const separatePayer =
        header.payee.length > 0 && header.payer.length > 0 && !equalBytes(header.payee, header.payer);
      const [chainId, confirmedNonce, contractPayer] = await Promise.all([
        node.chainId(),
        account.length > 0 ? node.nonce(account) : Promise.resolve(undefined),
        separatePayer ? authorizesByContract(node, header.payer) : Promise.resolve(undefined),
      ]);
      const change = await this.deps.networks.observeChainId(network.id, chainId);
      const seenOn = equalBytes(chainId, header.chain_id)
        ? undefined
        : await this.deps.networks.seenWith(bytesToJson(header.chain_id, BTYPE.BASE64));
      const facts: NetworkFacts = {
        chainId,
        chainIdChanged: change !== undefined,
        networkKind: network.kind,
        ...(seenOn ? { chainSeenOn: seenOn.name } : {}),
        ...(confirmedNonce !== undefined ? { confirmedNonce } : {}),
        ...(contractPayer !== undefined ? { contractPayer } : {}),
      };
      return { facts, tokens, known };
    } catch {
      return { facts: { networkKind: network.kind }, tokens, known }; // offline: the checks that need the node are skipped
    }
  }

  /** Reads a transaction (base64 or JSON) and shows it decoded, with warnings and risks; asks the node when it can. */
  async inspect(input: string, networkId?: string): Promise<InspectedTransaction> {
    const tx = readTransaction(input);
    const { facts, tokens, known } = await this.facts(tx, networkId);
    return inspectTransaction(tx, tokens, facts, known);
  }

  /**
   * Signs as `address` without any node, once a person approved it: computes merkle root and id from the content, puts
   * the decoded review (with its risk flags) before the approval queue, and appends the signature when approved.
   * @throws WalletError INVALID_TRANSACTION (no chain ID / nonce / rc_limit, or signatures over other content,
   *   or already signed by this account), REJECTED / APPROVAL_EXPIRED, and the signer's errors (watch-only, locked).
   */
  async sign(input: string, address: string, networkId?: string): Promise<InspectedTransaction> {
    const tx = readTransaction(input);
    const prepared = prepareTransaction(tx);
    if (tx.signatures.length > 0 && !equalBytes(prepared.id, tx.id)) {
      throw new WalletError(
        'INVALID_TRANSACTION',
        'The transaction carries signatures over other content (its id does not match). Remove them or restore the content they signed.',
      );
    }
    if (checkTransaction(prepared).signers.some((s) => s.address === address)) {
      throw new WalletError('INVALID_TRANSACTION', `The transaction is already signed by ${address}.`);
    }
    // No node is asked: the chain IDs networks had when they were last reached say which one the transaction is for,
    // the selected one first. When none had its chain, it is reviewed on the selected one, and flagged when that one's
    // chain is known to be another.
    const selected = await this.deps.networks.get(networkId).catch(() => undefined);
    const chain = bytesToJson(prepared.header!.chain_id, BTYPE.BASE64);
    const made = await this.deps.networks.seenWith(chain, selected?.id);
    const network = made ?? selected;
    const tokens = network ? await this.deps.tokens.known(network.id) : [];
    // The network found by the transaction's chain was last seen with it; the selected one, with its own.
    const known = made ? chain : selected ? await this.deps.networks.lastChainId(selected.id) : undefined;
    const facts: NetworkFacts = {
      ...(network ? { networkKind: network.kind } : {}),
      ...(known !== undefined ? { chainId: bytesFromJson(known, BTYPE.BASE64, 'lastChainIds') } : {}),
      signer: address,
    };
    // Compared with the addresses of the network the transaction's chain was seen on, or of every network.
    const addresses = await this.known(made?.id);
    const review = inspectTransaction(prepared, tokens, facts, addresses);
    const publicName = knownChainName(prepared.header!.chain_id);
    const payee = prepared.header!.payee;
    const approval = await this.deps.approvals.request(
      {
        kind: 'sign',
        origin: WALLET_ORIGIN,
        // Named when a network was last seen with the transaction's chain, or when that chain is a public network's
        // (an offline machine that never reached it knows mainnet's and Harbinger's chain IDs).
        ...(made ? { networkName: made.name } : publicName ? { networkName: publicName } : {}),
        chainId: review.chainId,
        signer: address,
        payer: review.payer,
        ...(payee.length > 0 ? { payee: bytesToJson(payee, BTYPE.ADDRESS) } : {}),
        nonce: review.nonce,
        rcLimit: review.rcLimit,
        operations: review.operations,
        risks: review.risks,
      },
      { signer: address, transaction: prepared },
    );
    const signed = await this.deps.signer.signTransaction(address, prepared, approval);
    return inspectTransaction(signed, tokens, facts, addresses);
  }

  /**
   * Submits a signed transaction once: `broadcast` true sends it to the network (and follows it), false only runs it
   * on the node. Refused before sending when it was signed for another chain ID than the network's current one.
   * @throws WalletError INVALID_SIGNATURE (unsigned), CHAIN_ID_MISMATCH, and the node's refusals.
   */
  async submit(input: string, broadcast: boolean, networkId?: string): Promise<SubmitReceipt> {
    const tx = readTransaction(input);
    if (tx.signatures.length === 0)
      throw new WalletError(
        'INVALID_SIGNATURE',
        'The transaction is not signed. Sign it first (offline, or with `koinos-wallet tx sign`).',
      );
    const { network, node } = await this.deps.networks.node(networkId);
    const chainId = await node.chainId();
    await this.deps.networks.observeChainId(network.id, chainId);
    const header = tx.header!;
    if (!equalBytes(chainId, header.chain_id)) {
      throw new WalletError(
        'CHAIN_ID_MISMATCH',
        `This transaction was signed for chain ${bytesToJson(header.chain_id, BTYPE.BASE64)}, but ${network.name} now has chain ID ${bytesToJson(chainId, BTYPE.BASE64)} (it was restarted, or this is another network). It was not sent; make and sign it again.`,
      );
    }
    const receipt = await submitAndTrack({ networkId: network.id, node, follower: this.deps.follower }, tx, broadcast);
    return toSubmitReceipt(receipt, broadcast);
  }
}
