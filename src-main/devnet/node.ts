// The devnet service core: one in-process Koinos chain (genesis, KOIN and VHP, test tokens, mempool, block producer,
// block and transaction stores, account history, contract meta store) answering the node's JSON-RPC methods as
// decoded protobuf messages, plus the developer methods (`devnet.*`). The HTTP layers and the CLI sit on `openNode`.
// Here: the queue every change goes through, block production and transaction submission; the settings are in
// config.ts, the method table in methodTable.ts, the reads in chainReader.ts, the devnet.* methods in developerMethods.ts.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { equalBytes } from '../koinos/bytes.ts';
import { decode, encode } from '../koinos/codec.ts';
import { WalletError } from '../koinos/errors.ts';
import { addressFromPublicKey, addressToString } from '../koinos/address.ts';
import type { TransactionReceipt } from '../koinos/types.ts';
import {
  applyTransaction,
  prepareTransaction,
  recoverableSignatures,
  type ApplyContext,
  type PreparedTransaction,
} from './chain/applyTransaction.ts';
import { buildBlock, type BuiltBlock, type IncludedTransaction, type Pause } from './chain/blockBuilder.ts';
import { MAX_INCLUSION_ATTEMPTS, proposeBlock, type LeftOut, type ProposalRun } from './chain/blockFill.ts';
import { blockFacts, headFacts } from './chain/chainFacts.ts';
import type { ChainFacts } from './contracts/context.ts';
import { DEV_MNEMONIC, type DevKey } from './chain/devKeys.ts';
import { buildGenesis, type Genesis } from './chain/genesis.ts';
import { historyAddresses, MAX_HISTORY_HEIGHT } from './chain/history.ts';
import { Admission } from './chain/admission.ts';
import { Mempool } from './chain/mempool.ts';
import { resolveShape, shapeFromSpec, shapeSpec, type ChainShape } from './chain/shapes.ts';
import {
  defaultSignatureThreads,
  inlineRecoverer,
  workerRecoverer,
  type SignatureRecoverer,
} from './chain/signatures.ts';
import { ChainReader } from './chainReader.ts';
import { genesisParams, settingsOf, type Settings } from './config.ts';
import { KOIN } from './contracts/registry.ts';
import { DeveloperMethods, type BlockAdjust, type ProducedBlock } from './developerMethods.ts';
import { makeHandlers, runMethod, type Handlers } from './methodTable.ts';
import { isNodeMethod, NODE_METHODS, type NodeAnswer, type NodeMethod, type NodeRequestInput } from './methods.ts';
import { ChainError, ERROR_CODE } from './state/chainError.ts';
import { BlockResources, isBlockLimitError } from './state/resources.ts';
import { BaseState, StateView } from './state/state.ts';
import { AbiStore, type AbiUpdate } from './store/abiStore.ts';
import {
  checkMeta,
  FORMAT_VERSION,
  loadChain,
  newChain,
  type Chain,
  type ChainMeta,
  type Head,
  type LoadedChain,
} from './store/chainData.ts';
import { LevelStore, MemoryStore, type Store } from './store/store.ts';
import { metaKey } from './store/storeKeys.ts';
import { RECOVERY_IMPLEMENTATION } from './vm/secp256k1Recovery.ts';
import {
  type BlockTransactionInfo,
  type CreateTokenOptions,
  type DevAccount,
  type DevnetConfig,
  type DevnetNode,
  type ResetOptions,
  type SetBalanceOptions,
} from './types.ts';

const EMPTY: Uint8Array = new Uint8Array(0);

/**
 * How long the timer's block production runs before it lets waiting requests through (ms): a submission waits at
 * most about this long for a block being made.
 */
const PACED_SLICE_MS = 1;

/**
 * How many blocks' worth of pending transactions make the blocks "behind": a submission then waits until they catch
 * up (chain/admission.ts). Under a steady load the timer makes a block each time one block's worth is pending, so the
 * mempool stays under two; three leaves room for a burst.
 */
const BACKLOG_BLOCKS = 3n;

