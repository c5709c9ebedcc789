// The devnet service: one in-process Koinos chain (genesis, KOIN, mempool, block producer, block and transaction
// stores, account history) answering the node's JSON-RPC methods as decoded protobuf messages. The HTTP layers
// (REST, JSON-RPC) and the CLI sit on top of `openNode`.
import { UINT64_MAX } from '../koinos/amounts.ts';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { equalBytes, toHex } from '../koinos/bytes.ts';
import { decode, encode, type ProtoMessage } from '../koinos/codec.ts';
import { WalletError } from '../koinos/errors.ts';
import { addressFromPublicKey, addressToString } from '../koinos/address.ts';
import { nonceToBytes } from '../koinos/transaction.ts';
import type { ObjectSpace, TransactionReceipt } from '../koinos/types.ts';
import {
  applyTransaction,
  nonceBytesOf,
  prepareTransaction,
  recoverableSignatures,
  type ApplyContext,
  type PreparedTransaction,
} from './applyTransaction.ts';
import { buildBlock } from './blockBuilder.ts';
import { checkMeta, FORMAT_VERSION, loadChain, newChain, ZERO_BLOCK_ID, type ChainMeta, type Head, type LoadedChain } from './chainData.ts';
import { ChainError, ERROR_CODE, failure, toNodeError } from './chainError.ts';
import { DEV_MNEMONIC, GENESIS_KEY_INDEX, type DevKey } from './devKeys.ts';
import {
  buildGenesis,
  DEFAULT_ACCOUNTS,
  DEFAULT_GENESIS_SEED,
  DEFAULT_INITIAL_BALANCE,
  KOIN_ADDRESS,
  SYSTEM_CONTRACT_NAMES,
  type Genesis,
} from './genesis.ts';
import { historyAddresses, HistoryIndex, MAX_HISTORY_HEIGHT, type HistoryPage } from './history.ts';
import { accountRc, callKoin } from './koinContract.ts';
import { Mempool } from './mempool.ts';
import { RESOURCE_LIMITS } from './resources.ts';
import { inlineRecoverer, workerRecoverer, type SignatureRecoverer } from './signatures.ts';
import { BaseState, objectSpaces, StateView, type SpaceTag } from './state.ts';
import { historyKey, keyText, LevelStore, MemoryStore, storeKey, u32Key, u64Key, type Store } from './store.ts';
import { NodeError, type DevAccount, type DevnetConfig, type DevnetNode } from './types.ts';

const EMPTY = new Uint8Array(0);

/** Request limits of the real services (facts §7.2). */
const MAX_BLOCKS_PER_REQUEST = 1000;
export const MAX_HISTORY_LIMIT = 500n;
const MAX_PENDING_REQUEST = 2000n;
const MAX_TRANSACTIONS_PER_REQUEST = 1000;

/** Every method `call` answers, as `service.method`. */
export const DEVNET_METHODS = [
  'chain.submit_transaction',
  'chain.submit_block',
  'chain.get_head_info',
  'chain.get_chain_id',
  'chain.get_fork_heads',
  'chain.read_contract',
  'chain.get_account_nonce',
  'chain.get_account_rc',
  'chain.get_resource_limits',
  'chain.invoke_system_call',
  'chain.propose_block',
  'block_store.get_blocks_by_id',
  'block_store.get_blocks_by_height',
  'block_store.get_highest_block',
  'transaction_store.get_transactions_by_id',
  'mempool.check_pending_account_resources',
  'mempool.get_pending_transactions',
  'mempool.check_account_nonce',
  'mempool.get_reserved_account_rc',
  'mempool.get_pending_nonce',
  'mempool.get_pending_transaction_count',
  'mempool.get_pending_transactions_by_id',
  'account_history.get_account_history',
  'devnet.produce_block',
] as const;

/** Protobuf type of a method's request: `koinos.rpc.<service>.<method>_request`. */
export function requestType(method: string): string {
  const [service, name] = method.split('.');
  return `koinos.rpc.${service}.${name}_request`;
}

/** Protobuf type of a method's response: `koinos.rpc.<service>.<method>_response`. */
export function responseType(method: string): string {
  const [service, name] = method.split('.');
  return `koinos.rpc.${service}.${name}_response`;
}

