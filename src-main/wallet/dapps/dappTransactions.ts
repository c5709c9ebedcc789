// A dApp's transaction as the wallet reviews it: missing header fields filled (the chain ID fetched now, the
// pending-aware nonce, the payer; rc_limit left as a cap to be sized after the approval), operations decoded with the
// token ABI, the dApp's ABIs and the node's, and the risk flags every review has. The result is the PreparedSubmission
// that the wallet's own transfers use, so a dApp's signature passes the same approval, dry run and checks.
import { addressFromString } from '../../koinos/address.ts';
import { equalBytes } from '../../koinos/bytes.ts';
import { BTYPE, bytesToJson, type JsonObject } from '../../koinos/codec.ts';
import { contractDecoder, type ContractDecoder } from '../../koinos/contractDecoder.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { jsonDepth } from '../../koinos/jsonDepth.ts';
import { koinMethodByEntryPoint } from '../../koinos/koin.ts';
import {
  checkTransaction,
  nonceFromBytes,
  nonceToBytes,
  prepareTransaction,
  transactionFromJson,
} from '../../koinos/transaction.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { ApprovalReview } from '../approvals/types.ts';
import type { DecodedOperation, KnownAddress, TokenInfo } from '../chain/types.ts';
import { REVIEW_TTL_MS, type PreparedSubmission } from '../chain/approvedSubmit.ts';
import type { PendingTransactions } from '../chain/pendingTransactions.ts';
import { decodeOperation } from '../chain/operations.ts';
import { assessRisks, knownContractsOf, tokenCall } from '../chain/riskFlags.ts';
import type { ChainNetwork } from './chains.ts';
import { nextNonce as nextNonceOf } from '../chain/submission.ts';

/** The most JSON a dApp's transaction or ABI may be: real ones are a few KB; the node caps transactions at 512 KB. */
const MAX_JSON_LENGTH = 1024 * 1024;
const MAX_JSON_DEPTH = 64;

/**
 * A dApp's transaction JSON (koilib's TransactionJson: the gateway's form) read with the strict reader, bounded first.
 * @throws WalletError INVALID_TRANSACTION / INVALID_JSON naming the field.
 */
export function readDappTransaction(json: unknown): Transaction {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new WalletError('INVALID_TRANSACTION', `expected a transaction as JSON, got ${describe(json)}`);
  const text = JSON.stringify(json);
  if (text.length > MAX_JSON_LENGTH || jsonDepth(text) > MAX_JSON_DEPTH)
    throw new WalletError(
      'INVALID_TRANSACTION',
      `expected a transaction of at most ${MAX_JSON_LENGTH} characters of JSON, got a larger or deeper one`,
    );
  const tx = transactionFromJson(json);
  if (tx.operations.length === 0)
    throw new WalletError('INVALID_TRANSACTION', 'expected a transaction with at least one operation, got none');
  return tx;
}

/** The next nonce of `account`, counting what the node's mempool and this wallet hold pending; and the chain's. */
export function nextNonce(
  ctx: ChainNetwork,
  pending: PendingTransactions,
  account: string,
): Promise<{ next: bigint; confirmed: bigint }> {
  return nextNonceOf(ctx.node, pending, ctx.network.id, { address: account, bytes: addressFromString(account) });
}

/**
 * Fills only what the dApp left out: chain ID (must match the chain's now when given), payer (the signer), nonce (the
 * pending-aware next one); rc_limit stays as given (0: sized after the approval). Signatures over other content are
 * refused.
 * @throws WalletError CHAIN_ID_MISMATCH, INVALID_TRANSACTION, node errors.
 */
export async function fillHeader(
  ctx: ChainNetwork,
  pending: PendingTransactions,
  signer: string,
  tx: Transaction,
): Promise<{ tx: Transaction; confirmed: bigint; next: bigint }> {
  const given = tx.header;
  const chain_id = given?.chain_id && given.chain_id.length > 0 ? given.chain_id : ctx.chainId;
  if (!equalBytes(chain_id, ctx.chainId)) {
    throw new WalletError(
      'CHAIN_ID_MISMATCH',
      `The dApp made this transaction for chain ${bytesToJson(chain_id, BTYPE.BASE64)}, but ${ctx.network.name} is on ${bytesToJson(ctx.chainId, BTYPE.BASE64)} now. Nothing was signed.`,
    );
  }
  const payer = given?.payer && given.payer.length > 0 ? given.payer : addressFromString(signer);
  const payee = given?.payee ?? new Uint8Array();
  const account = bytesToJson(payee.length > 0 ? payee : payer, BTYPE.ADDRESS);
  const { next, confirmed } = await nextNonce(ctx, pending, account);
  const nonce = given?.nonce && given.nonce.length > 0 ? given.nonce : nonceToBytes(next);
  const filled: Transaction = {
    ...tx,
    header: { chain_id, rc_limit: given?.rc_limit ?? 0n, nonce, operation_merkle_root: new Uint8Array(), payer, payee },
  };
  const prepared = prepareTransaction(filled);
  if (tx.signatures.length > 0 && !equalBytes(prepared.id, tx.id)) {
    throw new WalletError(
      'INVALID_TRANSACTION',
      'The transaction carries signatures over other content (its id does not match its header). Nothing was signed.',
    );
  }
  return { tx: prepared, confirmed, next };
}