/** A block planned on a head (Devnet.planBlock), ready to be written and published (Devnet.commitBlock). */
interface PlannedBlock {
  /** The chain whose head the block follows. */
  chain: Chain;
  /** The block's state changes, over the chain's committed state. */
  view: StateView;
  built: BuiltBlock;
  transactionCount: number;
  /** Pending transactions the block settles (included or dropped): they leave the mempool. */
  done: string[];
  /** Some pending transactions wait for a later block. */
  full: boolean;
  abiUpdate: AbiUpdate;
  /** What the included transactions' receipts say, for onBlock. */
  transactions: BlockTransactionInfo[];
}

/** A request after close: no node answers it (the wire shows an internal error, as the gateway does for a service that is gone). */
function closedError(): WalletError {
  return new WalletError('NODE_UNREACHABLE', 'the devnet is closed');
}

class Devnet implements DevnetNode {
  readonly mnemonic = DEV_MNEMONIC;
  readonly methods: readonly NodeMethod[] = NODE_METHODS;

  private readonly settings: Settings;
  private readonly store: Store;
  private readonly recoverer: SignatureRecoverer;
  private readonly abis: AbiStore;
  private chain: Chain;
  private readonly mempool = new Mempool();
  private tail: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  /** The timer is set to make the next block at once (not at the end of the slot): see produceWhenFull. */
  private timerNow = false;
  /** The timer's block being made (producePaced), until it is written or given up. */
  private pacing: Promise<void> | undefined;
  private closed = false;
  /** How far devnet.advance_time / produce_blocks moved the clock (ms). */
  private clockOffset = 0;
  private readonly onBlock: DevnetConfig['onBlock'];
  private readonly developer: DeveloperMethods;
  private readonly handlers: Handlers;
  /** The last block left pending transactions out for lack of room: the timer makes the next one at once. */
  private lastBlockFull = false;
  /** The block timer's step, once started. */
  private tick: (() => void) | undefined;
  /** The timer's last block failed: the next is tried at the end of the slot only, however full the mempool. */
  private lastBlockFailed = false;
  /** Submissions waiting while the timer's blocks are behind them (see blocksBehind). */
  private readonly admission = new Admission(() => this.blocksBehind());

  constructor(init: {
    settings: Settings;
    store: Store;
    recoverer: SignatureRecoverer;
    chain: Chain;
    onBlock: DevnetConfig['onBlock'];
  }) {
    this.settings = init.settings;
    this.store = init.store;
    this.abis = new AbiStore(init.store);
    this.recoverer = init.recoverer;
    this.chain = init.chain;
    this.onBlock = init.onBlock;
    // The developer methods change the chain and the clock, so they get them by reference (accessors), not by value.
    const node = this;
    this.developer = new DeveloperMethods({
      settings: this.settings,
      store: this.store,
      abis: this.abis,
      mempool: this.mempool,
      get chain() {
        return node.chain;
      },
      set chain(chain) {
        node.chain = chain;
      },
      get clockOffset() {
        return node.clockOffset;
      },
      set clockOffset(offset) {
        node.clockOffset = offset;
      },
      enqueue: (work) => this.enqueue(work),
      produceNow: (adjust) => this.produceNow(adjust),
    });
    const reader = new ChainReader({
      store: this.store,
      abis: this.abis,
      irreversibleDepth: this.settings.irreversibleDepth,
      chain: () => this.chain,
    });
    this.handlers = makeHandlers({
      reader,
      mempool: this.mempool,
      developer: this.developer,
      submitTransaction: (r, complete) => this.submitTransaction(r, complete),
    });
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
    return this.chain.genesis.accounts.map(({ index, address, publicKey, wif }) => ({
      index,
      address,
      publicKey,
      wif,
    }));
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

  async call<M extends NodeMethod>(
    method: M,
    request: NodeRequestInput<M>,
    how?: { complete: true },
  ): Promise<NodeAnswer<M>> {
    if (this.closed) throw closedError();
    if (!isNodeMethod(method)) throw new WalletError('INVALID_ARGUMENT', 'unknown method');
    // Errors pass as they are thrown: server/wireError.ts alone decides what the wire shows of them.
    return await runMethod(this.handlers, method, request ?? {}, how?.complete === true);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Waiting submissions go on, to be refused as closed.
    this.admission.review();
    if (this.timer) clearTimeout(this.timer);
    await this.pacing;
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
      if (this.closed) throw closedError();
      return work();
    });
    // Every change of the chain and of the mempool is a step of this queue: after each, waiting submissions may go on.
    const review = () => this.admission.review();
    this.tail = run.then(review, review);
    return run;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Block production

