// The REST API under /v1 (the routes of koinos-rest that wallets use, facts §9), as thin calls into the service layer:
// each route builds the same JSON-RPC request message a real REST server would send, and renders gateway JSON.
import { BTYPE, bytesToJson, decode, encode, toJson, type JsonValue, type MessageInput } from '../../koinos/codec.ts';
import { equalBytes, toBase64Url } from '../../koinos/bytes.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressToString, isAddress } from '../../koinos/address.ts';
import { formatAmount, UINT64_MAX } from '../../koinos/amounts.ts';
import { MAX_JSON_DEPTH, jsonDepth } from '../../koinos/jsonDepth.ts';
import { nonceFromBytes, nonceToBytes } from '../../koinos/transaction.ts';
import type { BlockStoreBlockItem } from '../../koinos/generated/messages.ts';
import type { EventData, Transaction, TransactionReceipt } from '../../koinos/types.ts';
import type { DevnetNode } from '../types.ts';
import { MAX_HISTORY_LIMIT } from '../chainReader.ts';
import { requestType, responseType, type NodeAnswer, type NodeMethod } from '../methods.ts';
import { parseMessage } from './jsonrpc.ts';
import { SYSTEM_CONTRACT_NAMES } from '../contracts/registry.ts';
import { describeShape, type SystemContractName } from '../chain/shapes.ts';
import { contractRoutes, type Route } from './restContracts.ts';
import { tokenRoutes } from './restTokens.ts';
import { nftRoutes } from './restNft.ts';
import type { ContractDecoder } from '../../koinos/contractDecoder.ts';
import { restErrorOf } from './wireError.ts';

/** What a REST route answers: an HTTP status, a JSON body, and extra headers (`Allow` on a 405). */
export interface RestResponse {
  status: number;
  body: JsonValue;
  headers?: Record<string, string>;
}

/** Answers one REST request; `path` is the URL path (starting `/v1/`), `body` the request body text. */
export type RestHandler = (method: string, path: string, query: URLSearchParams, body: string) => Promise<RestResponse>;

type Params = Record<string, string>;

/** The default of a bytes field: the node's answers leave fields at their default out. */
const EMPTY = new Uint8Array(0);

/** The events a receipt holds: a transaction receipt's, or a block receipt's and its transaction receipts'. */
interface ReceiptInput {
  events?: readonly MessageInput<EventData>[];
  transaction_receipts?: readonly MessageInput<TransactionReceipt>[];
}

/** A 400 with this exact message (the REST service's texts: "invalid account", "block does not exist", ...). */
function badRequest(
  message: string,
  code: 'INVALID_ARGUMENT' | 'INVALID_ADDRESS' | 'NOT_FOUND' = 'INVALID_ARGUMENT',
): WalletError {
  return new WalletError(code, message);
}

/** Boolean query flags default to true and are false only for the literal "false" (koinos-rest). */
function flag(query: URLSearchParams, name: string): boolean {
  return query.get(name) !== 'false';
}

/**
 * A decimal whole number from 0 to `max`, checked here so that the answer names the route's own parameter
 * ("invalid block height: …") rather than a field of the request message built from it.
 */
function wholeNumber(text: string, what: string, max: bigint = UINT64_MAX): bigint {
  // More than 20 digits is above any uint64; BigInt() of a long text costs the square of its length, so it is not read.
  if (!/^\d+$/.test(text) || text.length > 20 || BigInt(text) > max)
    throw badRequest(`invalid ${what}: expected a whole number up to ${max}, got ${describe(text)}`);
  return BigInt(text);
}

/** An optional whole-number query parameter (absent or empty: undefined). */
function wholeNumberQuery(query: URLSearchParams, name: string, max?: bigint): bigint | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  return wholeNumber(value, name, max);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The REST routes over `node`. Known errors answer 400 `{"error": message}`, unknown routes 404, anything unexpected
 * 500 `{"error": "unknown error"}` (and a line through `log`).
 * @example
 * const rest = createRestHandler(node, console.error);
 * await rest('GET', '/v1/chain/id', new URLSearchParams(), ''); // { status: 200, body: { value: 'EiB…' } }
 */
