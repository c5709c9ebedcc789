// An account's history, decoded here from the node's account_history records (so a JSON-RPC-only node is enough):
// token transfers in and out with amounts and counterparties, mints, burns, KCS-5 NFTs sent, received, minted, burned
// and granted to an operator (by token id and collection), other calls by name and other events, paged by sequence
// number in both orders, with this wallet's pending transactions listed until they are included.
import { BTYPE, bytesToJson, decode } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { koinMethodByEntryPoint } from '../../koinos/koin.ts';
import { tokenEventType } from '../../koinos/tokenEvents.ts';
import { MAX_MEMO_CHARS } from '../../koinos/memo.ts';
import { oneLine } from '../oneLine.ts';
import type { EventData, Transaction } from '../../koinos/types.ts';
import type { HistoryEntry, HistoryPage, HistoryRecord, TokenInfo } from './types.ts';
import type { HeadTopology, HistoryEntryMessage, KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { withEventTokens, type TokenService } from './tokens.ts';
import { decodeNftEvent, KCS5_ABI, type NftEvent } from './kcs5.ts';
import { hexId as hex, includingBlocks } from './includingBlocks.ts';

/** The account history service answers at most this many records per request. */
export const MAX_HISTORY_PAGE = 500;

/** How many block headers (height and time by block id) the service keeps; the oldest go first. */
const BLOCK_CACHE_SIZE = 5000;

/** What the history shows of the block holding a transaction. */
interface BlockInfo {
  id: Uint8Array;
  height: bigint;
  time?: bigint;
}

export interface HistoryRequest {
  networkId?: string;
  address: string;
  limit: number;
  /** Start here (inclusive), decimal; absent: the newest (descending) or the oldest (ascending). */
  seqNum?: string;
  ascending: boolean;
  irreversibleOnly: boolean;
}

export interface HistoryServiceOptions {
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
}

/** The collection methods whose events (decodeNftEvent) say what they did. */
const NFT_CALLS = new Set(['transfer', 'mint', 'burn', 'approve', 'set_approval_for_all']);

/**
 * The entries an NFT event gives the account `address`: the NFT sent, received, minted or burned, or its grant to an
 * operator (one NFT, or every NFT); else an event (another account's, or a grant taken back).
 */
function nftEntries(event: EventData, address: string, contract: string, nftEvent: NftEvent): HistoryEntry[] {
  const { kind, data } = nftEvent;
  // Written by whoever made the transfer: on one line, as every text someone else chose.
  const memo = data?.memo ? { memo: oneLine(data.memo, MAX_MEMO_CHARS) } : {};
  if (kind === 'operator_approval') {
    if (!data?.operator) return [{ kind: 'event', name: event.name, contract }];
    return data.owner === address && data.approved === true
      ? [{ kind: 'approved', counterparty: data.operator, ...memo, contract, allNfts: true }]
      : [{ kind: 'event', name: event.name, contract }];
  }
  if (!data?.token_id) return [{ kind: 'event', name: event.name, contract }];
  const nft = { contract, tokenId: data.token_id };
  const entries: HistoryEntry[] = [];
  if (kind === 'token_approval') {
    // KCS-5's `approve` is optional and means a grant when absent; one to the owner itself takes the NFT's back.
    if (data.owner === address && data.operator && data.operator !== address && data.approve !== false)
      entries.push({ kind: 'approved', counterparty: data.operator, ...memo, ...nft });
  } else if (kind === 'mint') {
    if (data.to === address) entries.push({ kind: 'minted', ...memo, ...nft });
  } else if (kind === 'burn') {
    if (data.from === address) entries.push({ kind: 'burned', ...memo, ...nft });
  } else {
    if (data.from && data.from === address)
      entries.push({ kind: 'sent', ...(data.to ? { counterparty: data.to } : {}), ...memo, ...nft });
    if (data.to === address)
      entries.push({ kind: 'received', ...(data.from ? { counterparty: data.from } : {}), ...memo, ...nft });
  }
  return entries.length > 0 ? entries : [{ kind: 'event', name: event.name, ...nft }];
}

/**
 * The entries a token's approve event gives the account `address`: the allowance it gave (the spender and the amount),
 * an event when it took one back (0) or when the allowance is another account's; as before when the data does not
 * decode as KCS-4's (an approved entry naming the event).
 */
function allowanceEntries(
  event: EventData,
  address: string,
  base: { contract: string; token?: TokenInfo },
): HistoryEntry[] {
  let data: { owner?: Uint8Array; spender?: Uint8Array; value?: bigint };
  try {
    data = decode('koinos.contracts.token.approve_event', event.data);
  } catch {
    return [{ kind: 'approved', name: event.name, ...base }];
  }
  const owner = data.owner && data.owner.length > 0 ? bytesToJson(data.owner, BTYPE.ADDRESS) : undefined;
  const spender = data.spender && data.spender.length > 0 ? bytesToJson(data.spender, BTYPE.ADDRESS) : undefined;
  const amount = (data.value ?? 0n).toString();
  return owner === address && spender !== undefined && amount !== '0'
    ? [{ kind: 'approved', amount, counterparty: spender, ...base }]
    : [{ kind: 'event', name: event.name, amount, ...base }];
}

/** The entries one event gives the account `address`: a token or NFT movement of its own, or a named event. */
function eventEntries(event: EventData, address: string, token: TokenInfo | undefined): HistoryEntry[] {
  const contract = bytesToJson(event.source, BTYPE.CONTRACT_ID);
  const nftEvent = decodeNftEvent(event);
  if (nftEvent) return nftEntries(event, address, contract, nftEvent);
  const type = tokenEventType(event.name);
  const base = { contract, ...(token ? { token } : {}) };
  if (/(^|\.)approve(_event)?$/.test(event.name)) return allowanceEntries(event, address, base);
  if (!type) return [{ kind: 'event', name: event.name, contract }];
  let data: { from?: Uint8Array; to?: Uint8Array; value?: bigint; memo?: string };
  try {
    data = decode(type, event.data);
  } catch {
    return [{ kind: 'event', name: event.name, contract }];
  }
  const from = data.from && data.from.length > 0 ? bytesToJson(data.from, BTYPE.ADDRESS) : undefined;
  const to = data.to && data.to.length > 0 ? bytesToJson(data.to, BTYPE.ADDRESS) : undefined;
  const amount = (data.value ?? 0n).toString();
  if (type.endsWith('transfer_event')) {
    const entries: HistoryEntry[] = [];
    // Written by whoever made the transfer: on one line, as every text someone else chose.
    const memo = data.memo ? { memo: oneLine(data.memo, MAX_MEMO_CHARS) } : {};
    if (from === address) entries.push({ kind: 'sent', amount, ...(to ? { counterparty: to } : {}), ...memo, ...base });
    if (to === address)
      entries.push({ kind: 'received', amount, ...(from ? { counterparty: from } : {}), ...memo, ...base });
    // Another account's movement (this account paid its mana): its amount still in the token's units.
    return entries.length > 0 ? entries : [{ kind: 'event', name: event.name, amount, ...base }];
  }
  if (type.endsWith('mint_event'))
    return [
      to === address ? { kind: 'minted', amount, ...base } : { kind: 'event', name: event.name, amount, ...base },
    ];
  return [
    from === address ? { kind: 'burned', amount, ...base } : { kind: 'event', name: event.name, amount, ...base },
  ];
}

/** Entries of one transaction for `address`: its token events, then the calls those events do not already explain. */
export function transactionEntries(
  tx: Transaction | undefined,
  events: EventData[],
  address: string,
  tokens: readonly TokenInfo[],
): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  const explained = new Set<string>();
  const nftExplained = new Set<string>();
  for (const event of events) {
    const source = bytesToJson(event.source, BTYPE.CONTRACT_ID);
    const token = tokens.find((t) => t.contract === source);
    const found = eventEntries(event, address, token);
    if (tokenEventType(event.name)) explained.add(source);
    if (decodeNftEvent(event)) nftExplained.add(source);
    entries.push(...found);
  }
  for (const op of tx?.operations ?? []) {
    const call = op.call_contract;
    if (!call) {
      const kind = Object.keys(op).find((k) => (op as Record<string, unknown>)[k] !== undefined) ?? 'operation';
      entries.push({ kind: 'call', name: kind });
      continue;
    }
    const contract = bytesToJson(call.contract_id, BTYPE.CONTRACT_ID);
    const method = koinMethodByEntryPoint(call.entry_point);
    if (method && ['transfer', 'mint', 'burn'].includes(method.name) && explained.has(contract)) continue;
    // A collection's call its own event tells (a transfer, a mint, a burn, a grant) is not listed twice.
    const nftMethod = KCS5_ABI.methodByEntryPoint(call.entry_point)?.name ?? method?.name;
    if (nftExplained.has(contract) && nftMethod && NFT_CALLS.has(nftMethod)) continue;
    entries.push({
      kind: 'call',
      name: method?.name ?? `0x${call.entry_point.toString(16).padStart(8, '0')}`,
      contract,
    });
  }
  return entries;
}