/** What decodes a dApp's operations: the tokens the wallet knows, the ABIs the dApp sent, and the node's. */
export interface OperationSources {
  tokens: readonly TokenInfo[];
  /** koilib's `abis` option: contract address → ABI object. */
  dappAbis?: unknown;
}

/** A decoder of a dApp's operations and events: the ABIs the dApp sent (koilib's `abis` option), else the node's. */
export function dappDecoder(ctx: ChainNetwork, abis: unknown): ContractDecoder {
  const dappAbis = typeof abis === 'object' && abis !== null ? (abis as Record<string, unknown>) : {};
  return contractDecoder({
    abiText: async (contractId) => {
      const own = dappAbis[contractId];
      if (own !== undefined) return typeof own === 'string' ? own : JSON.stringify(own);
      try {
        const { meta } = await ctx.node.rpc.callMessage('contract_meta_store.get_contract_meta', {
          contract_id: addressFromString(contractId),
        });
        return meta?.abi || undefined;
      } catch {
        return undefined; // a node without contract_meta_store decodes nothing more; the NO_ABI flag says so
      }
    },
    isSystemToken: () => false,
  });
}

/** An ABI's name for an entry point, in either spelling ABIs use (`balance_of`, koilib's `balanceOf`). */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The operations decoded (token calls by the token ABI; others by the dApp's ABI, else the node's) and who has an ABI.
 * A token method's entry point is never named otherwise by an ABI: a token whose chain code reads arguments leniently
 * could take a call a dApp's ABI calls `claim_reward` for a transfer. To a token the wallet knows, such a call whose
 * arguments do not decode as that method's is refused; to another contract it is shown undecoded, and flagged.
 * @throws WalletError INVALID_TRANSACTION for a known token's method with arguments that are not that method's.
 */
async function decodeDappOperations(
  ctx: ChainNetwork,
  tx: Transaction,
  sources: OperationSources,
): Promise<{ operations: DecodedOperation[]; withAbi: string[] }> {
  const decoder = dappDecoder(ctx, sources.dappAbis);
  const knownTokens = new Set(sources.tokens.map((t) => t.contract));
  const withAbi: string[] = [];
  const operations: DecodedOperation[] = [];
  for (const [index, op] of tx.operations.entries()) {
    const call = op.call_contract;
    if (!call || tokenCall(call)) {
      operations.push(decodeOperation(op, sources.tokens));
      continue;
    }
    const contract = bytesToJson(call.contract_id, BTYPE.CONTRACT_ID);
    const tokenMethod = koinMethodByEntryPoint(call.entry_point)?.name;
    if (tokenMethod !== undefined && knownTokens.has(contract)) {
      throw new WalletError(
        'INVALID_TRANSACTION',
        `Operation ${index + 1} calls ${tokenMethod} on the token ${contract} with arguments that do not decode as a ${tokenMethod}'s: the token could read them as one this review cannot show. Nothing was signed.`,
      );
    }
    const decoded = (await decoder.operation(op))['call_contract'] as JsonObject | undefined;
    const name = decoded?.['entry_point'];
    if (typeof name === 'string' && (tokenMethod === undefined || snakeCase(name) === tokenMethod)) {
      withAbi.push(contract);
      operations.push({
        contract,
        entryPoint: name,
        args: decoded!['args'] ?? {},
        summary: `Call ${name} on ${contract}`,
      });
    } else {
      operations.push(decodeOperation(op, sources.tokens));
    }
  }
  return { operations, withAbi };
}

/** What a dApp asks to have signed, and how the wallet answers it. */
export interface DappTransactionRequest {
  origin: string;
  signer: string;
  transaction: unknown;
  abis?: unknown;
  /** true: signed and sent (signAndSendTransaction); false: signed and handed back (signTransaction). */
  send: boolean;
}