export function createRestHandler(node: DevnetNode, log: (line: string) => void): RestHandler {
  // Operations of the system tokens (KOIN, VHP) are decoded in blocks, transactions and history.
  const tokenNames: SystemContractName[] = ['koin', 'vhp'];
  const systemTokens = [
    ...SYSTEM_CONTRACT_NAMES.values(),
    ...tokenNames.flatMap((n) => node.shape.system.get(n) ?? []),
  ];
  const isKoin = (contractId: Uint8Array) => systemTokens.some((id) => equalBytes(contractId, id));
  // Function declarations below are hoisted: the contract routes may use them from here.
  const contracts = contractRoutes({ rpc, resolveAddress, badRequest, isSystemToken: isKoin });
  const tokens = tokenRoutes({ rpc, resolveAddress, badRequest });
  const nfts = nftRoutes({ rpc, resolveAddress, badRequest });

  /**
   * One service call with the request built from JSON exactly as the JSON-RPC layer builds it. Routes check their
   * parameters first; what still does not parse is reported as a 400 naming the request field.
   */
  async function rpc<M extends NodeMethod>(method: M, params: Record<string, unknown>): Promise<NodeAnswer<M>> {
    // The strict reader fills every field: the node runs the request as it is.
    return node.call(method, parseMessage(requestType(method), params), { complete: true });
  }

  /** One service call answered as the gateway renders its response (the routes that pass a JSON-RPC result on). */
  async function rpcJson<M extends NodeMethod>(method: M, params: Record<string, unknown>): Promise<JsonValue> {
    return toJson(responseType(method), await rpc(method, params));
  }

  /** A base58 address, or a system contract name resolved like koinos-rest does (get_contract_address). */
  async function resolveAddress(text: string, what: 'account' | 'contract_id'): Promise<string> {
    if (isAddress(text)) return text;
    if (/^[A-Za-z0-9_.-]{1,64}$/.test(text)) {
      try {
        const args = encode('koinos.contracts.name_service.get_address_arguments', { name: text });
        const { value } = await rpc('chain.invoke_system_call', {
          name: 'get_contract_address',
          args: toBase64Url(args),
        });
        const result = decode('koinos.contracts.name_service.get_address_result', value ?? EMPTY);
        const address = result.value?.address;
        if (address && address.length > 0) return addressToString(address);
      } catch {
        // not a system contract name: reported below as invalid
      }
    }
    throw badRequest(`invalid ${what}`, 'INVALID_ADDRESS');
  }

  /**
   * Replaces a transaction's operations in `json` by their decoded form when asked to, with each contract's ABI
   * (`decoder`: one per request, so each ABI is read once).
   */
  async function decodeTransaction(
    tx: MessageInput<Transaction> | undefined,
    json: JsonValue | undefined,
    decodeOps: boolean,
    decoder: ContractDecoder,
  ): Promise<void> {
    if (!decodeOps || !tx || !isObject(json)) return;
    const operations = tx.operations;
    if (operations && operations.length > 0)
      json.operations = await Promise.all(operations.map((op) => decoder.operation(op)));
  }

  /** Replaces events (of a transaction receipt or a block receipt and its transaction receipts) by decoded ones. */
  async function decodeReceipt(
    receipt: ReceiptInput | undefined,
    json: JsonValue | undefined,
    decodeEvents: boolean,
    decoder: ContractDecoder,
  ): Promise<void> {
    if (!decodeEvents || !receipt || !isObject(json)) return;
    const events = receipt.events;
    if (events && events.length > 0) json.events = await Promise.all(events.map((e) => decoder.event(e)));
    const receipts = receipt.transaction_receipts;
    const receiptsJson = json.transaction_receipts;
    if (receipts && Array.isArray(receiptsJson))
      await Promise.all(receipts.map((r, i) => decodeReceipt(r, receiptsJson[i], true, decoder)));
  }

  async function headInfo(): Promise<{ id: string; height: bigint; lib: bigint }> {
    const head = await rpc('chain.get_head_info', {});
    const topology = head.head_topology ?? {};
    return {
      id: bytesToJson(topology.id ?? EMPTY, BTYPE.BLOCK_ID),
      height: topology.height ?? 0n,
      lib: head.last_irreversible_block ?? 0n,
    };
  }

  async function nonceOf(account: string, query: URLSearchParams, next: boolean): Promise<JsonValue> {
    const address = await resolveAddress(account, 'account');
    const { nonce } = await rpc('chain.get_account_nonce', { account: address });
    const bytes = nonce ?? EMPTY;
    const current = bytes.length === 0 ? 0n : nonceFromBytes(bytes);
    // koinos-rest answers the current nonce as koilib's getNonce returns it, a JSON number (node-api.md is silent on
    // this route); next_nonce is a string there. A nonce counts transactions, so it stays far below 2^53.
    if (flag(query, 'decode_nonce')) return { value: next ? (current + 1n).toString() : Number(current) };
    return { value: toBase64Url(next ? nonceToBytes(current + 1n) : bytes.length === 0 ? nonceToBytes(0n) : bytes) };
  }

  async function block(p: Params, query: URLSearchParams): Promise<JsonValue> {
    const ref = p.block!;
    const flags = { return_block: flag(query, 'return_block'), return_receipt: flag(query, 'return_receipt') };
    let response: NodeAnswer<'block_store.get_blocks_by_id' | 'block_store.get_blocks_by_height'>;
    if (ref.startsWith('0x')) {
      if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(ref))
        throw badRequest(`invalid block id: expected "0x" followed by hex, got ${describe(ref)}`);
      response = await rpc('block_store.get_blocks_by_id', { block_ids: [ref], ...flags });
    } else {
      if (!/^\d+$/.test(ref))
        throw badRequest(`invalid block id or height: expected "0x" + hex or a whole number, got ${describe(ref)}`);
      const height = wholeNumber(ref, 'block height');
      if (height === 0n) throw badRequest('invalid block height: blocks start at height 1, got "0"');
      const head = await headInfo();
      // Above the head (or before the first block) there is nothing to ask the block store for.
      if (height > head.height) throw badRequest('block does not exist', 'NOT_FOUND');
      response = await rpc('block_store.get_blocks_by_height', {
        head_block_id: head.id,
        ancestor_start_height: height.toString(),
        num_blocks: 1,
        ...flags,
      });
    }
    const items = response.block_items ?? [];
    const item = items[0];
    if (!item || !(item.block_id instanceof Uint8Array) || item.block_id.length === 0)
      throw badRequest('block does not exist', 'NOT_FOUND');
    return blockItemJson(item, query, contracts.decoder());
  }

  /** A block item as JSON, with operations and events decoded when the query asks (the default). */
  async function blockItemJson(
    item: MessageInput<BlockStoreBlockItem>,
    query: URLSearchParams,
    decoder: ContractDecoder,
  ): Promise<JsonValue> {
    const json = toJson('koinos.block_store.block_item', item);
    await decodeReceipt(item.receipt, json.receipt, flag(query, 'decode_events'), decoder);
    const blockJson = json.block;
    const transactions = item.block?.transactions;
    if (transactions && isObject(blockJson) && Array.isArray(blockJson.transactions)) {
      const txsJson = blockJson.transactions;
      await Promise.all(
        transactions.map((tx, i) => decodeTransaction(tx, txsJson[i], flag(query, 'decode_operations'), decoder)),
      );
    }
    return json;
  }

  /**
   * GET /v1/blocks?start&limit: up to `limit` (required, at most 1000) blocks from height `start` (default 1), decoded
   * as /v1/block decodes. (koinos-rest decodes in a `forEach(async …)` it does not await, so it answers before decoding:
   * its /v1/blocks shows operations undecoded whatever the ABIs. The devnet answers what that code means to.)
   */
  async function blocks(_p: Params, query: URLSearchParams): Promise<JsonValue> {
    const limit = wholeNumberQuery(query, 'limit', 1000n);
    if (limit === undefined) throw badRequest("missing required field 'limit'");
    const start = wholeNumberQuery(query, 'start') ?? 1n;
    if (start === 0n) throw badRequest('invalid start: blocks start at height 1, got "0"');
    const head = await headInfo();
    if (start > head.height || limit === 0n) throw badRequest('blocks do not exist', 'NOT_FOUND');
    const response = await rpc('block_store.get_blocks_by_height', {
      head_block_id: head.id,
      ancestor_start_height: start.toString(),
      num_blocks: Number(limit),
      return_block: flag(query, 'return_block'),
      return_receipt: flag(query, 'return_receipt'),
    });
    const decoder = contracts.decoder();
    return Promise.all((response.block_items ?? []).map((item) => blockItemJson(item, query, decoder)));
  }

  /** POST /v1/block/submit: the devnet produces its own blocks, so chain.submit_block answers why it refuses. */
  async function submitBlock(_p: Params, _q: URLSearchParams, body: string): Promise<JsonValue> {
    let block: unknown;
    try {
      block = JSON.parse(body);
    } catch {
      throw badRequest('invalid request body: expected a block as JSON');
    }
    if (!isObject(block))
      throw badRequest(`invalid request body: expected a block as a JSON object, got ${describe(block)}`);
    return rpcJson('chain.submit_block', { block });
  }

  async function history(p: Params, query: URLSearchParams): Promise<JsonValue> {
    // The page size is checked against the account history service's own maximum, with a route-level message.
    const limit = wholeNumberQuery(query, 'limit', MAX_HISTORY_LIMIT);
    if (limit === undefined) throw badRequest("missing required field 'limit'");
    const seqNum = wholeNumberQuery(query, 'sequence_number');
    const address = await resolveAddress(p.account!, 'account');
    const { values } = await rpc('account_history.get_account_history', {
      address,
      limit: limit.toString(),
      ascending: flag(query, 'ascending'),
      irreversible: flag(query, 'irreversible'),
      ...(seqNum !== undefined && { seq_num: seqNum.toString() }),
    });
    const decodeOps = flag(query, 'decode_operations');
    const decodeEvents = flag(query, 'decode_events');
    // No records answer `[]`. The real koinos-rest answers `{}` then (facts §9.2), but node-api.md specifies an array
    // for this route and clients iterate it: an empty array keeps the type they expect.
    const decoder = contracts.decoder();
    return Promise.all(
      (values ?? []).map(async (entry) => {
        const json = toJson('koinos.rpc.account_history.account_history_entry', entry);
        const trx = entry.trx;
        if (trx && isObject(json.trx)) {
          await decodeTransaction(trx.transaction, json.trx.transaction, decodeOps, decoder);
          await decodeReceipt(trx.receipt, json.trx.receipt, decodeEvents, decoder);
        }
        const blockRecord = entry.block;
        if (blockRecord && isObject(json.block))
          await decodeReceipt(blockRecord.receipt, json.block.receipt, decodeEvents, decoder);
        return json;
      }),
    );
  }

  async function transaction(p: Params, query: URLSearchParams): Promise<JsonValue> {
    const id = p.transaction!;
    if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(id))
      throw badRequest(`invalid transaction id: expected "0x" followed by hex, got ${describe(id)}`);
    const returnReceipt = flag(query, 'return_receipt');
    const decodeOps = flag(query, 'decode_operations');
    const decodeEvents = flag(query, 'decode_events');

    const stored =
      (await rpc('transaction_store.get_transactions_by_id', { transaction_ids: [id] })).transactions ?? [];
    const item = stored.find((t) => t.transaction !== undefined);
    const tx = item?.transaction;
    if (!item || !tx) {
      const pending =
        (await rpc('mempool.get_pending_transactions_by_id', { transaction_ids: [id] })).pending_transactions ?? [];
      const pendingTx = pending.find((t) => t.transaction !== undefined)?.transaction;
      if (!pendingTx) throw badRequest('transaction does not exist', 'NOT_FOUND');
      const txJson = toJson('koinos.protocol.transaction', pendingTx);
      await decodeTransaction(pendingTx, txJson, decodeOps, contracts.decoder());
      return { transaction: txJson, irreversible: false };
    }

    const decoder = contracts.decoder();
    const json = toJson('koinos.transaction_store.transaction_item', item);
    const head = await headInfo();
    const containing = (item.containing_blocks ?? []).map((b) => bytesToJson(b, BTYPE.BLOCK_ID));
    const blocks =
      containing.length === 0
        ? []
        : ((
            await rpc('block_store.get_blocks_by_id', {
              block_ids: containing,
              return_block: true,
              return_receipt: returnReceipt,
            })
          ).block_items ?? []);
    for (const blockItem of blocks) {
      const blk = blockItem.block;
      if (!blk) continue;
      const height = blockItem.block_height ?? 0n;
      // Only the containing block that is on the chain of the current head counts.
      const onChain =
        (
          await rpc('block_store.get_blocks_by_height', {
            head_block_id: head.id,
            ancestor_start_height: height.toString(),
            num_blocks: 1,
            return_block: false,
            return_receipt: false,
          })
        ).block_items ?? [];
      if (!onChain[0] || !equalBytes(onChain[0].block_id ?? EMPTY, blockItem.block_id ?? EMPTY)) continue;
      const header = blk.header;
      if (isObject(json.transaction) && header) json.transaction.timestamp = (header.timestamp ?? 0n).toString();
      json.irreversible = height <= head.lib;
      if (returnReceipt) {
        const receipts = blockItem.receipt?.transaction_receipts ?? [];
        const receipt = receipts.find((r) => equalBytes(r.id ?? EMPTY, tx.id ?? EMPTY));
        if (receipt) {
          const receiptJson = toJson('koinos.protocol.transaction_receipt', receipt);
          await decodeReceipt(receipt, receiptJson, decodeEvents, decoder);
          json.receipt = receiptJson;
        }
      }
    }
    await decodeTransaction(tx, json.transaction, decodeOps, decoder);
    return json;
  }

  async function submit(_: Params, query: URLSearchParams, body: string): Promise<JsonValue> {
    let transaction: unknown;
    if (jsonDepth(body) > MAX_JSON_DEPTH)
      throw badRequest(`invalid request body: expected JSON nested at most ${MAX_JSON_DEPTH} levels deep, got deeper`);
    try {
      transaction = JSON.parse(body);
    } catch {
      throw badRequest('invalid request body: expected a signed transaction as JSON');
    }
    if (!isObject(transaction))
      throw badRequest(
        `invalid request body: expected a signed transaction as a JSON object, got ${describe(transaction)}`,
      );
    const parsed = parseMessage('koinos.protocol.transaction', transaction, 'transaction');
    const response = await rpc('chain.submit_transaction', { transaction, broadcast: flag(query, 'broadcast') });
    const result = toJson(responseType('chain.submit_transaction'), response);
    return { ...result, transaction: toJson('koinos.protocol.transaction', parsed) };
  }

  const routes: Route[] = [
    { method: 'GET', pattern: ['chain', 'head_info'], run: () => rpcJson('chain.get_head_info', {}) },
    {
      method: 'GET',
      pattern: ['chain', 'id'],
      run: async () => ({ value: bytesToJson((await rpc('chain.get_chain_id', {})).chain_id ?? EMPTY, BTYPE.BASE64) }),
    },
    { method: 'GET', pattern: ['chain', 'resource_limits'], run: () => rpcJson('chain.get_resource_limits', {}) },
    { method: 'GET', pattern: ['chain', 'fork_heads'], run: () => rpcJson('chain.get_fork_heads', {}) },
    // Devnet-only: which network shape runs (where its system and community contracts are).
    { method: 'GET', pattern: ['chain', 'shape'], run: async () => describeShape(node.shape) },
    { method: 'GET', pattern: ['block', ':block'], run: block },
    { method: 'GET', pattern: ['blocks'], run: blocks },
    { method: 'POST', pattern: ['block', 'submit'], run: submitBlock },
    {
      method: 'GET',
      pattern: ['account', ':account', 'mana'],
      run: async (p) => {
        const { rc } = await rpc('chain.get_account_rc', { account: await resolveAddress(p.account!, 'account') });
        return { value: formatAmount(rc ?? 0n, 8, { trim: false }) };
      },
    },
    {
      method: 'GET',
      pattern: ['account', ':account', 'balance', ':contract'],
      // node-api.md §2.2: 8 fractional digits here (koinos-rest trims them; its /v1/token routes do, here too).
      run: (p) => tokens.balance(p.contract!, p.account!, { trim: false }),
    },
    { method: 'GET', pattern: ['account', ':account', 'nonce'], run: (p, q) => nonceOf(p.account!, q, false) },
    { method: 'GET', pattern: ['account', ':account', 'next_nonce'], run: (p, q) => nonceOf(p.account!, q, true) },
    {
      method: 'GET',
      pattern: ['account', ':account', 'rc'],
      run: async (p) => rpcJson('chain.get_account_rc', { account: await resolveAddress(p.account!, 'account') }),
    },
    { method: 'GET', pattern: ['account', ':account', 'history'], run: history },
    { method: 'POST', pattern: ['transaction', 'submit'], run: submit },
    { method: 'GET', pattern: ['transaction', ':transaction'], run: transaction },
    ...tokens.routes,
    ...nfts.routes,
    ...contracts.routes,
  ];

  function match(segments: string[]): { route: Route; params: Params }[] {
    const found: { route: Route; params: Params }[] = [];
    for (const route of routes) {
      if (route.pattern.length !== segments.length) continue;
      const params: Params = {};
      const ok = route.pattern.every((part, i) => {
        if (part.startsWith(':')) {
          params[part.slice(1)] = segments[i]!;
          return segments[i] !== '';
        }
        return part === segments[i];
      });
      if (ok) found.push({ route, params });
    }
    return found;
  }

  return async function handle(method, path, query, body) {
    let segments: string[];
    try {
      segments = path
        .split('/')
        .slice(2)
        .map((s) => decodeURIComponent(s));
    } catch {
      return { status: 400, body: { error: 'invalid path: bad percent-encoding' } };
    }
    const candidates = match(segments);
    const chosen = candidates.find((c) => c.route.method === method);
    if (!chosen) {
      if (candidates.length === 0) return { status: 404, body: { error: 'not found' } };
      const allowed = candidates.map((c) => c.route.method);
      return {
        status: 405,
        body: { error: `method ${method} not allowed here; use ${allowed.join(' or ')}` },
        headers: { Allow: [...allowed, 'OPTIONS'].join(', ') },
      };
    }
    try {
      return { status: 200, body: await chosen.route.run(chosen.params, query, body) };
    } catch (e) {
      return restErrorOf(e, `${method} ${path}`, log);
    }
  };
}
