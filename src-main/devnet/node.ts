// The devnet service: one in-process Koinos chain (genesis, KOIN and VHP, test tokens, mempool, block producer,
// block and transaction stores, account history, contract meta store) answering the node's JSON-RPC methods as
// decoded protobuf messages, plus the developer methods (`devnet.*`). The HTTP layers and the CLI sit on `openNode`.
import { UINT64_MAX } from '../koinos/amounts.ts';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { equalBytes, toBase58, toHex } from '../koinos/bytes.ts';
import { decode, encode, type ProtoMessage } from '../koinos/codec.ts';
import { WalletError } from '../koinos/errors.ts';
import { addressFromPublicKey, addressToString } from '../koinos/address.ts';
import { nonceToBytes } from '../koinos/transaction.ts';
import type { TransactionReceipt } from '../koinos/types.ts';
import {
  applyTransaction,
  nonceBytesOf,
  prepareTransaction,
  recoverableSignatures,
  type ApplyContext,
  type PreparedTransaction,
} from './chain/applyTransaction.ts';
import { AbiStore } from './store/abiStore.ts';
import { buildBlock, type IncludedTransaction } from './chain/blockBuilder.ts';
import { checkMeta, FORMAT_VERSION, loadChain, newChain, ZERO_BLOCK_ID, type ChainMeta, type Head, type LoadedChain } from './store/chainData.ts';
import { ChainError, ERROR_CODE, failure, toNodeError } from './state/chainError.ts';
import { builtInAt, contractAbi, contractAt, defineTestToken, KOIN, newTokenAddress, systemContractAbi, systemContractAt } from './contracts/registry.ts';
import { DEV_MNEMONIC, GENESIS_KEY_INDEX, type DevKey } from './chain/devKeys.ts';
import { buildGenesis, DEFAULT_ACCOUNTS, DEFAULT_GENESIS_SEED, DEFAULT_INITIAL_BALANCE, type Genesis, type GenesisParams } from './chain/genesis.ts';
import { loadCommunityContract, type CommunityContract } from './contracts/communityContracts.ts';
import { resolveShape, shapeFromSpec, shapeSpec, type ChainShape } from './chain/shapes.ts';
import { historyAddresses, HistoryIndex, MAX_HISTORY_HEIGHT, type HistoryPage } from './chain/history.ts';
import { Mempool } from './chain/mempool.ts';
import { NODE_METHODS, requestType, type NodeMethod } from './methods.ts';
import { MAX_INCLUSION_ATTEMPTS, proposeBlock, type LeftOut, type ProposalRun } from './chain/blockFill.ts';
import { BlockResources, isBlockLimitError, RESOURCE_LIMITS } from './state/resources.ts';
import { inlineRecoverer, workerRecoverer, type SignatureRecoverer } from './chain/signatures.ts';
import { rememberRecoveredKey } from './vm/cryptoThunks.ts';
import { SYSTEM_CALL_IDS } from './vm/systemCallIds.ts';
import { BaseState, StateView } from './state/state.ts';
import { invokeSystemCallReadOnly, isWasmContract, readWasmContract } from './chain/wasmContracts.ts';
import { blockFacts, headFacts, type ChainFacts } from './chain/chainFacts.ts';
import { LevelStore, MemoryStore, type Store, type StoreOp } from './store/store.ts';
import {
  abiKey,
  blockIdKey,
  blockKey,
  headKey,
  historyKey,
  keyText,
  keyTextBytes,
  metaKey,
  stateObjectKey,
  topologyKey,
  transactionKey,
  transactionRecordKey,
} from './store/storeKeys.ts';
import {
  NodeError,
  type CreateTokenOptions,
  type DevAccount,
  type DevnetConfig,
  type DevnetNode,
  type ResetOptions,
  type SetBalanceOptions,
} from './types.ts';

export { requestType, responseType } from './methods.ts';

const EMPTY: Uint8Array = new Uint8Array(0);

/** Request limits of the real services (facts §7.2). */
const MAX_BLOCKS_PER_REQUEST = 1000;
export const MAX_HISTORY_LIMIT = 500n;
const MAX_PENDING_REQUEST = 2000n;
const MAX_TRANSACTIONS_PER_REQUEST = 1000;
/** Most blocks one devnet.produce_blocks call makes. */
export const MAX_PRODUCE_BLOCKS = 10_000;

/** Every method `call` answers, as `service.method`. */
export const DEVNET_METHODS = NODE_METHODS;

type Handler = (request: ProtoMessage) => Promise<ProtoMessage> | ProtoMessage;

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

