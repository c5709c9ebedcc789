// The developer methods (devnet.*): produce blocks now, move the clock, set a balance, create a test token, snapshot,
// revert and reset. Each changes the chain only through a block it produces on the node's queue, or (revert, reset)
// by replacing what the node runs; the node hands them its queue, its block producer and its chain (NodeCore).
import { randomBytes } from 'node:crypto';
import { equalBytes, toBase58 } from '../koinos/bytes.ts';
import { decode, encode } from '../koinos/codec.ts';
import { WalletError } from '../koinos/errors.ts';
import { buildGenesis } from './chain/genesis.ts';
import type { Mempool } from './chain/mempool.ts';
import { shapeSpec, type ChainShape } from './chain/shapes.ts';
import { checkAccounts, checkBalance, checkInteger, genesisParams, type Settings } from './config.ts';
import { contractAt, defineTestToken, newTokenAddress } from './contracts/registry.ts';
import { StateView, type BaseState } from './state/state.ts';
import type { AbiStore } from './store/abiStore.ts';
import { FORMAT_VERSION, newChain, type Chain, type ChainMeta, type Head } from './store/chainData.ts';
import type { Store, StoreOp } from './store/store.ts';
import {
  abiKey,
  blockIdKey,
  blockKey,
  headKey,
  historyKey,
  keyTextBytes,
  stateObjectKey,
  topologyKey,
  transactionKey,
  transactionRecordKey,
} from './store/storeKeys.ts';
import type { CreateTokenOptions, ResetOptions, SetBalanceOptions } from './types.ts';

const EMPTY: Uint8Array = new Uint8Array(0);

/** Most blocks one devnet.produce_blocks call makes. */
const MAX_PRODUCE_BLOCKS = 10_000;

/** A block the node produced: its id and height. */
export interface ProducedBlock {
  id: Uint8Array;
  height: bigint;
}

/** Changes a developer method makes to the state of the block it produces, before its transactions apply. */
export type BlockAdjust = (view: StateView, timestamp: bigint, height: bigint) => void;

/** What the developer methods need of the node: its queue, its block producer, and the chain and clock they move. */
export interface NodeCore {
  readonly settings: Settings;
  readonly store: Store;
  readonly abis: AbiStore;
  readonly mempool: Mempool;
  /** The running chain; reset replaces it. */
  chain: Chain;
  /** How far devnet.advance_time / produce_blocks moved the clock (ms). */
  clockOffset: number;
  /** Runs `work` after everything queued before it. */
  enqueue<T>(work: () => T | Promise<T>): Promise<T>;
  /** Produces the next block now (inside the queue), with `adjust` applied to its state first. */
  produceNow(adjust?: BlockAdjust): Promise<ProducedBlock>;
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

/** The developer methods of one node, and the snapshots they keep. */
export class DeveloperMethods {
  private readonly snapshots = new Map<bigint, Snapshot>();
  private nextSnapshot = 1n;

  constructor(private readonly core: NodeCore) {}

  private get chainId(): Uint8Array {
    return this.core.chain.genesis.chainId;
  }

  private get shape(): ChainShape {
    return this.core.chain.genesis.shape;
  }

  /** KOIN's address in this chain's shape (every shape places KOIN: resolveShape keeps it). */
  private get koinBytes(): Uint8Array {
    return this.shape.system.get('koin')!;
  }

  private get head(): Head {
    return this.core.chain.head;
  }

  private get committed(): BaseState {
    return this.core.chain.committed;
  }

  async produceBlock(): Promise<{ id: Uint8Array; height: bigint }> {
    return this.core.enqueue(() => this.core.produceNow());
  }

  async produceBlocks(count: number, intervalMs = 0): Promise<{ id: Uint8Array; height: bigint }> {
    checkInteger('count', count, 1, 1, MAX_PRODUCE_BLOCKS);
    checkInteger('interval_ms', intervalMs, 0, 0, 86_400_000 * 366);
    return this.core.enqueue(async () => {
      let last = { id: this.head.id, height: this.head.height };
      for (let i = 0; i < count; i++) {
        this.core.clockOffset += intervalMs;
        last = await this.core.produceNow();
      }
      return last;
    });
  }