export interface DappReviewDeps {
  pending: PendingTransactions;
  /** The tokens the wallet knows on the network. */
  tokens: readonly TokenInfo[];
  /** The network's chain ID changed since the wallet last saw it. */
  chainIdChanged: boolean;
  /** The mana of `payer` that no pending transaction holds: the cap when the dApp set no rc_limit. */
  availableMana: (payer: Uint8Array) => Promise<bigint>;
  /** What the last transaction of this origin on this network used, measured by its dry run (an estimate). */
  measuredCost: (costKey: string) => bigint | undefined;
  /** The addresses a transfer's recipient is compared with on the network. */
  knownAddresses: readonly KnownAddress[];
}

/**
 * The review of a dApp's transaction, ready for signApproved: nothing is signed, nothing is sent.
 * @throws WalletError INVALID_TRANSACTION (the signer is neither payer nor payee), INVALID_NONCE (not the next nonce),
 *   CHAIN_ID_MISMATCH, NOT_ENOUGH_MANA
 *   (no mana to cap rc_limit with), node errors.
 */
export async function reviewDappTransaction(
  ctx: ChainNetwork,
  deps: DappReviewDeps,
  request: DappTransactionRequest,
): Promise<PreparedSubmission> {
  const {
    tx: filled,
    confirmed,
    next,
  } = await fillHeader(ctx, deps.pending, request.signer, readDappTransaction(request.transaction));
  const header = filled.header!;
  const payer = bytesToJson(header.payer, BTYPE.ADDRESS);
  const payee = header.payee.length > 0 ? bytesToJson(header.payee, BTYPE.ADDRESS) : undefined;
  if (request.signer !== payer && request.signer !== payee) {
    throw new WalletError(
      'INVALID_TRANSACTION',
      `The transaction is paid by ${payer}${payee ? ` for ${payee}` : ''}: a signature of ${request.signer} would not count. Nothing was signed.`,
    );
  }
  // Only the next nonce is signed: a later one would give the dApp a signature it could keep and send after the
  // person's next transactions (and no dry run could show what it does); an earlier one can never go through.
  const nonce = nonceFromBytes(header.nonce);
  if (nonce !== next) {
    throw new WalletError(
      'INVALID_NONCE',
      `The dApp set nonce ${nonce}, but the next nonce of ${payee ?? payer} is ${next}: ${nonce > next ? 'a signature for a later nonce could be kept and sent after your next transactions' : 'that nonce is used already'}. Nothing was signed; ask the dApp again.`,
    );
  }
  const rcByHand = header.rc_limit > 0n;
  const rcCap = rcByHand ? header.rc_limit : await deps.availableMana(header.payer);
  if (rcCap === 0n)
    throw new WalletError(
      'NOT_ENOUGH_MANA',
      `${payer} has no mana free for this transaction now. Wait for mana to regenerate, then ask again.`,
    );
  const transaction = prepareTransaction({ ...filled, header: { ...header, rc_limit: rcCap } });
  const { operations, withAbi } = await decodeDappOperations(ctx, transaction, {
    tokens: deps.tokens,
    dappAbis: request.abis,
  });
  const present = checkTransaction(transaction).signers.flatMap((s) => (s.address ? [s.address] : []));
  const risks = assessRisks(transaction, {
    signers: [request.signer, payer, ...(payee ? [payee] : []), ...present],
    knownContracts: knownContractsOf(
      ctx.network.kind,
      deps.tokens.map((t) => t.contract),
    ),
    contractsWithAbi: withAbi,
    chainIdChanged: deps.chainIdChanged,
    knownAddresses: deps.knownAddresses,
  });
  const costKey = `${ctx.network.id} dapp ${request.origin}`;
  const measured = deps.measuredCost(costKey);
  const approval: ApprovalReview = {
    kind: request.send ? 'send' : 'sign',
    origin: request.origin,
    networkName: ctx.network.name,
    chainId: bytesToJson(ctx.chainId, BTYPE.BASE64),
    signer: request.signer,
    payer,
    ...(payee ? { payee } : {}),
    nonce: nonce.toString(),
    rcLimit: rcCap.toString(),
    ...(measured !== undefined ? { rcEstimate: measured.toString() } : {}),
    operations,
    risks,
  };
  return {
    expires: Date.now() + REVIEW_TTL_MS,
    networkId: ctx.network.id,
    chainId: ctx.chainId,
    from: payee ?? payer,
    payer,
    signers: [request.signer],
    transaction,
    nonce,
    dryRunnable: nonce === confirmed + 1n,
    rcCap,
    rcByHand,
    costKey,
    approval,
    what: 'transaction',
    hints: {
      mana: 'ask the dApp for a smaller transaction, or wait for mana to regenerate.',
      revert: 'The dApp may have made it for another state of the chain; ask it again.',
    },
  };
}