  /**
   * Starts the block timer (not in manual mode, nor with blockTimeMs 0); produces block 1 at once on a new chain.
   * Blocks come every blockTimeMs, and sooner when a block's worth is pending (see produceWhenFull).
   */
  start(): void {
    if (this.settings.manual || this.settings.blockTimeMs === 0) return;
    const tick = (): void => {
      this.timer = undefined;
      this.timerNow = false;
      if (this.closed) return;
      this.lastBlockFailed = false;
      this.pacing = this.producePaced()
        .catch((error) => {
          this.lastBlockFull = false;
          this.lastBlockFailed = true;
          this.reportBlockFailure(error);
        })
        .finally(() => {
          this.pacing = undefined;
          // A failed block leaves the timer slow: submissions do not wait for blocks that may not come.
          this.admission.review();
          // A full block rolls over to the next at once (the devnet does not wait for a slot while transactions
          // wait for room), so a burst larger than a block is included at the speed blocks are made.
          if (this.closed) return;
          const now = this.lastBlockFull || (!this.lastBlockFailed && this.mempool.fillsBlock());
          this.timer = setTimeout(tick, now ? 0 : this.settings.blockTimeMs);
          this.timerNow = now;
        });
    };
    this.tick = tick;
    this.timerNow = this.head.height === 0n;
    this.timer = setTimeout(tick, this.timerNow ? 0 : this.settings.blockTimeMs);
  }

  /**
   * Whether the timer's blocks are behind the submissions: it makes blocks (not manual mode, nor one per transaction),
   * its last block did not fail, and BACKLOG_BLOCKS blocks' worth is pending.
   */
  private blocksBehind(): boolean {
    return this.tick !== undefined && !this.lastBlockFailed && !this.closed && this.mempool.fillsBlock(BACKLOG_BLOCKS);
  }

  /**
   * Makes the timer's next block now when the pending transactions fill one, rather than at the end of the slot: as a
   * full block rolls over at once, so does a full mempool. Under a steady load the blocks then come as the
   * transactions do, each planned while submissions are answered, instead of all of a slot's blocks back to back.
   * A timer already set for now is left as it is: set again at each submission, it was put off by each (they come
   * more often than its millisecond under load) and fired only once the blocks were behind and submissions waited.
   */
  private produceWhenFull(): void {
    if (this.timer === undefined || this.timerNow || this.pacing !== undefined || !this.tick) return;
    if (this.lastBlockFailed || !this.mempool.fillsBlock()) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.tick, 0);
    this.timerNow = true;
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

  private applyContext(
    base: StateView,
    headBlockTime: bigint,
    blockHeight: bigint,
    sequence: { next: number },
    chain?: ChainFacts,
  ): ApplyContext {
    chain ??= headFacts(this.chainId, this.head, this.settings.irreversibleDepth, this.committed);
    return {
      base,
      headBlockTime,
      blockHeight,
      chainId: this.chainId,
      genesisAddress: this.genesisKey.addressBytes,
      sequence,
      chain,
    };
  }

  /**
   * Produces the next block as koinos-chain's apply_block does (planBlock, then commitBlock), in one step of the
   * queue: what developer methods, blockTimeMs 0 and manual mode use. The timer's blocks are made by producePaced.
   */
  private async produceNow(adjust?: BlockAdjust): Promise<ProducedBlock> {
    return this.commitBlock(await this.planBlock(adjust));
  }

