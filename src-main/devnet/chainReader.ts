// The node's reads: head and topology, blocks, transactions and account history from the store; contracts and system
// calls run read-only on the head state; contract metadata. Handed the running chain (a reset replaces it), it never
// writes: whatever changes the chain goes through the node's queue (node.ts).
import { equalBytes, toHex } from '../koinos/bytes.ts';
import { decode, type MessageInput } from '../koinos/codec.ts';
import { WalletError } from '../koinos/errors.ts';
import type { BlockStoreBlockItem, BlockTopology, MempoolPendingTransaction } from '../koinos/generated/messages.ts';
import type { PreparedTransaction } from './chain/applyTransaction.ts';
import { headFacts } from './chain/chainFacts.ts';
import type { DevKey } from './chain/devKeys.ts';
import type { ResourcesUsed } from './chain/blockFill.ts';
import type { HistoryPage } from './chain/history.ts';
import type { ChainShape } from './chain/shapes.ts';
import { invokeSystemCallReadOnly, isWasmContract, readWasmContract } from './chain/wasmContracts.ts';
import { loadCommunityContract } from './contracts/communityContracts.ts';
import { builtInAt, contractAbi, contractAt, systemContractAbi, systemContractAt } from './contracts/registry.ts';
import type { NodeAnswer, NodeRequest } from './methods.ts';
import { ChainError, ERROR_CODE } from './state/chainError.ts';
import { StateView, type BaseState } from './state/state.ts';
import type { AbiStore } from './store/abiStore.ts';
import { ZERO_BLOCK_ID, type Chain, type Head } from './store/chainData.ts';
import type { Store } from './store/store.ts';
import { blockIdKey, blockKey, topologyKey, transactionKey, transactionRecordKey } from './store/storeKeys.ts';
import { SYSTEM_CALL_IDS } from './vm/systemCallIds.ts';

const EMPTY: Uint8Array = new Uint8Array(0);

/** Request limits of the real services (facts §7.2). */
const MAX_BLOCKS_PER_REQUEST = 1000;
export const MAX_HISTORY_LIMIT = 500n;
const MAX_TRANSACTIONS_PER_REQUEST = 1000;

/** What the reads see: the node's store and contract meta store, and the chain it runs now. */
export interface ReaderDeps {
  store: Store;
  abis: AbiStore;
  irreversibleDepth: number;
  /** The running chain, asked on every read: a reset replaces it. */
  chain: () => Chain;
}

/** The node's read methods over its store and its running chain. */
/** A block's topology as the reader answers it: the id always, `previous` left out at height 0. */
type KnownTopology = MessageInput<BlockTopology> & { id: Uint8Array };

export class ChainReader {
  constructor(private readonly deps: ReaderDeps) {}

  private get chain(): Chain {
    return this.deps.chain();
  }

  get head(): Head {
    return this.chain.head;
  }

  get committed(): BaseState {
    return this.chain.committed;
  }

  get chainId(): Uint8Array {
    return this.chain.genesis.chainId;
  }

  private get genesisKey(): DevKey {
    return this.chain.genesis.genesisKey;
  }

  private get shape(): ChainShape {
    return this.chain.genesis.shape;
  }

  headView(): StateView {
    return new StateView(this.committed);
  }

  lastIrreversible(): bigint {
    const lib = this.head.height - BigInt(this.deps.irreversibleDepth);
    return lib > 0n ? lib : 0n;
  }

  headTopology(): KnownTopology {
    return this.head.height === 0n
      ? { id: this.head.id, height: 0n }
      : { id: this.head.id, height: this.head.height, previous: this.head.previous };
  }

  async topologyAt(height: bigint): Promise<KnownTopology | undefined> {
    if (height === this.head.height) return this.headTopology();
    if (height === 0n) return { id: ZERO_BLOCK_ID, height: 0n };
    const bytes = await this.deps.store.get(topologyKey(height));
    return bytes ? decode('koinos.block_topology', bytes) : undefined;
  }

  private async blockHeightOf(id: Uint8Array): Promise<bigint | undefined> {
    if (id.length === 0) return undefined;
    const bytes = await this.deps.store.get(blockIdKey(id));
    return bytes ? decode('koinos.devnet.record_pointer', bytes).block_height : undefined;
  }

  private async blockItem(
    height: bigint,
    returnBlock: boolean,
    returnReceipt: boolean,
  ): Promise<MessageInput<BlockStoreBlockItem>> {
    if (!returnBlock && !returnReceipt) {
      const topology = await this.topologyAt(height);
      return topology ? { block_id: topology.id, block_height: height } : {};
    }
    const bytes = await this.deps.store.get(blockKey(height));
    if (!bytes) return {};
    const item = decode('koinos.block_store.block_item', bytes);
    if (!returnBlock) delete item.block;
    if (!returnReceipt) delete item.receipt;
    return item;
  }

