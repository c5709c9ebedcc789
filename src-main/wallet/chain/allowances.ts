// The allowances an account gave, and taking one back. A dApp that was approved to spend a token (KCS-4 `approve`), to
// move one NFT (KCS-5 `approve`) or every NFT of a collection (`set_approval_for_all`) can do so later without another
// signature: the drainer's way in. The list reads them from the chain as they stand now (get_allowances of KOIN, VHP
// and every token added; of every collection added, get_operator_approvals, each operator asked is_approved_for_all as
// a collection may keep one it took back, and get_approved of each NFT the account owns); taking one back is an
// `approve` of 0, a `set_approval_for_all` of false or an `approve` of the NFT to its owner, reviewed, approved and
// signed on the one path every signature takes (ownCallReview.ts, reviewBook.ts).
import { toHex } from '../../koinos/bytes.ts';
import { BTYPE, bytesToJson, encode } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import type { AbiMethod } from '../../koinos/contractAbi.ts';
import { TOKEN_METHODS } from '../../koinos/koin.ts';
import { U64_MAX } from '../../koinos/tokenEvents.ts';
import type { Operation } from '../../koinos/types.ts';
import { KCS5_ABI } from './kcs5.ts';
import { decodeAnswer, type KoinosNode } from './koinosNode.ts';
import type { NftService } from './nfts.ts';
import { readKcs5, readOwnedTokenIds, tokenIdOf } from './nfts.ts';
import { decodeOperation } from './operations.ts';
import { reviewOwnCall, type OwnCallDeps } from './ownCallReview.ts';
import { readPages, type PageLimits } from './pages.ts';
import { ReviewBook } from './reviewBook.ts';
import { nodeSaid } from './standardContracts.ts';
import type {
  Allowance,
  AllowanceList,
  DecodedOperation,
  NftCollectionInfo,
  SubmitReceipt,
  TokenInfo,
  TransactionReview,
} from './types.ts';

/** Entries asked for at once, and the most read from one contract (a page at a time). */
export const ALLOWANCE_PAGE = 50;
export const MOST_ALLOWANCES = 100;
const LIMITS: PageLimits = { page: ALLOWANCE_PAGE, most: MOST_ALLOWANCES };
/**
 * Contract reads of one list under way at once: an account with many NFTs asks get_approved of each, and a public
 * node should not get hundreds of requests (and connections) at the same moment.
 */
export const READS_AT_ONCE = 8;

/** What the list reads contracts with: the node's read_contract, here limited to {@link READS_AT_ONCE} at a time. */
type ContractReader = Pick<KoinosNode, 'readContract'>;

/** What to do after approval when mana is short, or when the chain would revert taking the allowance back. */
const HINTS = {
  mana: 'wait for mana to regenerate.',
  revert: 'List the allowances again: it may have been spent or taken back already.',
};

export interface AllowanceOptions extends OwnCallDeps {
  nfts: NftService;
}

/** What reading the allowances needs (no signer: the CLI's `allowances` reads them too). */
export type AllowanceReadDeps = Pick<AllowanceOptions, 'networks' | 'tokens' | 'nfts'>;

/** One allowance to take back. */
export interface RevokeItem {
  kind: Allowance['kind'];
  contract: string;
  spender: string;
  /** The NFT of an `nft-token` allowance. */
  tokenId?: string;
}

/** Allowances to take back in one transaction, the account by its address (the shells map account ids). */
export interface RevokeRequest {
  /** Absent: the selected network. */
  networkId?: string;
  from: string;
  items: RevokeItem[];
}

/** The most allowances taken back in one transaction (one review, one approval). */
const MAX_REVOKES = 20;

/** The call that takes one allowance back, and how the review reads it. */
interface RevokeCall {
  /** The allowance, once per transaction. */
  key: string;
  contract: string;
  /** What is taken back, in the mana message: "KOIN allowance of 1…". */
  label: string;
  operation: Operation;
  decode(operation: Operation): DecodedOperation;
}

/**
 * Runs at most `count` jobs at once; the others wait, in the order they came.
 * @example
 * const limit = limiter(8);
 * await Promise.all(ids.map((id) => limit(() => read(id))));
 */