interface Settings {
  genesisSeed: string;
  accounts: number;
  initialBalance: bigint;
  blockTimeMs: number;
  manual: boolean;
  irreversibleDepth: number;
  now: () => number;
  pendingTransactionLimit: number;
  log: (message: string) => void;
}

function checkInteger(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new WalletError('INVALID_ARGUMENT', `${name}: expected an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * The number of development accounts: 0 to GENESIS_KEY_INDEX (1000), because account N would be the genesis key.
 * @throws WalletError INVALID_ARGUMENT otherwise.
 */
function checkAccounts(value: number | undefined): number {
  if (value === undefined) return DEFAULT_ACCOUNTS;
  if (!Number.isInteger(value) || value < 0 || value > GENESIS_KEY_INDEX) {
    throw new WalletError('INVALID_ARGUMENT', `accounts: expected an integer from 0 to ${GENESIS_KEY_INDEX}, got ${String(value)}`, {
      metaMessages: [`The devnet funds at most ${GENESIS_KEY_INDEX} development accounts: index ${GENESIS_KEY_INDEX} is the genesis key.`],
    });
  }
  return value;
}

/** Decodes a request through its canonical bytes: checks field types and fills every default. */
function normalize<T = ProtoMessage>(method: string, request: object): T {
  const type = requestType(method);
  return decode<T>(type, encode(type, request));
}

class Devnet implements DevnetNode {
  readonly chainId: Uint8Array;
  readonly genesisAddress: string;
  readonly koinAddress: string;
  readonly mnemonic = DEV_MNEMONIC;
  readonly accounts: DevAccount[];
  readonly genesisAccount: DevAccount;
  readonly methods: readonly string[] = DEVNET_METHODS;

  private readonly settings: Settings;
  private readonly store: Store;
  private readonly recoverer: SignatureRecoverer;
  private readonly genesisKey: DevKey;
  private readonly spaces: Record<SpaceTag, ObjectSpace>;
  private head: Head;
  private readonly committed: BaseState;
  private pending: StateView;
  private readonly mempool = new Mempool();
  private readonly history: HistoryIndex;
  private readonly addresses = new Map<string, Uint8Array>();
  private tail: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Timestamp of the block being filled: set by its first pending transaction, used by all of them and the block. */
  private pendingBlockTime: bigint | undefined;
  private readonly onBlock: DevnetConfig['onBlock'];
  private readonly handlers: Record<string, (request: ProtoMessage) => Promise<ProtoMessage> | ProtoMessage>;

  constructor(init: {
    settings: Settings;
    store: Store;
    recoverer: SignatureRecoverer;
    genesis: Genesis;
    head: Head;
    committed: BaseState;
    history: HistoryIndex;
    onBlock: DevnetConfig['onBlock'];
  }) {
    this.settings = init.settings;
    this.store = init.store;
    this.recoverer = init.recoverer;
    this.genesisKey = init.genesis.genesisKey;
    this.chainId = init.genesis.chainId;
    this.genesisAddress = init.genesis.genesisKey.address;
    this.koinAddress = addressToString(KOIN_ADDRESS);
    this.accounts = init.genesis.accounts.map(({ index, address, publicKey, wif }) => ({ index, address, publicKey, wif }));
    const g = init.genesis.genesisKey;
    this.genesisAccount = { index: g.index, address: g.address, publicKey: g.publicKey, wif: g.wif };
    this.spaces = objectSpaces(KOIN_ADDRESS);
    this.head = init.head;
    this.committed = init.committed;
    this.pending = new StateView(this.committed);
    this.history = init.history;
    this.onBlock = init.onBlock;
    this.handlers = this.makeHandlers();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Service boundary

  async call(method: string, request: ProtoMessage): Promise<ProtoMessage> {
    if (this.closed) throw new NodeError('the devnet is closed');
    const handler = Object.hasOwn(this.handlers, method) ? this.handlers[method] : undefined;
    if (!handler) throw new NodeError('unknown method');
    try {
      return await handler(request ?? {});
    } catch (error) {
      if (error instanceof NodeError) throw error;
      if (error instanceof ChainError) throw toNodeError(error);
      if (error instanceof WalletError) throw new NodeError(error.shortMessage, { cause: error });
      throw error;
    }
  }

  async produceBlock(): Promise<{ id: Uint8Array; height: bigint }> {
    if (this.closed) throw new NodeError('the devnet is closed');
    return this.enqueue(() => this.produceNow());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.tail.catch(() => {});
    try {
      await this.recoverer.close();
    } finally {
      await this.store.close();
    }
  }

  /** Runs `work` after everything queued before it (submissions and block production apply in arrival order). */
  private enqueue<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => {});
    return run;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Block production

  /** Starts the block timer (not in manual mode, nor with blockTimeMs 0); produces block 1 at once on a new chain. */
  start(): void {
    if (this.settings.manual || this.settings.blockTimeMs === 0) return;
    const tick = (): void => {
      this.timer = undefined;
      if (this.closed) return;
      this.enqueue(() => this.produceNow())
        .catch((error) => this.reportBlockFailure(error))
        .finally(() => {
          if (!this.closed) this.timer = setTimeout(tick, this.settings.blockTimeMs);
        });
    };
    this.timer = setTimeout(tick, this.head.height === 0n ? 0 : this.settings.blockTimeMs);
  }

  /** A block the node made on its own (timer, or one per transaction) failed: nobody awaits it, so log it. */
  private reportBlockFailure(error: unknown): void {
    this.settings.log(`block production failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Timestamp of a block made now: the clock, but always after the head block. */
  private nextTimestamp(): bigint {
    const clock = BigInt(Math.floor(this.settings.now()));
    return clock > this.head.timestamp ? clock : this.head.timestamp + 1n;
  }

  private applyContext(base: StateView, headBlockTime: bigint): ApplyContext {
    return {
      base,
      headBlockTime,
      chainId: this.chainId,
      koinAddress: KOIN_ADDRESS,
      genesisAddress: this.genesisKey.addressBytes,
      spaces: this.spaces,
    };
  }

  /**
   * Produces the next block from everything pending. Each transaction was applied once, when it was accepted,
   * against the pending state in this block's context (head_block_time = this block's timestamp, fixed when the
   * block got its first transaction); the block takes exactly those results: its receipts are the receipts the
   * submitters got, its state is the pending state. An empty block is stamped with the current time.
   * Signs the block with the genesis key, commits the state in memory and queues ONE atomic batch with the block,
   * receipts, state, transaction index, history and head pointer. Synchronous up to the queued write, so no
   * request sees a half-made block.
   */
  private async produceNow(): Promise<{ id: Uint8Array; height: bigint }> {
    // Checked before anything changes: the history index packs heights into numbers (history.ts).
    if (this.head.height >= BigInt(MAX_HISTORY_HEIGHT)) throw new Error(`the devnet holds at most ${MAX_HISTORY_HEIGHT} blocks`);
    const entries = this.mempool.list();
    const { head, ops } = buildBlock({
      parent: this.head,
      timestamp: this.pendingBlockTime ?? this.nextTimestamp(),
      entries,
      changes: this.pending.changes,
      spaces: this.spaces,
      signer: this.genesisKey,
    });

    // Account history: a block record for the signer (koinos-account-history makes one for every block), then the
    // records of each transaction. In memory the index is the history; on disk it is rebuilt from the `a` entries,
    // whose sequence numbers are the ones the appends below will give.
    const height = Number(head.height); // at most MAX_HISTORY_HEIGHT (checked above)
    const records: [Uint8Array, number | undefined][] = [[this.genesisKey.addressBytes, undefined]];
    entries.forEach((entry, index) => {
      for (const address of entry.impacted) records.push([address, index]);
    });
    if (this.store.persistent) {
      const next = new Map<string, number>();
      for (const [address, transactionIndex] of records) {
        const k = keyText(address);
        const seq = next.get(k) ?? this.history.nextSeq(address);
        next.set(k, seq + 1);
        const pointer =
          transactionIndex === undefined ? { block_height: head.height, block: true } : { block_height: head.height, transaction_index: transactionIndex };
        ops.push({ type: 'put', key: historyKey(address, seq), value: encode('koinos.devnet.record_pointer', pointer) });
      }
    }

    // Publish only what is on disk: until the batch is written nobody can see this block (block production and
    // submissions are serialized by the queue), so a process killed at any moment restarts at the last block seen.
    await this.store.write(ops);
    for (const [address, transactionIndex] of records) this.history.append(address, { height, transactionIndex });
    this.pending.commit();
    this.pending = new StateView(this.committed);
    this.pendingBlockTime = undefined;
    this.head = head;
    for (const entry of entries) this.mempool.remove(entry.prepared.idHex);
    this.onBlock?.({ id: head.id, height: head.height, timestamp: head.timestamp, transactionCount: entries.length });
    return { id: head.id, height: head.height };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Transactions

  private addressOf(publicKey: Uint8Array): Uint8Array {
    const key = keyText(publicKey);
    let address = this.addresses.get(key);
    if (!address) {
      address = addressFromPublicKey(publicKey);
      if (this.addresses.size > 100_000) this.addresses.clear();
      this.addresses.set(key, address);
    }
    return address;
  }

  private async submitTransaction(request: ProtoMessage): Promise<ProtoMessage> {
    const broadcast = request.broadcast === true;
    const prepared = prepareTransaction(request.transaction as ProtoMessage | undefined);
    // Only the signatures rc_limit pays for: the node recovers lazily while metering, and would never reach the rest.
    const signatures = prepared.tx.signatures.slice(0, recoverableSignatures(prepared.tx.signatures.length, prepared.rcLimit));
    const recovery = this.recoverer.recover(signatures.map((signature) => ({ signature, digest: prepared.idDigest })));
    return this.enqueue(async () => {
      const results = await recovery;
      if (this.closed) throw new NodeError('the devnet is closed');
      prepared.signers = results.map((r) => ('publicKey' in r ? { address: this.addressOf(r.publicKey) } : { error: r.error }));
      return { receipt: await this.acceptTransaction(prepared, broadcast) };
    });
  }

  /**
   * The node's submit_transaction after signature recovery: mempool checks (broadcast only), then apply. A
   * broadcast runs on the pending state (its nonce is the mempool's pending nonce) and joins the mempool, and with
   * blockTimeMs 0 gets its own block in this same step; a dry run runs on the head state and changes nothing.
   */
  private async acceptTransaction(prepared: PreparedTransaction, broadcast: boolean): Promise<TransactionReceipt> {
    const headTime = this.head.timestamp;
    const maxPayerRc = accountRc(new StateView(this.committed), prepared.payer, headTime);
    // The transaction runs in the context of the block it will be in: that block's timestamp (fixed when the block
    // gets its first transaction) is the head_block_time its mana regeneration uses, as in a real block.
    const executionTime = this.pendingBlockTime ?? this.nextTimestamp();
    if (broadcast) {
      if (!this.mempool.checkPendingAccountResources(prepared.payer, maxPayerRc, prepared.rcLimit)) {
        throw new ChainError(ERROR_CODE.insufficient_rc, 'insufficient pending account resources');
      }
      if (prepared.nonce !== undefined && !this.mempool.checkAccountNonce(prepared.nonceAccount, prepared.nonce)) {
        throw new ChainError(ERROR_CODE.invalid_nonce, 'invalid account nonce');
      }
      if (this.mempool.pendingCount(prepared.nonceAccount) >= this.settings.pendingTransactionLimit) {
        throw new ChainError(ERROR_CODE.pending_transaction_limit_exceeded, 'pending transaction limit exceeded');
      }
    }
    const base = broadcast ? this.pending : new StateView(this.committed);
    const applied = applyTransaction(this.applyContext(base, executionTime), prepared);
    if (broadcast) {
      applied.view.commit();
      this.pendingBlockTime ??= executionTime;
      this.mempool.add({
        prepared,
        receipt: applied.receipt,
        maxPayerRc,
        receiptBytes: encode('koinos.protocol.transaction_receipt', applied.receipt),
        impacted: historyAddresses(prepared, applied.receipt),
      });
      if (this.settings.blockTimeMs === 0 && !this.settings.manual) {
        // The transaction is accepted whatever happens to its block: a failed block is logged, and the transaction
        // goes into the next one.
        try {
          await this.produceNow();
        } catch (error) {
          this.reportBlockFailure(error);
        }
      }
    }
    return applied.receipt;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Reads

  private headView(): StateView {
    return new StateView(this.committed);
  }

  private lastIrreversible(): bigint {
    const lib = this.head.height - BigInt(this.settings.irreversibleDepth);
    return lib > 0n ? lib : 0n;
  }

  private headTopology(): ProtoMessage {
    return this.head.height === 0n
      ? { id: this.head.id, height: 0n }
      : { id: this.head.id, height: this.head.height, previous: this.head.previous };
  }

  private async topologyAt(height: bigint): Promise<ProtoMessage | undefined> {
    if (height === this.head.height) return this.headTopology();
    if (height === 0n) return { id: ZERO_BLOCK_ID, height: 0n };
    const bytes = await this.store.get(storeKey('h', u64Key(height)));
    return bytes ? decode('koinos.block_topology', bytes) : undefined;
  }

  private async blockHeightOf(id: Uint8Array): Promise<bigint | undefined> {
    if (id.length === 0) return undefined;
    const bytes = await this.store.get(storeKey('i', id));
    return bytes ? decode<{ block_height: bigint }>('koinos.devnet.record_pointer', bytes).block_height : undefined;
  }

  private async blockItem(height: bigint, returnBlock: boolean, returnReceipt: boolean): Promise<ProtoMessage> {
    if (!returnBlock && !returnReceipt) {
      const topology = await this.topologyAt(height);
      return topology ? { block_id: topology.id, block_height: height } : {};
    }
    const bytes = await this.store.get(storeKey('b', u64Key(height)));
    if (!bytes) return {};
    const item = decode<ProtoMessage>('koinos.block_store.block_item', bytes);
    if (!returnBlock) delete item.block;
    if (!returnReceipt) delete item.receipt;
    return item;
  }

  private readKoin(request: { contract_id: Uint8Array; entry_point: number; args: Uint8Array }): ProtoMessage {
    if (!equalBytes(request.contract_id, KOIN_ADDRESS)) {
      throw new ChainError(ERROR_CODE.invalid_contract, 'contract does not exist');
    }
    const result = callKoin(
      {
        view: this.headView(),
        headBlockTime: this.head.timestamp,
        readOnly: true,
        koinAddress: KOIN_ADDRESS,
        genesisAddress: this.genesisKey.addressBytes,
        events: [],
        authorize: () => false,
      },
      request.entry_point,
      request.args,
    );
    return { result, logs: [] };
  }

  private invokeSystemCall(request: { id?: bigint; name?: string; args: Uint8Array }): ProtoMessage {
    const byName = new Map([
      ['get_contract_name', 10000n],
      ['get_contract_address', 10001n],
    ]);
    const id = request.name !== undefined ? byName.get(request.name) : request.id;
    const label = request.name ?? (request.id !== undefined ? String(request.id) : '(none)');
    try {
      if (id === 10001n) {
        const { name } = decode<{ name: string }>('koinos.contracts.name_service.get_address_arguments', request.args);
        const address = SYSTEM_CONTRACT_NAMES.get(name);
        return { value: encode('koinos.contracts.name_service.get_address_result', address ? { value: { address } } : {}) };
      }
      if (id === 10000n) {
        const { address } = decode<{ address: Uint8Array }>('koinos.contracts.name_service.get_name_arguments', request.args);
        const name = [...SYSTEM_CONTRACT_NAMES].find(([, a]) => equalBytes(a, address))?.[0];
        return { value: encode('koinos.contracts.name_service.get_name_result', name ? { value: { name } } : {}) };
      }
    } catch (error) {
      if (error instanceof WalletError) throw new ChainError(ERROR_CODE.reversion, `unable to decode the arguments of system call ${label}`);
      throw error;
    }
    throw new ChainError(
      ERROR_CODE.unknown_system_call,
      `unknown system call ${label}: the devnet answers get_contract_address (10001) and get_contract_name (10000)`,
    );
  }

  private async accountHistory(request: {
    address: Uint8Array;
    seq_num?: bigint;
    limit: bigint;
    ascending: boolean;
    irreversible: boolean;
  }): Promise<ProtoMessage> {
    if (request.limit > MAX_HISTORY_LIMIT) throw new NodeError('request limit exceeded');
    // Numbers are exact here: a seq_num past any list (they live in memory) finds nothing either way, the limit is at
    // most 500, and heights stay below MAX_HISTORY_HEIGHT (2^31).
    const seq = request.seq_num === undefined ? undefined : request.seq_num > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(request.seq_num);
    const pages = this.history.page(request.address, {
      seq,
      limit: Number(request.limit),
      ascending: request.ascending,
      maxHeight: request.irreversible ? Number(this.lastIrreversible()) : undefined,
    });
    return { values: await this.historyRecords(pages) };
  }

  private async historyRecords(pages: HistoryPage[]): Promise<ProtoMessage[]> {
    const keys = pages.map(({ pointer }) =>
      pointer.transactionIndex === undefined
        ? storeKey('b', u64Key(pointer.height))
        : storeKey('x', u64Key(pointer.height), u32Key(pointer.transactionIndex)),
    );
    const values = await this.store.getMany(keys);
    return pages.map(({ seq, pointer }, i) => {
      const bytes = values[i];
      if (!bytes) throw new NodeError('unable to find account history record');
      if (pointer.transactionIndex !== undefined) {
        return { seq_num: BigInt(seq), trx: decode('koinos.account_history.transaction_record', bytes) };
      }
      const item = decode<{ block?: { header?: ProtoMessage }; receipt?: ProtoMessage }>('koinos.block_store.block_item', bytes);
      return { seq_num: BigInt(seq), block: { header: item.block?.header, receipt: item.receipt } };
    });
  }

  private pendingTransaction(entry: { prepared: PreparedTransaction; receipt: TransactionReceipt }): ProtoMessage {
    return {
      transaction: entry.prepared.tx,
      disk_storage_used: entry.receipt.disk_storage_used,
      network_bandwidth_used: entry.receipt.network_bandwidth_used,
      compute_bandwidth_used: entry.receipt.compute_bandwidth_used,
    };
  }

  private makeHandlers(): Record<string, (request: ProtoMessage) => Promise<ProtoMessage> | ProtoMessage> {
    const notSupported = (method: string) => () => {
      throw failure(`${method} is not supported by the devnet: it produces its own blocks (use devnet.produce_block)`);
    };
    return {
      'chain.submit_transaction': (r) => this.submitTransaction(r),
      'chain.submit_block': notSupported('chain.submit_block'),
      'chain.propose_block': notSupported('chain.propose_block'),
      'chain.get_head_info': () => ({
        head_topology: this.headTopology(),
        last_irreversible_block: this.lastIrreversible(),
        head_state_merkle_root: this.head.stateMerkleRoot,
        head_block_time: this.head.timestamp,
      }),
      'chain.get_chain_id': () => ({ chain_id: this.chainId }),
      'chain.get_fork_heads': async () => ({
        last_irreversible_block: await this.topologyAt(this.lastIrreversible()),
        fork_heads: [this.headTopology()],
      }),
      'chain.read_contract': (r) => this.readKoin(normalize('chain.read_contract', r)),
      'chain.get_account_nonce': (r) => {
        const { account } = normalize<{ account: Uint8Array }>('chain.get_account_nonce', r);
        return { nonce: nonceBytesOf(this.committed, account) };
      },
      'chain.get_account_rc': (r) => {
        const { account } = normalize<{ account: Uint8Array }>('chain.get_account_rc', r);
        return { rc: accountRc(this.headView(), account, this.head.timestamp) };
      },
      'chain.get_resource_limits': () => ({ resource_limit_data: { ...RESOURCE_LIMITS } }),
      'chain.invoke_system_call': (r) => this.invokeSystemCall(normalize('chain.invoke_system_call', r)),
      'block_store.get_blocks_by_id': async (r) => {
        const req = normalize<{ block_ids: Uint8Array[]; return_block: boolean; return_receipt: boolean }>('block_store.get_blocks_by_id', r);
        if (req.block_ids.length > MAX_BLOCKS_PER_REQUEST) {
          throw new NodeError(`requested too many blocks: at most ${MAX_BLOCKS_PER_REQUEST} block ids per request`);
        }
        const items = await Promise.all(
          req.block_ids.map(async (id) => {
            const height = await this.blockHeightOf(id);
            return height === undefined ? {} : this.blockItem(height, req.return_block, req.return_receipt);
          }),
        );
        return { block_items: items };
      },
      'block_store.get_blocks_by_height': async (r) => {
        const req = normalize<{
          head_block_id: Uint8Array;
          ancestor_start_height: bigint;
          num_blocks: number;
          return_block: boolean;
          return_receipt: boolean;
        }>('block_store.get_blocks_by_height', r);
        if (req.head_block_id.length === 0) throw new NodeError('head_block_id is required');
        if (req.ancestor_start_height === 0n) throw new NodeError('ancestor_start_height must be greater than 0');
        if (req.num_blocks > MAX_BLOCKS_PER_REQUEST) {
          throw new NodeError(`requested too many blocks: num_blocks is at most ${MAX_BLOCKS_PER_REQUEST}`);
        }
        const top = await this.blockHeightOf(req.head_block_id);
        if (top === undefined) throw new NodeError(`block not present: 0x${toHex(req.head_block_id)}`);
        const items: ProtoMessage[] = [];
        for (let h = req.ancestor_start_height; h <= top && items.length < req.num_blocks; h++) {
          items.push(await this.blockItem(h, req.return_block, req.return_receipt));
        }
        return { block_items: items };
      },
      'block_store.get_highest_block': () => ({ topology: this.headTopology() }),
      'transaction_store.get_transactions_by_id': async (r) => {
        const { transaction_ids: ids } = normalize<{ transaction_ids: Uint8Array[] }>('transaction_store.get_transactions_by_id', r);
        if (ids.length > MAX_TRANSACTIONS_PER_REQUEST) {
          throw new NodeError(`requested too many transactions: at most ${MAX_TRANSACTIONS_PER_REQUEST} ids per request`);
        }
        const pointers = await this.store.getMany(ids.map((id) => storeKey('t', id)));
        const out: ProtoMessage[] = [];
        for (const bytes of pointers) {
          if (!bytes) continue;
          const p = decode<{ block_height: bigint; transaction_index: number }>('koinos.devnet.record_pointer', bytes);
          const [record, topology] = await Promise.all([
            this.store.get(storeKey('x', u64Key(p.block_height), u32Key(p.transaction_index))),
            this.topologyAt(p.block_height),
          ]);
          if (!record || !topology) continue;
          const { transaction } = decode<{ transaction: ProtoMessage }>('koinos.account_history.transaction_record', record);
          out.push({ transaction, containing_blocks: [topology.id] });
        }
        return { transactions: out };
      },
      'mempool.check_pending_account_resources': (r) => {
        const req = normalize<{ payer: Uint8Array; max_payer_rc: bigint; rc_limit: bigint }>('mempool.check_pending_account_resources', r);
        return { success: this.mempool.checkPendingAccountResources(req.payer, req.max_payer_rc, req.rc_limit) };
      },
      'mempool.get_pending_transactions': (r) => {
        const { limit } = normalize<{ limit: bigint }>('mempool.get_pending_transactions', r);
        if (limit > MAX_PENDING_REQUEST) throw new NodeError(`requested too many pending transactions. max: ${MAX_PENDING_REQUEST}`);
        return { pending_transactions: this.mempool.list(Number(limit)).map((e) => this.pendingTransaction(e)) }; // limit <= 2000
      },
      'mempool.check_account_nonce': (r) => {
        const req = normalize<{ payee: Uint8Array; nonce: Uint8Array }>('mempool.check_account_nonce', r);
        let nonce = 0n;
        try {
          nonce = decode<{ uint64_value?: bigint }>('koinos.chain.value_type', req.nonce).uint64_value ?? 0n;
        } catch {
          throw new NodeError('nonce is not a serialized value_type');
        }
        return { success: this.mempool.checkAccountNonce(req.payee, nonce) };
      },
      'mempool.get_reserved_account_rc': (r) => {
        const { account } = normalize<{ account: Uint8Array }>('mempool.get_reserved_account_rc', r);
        return { rc: this.mempool.reservedRc(account) };
      },
      'mempool.get_pending_nonce': (r) => {
        const { payee } = normalize<{ payee: Uint8Array }>('mempool.get_pending_nonce', r);
        const nonce = this.mempool.pendingNonce(payee);
        return { nonce: nonce === undefined ? EMPTY : nonceToBytes(nonce) };
      },
      'mempool.get_pending_transaction_count': (r) => {
        const { payee } = normalize<{ payee: Uint8Array }>('mempool.get_pending_transaction_count', r);
        return { count: BigInt(this.mempool.pendingCount(payee)) };
      },
      'mempool.get_pending_transactions_by_id': (r) => {
        const { transaction_ids: ids } = normalize<{ transaction_ids: Uint8Array[] }>('mempool.get_pending_transactions_by_id', r);
        if (BigInt(ids.length) > MAX_PENDING_REQUEST) throw new NodeError(`requested too many pending transactions. max: ${MAX_PENDING_REQUEST}`);
        const found = ids.map((id) => this.mempool.get(toHex(id))).filter((e) => e !== undefined);
        return { pending_transactions: found.map((e) => this.pendingTransaction(e)) };
      },
      'account_history.get_account_history': (r) => this.accountHistory(normalize('account_history.get_account_history', r)),
      'devnet.produce_block': async () => {
        const { id, height } = await this.produceBlock();
        return { block_id: id, block_height: height };
      },
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Opening

function settingsOf(config: DevnetConfig): Settings {
  const initialBalance = config.initialBalance ?? DEFAULT_INITIAL_BALANCE;
  if (typeof initialBalance !== 'bigint' || initialBalance < 0n || initialBalance > UINT64_MAX) {
    throw new WalletError('INVALID_ARGUMENT', `initialBalance: expected base units as a bigint from 0 to 2^64-1, got ${String(initialBalance)}`);
  }
  const genesisSeed = config.genesisSeed ?? DEFAULT_GENESIS_SEED;
  if (typeof genesisSeed !== 'string') throw new WalletError('INVALID_ARGUMENT', 'genesisSeed: expected a string');
  return {
    genesisSeed,
    accounts: checkAccounts(config.accounts),
    initialBalance,
    blockTimeMs: checkInteger('blockTimeMs', config.blockTimeMs, 3000, 0, 86_400_000),
    manual: config.manual ?? false,
    irreversibleDepth: checkInteger('irreversibleDepth', config.irreversibleDepth, 60, 0, 1_000_000),
    now: config.now ?? Date.now,
    pendingTransactionLimit: checkInteger('pendingTransactionLimit', config.pendingTransactionLimit, 10, 1, Number.MAX_SAFE_INTEGER),
    log: config.log ?? ((message) => console.warn(`[devnet] ${message}`)),
  };
}

/**
 * Opens a devnet: a new chain from the config's genesis, or (with `dataDir`) the chain stored there, continued.
 * In timer mode the first block is produced at once on a new chain, then one every `blockTimeMs`.
 * @throws WalletError INVALID_ARGUMENT for a bad config value, or when `dataDir` holds a chain made with a different
 *   genesis (use `reset`); Error when the data directory cannot be opened (for example, another devnet uses it).
 * @example
 * const node = await openNode({ manual: true });
 * await node.call('chain.get_chain_id', {}); // { chain_id: Uint8Array(34) }
 * await node.close();
 */
export async function openNode(config: DevnetConfig = {}): Promise<DevnetNode> {
  const settings = settingsOf(config);
  const store: Store = config.dataDir ? await LevelStore.open(config.dataDir, config.reset === true) : new MemoryStore();
  try {
    const metaBytes = store.persistent ? await store.get(storeKey('meta')) : undefined;
    let genesis: Genesis;
    let chain: LoadedChain;
    if (metaBytes) {
      const meta = decode<ChainMeta>('koinos.devnet.chain_meta', metaBytes);
      checkMeta(meta, config, config.dataDir!);
      genesis = buildGenesis({ seed: meta.genesis_seed, salt: meta.salt, accounts: meta.accounts, initialBalance: meta.initial_balance });
      if (!equalBytes(genesis.chainId, meta.chain_id)) {
        throw new Error(`the chain ID stored in ${config.dataDir} does not match its genesis (data written by another version?)`);
      }
      chain = await loadChain(store, genesis);
    } else {
      // A reset gives a new chain ID even with the same config, as a restarted public testnet does.
      const salt = config.reset ? new Uint8Array(randomBytes(16)) : EMPTY;
      genesis = buildGenesis({ seed: settings.genesisSeed, salt, accounts: settings.accounts, initialBalance: settings.initialBalance });
      chain = await newChain(store, genesis, {
        format_version: FORMAT_VERSION,
        chain_id: genesis.chainId,
        genesis_seed: settings.genesisSeed,
        salt,
        accounts: settings.accounts,
        initial_balance: settings.initialBalance,
      });
    }
    const threads = config.signatureThreads ?? Math.min(2, Math.max(1, availableParallelism() - 1));
    const recoverer = threads > 0 ? workerRecoverer(threads) : inlineRecoverer();
    const node = new Devnet({ settings, store, recoverer, genesis, ...chain, onBlock: config.onBlock });
    node.start();
    return node;
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}