  async advanceTime(milliseconds: number): Promise<{ id: Uint8Array; height: bigint; timestamp: bigint }> {
    checkInteger('milliseconds', milliseconds, 0, 1, 86_400_000 * 366 * 100);
    return this.core.enqueue(async () => {
      this.core.clockOffset += milliseconds;
      const block = await this.core.produceNow();
      return { ...block, timestamp: this.head.timestamp };
    });
  }

  async setBalance(options: SetBalanceOptions): Promise<{ id: Uint8Array; height: bigint }> {
    const value = checkBalance('value', options.value, 0n);
    const account = options.account;
    if (!(account instanceof Uint8Array) || account.length === 0)
      throw new WalletError('INVALID_ARGUMENT', 'account: expected an address, got nothing');
    const contractId = options.contract && options.contract.length > 0 ? options.contract : this.koinBytes;
    return this.core.enqueue(async () => {
      const token = contractAt(new StateView(this.committed), contractId);
      if (!token) {
        throw new WalletError(
          'INVALID_ARGUMENT',
          `contract_id: expected KOIN, VHP or a token made with devnet.create_token, got ${toBase58(contractId)}`,
        );
      }
      // A refusal thrown from the block's plan leaves no block: nothing is committed, and the step of the queue lasts
      // until the block is made, so the next step plans on it.
      return this.core.produceNow((view, timestamp, height) => {
        try {
          token.setBalance(view, account, value, timestamp, height);
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          throw new WalletError('INVALID_ARGUMENT', `value: ${error.message}; choose a smaller balance`);
        }
      });
    });
  }