  /**
   * The timer's block, made without holding up submissions: the block is planned outside the queue, pausing between
   * transactions so that submissions are answered meanwhile (they only read the head state and join the mempool, and
   * the plan took its transactions before them), then written in one step of the queue. When the chain moved in the
   * meantime (a developer method or a reset made a block), the plan was for a head that is gone: the block is made
   * again in one step on the new head, as before.
   *
   * Measured and not kept: planning blocks of 64 pending transactions or more on a worker thread that holds a copy of
   * the committed state (sent whole once, then each committed block's changes), the node's thread committing the plan
   * that comes back. On two cores the node's thread spent less a token transfer (587-800 µs against 1,060-1,113 once
   * warm) and about the same a KOIN transfer (274-282 against 273-299), and the server more in all: each transaction
   * is prepared again there, and the plan crosses both ways. In two alternated pairs of `npm run bench`: KOIN
   * saturation 2,282 and 2,481 /s against 2,833 and 3,580; steady 3,000/s p99 1,684 and 2,612 ms against 92 and 136
   * (the node fell behind); warm token 773 and 1,112 /s against 891 and 865. Two cores are bound by the total CPU, not
   * by this thread's.
   */
  private async producePaced(): Promise<void> {
    const chain = this.chain;
    const parent = chain.head;
    const unmoved = () => this.chain === chain && chain.head === parent;
    let plan: PlannedBlock | undefined;
    try {
      plan = await this.planBlock(undefined, PACED_SLICE_MS);
    } catch (error) {
      // A plan whose head was replaced under it may have read the new state half-way: it is made again below.
      if (this.closed) return;
      if (unmoved()) throw error;
    }
    if (this.closed) return;
    await this.enqueue(() => (plan && unmoved() ? this.commitBlock(plan) : this.produceNow()));
  }

  /**
   * Plans the next block as koinos-chain's apply_block does: every chosen pending transaction is applied again, in
   * order, on the block's state with the block's own time and height and one event counter for the whole block.
   * A transaction that reverts now (its state changed since submission) is included reverted, its payer charged;
   * one that fails is dropped (and logged) and the block proposed again without it (blockFill.ts proposeBlock), so
   * the block its contracts saw is the block written. `adjust` (developer methods) changes the state first.
   * Transactions are chosen as koinos-block-producer's fill_block chooses them (see BlockFill): one that would take
   * the block past its limits waits in the mempool for a later block. Signs the block with the genesis key and builds
   * its one batch. Changes nothing: commitBlock writes and publishes the plan.
   * @param sliceMs when set, pause for other work each time the application and the build have run this long
   */
  private async planBlock(adjust?: BlockAdjust, sliceMs?: number): Promise<PlannedBlock> {
    const pause = this.slicer(sliceMs);
    // Checked before anything changes: the history index packs heights into numbers (history.ts).
    if (this.head.height >= BigInt(MAX_HISTORY_HEIGHT))
      throw new Error(`the devnet holds at most ${MAX_HISTORY_HEIGHT} blocks`);
    const chain = this.chain;
    const parent = chain.head;
    const timestamp = this.nextTimestamp();
    const height = parent.height + 1n;
    const pending = this.mempool
      .list(MAX_INCLUSION_ATTEMPTS)
      .map((entry) => ({ idHex: entry.prepared.idHex, receipt: entry.used, entry }));
    const proposal = await proposeBlock(
      pending,
      this.mempool.size > pending.length,
      async (
        chosen,
      ): Promise<ProposalRun<{ view: StateView; included: IncludedTransaction[]; infos: BlockTransactionInfo[] }>> => {
        const view = new StateView(chain.committed);
        adjust?.(view, timestamp, height);
        const sequence = { next: 0 };
        const transactions = chosen.map((c) => c.entry.prepared);
        const facts = blockFacts(
          this.chainId,
          { parent, timestamp, transactions, signer: this.genesisKey },
          this.settings.irreversibleDepth,
          chain.committed,
        );
        const included: IncludedTransaction[] = [];
        const infos: BlockTransactionInfo[] = [];
        const failed: LeftOut[] = [];
        const block = new BlockResources();
        for (const prepared of transactions) {
          const paused = pause();
          if (paused) await paused;
          const before = { disk: block.disk, network: block.network, compute: block.compute };
          try {
            const applied = applyTransaction(
              { ...this.applyContext(view, timestamp, height, sequence, facts), block },
              prepared,
            );
            applied.view.commit();
            const { receipt } = applied;
            included.push({
              prepared,
              receiptBytes: encode('koinos.protocol.transaction_receipt', receipt),
              disk: receipt.disk_storage_used,
              compute: receipt.compute_bandwidth_used,
              reverted: receipt.reverted,
              impacted: historyAddresses(prepared, receipt),
            });
            // Only for a listener (the CLI prints them): a load test's blocks carry thousands.
            if (this.onBlock)
              infos.push({
                id: prepared.idHex,
                rcUsed: receipt.rc_used,
                reverted: receipt.reverted,
                logs: receipt.logs,
                disk: receipt.disk_storage_used,
                network: receipt.network_bandwidth_used,
                compute: receipt.compute_bandwidth_used,
              });
          } catch (error) {
            if (!(error instanceof ChainError)) throw error;
            Object.assign(block, before);
            // One that fitted a block of its own at submission but not this one's rest waits for the next block, as a
            // proposal's failed transaction stays in koinos-mempool; any other failure drops it.
            const wait = isBlockLimitError(error) && included.length > 0;
            if (!wait)
              this.settings.log(`transaction 0x${prepared.idHex} dropped from block ${height}: ${error.message}`);
            failed.push({ idHex: prepared.idHex, wait });
          }
        }
        return failed.length > 0 ? { failed } : { applied: { view, included, infos } };
      },
    );
    const { view, included, infos } = proposal.applied;
    const built = await buildBlock(
      {
        parent,
        timestamp,
        entries: included,
        changes: view.changes,
        signer: this.genesisKey,
        history: { persistent: this.store.persistent, nextSeq: (address) => chain.history.nextSeq(address) },
      },
      pause,
    );
    return {
      chain,
      view,
      built,
      transactionCount: included.length,
      done: [...proposal.chosen, ...proposal.dropped].map((c) => c.idHex),
      full: proposal.full,
      abiUpdate: this.abis.blockUpdate(included.map((e) => ({ tx: e.prepared.tx, reverted: e.reverted }))),
      transactions: infos,
    };
  }

