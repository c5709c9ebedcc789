// The node as the wallet's services use it: typed calls (chain ID, head, nonce, mana, contract reads, system contract
// names, submission, history, transaction lookups) over the one JSON-RPC client, and the REST client where configured.
// Everything works against a node that serves only JSON-RPC.
import {
  BTYPE,
  bytesFromJson,
  decode,
  encode,
  fromJson,
  toJson,
  type MessageInput,
  type MessageMap,
  type MessageType,
} from '../../koinos/codec.ts';
import { WalletError, causeText } from '../../koinos/errors.ts';
import { nonceFromBytes } from '../../koinos/transaction.ts';
import {
  rpcRequestType,
  rpcResponseType,
  type BlockHeader,
  type RpcMethod,
  type RpcRequest,
  type RpcResponse,
  type Transaction,
  type TransactionReceipt,
} from '../../koinos/types.ts';
import { malformed } from './httpTransport.ts';
import { JsonRpcClient, type NodeClientOptions } from './jsonRpcClient.ts';
import { RestClient } from './restClient.ts';

export interface HeadTopology {
  id: Uint8Array;
  height: bigint;
  /** Head block time, epoch ms. */
  time: bigint;
  lastIrreversible: bigint;
}

export interface HistoryEntryMessage {
  seq_num: bigint;
  trx?: { transaction?: Transaction; receipt?: TransactionReceipt };
  block?: { header?: BlockHeader; receipt?: { events?: unknown[] } };
}

export interface KoinosNodeOptions {
  jsonRpc: NodeClientOptions;
  /** REST base URL (before `/v1`), used for the head when set. */
  rest?: NodeClientOptions;
}

/**
 * One node, typed.
 * @example
 * const node = new KoinosNode({ jsonRpc: { url: devnet.url + '/jsonrpc' } });
 * await node.chainId(); // Uint8Array(34)
 */
export class KoinosNode {
  readonly rpc: JsonRpcClient;
  readonly rest?: RestClient;

  constructor(options: KoinosNodeOptions) {
    this.rpc = new JsonRpcClient(options.jsonRpc);
    if (options.rest) this.rest = new RestClient(options.rest);
  }

  /** The chain ID now (never cached: a testnet restart changes it). */
  async chainId(): Promise<Uint8Array> {
    if (this.rest) {
      const body = await this.rest.get('/v1/chain/id');
      const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['value'] : undefined;
      try {
        return bytesFromJson(value, BTYPE.BASE64, 'value');
      } catch (cause) {
        throw malformed(this.rpc.displayUrl, 'GET /v1/chain/id', causeText(cause));
      }
    }
    const { chain_id } = await this.rpc.callMessage('chain.get_chain_id', {});
    if (chain_id.length === 0) throw malformed(this.rpc.displayUrl, 'chain.get_chain_id', 'an empty chain ID');
    return chain_id;
  }

  async head(): Promise<HeadTopology> {
    let info: {
      head_topology?: { id: Uint8Array; height: bigint };
      last_irreversible_block: bigint;
      head_block_time: bigint;
    };
    if (this.rest) {
      const body = await this.rest.get('/v1/chain/head_info');
      try {
        info = fromJson('koinos.rpc.chain.get_head_info_response', body);
      } catch (cause) {
        throw malformed(this.rpc.displayUrl, 'GET /v1/chain/head_info', causeText(cause));
      }
    } else {
      info = await this.rpc.callMessage('chain.get_head_info', {});
    }
    const topology = info.head_topology ?? { id: new Uint8Array(), height: 0n };
    return {
      id: topology.id,
      height: topology.height,
      time: info.head_block_time,
      lastIrreversible: info.last_irreversible_block,
    };
  }

  /** The last nonce the chain stored for `account` (0 when none); the next transaction uses one more. */
  async nonce(account: Uint8Array): Promise<bigint> {
    const { nonce } = await this.rpc.callMessage('chain.get_account_nonce', { account });
    if (nonce.length === 0) return 0n;
    return this.readNonce(nonce, 'chain.get_account_nonce');
  }

  /**
   * The highest nonce of the account's transactions in the node's mempool, or undefined when none are pending or the
   * node does not offer `mempool.get_pending_nonce` (public nodes may not).
   */
  async pendingNonce(account: Uint8Array): Promise<bigint | undefined> {
    let nonce: Uint8Array;
    try {
      ({ nonce } = await this.rpc.callMessage('mempool.get_pending_nonce', { payee: account }));
    } catch (error) {
      if (error instanceof WalletError && error.code === 'NODE_ERROR') return undefined;
      throw error;
    }
    return nonce.length === 0 ? undefined : this.readNonce(nonce, 'mempool.get_pending_nonce');
  }