  async createToken(options: CreateTokenOptions): Promise<{ contractId: Uint8Array; id: Uint8Array; height: bigint }> {
    const name = options.name;
    const symbol = options.symbol;
    if (typeof name !== 'string' || name.length === 0 || name.length > 64) {
      throw new WalletError('INVALID_ARGUMENT', `name: expected 1 to 64 characters, got ${JSON.stringify(name ?? '')}`);
    }
    if (typeof symbol !== 'string' || !/^[A-Za-z0-9._-]{1,16}$/.test(symbol)) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `symbol: expected 1 to 16 letters, digits, ".", "_" or "-", got ${JSON.stringify(symbol ?? '')}`,
      );
    }
    const decimals = checkInteger('decimals', options.decimals, 8, 0, 18);
    const supply = checkBalance('initial_supply', options.initialSupply, 0n);
    const owner = options.owner;
    if (!(owner instanceof Uint8Array) || owner.length !== 25) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        'owner: expected the address that holds the initial supply and may mint',
      );
    }
    return this.core.enqueue(async () => {
      let contractId: Uint8Array = EMPTY;
      const block = await this.core.produceNow((view, timestamp, height) => {
        contractId = newTokenAddress(view, this.head.id);
        const token = defineTestToken(view, contractId, { name, symbol, decimals, owner });
        if (supply > 0n) token.setBalance(view, owner, supply, timestamp, height);
      });
      return { contractId, ...block };
    });
  }

  async snapshot(): Promise<bigint> {
    return this.core.enqueue(async () => {
      const id = this.nextSnapshot++;
      const abis = await this.core.abis.all();
      this.snapshots.set(id, {
        chainId: this.chainId,
        head: { ...this.head },
        objects: new Map(this.committed.objects),
        clockOffset: this.core.clockOffset,
        abis,
      });
      return id;
    });
  }

  /**
   * Goes back to a snapshot: removes the blocks after it (store, history, transaction index), restores its state,
   * empties the mempool. The snapshot and every later one are used up, as in Anvil.
   */
  async revert(id: bigint): Promise<{ id: Uint8Array; height: bigint }> {
    return this.core.enqueue(async () => {
      const snap = this.snapshots.get(id);
      if (!snap || !equalBytes(snap.chainId, this.chainId) || snap.head.height > this.head.height) {
        throw new WalletError(
          'INVALID_ARGUMENT',
          `id: expected a snapshot taken with devnet.snapshot and not yet reverted to, got ${id}`,
        );
      }
      const chain = this.core.chain;
      const ops: StoreOp[] = [];
      for (let h = snap.head.height + 1n; h <= chain.head.height; h++) {
        const bytes = await this.core.store.get(blockKey(h));
        if (!bytes) continue;
        const item = decode('koinos.block_store.block_item', bytes);
        ops.push(
          { type: 'del', key: blockKey(h) },
          { type: 'del', key: topologyKey(h) },
          { type: 'del', key: blockIdKey(item.block_id) },
        );
        (item.block?.transactions ?? []).forEach((tx, index) => {
          ops.push({ type: 'del', key: transactionRecordKey(h, index) }, { type: 'del', key: transactionKey(tx.id) });
        });
      }
      for (const key of chain.committed.objects.keys())
        if (!snap.objects.has(key)) ops.push({ type: 'del', key: stateObjectKey(key) });
      for (const [key, value] of snap.objects) {
        if (chain.committed.objects.get(key) !== value) ops.push({ type: 'put', key: stateObjectKey(key), value });
      }
      const dropped = chain.history.truncate(Number(snap.head.height));
      if (this.core.store.persistent) {
        for (const { address, from, to } of dropped)
          for (let seq = from; seq < to; seq++) ops.push({ type: 'del', key: historyKey(address, seq) });
      }
      const abis = await this.core.abis.all();
      for (const key of abis.keys()) if (!snap.abis.has(key)) ops.push({ type: 'del', key: abiKey(keyTextBytes(key)) });
      for (const [key, value] of snap.abis) ops.push({ type: 'put', key: abiKey(keyTextBytes(key)), value });
      ops.push({ type: 'put', key: headKey(), value: headRecord(snap.head) });
      await this.core.store.write(ops);
      this.core.abis.forget();
      chain.committed.objects.clear();
      for (const [key, value] of snap.objects) chain.committed.objects.set(key, value);
      chain.head = { ...snap.head };
      this.core.clockOffset = Math.max(this.core.clockOffset, snap.clockOffset);
      this.core.mempool.clear();
      for (const key of [...this.snapshots.keys()]) if (key >= id) this.snapshots.delete(key);
      return { id: chain.head.id, height: chain.head.height };
    });
  }

  /** A new chain from a new genesis (random salt: a new chain ID even with the same settings), replacing this one. */
  async reset(options: ResetOptions = {}): Promise<Uint8Array> {
    const seed = options.genesisSeed ?? this.core.chain.meta.genesis_seed;
    if (typeof seed !== 'string') throw new WalletError('INVALID_ARGUMENT', 'genesis_seed: expected a string');
    const accounts = options.accounts === undefined ? this.core.chain.meta.accounts : checkAccounts(options.accounts);
    const initialBalance = checkBalance(
      'initial_balance',
      options.initialBalance,
      this.core.chain.meta.initial_balance,
    );
    return this.core.enqueue(async () => {
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
      await this.core.store.clear();
      this.core.abis.forget();
      const loaded = await newChain(this.core.store, genesis, meta);
      this.core.chain = { genesis, meta, ...loaded };
      this.core.mempool.clear();
      this.snapshots.clear();
      this.core.clockOffset = 0;
      if (!this.core.settings.manual && this.core.settings.blockTimeMs > 0) await this.core.produceNow();
      return genesis.chainId;
    });
  }
}

/** The head record of the store for a head. */
function headRecord(head: Head): Uint8Array {
  return encode('koinos.devnet.head_record', {
    topology:
      head.height === 0n ? { id: head.id, height: 0n } : { id: head.id, height: head.height, previous: head.previous },
    timestamp: head.timestamp,
    state_merkle_root: head.stateMerkleRoot,
  });
}