/**
 * The token events a transaction's calls to known tokens emit once included (transfer, mint, burn, approve), so that a
 * pending transaction reads like an included one: a pending KOIN transfer is 'sent' with amount and counterparty, not
 * an undecoded call. The KCS-4 arguments of these methods have the fields of their events, number for number, so the
 * arguments are the event's data. Calls to contracts that are not known tokens predict nothing.
 */
export function expectedTokenEvents(tx: Transaction | undefined, tokens: readonly TokenInfo[]): EventData[] {
  const events: EventData[] = [];
  for (const op of tx?.operations ?? []) {
    const call = op.call_contract;
    if (!call) continue;
    const contract = bytesToJson(call.contract_id, BTYPE.CONTRACT_ID);
    const method = koinMethodByEntryPoint(call.entry_point);
    if (
      !method ||
      !['transfer', 'mint', 'burn', 'approve'].includes(method.name) ||
      !tokens.some((t) => t.contract === contract)
    )
      continue;
    events.push({
      sequence: events.length,
      source: call.contract_id,
      name: `token.${method.name}_event`,
      data: call.args,
      impacted: [],
    });
  }
  return events;
}

/**
 * @example
 * const page = await history.page({ address, limit: 20, ascending: false, irreversibleOnly: false });
 * const older = page.next && (await history.page({ address, limit: 20, seqNum: page.next, ascending: false, irreversibleOnly: false }));
 */