  private readNonce(bytes: Uint8Array, what: string): bigint {
    try {
      return nonceFromBytes(bytes);
    } catch (cause) {
      throw malformed(this.rpc.displayUrl, what, causeText(cause));
    }
  }

  /** Current mana of `account` (base units; omitted by the node when 0). */
  async rc(account: Uint8Array): Promise<bigint> {
    const { rc } = await this.rpc.callMessage('chain.get_account_rc', { account });
    return rc;
  }

  /**
   * The mana price of a byte of disk, a byte of network and a tick of compute in the head block (resource_limit_data's
   * costs): what a receipt's resources come to before any credit.
   */
  async resourceCosts(): Promise<{ disk: bigint; network: bigint; compute: bigint }> {
    const { resource_limit_data: limits } = await this.rpc.callMessage('chain.get_resource_limits', {});
    if (!limits)
      throw malformed(this.rpc.displayUrl, 'chain.get_resource_limits', 'a result without resource_limit_data');
    return {
      disk: limits.disk_storage_cost,
      network: limits.network_bandwidth_cost,
      compute: limits.compute_bandwidth_cost,
    };
  }

  /**
   * Mana the node's mempool holds for the account's pending transactions, or undefined when the node does not say.
   */
  async reservedRc(account: Uint8Array): Promise<bigint | undefined> {
    try {
      const { rc } = await this.rpc.callMessage('mempool.get_reserved_account_rc', { account });
      return rc;
    } catch (error) {
      if (error instanceof WalletError && error.code === 'NODE_ERROR') return undefined;
      throw error;
    }
  }

  /** A read-only contract call; the result bytes (empty for a default result, as the node omits it). */
  async readContract(contractId: Uint8Array, entryPoint: number, args: Uint8Array): Promise<Uint8Array> {
    const { result } = await this.rpc.callMessage('chain.read_contract', {
      contract_id: contractId,
      entry_point: entryPoint,
      args,
    });
    return result;
  }

  /** The address of a system contract by its name (`koin`, `vhp`), or undefined when the chain has none of that name. */
  async systemContract(name: string): Promise<Uint8Array | undefined> {
    const args = encode('koinos.contracts.name_service.get_address_arguments', { name });
    let value: Uint8Array;
    try {
      ({ value } = await this.rpc.callMessage('chain.invoke_system_call', { name: 'get_contract_address', args }));
    } catch (error) {
      // The name service of koinos-contracts-as fails a missing name where older nodes answered an empty address; both
      // mean the network has no such contract (nodeError.ts reads that failure, which has no code of its own).
      if (error instanceof WalletError && error.code === 'NAME_NOT_FOUND') return undefined;
      throw error;
    }
    try {
      const result = decode('koinos.contracts.name_service.get_address_result', value);
      const address = result.value?.address;
      return address && address.length > 0 ? address : undefined;
    } catch (cause) {
      throw malformed(this.rpc.displayUrl, 'chain.invoke_system_call get_contract_address', causeText(cause));
    }
  }

  /** Submits a signed transaction; sent exactly once (never retried). `broadcast: false` only runs it on the node. */
  async submit(transaction: Transaction, broadcast: boolean): Promise<TransactionReceipt> {
    const { receipt } = await this.rpc.callMessage('chain.submit_transaction', { transaction, broadcast }, 'write');
    if (!receipt)
      throw malformed(this.rpc.displayUrl, 'chain.submit_transaction', 'a result without a receipt', broadcast);
    return receipt;
  }

  async accountHistory(request: {
    address: Uint8Array;
    seqNum?: bigint;
    limit: bigint;
    ascending: boolean;
    irreversible: boolean;
  }): Promise<HistoryEntryMessage[]> {
    const { values } = await this.rpc.callMessage('account_history.get_account_history', {
      address: request.address,
      ...(request.seqNum === undefined ? {} : { seq_num: request.seqNum }),
      limit: request.limit,
      ascending: request.ascending,
      irreversible: request.irreversible,
    });
    return values;
  }

  /**
   * Included transactions among `ids` (id and header: their operations and signatures are not read), with the ids
   * of the blocks that contain them.
   */
  async transactionsById(
    ids: Uint8Array[],
  ): Promise<{ transaction?: Pick<Transaction, 'id' | 'header'>; containing_blocks: Uint8Array[] }[]> {
    if (ids.length === 0) return [];
    const { transactions } = await this.callKeeping(
      'transaction_store.get_transactions_by_id',
      { transaction_ids: ids },
      (result) => ({
        ...result,
        transactions: each(result['transactions'], (item) =>
          withoutIn(item, 'transaction', ['operations', 'signatures']),
        ),
      }),
    );
    return transactions;
  }

  /** Pending transactions among `ids` (still in the node's mempool). */
  async pendingById(ids: Uint8Array[]): Promise<{ transaction?: Transaction }[]> {
    if (ids.length === 0) return [];
    const { pending_transactions } = await this.rpc.callMessage('mempool.get_pending_transactions_by_id', {
      transaction_ids: ids,
    });
    return pending_transactions;
  }