  /** A read-only call context on the head state, as chain.read_contract and chain.invoke_system_call run in. */
  private readOnlyContext(view: StateView) {
    return {
      view,
      headBlockTime: this.head.timestamp,
      blockHeight: this.head.height,
      readOnly: true,
      genesisAddress: this.genesisKey.addressBytes,
      caller: EMPTY,
      events: [],
      sequence: { next: 0 },
      authorize: () => false,
      chain: headFacts(this.chainId, this.head, this.deps.irreversibleDepth, this.committed),
    };
  }

  /** chain.read_contract: the contract's entry point on the head state, read-only, not metered. */
  readContract(request: NodeRequest<'chain.read_contract'>): NodeAnswer<'chain.read_contract'> {
    const view = this.headView();
    // Any built-in: tokens, and the name service and the KAP stand-in, which a dApp reads directly as on mainnet.
    const contract = builtInAt(view, request.contract_id);
    const ctx = this.readOnlyContext(view);
    if (!contract && isWasmContract(view, request.contract_id))
      return readWasmContract(ctx, request.contract_id, request.entry_point, request.args);
    if (!contract) throw new ChainError(ERROR_CODE.invalid_contract, 'contract does not exist');
    const result = contract.call(ctx, request.entry_point, request.args);
    return { result, logs: [] };
  }

  /**
   * chain.invoke_system_call, read-only, in kernel mode on the head state (controller.cpp): by id, or by name
   * (koinos.chain.system_call_id); overrides apply, so get_contract_address (10001) and get_contract_name (10000)
   * answer through the name service, as on mainnet.
   */
  invokeSystemCall(request: NodeRequest<'chain.invoke_system_call'>): NodeAnswer<'chain.invoke_system_call'> {
    let sid: number;
    if (request.name !== undefined) {
      const id = (SYSTEM_CALL_IDS as Record<string, number>)[request.name];
      if (id === undefined || !Object.hasOwn(SYSTEM_CALL_IDS, request.name)) {
        throw new ChainError(ERROR_CODE.unknown_system_call, 'unknown system call name', { name: request.name });
      }
      sid = id;
    } else if (request.id !== undefined && request.id <= 0xffffffffn) {
      sid = Number(request.id);
    } else {
      throw new ChainError(ERROR_CODE.unknown_system_call, `unknown system call id ${request.id ?? '(none)'}`, {
        id: String(request.id ?? ''),
      });
    }
    const view = this.headView();
    const ctx = this.readOnlyContext(view);
    return { value: invokeSystemCallReadOnly(ctx, sid, request.args) };
  }

  /**
   * contract_meta_store.get_contract_meta: the ABI of a built-in contract, or the one uploaded with the contract
   * (abiStore.ts); an empty answer for a contract without one, as koinos-contract-meta-store answers.
   */
  async contractMeta(
    request: NodeRequest<'contract_meta_store.get_contract_meta'>,
  ): Promise<NodeAnswer<'contract_meta_store.get_contract_meta'>> {
    const contract = contractAt(this.headView(), request.contract_id);
    if (contract) return { meta: { abi: contractAbi(contract) } };
    const system = systemContractAt(this.headView(), request.contract_id);
    const systemAbi = system && systemContractAbi(system);
    if (systemAbi) return { meta: { abi: systemAbi } };
    const community = [...this.shape.community].find(([, address]) => equalBytes(address, request.contract_id));
    if (community) return { meta: { abi: loadCommunityContract(community[0]).abi } };
    const abi = await this.deps.abis.get(request.contract_id);
    return abi === undefined ? {} : { meta: { abi } };
  }

  async accountHistory(
    request: NodeRequest<'account_history.get_account_history'>,
  ): Promise<NodeAnswer<'account_history.get_account_history'>> {
    if (request.limit > MAX_HISTORY_LIMIT) throw new WalletError('INVALID_ARGUMENT', 'request limit exceeded');
    // Numbers are exact here: a seq_num past any list (they live in memory) finds nothing either way, the limit is at
    // most 500, and heights stay below MAX_HISTORY_HEIGHT (2^31).
    const seq =
      request.seq_num === undefined
        ? undefined
        : request.seq_num > BigInt(Number.MAX_SAFE_INTEGER)
          ? Number.MAX_SAFE_INTEGER
          : Number(request.seq_num);
    const pages = this.chain.history.page(request.address, {
      seq,
      limit: Number(request.limit),
      ascending: request.ascending,
      maxHeight: request.irreversible ? Number(this.lastIrreversible()) : undefined,
    });
    return { values: await this.historyRecords(pages) };
  }