export function limiter(count: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (running >= count) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** A token's allowances given by `owner` (KCS-4 get_allowances), those above 0. */
async function tokenAllowances(node: ContractReader, where: string, token: TokenInfo, owner: Uint8Array) {
  const m = TOKEN_METHODS.get_allowances;
  const contract = addressFromString(token.contract);
  const { entries, cut } = await readPages<{ spender: Uint8Array; value: bigint }>(
    async (last) => {
      const args = encode(m.argsType, { owner, limit: ALLOWANCE_PAGE, ...(last ? { start: last.spender } : {}) });
      const bytes = await node.readContract(contract, m.entryPoint, args);
      return decodeAnswer(m.resultType, bytes, where, `get_allowances of ${token.symbol}`).allowances;
    },
    (entry) => toHex(entry.spender),
    LIMITS,
  );
  const allowances: Allowance[] = entries
    .filter((a) => a.value > 0n)
    .map((a) => ({
      kind: 'token',
      contract: token.contract,
      symbol: token.symbol,
      decimals: token.decimals,
      spender: bytesToJson(a.spender, BTYPE.ADDRESS),
      amount: a.value.toString(),
      unlimited: a.value === U64_MAX,
    }));
  return { allowances, cut };
}

/** Whether `operator` may move every NFT of `owner` in the collection now. */
async function approvedForAll(node: ContractReader, contract: Uint8Array, owner: string, operator: string) {
  return (await readKcs5(node, contract, 'is_approved_for_all', { owner, operator }))['value'] === true;
}

/** Who may transfer the NFT `tokenId` besides its owner (KCS-5 get_approved); '' for nobody. */
async function approvedTo(node: ContractReader, contract: Uint8Array, tokenId: string): Promise<string> {
  const value = (await readKcs5(node, contract, 'get_approved', { token_id: tokenId }))['value'];
  return typeof value === 'string' ? value : '';
}

/**
 * A collection's grants by `owner` that still stand: the operators of every NFT (KCS-5 get_operator_approvals, each
 * asked is_approved_for_all) and the NFTs it owns that are approved to another (get_tokens_by_owner, get_approved).
 */
async function nftAllowances(node: ContractReader, collection: NftCollectionInfo, owner: string) {
  const contract = addressFromString(collection.contract);
  const [operators, owned] = await Promise.all([
    nftOperators(node, contract, owner),
    readOwnedTokenIds(node, contract, owner, LIMITS),
  ]);
  const approved = await Promise.all(owned.entries.map((tokenId) => approvedTo(node, contract, tokenId)));
  const of = { contract: collection.contract, name: collection.name, symbol: collection.symbol };
  const allowances: Allowance[] = [
    ...operators.entries.map((operator) => ({ kind: 'nft-operator' as const, ...of, spender: operator })),
    ...owned.entries.flatMap((tokenId, i) =>
      approved[i] && approved[i] !== owner
        ? [{ kind: 'nft-token' as const, ...of, tokenId, spender: approved[i] }]
        : [],
    ),
  ];
  return { allowances, cut: operators.cut || owned.cut };
}

/** A collection's operators of every NFT of `owner` (KCS-5 get_operator_approvals), those that still stand. */
async function nftOperators(node: ContractReader, contract: Uint8Array, owner: string) {
  const { entries, cut } = await readPages<string>(
    async (last) => {
      const args = { owner, limit: ALLOWANCE_PAGE, ...(last ? { start: last } : {}) };
      const answer = await readKcs5(node, contract, 'get_operator_approvals', args);
      return Array.isArray(answer['operators']) ? answer['operators'].map(String) : [];
    },
    (operator) => operator,
    LIMITS,
  );
  const standing = await Promise.all(entries.map((operator) => approvedForAll(node, contract, owner, operator)));
  return { entries: entries.filter((_, i) => standing[i]), cut };
}

/**
 * @example
 * const list = await allowances.list({ owner: '1Abc…' });
 * const review = await allowances.prepareRevoke({ from: '1Abc…', kind: 'token', contract: koin, spender: dapp });
 * const receipt = await allowances.confirmRevoke(review.reviewId);
 */
export class AllowanceService {
  private readonly deps: AllowanceOptions;
  private readonly reviews: ReviewBook;

  constructor(options: AllowanceOptions) {
    this.deps = options;
    this.reviews = new ReviewBook(options, 'allowance change');
  }

  /** {@link listAllowances} on the wallet's tokens and collections. */
  list(request: { networkId?: string; owner: string }): Promise<AllowanceList> {
    return listAllowances(this.deps, request);
  }

  /**
   * The review of taking allowances back, one call each in one transaction signed and paid by the owner: `approve` of 0
   * on the token, `set_approval_for_all` of false or `approve` of the NFT to its owner on the collection. Each is
   * checked first against the chain: one that no longer stands is refused, and nothing is prepared.
   * @throws WalletError INVALID_ARGUMENT (none, more than 20, one twice, a token id), INVALID_ADDRESS, NOT_FOUND (no
   *   such allowance now, or a collection not added), UNKNOWN_TOKEN, NOT_ENOUGH_MANA, node errors.
   */
  async prepareRevoke(request: RevokeRequest): Promise<TransactionReview> {
    const count = request.items.length;
    if (count === 0 || count > MAX_REVOKES) {
      throw new WalletError('INVALID_ARGUMENT', `expected 1 to ${MAX_REVOKES} allowances to take back, got ${count}`);
    }
    const fromBytes = addressFromString(request.from);
    const from = bytesToJson(fromBytes, BTYPE.ADDRESS);
    const { network, node } = await this.deps.networks.node(request.networkId);
    const collections = await this.deps.nfts.list(network.id);
    const calls: RevokeCall[] = [];
    for (const item of request.items) calls.push(await this.revokeCall(node, network, collections, from, item));
    const keys = new Set(calls.map((c) => c.key));
    if (keys.size < calls.length) {
      throw new WalletError('INVALID_ARGUMENT', 'expected each allowance to take back once, got one of them twice');
    }
    return reviewOwnCall(this.deps, this.reviews, {
      network,
      node,
      from,
      fromBytes,
      operations: calls.map((c) => c.operation),
      decode: (transaction) => transaction.operations.map((op, i) => calls[i]!.decode(op)),
      costKey: `${network.id} revoke ${calls.map((c) => c.contract).join(' ')}`,
      purpose: count === 1 ? `take back the ${calls[0]!.label}` : `take back these ${count} allowances`,
      listed: collections.map((c) => c.contract),
      contractsWithAbi: calls.map((c) => c.contract),
      hints: HINTS,
    });
  }

  /**
   * The call that takes `item` back, checked against the chain first: one that no longer stands is refused.
   * @throws WalletError INVALID_ADDRESS, INVALID_ARGUMENT (token id), NOT_FOUND (no such allowance now, or a collection
   *   not added), UNKNOWN_TOKEN, node errors.
   */
  private async revokeCall(
    node: KoinosNode,
    network: { id: string; name: string },
    collections: readonly NftCollectionInfo[],
    from: string,
    item: RevokeItem,
  ): Promise<RevokeCall> {
    const fromBytes = addressFromString(from);
    const spenderBytes = addressFromString(item.spender);
    const spender = bytesToJson(spenderBytes, BTYPE.ADDRESS);
    const contractBytes = addressFromString(item.contract);
    const contract = bytesToJson(contractBytes, BTYPE.ADDRESS);
    const call = (entryPoint: number, args: Uint8Array): Operation => ({
      call_contract: { contract_id: contractBytes, entry_point: entryPoint, args },
    });
    if (item.kind === 'token') {
      const token = await this.deps.tokens.resolve(network.id, contract);
      const label = `${token.symbol} allowance of ${spender}`;
      const m = TOKEN_METHODS.allowance;
      const bytes = await node.readContract(
        contractBytes,
        m.entryPoint,
        encode(m.argsType, { owner: fromBytes, spender: spenderBytes }),
      );
      if (decodeAnswer(m.resultType, bytes, node.rpc.displayUrl, `allowance of ${token.symbol}`).value === 0n) {
        throw gone(label, from);
      }
      const approve = TOKEN_METHODS.approve;
      const operation = call(
        approve.entryPoint,
        encode(approve.argsType, { owner: fromBytes, spender: spenderBytes, value: 0n }),
      );
      return {
        key: `token ${contract} ${spender}`,
        contract,
        label,
        operation,
        decode: (op) => decodeOperation(op, [token]),
      };
    }
    const collection = collections.find((c) => c.contract === contract);
    if (!collection) {
      throw new WalletError(
        'NOT_FOUND',
        `expected one of the NFT collections added on ${network.name}, got ${contract}. Add the collection on the NFTs screen first.`,
      );
    }
    const named = `${collection.name} (${collection.symbol}, ${contract})`;
    let m: AbiMethod;
    let args: Uint8Array;
    let label: string;
    let summary: string;
    let key: string;
    if (item.kind === 'nft-operator') {
      label = `grant of every ${collection.symbol} NFT to ${spender}`;
      if (!(await approvedForAll(node, contractBytes, from, spender))) throw gone(label, from);
      m = KCS5_ABI.method('set_approval_for_all');
      args = KCS5_ABI.encodeArguments(m, { owner: from, operator: spender, approved: false });
      summary = `Take back from ${spender} the transfer of every NFT of ${named} held by ${from}`;
      key = `nft-operator ${contract} ${spender}`;
    } else {
      if (item.tokenId === undefined) {
        throw new WalletError(
          'INVALID_ARGUMENT',
          'expected the token id of the NFT whose approval is taken back, got none',
        );
      }
      const { id: tokenId } = tokenIdOf(item.tokenId);
      label = `approval of ${collection.symbol} ${tokenId} to ${spender}`;
      if ((await approvedTo(node, contractBytes, tokenId)) !== spender) throw gone(label, from);
      // Approved to the owner itself, which holds it anyway: a collection keeps one approval for an NFT. Not
      // `approve: false`, which a collection that predates that field (the @koinosbox NFT) ignores, approving the
      // operator again; not an approval to nobody, which that collection's code traps on (no operator).
      m = KCS5_ABI.method('approve');
      args = KCS5_ABI.encodeArguments(m, { owner: from, operator: from, token_id: tokenId });
      summary = `Take back from ${spender} the transfer of NFT ${tokenId} of ${named} held by ${from}: it is approved to its owner instead`;
      key = `nft-token ${contract} ${tokenId}`;
    }
    const method = m;
    return {
      key,
      contract,
      label,
      operation: call(method.entryPoint, args),
      decode: (op) => ({
        contract,
        entryPoint: method.name,
        args: KCS5_ABI.decodeArguments(method, op.call_contract?.args ?? new Uint8Array()),
        summary: `${summary}, decoded with the KCS-5 standard`,
      }),
    };
  }

  /**
   * Puts the reviewed change before the approval queue and, once a person approved it, signs, submits and follows it.
   * @throws WalletError NOT_FOUND (unknown or expired review), REJECTED, APPROVAL_EXPIRED, CHAIN_ID_MISMATCH,
   *   INVALID_NONCE, NOT_ENOUGH_MANA, TRANSACTION_REVERTED, node errors.
   */
  confirmRevoke(reviewId: string): Promise<SubmitReceipt> {
    return this.reviews.confirm(reviewId);
  }
}

/**
 * The allowances `owner` gave on the network, read now from every token and collection the wallet lists there; a
 * contract that cannot be read is named with the node's reason, and the others are listed.
 * @throws WalletError INVALID_ADDRESS, node errors (the node unreachable, or KOIN and VHP not resolved).
 */
export async function listAllowances(
  deps: AllowanceReadDeps,
  request: { networkId?: string; owner: string },
): Promise<AllowanceList> {
  const ownerBytes = addressFromString(request.owner);
  const owner = bytesToJson(ownerBytes, BTYPE.ADDRESS);
  const { network, node } = await deps.networks.node(request.networkId);
  const [tokens, collections] = await Promise.all([deps.tokens.list(network.id), deps.nfts.list(network.id)]);
  const limit = limiter(READS_AT_ONCE);
  const reader: ContractReader = {
    readContract: (contract, entryPoint, args) => limit(() => node.readContract(contract, entryPoint, args)),
  };
  const reads = [
    ...tokens.map((token) => ({
      source: token,
      read: () => tokenAllowances(reader, node.rpc.displayUrl, token, ownerBytes),
    })),
    ...collections.map((collection) => ({ source: collection, read: () => nftAllowances(reader, collection, owner) })),
  ];
  const results = await Promise.allSettled(reads.map((r) => r.read()));
  const list: AllowanceList = {
    networkId: network.id,
    networkName: network.name,
    owner,
    allowances: [],
    read: reads.length,
    unread: [],
    cut: [],
  };
  results.forEach((result, i) => {
    const { contract, symbol } = reads[i]!.source;
    if (result.status === 'rejected') return list.unread.push({ contract, symbol, reason: nodeSaid(result.reason) });
    list.allowances.push(...result.value.allowances);
    if (result.value.cut) list.cut.push(contract);
  });
  return list;
}

/** The allowance is not on the chain any more (spent, taken back, or never given by this account). */
function gone(label: string, owner: string): WalletError {
  return new WalletError(
    'NOT_FOUND',
    `There is no ${label} from ${owner} on the chain now: it was spent or taken back already. List the allowances again.`,
  );
}