export class HistoryService {
  private readonly deps: HistoryServiceOptions;
  /**
   * Height and time of blocks already read, by node client and block id. A block id is the hash of its header, so
   * what it names never changes (a fork has other ids); which block holds a transaction is asked every time.
   */
  private readonly blockCache = new WeakMap<KoinosNode, Map<string, BlockInfo>>();

  constructor(options: HistoryServiceOptions) {
    this.deps = options;
  }

  /**
   * One page of decoded records.
   * @throws WalletError INVALID_ARGUMENT (limit, seqNum), INVALID_ADDRESS, node errors.
   */
  async page(request: HistoryRequest): Promise<HistoryPage> {
    const address = bytesToJson(addressFromString(request.address), BTYPE.ADDRESS);
    if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_HISTORY_PAGE) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected a page size from 1 to ${MAX_HISTORY_PAGE}, got ${describe(request.limit)}`,
      );
    }
    if (request.seqNum !== undefined && !/^\d{1,20}$/.test(request.seqNum)) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected a sequence number as a whole number, got ${describe(request.seqNum)}`,
      );
    }
    const seqNum = request.seqNum === undefined ? undefined : BigInt(request.seqNum);
    const { network, node } = await this.deps.networks.node(request.networkId);
    const [values, head, known] = await Promise.all([
      node.accountHistory({
        address: addressFromString(address),
        seqNum,
        limit: BigInt(request.limit),
        ascending: request.ascending,
        irreversible: request.irreversibleOnly,
      }),
      node.head(),
      this.deps.tokens.list(network.id).catch(() => this.deps.tokens.known(network.id)),
    ]);
    // The tokens of the page's events and the blocks of its transactions are read at the same time.
    const [tokens, blocks] = await Promise.all([
      withEventTokens(
        node,
        values.flatMap((v) => v.trx?.receipt?.events ?? []),
        known,
      ),
      this.blocksOf(node, head, values),
    ]);
    const records: HistoryRecord[] = values.map((v) => this.record(v, address, tokens, blocks, head.lastIrreversible));

    const last = values.at(-1)?.seq_num;
    let next: bigint | undefined;
    if (last !== undefined && values.length === request.limit)
      next = request.ascending ? last + 1n : last > 0n ? last - 1n : undefined;
    const first = !request.ascending && seqNum === undefined;
    const lastPage = request.ascending && next === undefined;
    if ((first || lastPage) && !request.irreversibleOnly) {
      // The follower's status lags the node (it polls), so a transaction the history above already lists, on this page
      // or a later one, may still be 'pending' here. The chain's nonce, read after the history answered, is at least
      // as new as the history: a transaction whose nonce it has reached is in a block (or was replaced), not pending.
      const listed = new Set(records.map((r) => r.transactionId));
      const candidates = this.deps.pending.waitingOf(network.id, address).filter((p) => !listed.has(p.id));
      const unconfirmed =
        candidates.length === 0
          ? []
          : await this.deps.pending.unconfirmed(candidates, (account) => node.nonce(addressFromString(account)));
      const waiting = unconfirmed.map((p) => ({
        status: 'pending' as const,
        transactionId: p.id,
        time: String(p.submittedAt),
        payer: p.payer,
        entries: transactionEntries(p.transaction, expectedTokenEvents(p.transaction, tokens), address, tokens),
      }));
      if (first) records.unshift(...waiting.reverse());
      else records.push(...waiting);
    }
    return { networkId: network.id, records, ...(next !== undefined ? { next: next.toString() } : {}) };
  }

  /**
   * Height, time and id of the block holding each transaction of the page: one request for the blocks that list each
   * transaction, one for the headers of blocks not read before, and, for a transaction listed in several blocks (a
   * fork), one for the block the chain has at each of their heights (includingBlocks.ts).
   */
  private async blocksOf(
    node: KoinosNode,
    head: HeadTopology,
    values: HistoryEntryMessage[],
  ): Promise<Map<string, BlockInfo>> {
    const out = new Map<string, BlockInfo>();
    const ids = values.flatMap((v) => (v.trx?.transaction ? [v.trx.transaction.id] : []));
    if (ids.length === 0) return out;
    let cache = this.blockCache.get(node);
    if (!cache) this.blockCache.set(node, (cache = new Map()));
    try {
      const listed = (await node.transactionsById(ids)).flatMap((f) =>
        f.transaction ? [{ id: f.transaction.id, containing_blocks: f.containing_blocks }] : [],
      );
      const unknown = [
        ...new Map(
          listed.flatMap((t) => t.containing_blocks.filter((b) => !cache.has(hex(b))).map((b) => [hex(b), b] as const)),
        ).values(),
      ];
      const read = new Map<string, BlockInfo>();
      for (const i of await node.blocksById(unknown)) {
        const info = { id: i.block_id, height: i.block_height, time: i.block?.header?.timestamp };
        read.set(hex(i.block_id), info);
        // An answer without the header (a node that does not have the block) is asked again next time.
        if (!i.block?.header) continue;
        if (cache.size >= BLOCK_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(hex(i.block_id), info);
      }
      const info = (block: Uint8Array) => read.get(hex(block)) ?? cache.get(hex(block));
      const heights = new Map<string, bigint>();
      for (const t of listed)
        for (const b of t.containing_blocks) {
          const known = info(b);
          if (known) heights.set(hex(b), known.height);
        }
      for (const [id, block] of await includingBlocks(node, head, listed, heights, false)) {
        const known = info(block.id);
        if (known) out.set(id, known);
      }
    } catch (error) {
      // A node without the transaction or block store still gives the history; only heights and times are missing.
      if (!(error instanceof WalletError) || error.code !== 'NODE_ERROR') throw error;
    }
    return out;
  }

  private record(
    v: HistoryEntryMessage,
    address: string,
    tokens: TokenInfo[],
    blocks: Map<string, BlockInfo>,
    lastIrreversible: bigint,
  ): HistoryRecord {
    const status = (height: bigint | undefined) =>
      height !== undefined && height <= lastIrreversible ? 'irreversible' : 'included';
    if (v.block) {
      const header = v.block.header;
      return {
        seqNum: v.seq_num.toString(),
        status: status(header?.height),
        ...(header ? { blockHeight: header.height.toString(), time: header.timestamp.toString() } : {}),
        entries: [{ kind: 'event', name: 'block produced' }],
      };
    }
    const tx = v.trx?.transaction;
    const receipt = v.trx?.receipt;
    const id = tx ? hex(tx.id) : receipt ? hex(receipt.id) : undefined;
    const block = id ? blocks.get(id) : undefined;
    return {
      seqNum: v.seq_num.toString(),
      status: status(block?.height),
      ...(id ? { transactionId: id } : {}),
      ...(block
        ? {
            blockId: hex(block.id),
            blockHeight: block.height.toString(),
            ...(block.time !== undefined ? { time: block.time.toString() } : {}),
          }
        : {}),
      ...(tx?.header?.payer.length ? { payer: bytesToJson(tx.header.payer, BTYPE.ADDRESS) } : {}),
      ...(receipt ? { rcUsed: receipt.rc_used.toString(), reverted: receipt.reverted } : {}),
      entries: transactionEntries(tx, receipt?.events ?? [], address, tokens),
    };
  }
}