function checkBalance(name: string, value: bigint | undefined, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  if (typeof value !== 'bigint' || value < 0n || value > UINT64_MAX) {
    throw new WalletError('INVALID_ARGUMENT', `${name}: expected base units as a bigint from 0 to 2^64-1, got ${String(value)}`);
  }
  return value;
}

/** Decodes a request through its canonical bytes: checks field types and fills every default. */
function normalize<T = ProtoMessage>(method: string, request: object): T {
  const type = requestType(method);
  return decode<T>(type, encode(type, request));
}

/** A chain as one devnet runs it: what a reset replaces. */
interface Chain {
  genesis: Genesis;
  meta: ChainMeta;
  head: Head;
  committed: BaseState;
  history: HistoryIndex;
}

/** What devnet.snapshot remembers: the head, the state objects (values are never mutated, so a copy of the map). */
interface Snapshot {
  chainId: Uint8Array;
  head: Head;
  objects: Map<string, Uint8Array>;
  clockOffset: number;
  /** The contract meta store's items (contract id keyText → item bytes). */
  abis: Map<string, Uint8Array>;
}

class Devnet implements DevnetNode {
  readonly mnemonic = DEV_MNEMONIC;
  readonly methods: readonly string[] = NODE_METHODS;

  private readonly settings: Settings;
  private readonly store: Store;
  private readonly recoverer: SignatureRecoverer;
  private readonly abis: AbiStore;
  private chain: Chain;
  private readonly mempool = new Mempool();
  private readonly addresses = new Map<string, Uint8Array>();
  private tail: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** How far devnet.advance_time / produce_blocks moved the clock (ms). */
  private clockOffset = 0;
  private readonly snapshots = new Map<bigint, Snapshot>();
  private nextSnapshot = 1n;
  private readonly onBlock: DevnetConfig['onBlock'];
  private readonly handlers: Record<NodeMethod, Handler>;
  /** The last block left pending transactions out for lack of room: the timer makes the next one at once. */
  private lastBlockFull = false;

  constructor(init: { settings: Settings; store: Store; recoverer: SignatureRecoverer; chain: Chain; onBlock: DevnetConfig['onBlock'] }) {
    this.settings = init.settings;
    this.store = init.store;
    this.abis = new AbiStore(init.store);
    this.recoverer = init.recoverer;
    this.chain = init.chain;
    this.onBlock = init.onBlock;
    this.handlers = this.makeHandlers();
  }

  get chainId(): Uint8Array {
    return this.chain.genesis.chainId;
  }

  get shape(): ChainShape {
    return this.chain.genesis.shape;
  }

  get koinAddress(): string {
    return addressToString(this.koinBytes);
  }

  /** KOIN's address in this chain's shape (every shape places KOIN: resolveShape keeps it). */
  private get koinBytes(): Uint8Array {
    return this.shape.system.get('koin')!;
  }

  get genesisAddress(): string {
    return this.chain.genesis.genesisKey.address;
  }

  get accounts(): DevAccount[] {
    return this.chain.genesis.accounts.map(({ index, address, publicKey, wif }) => ({ index, address, publicKey, wif }));
  }

  get genesisAccount(): DevAccount {
    const g = this.chain.genesis.genesisKey;
    return { index: g.index, address: g.address, publicKey: g.publicKey, wif: g.wif };
  }

  private get genesisKey(): DevKey {
    return this.chain.genesis.genesisKey;
  }

  private get head(): Head {
    return this.chain.head;
  }