  /** Height and header of each block id (an empty item for a block the node does not have); transactions are not read. */
  async blocksById(
    ids: Uint8Array[],
  ): Promise<{ block_id: Uint8Array; block_height: bigint; block?: { header?: BlockHeader } }[]> {
    if (ids.length === 0) return [];
    const { block_items } = await this.callKeeping(
      'block_store.get_blocks_by_id',
      { block_ids: ids, return_block: true, return_receipt: false },
      (result) => ({
        ...result,
        block_items: each(result['block_items'], (item) => withoutIn(item, 'block', ['transactions'])),
      }),
    );
    return block_items;
  }

  /**
   * The receipts of the transactions in the blocks `ids` (id, reverted, mana used and logs; their events are not
   * read), for whether the chain reverted a transaction where it included it. A block the node does not give adds none.
   */
  async transactionReceiptsIn(
    ids: Uint8Array[],
  ): Promise<Pick<TransactionReceipt, 'id' | 'reverted' | 'rc_used' | 'logs'>[]> {
    if (ids.length === 0) return [];
    const { block_items } = await this.callKeeping(
      'block_store.get_blocks_by_id',
      { block_ids: ids, return_block: false, return_receipt: true },
      (result) => ({
        ...result,
        block_items: each(result['block_items'], (item) => {
          const receipt = item['receipt'];
          if (!isObject(receipt)) return item;
          const transactionReceipts = each(receipt['transaction_receipts'], (r) =>
            only(r, ['id', 'reverted', 'rc_used', 'logs']),
          );
          return {
            ...item,
            receipt: { ...only(receipt, ['id', 'height']), transaction_receipts: transactionReceipts },
          };
        }),
      }),
    );
    return block_items.flatMap((item) => item.receipt?.transaction_receipts ?? []);
  }

  /**
   * The id of the block at each of `heights` on the chain that ends at block `headId` (that block and its ancestors),
   * by height; a height the node gives no block for is left out. One request per height: callers ask for the few
   * heights of a fork.
   */
  async chainBlockIds(headId: Uint8Array, heights: bigint[]): Promise<Map<bigint, Uint8Array>> {
    const out = new Map<bigint, Uint8Array>();
    await Promise.all(
      [...new Set(heights)].map(async (height) => {
        const { block_items } = await this.rpc.callMessage('block_store.get_blocks_by_height', {
          head_block_id: headId,
          ancestor_start_height: height,
          num_blocks: 1,
          return_block: false,
          return_receipt: false,
        });
        const item = block_items[0];
        if (item && item.block_height === height) out.set(height, item.block_id);
      }),
    );
    return out;
  }

  /**
   * callMessage for an answer of which the wallet reads a few fields: `keep` drops the others from the gateway JSON
   * before it is decoded (a block's hundreds of transactions are not decoded only to be dropped). What it keeps is
   * read as strictly as callMessage reads it; an answer of another shape reaches the reader unchanged and fails there.
   */
  private async callKeeping<M extends RpcMethod>(
    method: M,
    request: MessageInput<RpcRequest<M>>,
    keep: (result: Record<string, unknown>) => object,
  ): Promise<RpcResponse<M>> {
    const result = await this.rpc.call(method, toJson(rpcRequestType(method), request));
    try {
      return fromJson(rpcResponseType(method), keep(result), { strict: true, unknownFields: 'discard' });
    } catch (cause) {
      throw malformed(this.rpc.displayUrl, method, causeText(cause));
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `list` with `change` applied to each object in it; anything else (not a list, items not objects) unchanged. */
function each(list: unknown, change: (item: Record<string, unknown>) => object): unknown {
  return Array.isArray(list) ? list.map((item) => (isObject(item) ? change(item) : item)) : list;
}

/** `item` with the keys `drop` left out of its object field `field`; unchanged when that field is not an object. */
function withoutIn(item: Record<string, unknown>, field: string, drop: readonly string[]): Record<string, unknown> {
  const value = item[field];
  if (!isObject(value)) return item;
  const copy = { ...value };
  for (const key of drop) delete copy[key];
  return { ...item, [field]: copy };
}

/** `item` with only the keys `keep` that it has. */
function only(item: Record<string, unknown>, keep: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keep.filter((key) => key in item).map((key) => [key, item[key]]));
}

/** A decoded message of `type`, or a NODE_MALFORMED_ANSWER naming what did not decode. */
export function decodeAnswer<K extends MessageType>(
  type: K,
  bytes: Uint8Array,
  where: string,
  what: string,
): MessageMap[K] {
  try {
    return decode(type, bytes);
  } catch (cause) {
    throw malformed(where, what, causeText(cause));
  }
}