  /**
   * The pause of a paced block's work (planBlock): once `sliceMs` of work has run since the last pause, it lets the
   * waiting requests through (setImmediate) before the work goes on; without `sliceMs` it never pauses.
   */
  private slicer(sliceMs: number | undefined): Pause {
    if (sliceMs === undefined) return () => undefined;
    let sliceStart = performance.now();
    return () => {
      if (performance.now() - sliceStart < sliceMs) return undefined;
      return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        if (this.closed) throw closedError();
        sliceStart = performance.now();
      });
    };
  }

  /**
   * Writes a planned block's one batch, then publishes it: state, head, account history, mempool, listeners.
   * Runs in a step of the queue on the head the plan was made for.
   */
  private async commitBlock(plan: PlannedBlock): Promise<ProducedBlock> {
    const { chain, view, built, abiUpdate } = plan;
    const { head, ops, records } = built;
    const blockHeight = Number(head.height); // at most MAX_HISTORY_HEIGHT (checked by planBlock)
    // Publish only what is on disk: until the batch is written nobody can see this block (block production and
    // submissions are serialized by the queue), so a process killed at any moment restarts at the last block seen.
    await this.store.write(abiUpdate.ops.length > 0 ? [...ops, ...abiUpdate.ops] : ops);
    abiUpdate.commit();
    for (const [address, transactionIndex] of records)
      chain.history.append(address, { height: blockHeight, transactionIndex });
    view.commit();
    chain.head = head;
    for (const id of plan.done) this.mempool.remove(id);
    this.onBlock?.({
      id: head.id,
      height: head.height,
      timestamp: head.timestamp,
      transactionCount: plan.transactionCount,
      transactions: plan.transactions,
    });
    this.lastBlockFull = plan.full;
    return { id: head.id, height: head.height };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Transactions

  private async submitTransaction(
    request: NodeRequestInput<'chain.submit_transaction'>,
    complete: boolean,
  ): Promise<NodeAnswer<'chain.submit_transaction'>> {
    const broadcast = request.broadcast === true;
    // One that would join the mempool waits while the blocks are behind (chain/admission.ts), before any work.
    const room = broadcast ? this.admission.wait() : undefined;
    if (room) await room;
    const prepared = prepareTransaction(request.transaction, complete);
    // Only the signatures rc_limit pays for: the node recovers lazily while metering, and would never reach the rest.
    const signatures = prepared.tx.signatures.slice(
      0,
      recoverableSignatures(prepared.tx.signatures.length, prepared.rcLimit),
    );
    const recovery = this.recoverer.recover(signatures.map((signature) => ({ signature, digest: prepared.idDigest })));
    return this.enqueue(async () => {
      const results = await recovery;
      if (this.closed) throw closedError();
      prepared.signers = results.map((r) =>
        'publicKey' in r ? { address: addressFromPublicKey(r.publicKey) } : { error: r.error },
      );
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
      const { disk_storage_used, network_bandwidth_used, compute_bandwidth_used } = applied.receipt;
      const used = { disk_storage_used, network_bandwidth_used, compute_bandwidth_used };
      this.mempool.add({ prepared, used, maxPayerRc });
      this.produceWhenFull();
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
  // Developer methods (devnet.*, developerMethods.ts): each changes the chain only through a block it produces.

  async produceBlock(): Promise<ProducedBlock> {
    return this.developer.produceBlock();
  }

  async produceBlocks(count: number, intervalMs = 0): Promise<ProducedBlock> {
    return this.developer.produceBlocks(count, intervalMs);
  }

  async advanceTime(milliseconds: number): Promise<{ id: Uint8Array; height: bigint; timestamp: bigint }> {
    return this.developer.advanceTime(milliseconds);
  }

  async setBalance(options: SetBalanceOptions): Promise<ProducedBlock> {
    return this.developer.setBalance(options);
  }

  async createToken(options: CreateTokenOptions): Promise<{ contractId: Uint8Array; id: Uint8Array; height: bigint }> {
    return this.developer.createToken(options);
  }

  async snapshot(): Promise<bigint> {
    return this.developer.snapshot();
  }

  async revert(id: bigint): Promise<ProducedBlock> {
    return this.developer.revert(id);
  }

  async reset(options: ResetOptions = {}): Promise<Uint8Array> {
    return this.developer.reset(options);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Opening

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
  const store: Store = config.dataDir
    ? await LevelStore.open(config.dataDir, config.reset === true)
    : new MemoryStore();
  try {
    const metaBytes = store.persistent ? await store.get(metaKey()) : undefined;
    let genesis: Genesis;
    let chain: LoadedChain;
    let meta: ChainMeta;
    if (metaBytes) {
      meta = decode('koinos.devnet.chain_meta', metaBytes);
      checkMeta(meta, config, config.dataDir!);
      const stored = shapeFromSpec(meta.shape);
      if (config.shape !== undefined && shapeSpec(resolveShape(config.shape)) !== shapeSpec(stored)) {
        throw new WalletError(
          'INVALID_ARGUMENT',
          `the chain in ${config.dataDir} was created with shape "${shapeSpec(stored)}"; the config asks for "${shapeSpec(resolveShape(config.shape))}"`,
          {
            metaMessages: [
              'Start with reset to replace it with a new chain, or drop the shape options to continue it.',
            ],
          },
        );
      }
      genesis = buildGenesis(
        genesisParams(
          { seed: meta.genesis_seed, salt: meta.salt, accounts: meta.accounts, initialBalance: meta.initial_balance },
          stored,
        ),
      );
      if (!equalBytes(genesis.chainId, meta.chain_id)) {
        throw new Error(
          `the chain ID stored in ${config.dataDir} does not match its genesis (data written by another version?)`,
        );
      }
      chain = await loadChain(store, genesis);
    } else {
      // A reset gives a new chain ID even with the same config, as a restarted public testnet does.
      const salt = config.reset ? new Uint8Array(randomBytes(16)) : EMPTY;
      const shape = resolveShape(config.shape);
      genesis = buildGenesis(
        genesisParams(
          { seed: settings.genesisSeed, salt, accounts: settings.accounts, initialBalance: settings.initialBalance },
          shape,
        ),
      );
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
    const native = RECOVERY_IMPLEMENTATION === 'native';
    const threads = config.signatureThreads ?? defaultSignatureThreads(availableParallelism(), native);
    const recoverer = threads > 0 ? workerRecoverer(threads, native ? 2 : 1) : inlineRecoverer();
    const node = new Devnet({
      settings,
      store,
      recoverer,
      chain: { genesis, meta, ...chain },
      onBlock: config.onBlock,
    });
    node.start();
    return node;
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}