  private get committed(): BaseState {
    return this.chain.committed;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Service boundary

  async call(method: string, request: ProtoMessage): Promise<ProtoMessage> {
    if (this.closed) throw new NodeError('the devnet is closed');
    const handler = Object.hasOwn(this.handlers, method) ? this.handlers[method as NodeMethod] : undefined;
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

  /** Runs `work` after everything queued before it (submissions, blocks and developer methods apply in order). */
  private enqueue<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(() => {
      if (this.closed) throw new NodeError('the devnet is closed');
      return work();
    });
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
          // A full block rolls over to the next at once (the devnet does not wait for a slot while transactions
          // wait for room), so a burst larger than a block is included at the speed blocks are made.
          if (!this.closed) this.timer = setTimeout(tick, this.lastBlockFull ? 0 : this.settings.blockTimeMs);
        });
    };
    this.timer = setTimeout(tick, this.head.height === 0n ? 0 : this.settings.blockTimeMs);
  }

  /** A block the node made on its own (timer, or one per transaction) failed: nobody awaits it, so log it. */
  private reportBlockFailure(error: unknown): void {
    this.settings.log(`block production failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  private now(): number {
    return this.settings.now() + this.clockOffset;
  }

  /** Timestamp of a block made now: the clock, but always after the head block. */
  private nextTimestamp(): bigint {
    const clock = BigInt(Math.floor(this.now()));
    return clock > this.head.timestamp ? clock : this.head.timestamp + 1n;
  }

  private applyContext(base: StateView, headBlockTime: bigint, blockHeight: bigint, sequence: { next: number }, chain?: ChainFacts): ApplyContext {
    chain ??= headFacts(this.chainId, this.head, this.settings.irreversibleDepth, this.committed);
    return { base, headBlockTime, blockHeight, chainId: this.chainId, genesisAddress: this.genesisKey.addressBytes, sequence, chain };
  }

  /**
   * Produces the next block as koinos-chain's apply_block does: every chosen pending transaction is applied again, in
   * order, on the block's state with the block's own time and height and one event counter for the whole block.
   * A transaction that reverts now (its state changed since submission) is included reverted, its payer charged;
   * one that fails is dropped (and logged) and the block proposed again without it (blockFill.ts proposeBlock), so
   * the block its contracts saw is the block written. `adjust` (developer methods) changes the state first.
   * Transactions are chosen as koinos-block-producer's fill_block chooses them (see BlockFill): one that would take
   * the block past its limits waits in the mempool for a later block; `lastBlockFull` says some did.
   * Signs the block with the genesis key and writes its one batch; publishes the block only once that is written.
   */
  private async produceNow(adjust?: (view: StateView, timestamp: bigint, height: bigint) => void): Promise<{ id: Uint8Array; height: bigint }> {
    // Checked before anything changes: the history index packs heights into numbers (history.ts).
    if (this.head.height >= BigInt(MAX_HISTORY_HEIGHT)) throw new Error(`the devnet holds at most ${MAX_HISTORY_HEIGHT} blocks`);
    this.lastBlockFull = false;
    const chain = this.chain;
    const parent = chain.head;
    const timestamp = this.nextTimestamp();
    const height = parent.height + 1n;
    const pending = this.mempool.list(MAX_INCLUSION_ATTEMPTS).map((entry) => ({ idHex: entry.prepared.idHex, receipt: entry.receipt, entry }));
    const proposal = proposeBlock(pending, this.mempool.entries.size > pending.length, (chosen): ProposalRun<{ view: StateView; included: IncludedTransaction[] }> => {
      const view = new StateView(chain.committed);
      adjust?.(view, timestamp, height);
      const sequence = { next: 0 };
      const transactions = chosen.map((c) => c.entry.prepared);
      const facts = blockFacts(this.chainId, { parent, timestamp, transactions, signer: this.genesisKey }, this.settings.irreversibleDepth, chain.committed);
      const included: IncludedTransaction[] = [];
      const failed: LeftOut[] = [];
      const block = new BlockResources();
      for (const prepared of transactions) {
        const before = { disk: block.disk, network: block.network, compute: block.compute };
        try {
          const applied = applyTransaction({ ...this.applyContext(view, timestamp, height, sequence, facts), block }, prepared);
          applied.view.commit();
          const { receipt } = applied;
          included.push({ prepared, receipt, receiptBytes: encode('koinos.protocol.transaction_receipt', receipt), impacted: historyAddresses(prepared, receipt) });
        } catch (error) {
          if (!(error instanceof ChainError)) throw error;
          Object.assign(block, before);
          // One that fitted a block of its own at submission but not this one's rest waits for the next block, as a
          // proposal's failed transaction stays in koinos-mempool; any other failure drops it.
          const wait = isBlockLimitError(error) && included.length > 0;
          if (!wait) this.settings.log(`transaction 0x${prepared.idHex} dropped from block ${height}: ${error.message}`);
          failed.push({ idHex: prepared.idHex, wait });
        }
      }
      return failed.length > 0 ? { failed } : { applied: { view, included } };
    });
    const { view, included } = proposal.applied;
    const done = [...proposal.chosen, ...proposal.dropped].map((c) => c.idHex);
    const full = proposal.full;
    const { head, ops, records } = buildBlock({
      parent,
      timestamp,
      entries: included,
      changes: view.changes,
      signer: this.genesisKey,
      history: { persistent: this.store.persistent, nextSeq: (address) => chain.history.nextSeq(address) },
    });
    const blockHeight = Number(head.height); // at most MAX_HISTORY_HEIGHT (checked above)
    const abiUpdate = this.abis.blockUpdate(included.map((e) => ({ tx: e.prepared.tx, receipt: e.receipt })));

    // Publish only what is on disk: until the batch is written nobody can see this block (block production and
    // submissions are serialized by the queue), so a process killed at any moment restarts at the last block seen.
    await this.store.write(abiUpdate.ops.length > 0 ? [...ops, ...abiUpdate.ops] : ops);
    abiUpdate.commit();
    for (const [address, transactionIndex] of records) chain.history.append(address, { height: blockHeight, transactionIndex });
    view.commit();
    chain.head = head;
    for (const id of done) this.mempool.remove(id);
    this.onBlock?.({ id: head.id, height: head.height, timestamp: head.timestamp, transactionCount: included.length });
    this.lastBlockFull = full;
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
      // A contract's check_authority recovers the same signatures: it finds these keys instead of recovering again.
      for (const [i, r] of results.entries()) if ('publicKey' in r) rememberRecoveredKey(signatures[i]!, prepared.idDigest, r.publicKey);
      prepared.signers = results.map((r) => ('publicKey' in r ? { address: this.addressOf(r.publicKey) } : { error: r.error }));
      return { receipt: await this.acceptTransaction(prepared, broadcast) };
    });
  }

  /**
   * The node's submit_transaction after signature recovery (controller.cpp): mempool checks (broadcast only), then
   * apply on the head state with the head block's time, the nonce checked against the mempool's pending nonce when
   * broadcasting. A reversion is an error here and changes nothing; an accepted broadcast joins the mempool (and,
   * with blockTimeMs 0, gets its own block in this same step). The block applies it again.
   */
  private async acceptTransaction(prepared: PreparedTransaction, broadcast: boolean): Promise<TransactionReceipt> {
    const head = this.head;
    const headView = new StateView(this.committed);
    const maxPayerRc = KOIN.accountRc(headView, prepared.payer, head.timestamp);
    let mempoolNonce: bigint | undefined;
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
      mempoolNonce = this.mempool.pendingNonce(prepared.nonceAccount);
    }
    const ctx = { ...this.applyContext(headView, head.timestamp, head.height, { next: 0 }), mempoolNonce };
    const applied = applyTransaction(ctx, prepared);
    if (applied.reversion) throw applied.reversion;
    if (broadcast) {
      this.mempool.add({ prepared, receipt: applied.receipt, maxPayerRc });
      if (this.settings.blockTimeMs === 0 && !this.settings.manual) {
        // The transaction is accepted whatever happens to its block: a failed block is logged, and the transaction
        // goes into the next one.
        try {
          // A full block rolls over: every block takes at least one transaction, so this ends.
          do await this.produceNow();
          while (this.lastBlockFull);
        } catch (error) {
          this.reportBlockFailure(error);
        }
      }
    }
    return applied.receipt;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Developer methods (devnet.*): each changes the chain only through a block it produces.

  async produceBlock(): Promise<{ id: Uint8Array; height: bigint }> {
    return this.enqueue(() => this.produceNow());
  }

  async produceBlocks(count: number, intervalMs = 0): Promise<{ id: Uint8Array; height: bigint }> {
    checkInteger('count', count, 1, 1, MAX_PRODUCE_BLOCKS);
    checkInteger('interval_ms', intervalMs, 0, 0, 86_400_000 * 366);
    return this.enqueue(async () => {
      let last = { id: this.head.id, height: this.head.height };
      for (let i = 0; i < count; i++) {
        this.clockOffset += intervalMs;
        last = await this.produceNow();
      }
      return last;
    });
  }

  async advanceTime(milliseconds: number): Promise<{ id: Uint8Array; height: bigint; timestamp: bigint }> {
    checkInteger('milliseconds', milliseconds, 0, 1, 86_400_000 * 366 * 100);
    return this.enqueue(async () => {
      this.clockOffset += milliseconds;
      const block = await this.produceNow();
      return { ...block, timestamp: this.head.timestamp };
    });
  }

  async setBalance(options: SetBalanceOptions): Promise<{ id: Uint8Array; height: bigint }> {
    const value = checkBalance('value', options.value, 0n);
    const account = options.account;
    if (!(account instanceof Uint8Array) || account.length === 0) throw new WalletError('INVALID_ARGUMENT', 'account: expected an address, got nothing');
    const contractId = options.contract && options.contract.length > 0 ? options.contract : this.koinBytes;
    return this.enqueue(() => {
      const token = contractAt(new StateView(this.committed), contractId);
      if (!token) {
        throw new WalletError('INVALID_ARGUMENT', `contract_id: expected KOIN, VHP or a token made with devnet.create_token, got ${toBase58(contractId)}`);
      }
      let problem: string | undefined;
      const block = this.produceNow((view, timestamp, height) => {
        try {
          token.setBalance(view, account, value, timestamp, height);
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          problem = error.message;
        }
      });
      if (problem) throw new WalletError('INVALID_ARGUMENT', `value: ${problem}; choose a smaller balance`);
      return block;
    });
  }

  async createToken(options: CreateTokenOptions): Promise<{ contractId: Uint8Array; id: Uint8Array; height: bigint }> {
    const name = options.name;
    const symbol = options.symbol;
    if (typeof name !== 'string' || name.length === 0 || name.length > 64) {
      throw new WalletError('INVALID_ARGUMENT', `name: expected 1 to 64 characters, got ${JSON.stringify(name ?? '')}`);
    }
    if (typeof symbol !== 'string' || !/^[A-Za-z0-9._-]{1,16}$/.test(symbol)) {
      throw new WalletError('INVALID_ARGUMENT', `symbol: expected 1 to 16 letters, digits, ".", "_" or "-", got ${JSON.stringify(symbol ?? '')}`);
    }
    const decimals = checkInteger('decimals', options.decimals, 8, 0, 18);
    const supply = checkBalance('initial_supply', options.initialSupply, 0n);
    const owner = options.owner;
    if (!(owner instanceof Uint8Array) || owner.length !== 25) {
      throw new WalletError('INVALID_ARGUMENT', 'owner: expected the address that holds the initial supply and may mint');
    }
    return this.enqueue(async () => {
      let contractId: Uint8Array = EMPTY;
      const block = await this.produceNow((view, timestamp, height) => {
        contractId = newTokenAddress(view, this.head.id);
        const token = defineTestToken(view, contractId, { name, symbol, decimals, owner });
        if (supply > 0n) token.setBalance(view, owner, supply, timestamp, height);
      });
      return { contractId, ...block };
    });
  }

  async snapshot(): Promise<bigint> {
    return this.enqueue(async () => {
      const id = this.nextSnapshot++;
      const abis = await this.abis.all();
      this.snapshots.set(id, { chainId: this.chainId, head: { ...this.head }, objects: new Map(this.committed.objects), clockOffset: this.clockOffset, abis });
      return id;
    });
  }

  /**
   * Goes back to a snapshot: removes the blocks after it (store, history, transaction index), restores its state,
   * empties the mempool. The snapshot and every later one are used up, as in Anvil.
   */
  async revert(id: bigint): Promise<{ id: Uint8Array; height: bigint }> {
    return this.enqueue(async () => {
      const snap = this.snapshots.get(id);
      if (!snap || !equalBytes(snap.chainId, this.chainId) || snap.head.height > this.head.height) {
        throw new WalletError('INVALID_ARGUMENT', `id: expected a snapshot taken with devnet.snapshot and not yet reverted to, got ${id}`);
      }
      const chain = this.chain;
      const ops: StoreOp[] = [];
      for (let h = snap.head.height + 1n; h <= chain.head.height; h++) {
        const bytes = await this.store.get(blockKey(h));
        if (!bytes) continue;
        const item = decode<{ block_id: Uint8Array; block?: { transactions: { id: Uint8Array }[] } }>('koinos.block_store.block_item', bytes);
        ops.push({ type: 'del', key: blockKey(h) }, { type: 'del', key: topologyKey(h) }, { type: 'del', key: blockIdKey(item.block_id) });
        (item.block?.transactions ?? []).forEach((tx, index) => {
          ops.push({ type: 'del', key: transactionRecordKey(h, index) }, { type: 'del', key: transactionKey(tx.id) });
        });
      }
      for (const key of chain.committed.objects.keys()) if (!snap.objects.has(key)) ops.push({ type: 'del', key: stateObjectKey(key) });
      for (const [key, value] of snap.objects) {
        if (chain.committed.objects.get(key) !== value) ops.push({ type: 'put', key: stateObjectKey(key), value });
      }
      const dropped = chain.history.truncate(Number(snap.head.height));
      if (this.store.persistent) {
        for (const { address, from, to } of dropped) for (let seq = from; seq < to; seq++) ops.push({ type: 'del', key: historyKey(address, seq) });
      }
      const abis = await this.abis.all();
      for (const key of abis.keys()) if (!snap.abis.has(key)) ops.push({ type: 'del', key: abiKey(keyTextBytes(key)) });
      for (const [key, value] of snap.abis) ops.push({ type: 'put', key: abiKey(keyTextBytes(key)), value });
      ops.push({ type: 'put', key: headKey(), value: headRecord(snap.head) });
      await this.store.write(ops);
      this.abis.forget();
      chain.committed.objects.clear();
      for (const [key, value] of snap.objects) chain.committed.objects.set(key, value);
      chain.head = { ...snap.head };
      this.clockOffset = Math.max(this.clockOffset, snap.clockOffset);
      this.mempool.clear();
      for (const key of [...this.snapshots.keys()]) if (key >= id) this.snapshots.delete(key);
      return { id: chain.head.id, height: chain.head.height };
    });
  }

  /** A new chain from a new genesis (random salt: a new chain ID even with the same settings), replacing this one. */
  async reset(options: ResetOptions = {}): Promise<Uint8Array> {
    const seed = options.genesisSeed ?? this.chain.meta.genesis_seed;
    if (typeof seed !== 'string') throw new WalletError('INVALID_ARGUMENT', 'genesis_seed: expected a string');
    const accounts = options.accounts === undefined ? this.chain.meta.accounts : checkAccounts(options.accounts);
    const initialBalance = checkBalance('initial_balance', options.initialBalance, this.chain.meta.initial_balance);
    return this.enqueue(async () => {
      const salt = new Uint8Array(randomBytes(16));
      const genesis = buildGenesis(genesisParams({ seed, salt, accounts, initialBalance }, this.shape));
      const meta: ChainMeta = {
        format_version: FORMAT_VERSION,
        chain_id: genesis.chainId,
        genesis_seed: seed,
        salt,
        accounts,
        initial_balance: initialBalance,
        shape: shapeSpec(this.shape),
      };
      await this.store.clear();
      this.abis.forget();
      const loaded = await newChain(this.store, genesis, meta);
      this.chain = { genesis, meta, ...loaded };
      this.mempool.clear();
      this.snapshots.clear();
      this.clockOffset = 0;
      if (!this.settings.manual && this.settings.blockTimeMs > 0) await this.produceNow();
      return genesis.chainId;
    });
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
    const bytes = await this.store.get(topologyKey(height));
    return bytes ? decode('koinos.block_topology', bytes) : undefined;
  }

  private async blockHeightOf(id: Uint8Array): Promise<bigint | undefined> {
    if (id.length === 0) return undefined;
    const bytes = await this.store.get(blockIdKey(id));
    return bytes ? decode<{ block_height: bigint }>('koinos.devnet.record_pointer', bytes).block_height : undefined;
  }

  private async blockItem(height: bigint, returnBlock: boolean, returnReceipt: boolean): Promise<ProtoMessage> {
    if (!returnBlock && !returnReceipt) {
      const topology = await this.topologyAt(height);
      return topology ? { block_id: topology.id, block_height: height } : {};
    }
    const bytes = await this.store.get(blockKey(height));
    if (!bytes) return {};
    const item = decode<ProtoMessage>('koinos.block_store.block_item', bytes);
    if (!returnBlock) delete item.block;
    if (!returnReceipt) delete item.receipt;
    return item;
  }

  /** chain.read_contract: the contract's entry point on the head state, read-only, not metered. */
  private readContract(request: { contract_id: Uint8Array; entry_point: number; args: Uint8Array }): ProtoMessage {
    const view = this.headView();
    // Any built-in: tokens, and the name service and the KAP stand-in, which a dApp reads directly as on mainnet.
    const contract = builtInAt(view, request.contract_id);
    const ctx = {
      view,
      headBlockTime: this.head.timestamp,
      blockHeight: this.head.height,
      readOnly: true,
      genesisAddress: this.genesisKey.addressBytes,
      caller: EMPTY,
      events: [],
      sequence: { next: 0 },
      authorize: () => false,
      chain: headFacts(this.chainId, this.head, this.settings.irreversibleDepth, this.committed),
    };
    if (!contract && isWasmContract(view, request.contract_id)) return readWasmContract(ctx, request.contract_id, request.entry_point, request.args);
    if (!contract) throw new ChainError(ERROR_CODE.invalid_contract, 'contract does not exist');
    const result = contract.call(ctx, request.entry_point, request.args);
    return { result, logs: [] };
  }

  /**
   * chain.invoke_system_call, read-only, in kernel mode on the head state (controller.cpp): by id, or by name
   * (koinos.chain.system_call_id); overrides apply, so get_contract_address (10001) and get_contract_name (10000)
   * answer through the name service, as on mainnet.
   */
  private invokeSystemCall(request: { id?: bigint; name?: string; args: Uint8Array }): ProtoMessage {
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
      throw new ChainError(ERROR_CODE.unknown_system_call, `unknown system call id ${request.id ?? '(none)'}`, { id: String(request.id ?? '') });
    }
    const view = this.headView();
    const ctx = {
      view,
      headBlockTime: this.head.timestamp,
      blockHeight: this.head.height,
      readOnly: true,
      genesisAddress: this.genesisKey.addressBytes,
      caller: EMPTY,
      events: [],
      sequence: { next: 0 },
      authorize: () => false,
      chain: headFacts(this.chainId, this.head, this.settings.irreversibleDepth, this.committed),
    };
    return { value: invokeSystemCallReadOnly(ctx, sid, request.args) };
  }

  /**
   * contract_meta_store.get_contract_meta: the ABI of a built-in contract, or the one uploaded with the contract
   * (abiStore.ts); an empty answer for a contract without one, as koinos-contract-meta-store answers.
   */
  private async contractMeta(request: { contract_id: Uint8Array }): Promise<ProtoMessage> {
    const contract = contractAt(this.headView(), request.contract_id);
    if (contract) return { meta: { abi: contractAbi(contract) } };
    const system = systemContractAt(this.headView(), request.contract_id);
    const systemAbi = system && systemContractAbi(system);
    if (systemAbi) return { meta: { abi: systemAbi } };
    const community = [...this.shape.community].find(([, address]) => equalBytes(address, request.contract_id));
    if (community) return { meta: { abi: loadCommunityContract(community[0]).abi } };
    const abi = await this.abis.get(request.contract_id);
    return abi === undefined ? {} : { meta: { abi } };
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
    const pages = this.chain.history.page(request.address, {
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
        ? blockKey(pointer.height)
        : transactionRecordKey(pointer.height, pointer.transactionIndex),
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

  /** The one handler table: a Record over NODE_METHODS, so a method without a handler (or a stray one) does not compile. */
  private makeHandlers(): Record<NodeMethod, Handler> {
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
      'chain.read_contract': (r) => this.readContract(normalize('chain.read_contract', r)),
      'chain.get_account_nonce': (r) => {
        const { account } = normalize<{ account: Uint8Array }>('chain.get_account_nonce', r);
        return { nonce: nonceBytesOf(this.committed, account) };
      },
      'chain.get_account_rc': (r) => {
        const { account } = normalize<{ account: Uint8Array }>('chain.get_account_rc', r);
        return { rc: KOIN.accountRc(this.headView(), account, this.head.timestamp) };
      },
      'chain.get_resource_limits': () => ({ resource_limit_data: { ...RESOURCE_LIMITS } }),
      'chain.invoke_system_call': (r) => this.invokeSystemCall(normalize('chain.invoke_system_call', r)),
      'contract_meta_store.get_contract_meta': (r) => this.contractMeta(normalize('contract_meta_store.get_contract_meta', r)),
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
        // koinos-block-store reqhandler.go: a start above the head block is an error, not an empty list.
        if (req.ancestor_start_height > top) throw new NodeError('Block height mismatch');
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
        const pointers = await this.store.getMany(ids.map((id) => transactionKey(id)));
        const out: ProtoMessage[] = [];
        for (const bytes of pointers) {
          if (!bytes) continue;
          const p = decode<{ block_height: bigint; transaction_index: number }>('koinos.devnet.record_pointer', bytes);
          const [record, topology] = await Promise.all([
            this.store.get(transactionRecordKey(p.block_height, p.transaction_index)),
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
      'devnet.produce_blocks': async (r) => {
        const req = normalize<{ count: number; interval_ms: bigint }>('devnet.produce_blocks', r);
        if (req.interval_ms > 86_400_000n * 366n) throw new WalletError('INVALID_ARGUMENT', `interval_ms: expected at most a year of milliseconds, got ${req.interval_ms}`);
        const { id, height } = await this.produceBlocks(req.count, Number(req.interval_ms));
        return { block_id: id, block_height: height };
      },
      'devnet.advance_time': async (r) => {
        const { milliseconds } = normalize<{ milliseconds: bigint }>('devnet.advance_time', r);
        if (milliseconds === 0n || milliseconds > 86_400_000n * 36_600n) {
          throw new WalletError('INVALID_ARGUMENT', `milliseconds: expected 1 to 3,162,240,000,000 (a century), got ${milliseconds}`);
        }
        const { id, height, timestamp } = await this.advanceTime(Number(milliseconds));
        return { block_id: id, block_height: height, head_block_time: timestamp };
      },
      'devnet.set_balance': async (r) => {
        const req = normalize<{ contract_id: Uint8Array; account: Uint8Array; value: bigint }>('devnet.set_balance', r);
        const { id, height } = await this.setBalance({ contract: req.contract_id, account: req.account, value: req.value });
        return { block_id: id, block_height: height };
      },
      'devnet.create_token': async (r) => {
        const req = normalize<{ name: string; symbol: string; decimals: number; initial_supply: bigint; owner: Uint8Array }>('devnet.create_token', r);
        const { contractId, id, height } = await this.createToken({
          name: req.name,
          symbol: req.symbol,
          decimals: req.decimals,
          initialSupply: req.initial_supply,
          owner: req.owner,
        });
        return { contract_id: contractId, block_id: id, block_height: height };
      },
      'devnet.snapshot': async () => ({ id: await this.snapshot() }),
      'devnet.revert': async (r) => {
        const { id } = normalize<{ id: bigint }>('devnet.revert', r);
        const block = await this.revert(id);
        return { block_id: block.id, block_height: block.height };
      },
      'devnet.reset': async (r) => {
        const req = normalize<{ genesis_seed: string; accounts: number; initial_balance: bigint }>('devnet.reset', r);
        const chainId = await this.reset({
          genesisSeed: req.genesis_seed === '' ? undefined : req.genesis_seed,
          accounts: req.accounts === 0 ? undefined : req.accounts,
          initialBalance: req.initial_balance === 0n ? undefined : req.initial_balance,
        });
        return { chain_id: chainId };
      },
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Opening

function settingsOf(config: DevnetConfig): Settings {
  const initialBalance = checkBalance('initialBalance', config.initialBalance, DEFAULT_INITIAL_BALANCE);
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
    const metaBytes = store.persistent ? await store.get(metaKey()) : undefined;
    let genesis: Genesis;
    let chain: LoadedChain;
    let meta: ChainMeta;
    if (metaBytes) {
      meta = decode<ChainMeta>('koinos.devnet.chain_meta', metaBytes);
      checkMeta(meta, config, config.dataDir!);
      const stored = shapeFromSpec(meta.shape);
      if (config.shape !== undefined && shapeSpec(resolveShape(config.shape)) !== shapeSpec(stored)) {
        throw new WalletError('INVALID_ARGUMENT', `the chain in ${config.dataDir} was created with shape "${shapeSpec(stored)}"; the config asks for "${shapeSpec(resolveShape(config.shape))}"`, {
          metaMessages: ['Start with reset to replace it with a new chain, or drop the shape options to continue it.'],
        });
      }
      genesis = buildGenesis(genesisParams({ seed: meta.genesis_seed, salt: meta.salt, accounts: meta.accounts, initialBalance: meta.initial_balance }, stored));
      if (!equalBytes(genesis.chainId, meta.chain_id)) {
        throw new Error(`the chain ID stored in ${config.dataDir} does not match its genesis (data written by another version?)`);
      }
      chain = await loadChain(store, genesis);
    } else {
      // A reset gives a new chain ID even with the same config, as a restarted public testnet does.
      const salt = config.reset ? new Uint8Array(randomBytes(16)) : EMPTY;
      const shape = resolveShape(config.shape);
      genesis = buildGenesis(genesisParams({ seed: settings.genesisSeed, salt, accounts: settings.accounts, initialBalance: settings.initialBalance }, shape));
      meta = {
        format_version: FORMAT_VERSION,
        chain_id: genesis.chainId,
        genesis_seed: settings.genesisSeed,
        salt,
        accounts: settings.accounts,
        initial_balance: settings.initialBalance,
        shape: shapeSpec(shape),
      };
      chain = await newChain(store, genesis, meta);
    }
    const threads = config.signatureThreads ?? Math.min(2, Math.max(1, availableParallelism() - 1));
    const recoverer = threads > 0 ? workerRecoverer(threads) : inlineRecoverer();
    const node = new Devnet({ settings, store, recoverer, chain: { genesis, meta, ...chain }, onBlock: config.onBlock });
    node.start();
    return node;
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}


/** Genesis parameters with a shape and the bytecode of the community contracts it deploys. */
function genesisParams(base: Omit<GenesisParams, 'shape' | 'community'>, shape: ChainShape): GenesisParams {
  const community = new Map<string, CommunityContract>();
  for (const name of shape.community.keys()) community.set(name, loadCommunityContract(name));
  return { ...base, shape, community };
}

/** The head record of the store for a head. */
function headRecord(head: Head): Uint8Array {
  return encode('koinos.devnet.head_record', {
    topology: head.height === 0n ? { id: head.id, height: 0n } : { id: head.id, height: head.height, previous: head.previous },
    timestamp: head.timestamp,
    state_merkle_root: head.stateMerkleRoot,
  });
}