  private async historyRecords(
    pages: HistoryPage[],
  ): Promise<NonNullable<NodeAnswer<'account_history.get_account_history'>['values']>> {
    const keys = pages.map(({ pointer }) =>
      pointer.transactionIndex === undefined
        ? blockKey(pointer.height)
        : transactionRecordKey(pointer.height, pointer.transactionIndex),
    );
    const values = await this.deps.store.getMany(keys);
    return pages.map(({ seq, pointer }, i) => {
      const bytes = values[i];
      if (!bytes) throw new WalletError('NOT_FOUND', 'unable to find account history record');
      if (pointer.transactionIndex !== undefined) {
        return { seq_num: BigInt(seq), trx: decode('koinos.account_history.transaction_record', bytes) };
      }
      const item = decode('koinos.block_store.block_item', bytes);
      return { seq_num: BigInt(seq), block: { header: item.block?.header, receipt: item.receipt } };
    });
  }

  /** block_store.get_blocks_by_id: the items of the blocks found, an empty item for each one not found. */
  async blocksById(
    req: NodeRequest<'block_store.get_blocks_by_id'>,
  ): Promise<NodeAnswer<'block_store.get_blocks_by_id'>> {
    if (req.block_ids.length > MAX_BLOCKS_PER_REQUEST) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `requested too many blocks: at most ${MAX_BLOCKS_PER_REQUEST} block ids per request`,
      );
    }
    const items = await Promise.all(
      req.block_ids.map(async (id) => {
        const height = await this.blockHeightOf(id);
        return height === undefined ? {} : this.blockItem(height, req.return_block, req.return_receipt);
      }),
    );
    return { block_items: items };
  }

  /** block_store.get_blocks_by_height: up to `num_blocks` items from `ancestor_start_height` to the named block. */
  async blocksByHeight(
    req: NodeRequest<'block_store.get_blocks_by_height'>,
  ): Promise<NodeAnswer<'block_store.get_blocks_by_height'>> {
    if (req.head_block_id.length === 0) throw new WalletError('INVALID_ARGUMENT', 'head_block_id is required');
    if (req.ancestor_start_height === 0n)
      throw new WalletError('INVALID_ARGUMENT', 'ancestor_start_height must be greater than 0');
    if (req.num_blocks > MAX_BLOCKS_PER_REQUEST) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `requested too many blocks: num_blocks is at most ${MAX_BLOCKS_PER_REQUEST}`,
      );
    }
    const top = await this.blockHeightOf(req.head_block_id);
    if (top === undefined) throw new WalletError('NOT_FOUND', `block not present: 0x${toHex(req.head_block_id)}`);
    // koinos-block-store reqhandler.go: a start above the head block is an error, not an empty list.
    if (req.ancestor_start_height > top) throw new WalletError('INVALID_ARGUMENT', 'Block height mismatch');
    const items: MessageInput<BlockStoreBlockItem>[] = [];
    for (let h = req.ancestor_start_height; h <= top && items.length < req.num_blocks; h++) {
      items.push(await this.blockItem(h, req.return_block, req.return_receipt));
    }
    return { block_items: items };
  }

  /** transaction_store.get_transactions_by_id: the transactions found, each with the block that holds it. */
  async transactionsById(ids: Uint8Array[]): Promise<NodeAnswer<'transaction_store.get_transactions_by_id'>> {
    if (ids.length > MAX_TRANSACTIONS_PER_REQUEST) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `requested too many transactions: at most ${MAX_TRANSACTIONS_PER_REQUEST} ids per request`,
      );
    }
    const pointers = await this.deps.store.getMany(ids.map((id) => transactionKey(id)));
    const found = pointers.flatMap((bytes) => (bytes ? [decode('koinos.devnet.record_pointer', bytes)] : []));
    // One batch for the records and one read per block (a page of history is a few blocks), not two reads each.
    const heights = [...new Set(found.map((p) => p.block_height))];
    const [records, topologyList] = await Promise.all([
      this.deps.store.getMany(found.map((p) => transactionRecordKey(p.block_height, p.transaction_index))),
      Promise.all(heights.map((height) => this.topologyAt(height))),
    ]);
    const topologies = new Map(heights.map((height, i) => [height, topologyList[i]]));
    const out: NonNullable<NodeAnswer<'transaction_store.get_transactions_by_id'>['transactions']>[number][] = [];
    for (const [i, p] of found.entries()) {
      const record = records[i];
      const topology = topologies.get(p.block_height);
      if (!record || !topology) continue;
      const { transaction } = decode('koinos.account_history.transaction_record', record);
      out.push({ transaction, containing_blocks: [topology.id] });
    }
    return { transactions: out };
  }
}

/** A mempool entry as mempool.get_pending_transactions answers it. */
export function pendingTransaction(entry: {
  prepared: PreparedTransaction;
  used: ResourcesUsed;
}): MessageInput<MempoolPendingTransaction> {
  return {
    transaction: entry.prepared.tx,
    disk_storage_used: entry.used.disk_storage_used,
    network_bandwidth_used: entry.used.network_bandwidth_used,
    compute_bandwidth_used: entry.used.compute_bandwidth_used,
  };
}
