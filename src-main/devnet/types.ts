// The contract between the devnet's chain (the service layer) and its thin HTTP layers (REST, JSON-RPC, CLI).
// The service speaks decoded protobuf messages: `call('chain.get_account_rc', { account })` takes the
// `koinos.rpc.chain.get_account_rc_request` object and returns the `..._response` object.
import type { ChainShape, ShapeOptions } from './chain/shapes.ts';
import type { NodeAnswer, NodeMethod, NodeRequest, NodeRequestInput } from './methods.ts';

/** A produced block as onBlock sees it: its place, and what its transactions' receipts say. */
export interface ProducedBlockInfo {
  id: Uint8Array;
  height: bigint;
  timestamp: bigint;
  transactionCount: number;
  /** The block's transactions, in order. */
  transactions: readonly BlockTransactionInfo[];
}

/** One transaction of a produced block, from its receipt. */
export interface BlockTransactionInfo {
  /** The transaction id, as hex after 0x. */
  id: string;
  /** Mana used (rc_used), in KOIN base units. */
  rcUsed: bigint;
  reverted: boolean;
  /** The receipt's logs: what its contracts logged, and a reversion's message last. */
  logs: readonly string[];
  disk: bigint;
  network: bigint;
  compute: bigint;
}

export interface DevnetConfig {
  /** Seed of the genesis data: the same seed gives the same chain ID; a new seed gives a new chain. Default 'koinos-devnet'. */
  genesisSeed?: string;
  /** Number of pre-funded development accounts (default 10). */
  accounts?: number;
  /** KOIN (base units) given to each development account at genesis (default 1,000,000 KOIN). */
  initialBalance?: bigint;
  /**
   * Block interval in ms (default 3000), shorter when the pending transactions fill a block (a full block is made at
   * once); 0 produces one block per accepted transaction.
   */
  blockTimeMs?: number;
  /** Produce blocks only on request (`produceBlock()` / JSON-RPC `devnet.produce_block`). */
  manual?: boolean;
  /** Persist the chain in LevelDB here; without it the chain lives in memory. */
  dataDir?: string;
  /** Start a new chain in dataDir, discarding the old one (a new chain ID, like a testnet restart). */
  reset?: boolean;
  /** How many blocks last_irreversible_block trails the head (default 60, as on mainnet). */
  irreversibleDepth?: number;
  /** Clock in ms since epoch (tests may drive it). Default Date.now. */
  now?: () => number;
  /** Pending transactions allowed per account (the node's `pending-transaction-limit`, default 10). */
  pendingTransactionLimit?: number;
  /**
   * Worker threads that recover signatures, started when first needed; 0 recovers on the calling thread. Default:
   * cores - 1, at most 2 (on one or two cores: 0 when libsecp256k1 runs natively here, else 1). With native
   * libsecp256k1 a lone signature is recovered on the calling thread anyway; concurrent submissions go to the workers.
   */
  signatureThreads?: number;
  /** Called after each block is produced (in memory; its batch is queued for the disk). */
  onBlock?: (block: ProducedBlockInfo) => void;
  /** Where warnings go (a transaction dropped at block time, a failed block). Default console.warn. */
  log?: (message: string) => void;
  /**
   * The network shape (shapes.ts): `{ like: 'mainnet' }` places the system contracts at mainnet's addresses and deploys
   * its community contracts; `systemContracts` places single ones anywhere. Default: the devnet's own layout.
   */
  shape?: ShapeOptions;
}

export interface DevAccount {
  index: number;
  /** base58 address */
  address: string;
  /** compressed public key, hex */
  publicKey: string;
  /** compressed WIF; development only */
  wif: string;
}

/** devnet.set_balance: the balance of `account` on `contract` (KOIN when absent) becomes `value` (base units). */
export interface SetBalanceOptions {
  contract?: Uint8Array;
  account: Uint8Array;
  value: bigint;
}

/** devnet.create_token: a KCS-4 test token whose whole initial supply `owner` holds (and only `owner` may mint). */
export interface CreateTokenOptions {
  name: string;
  symbol: string;
  /** 0 to 18 (default 8). */
  decimals?: number;
  initialSupply?: bigint;
  owner: Uint8Array;
}

/** devnet.reset: what changes besides the chain ID (each defaults to the running devnet's value). */
export interface ResetOptions {
  genesisSeed?: string;
  accounts?: number;
  initialBalance?: bigint;
}

export interface DevnetNode {
  /** The chain ID; a reset changes it (and the accounts when asked), so read these again after one. */
  readonly chainId: Uint8Array;
  readonly genesisAddress: string;
  /** KOIN's address in this chain's shape. */
  readonly koinAddress: string;
  /** Where this chain's system and community contracts are (its network shape). */
  readonly shape: ChainShape;
  readonly mnemonic: string;
  readonly accounts: DevAccount[];
  /** The genesis key: signs every block and is the only key KOIN's mint accepts. Development only. */
  readonly genesisAccount: DevAccount;
  /** JSON-RPC method names the service answers, `service.method`. */
  readonly methods: readonly NodeMethod[];
  /**
   * Runs one node method on a request of its request message (a field left out is its default); resolves its response
   * message (a field at its default may be left out). The method's messages type both.
   * @throws ChainError for the chain's refusals (its code and data), WalletError INVALID_ARGUMENT / NOT_FOUND for the
   *   other services' (a message only); no state changes on a rejected request.
   */
  call<M extends NodeMethod>(method: M, request: NodeRequestInput<M>): Promise<NodeAnswer<M>>;
  /**
   * The same on a complete request (every field present, as decoding or the strict JSON reader makes it, e.g. the
   * HTTP layers' parsed params): run as it is, without normalizing it through its bytes first.
   */
  call<M extends NodeMethod>(method: M, request: NodeRequest<M>, how: { complete: true }): Promise<NodeAnswer<M>>;
  /** Produces one block now with whatever is pending (JSON-RPC devnet.produce_block). */
  produceBlock(): Promise<{ id: Uint8Array; height: bigint }>;
  /**
   * Produces `count` blocks (1 to 10,000), each `intervalMs` after the previous one (the clock moves with them);
   * answers the last (devnet.produce_blocks). @throws WalletError INVALID_ARGUMENT for counts out of range.
   */
  produceBlocks(count: number, intervalMs?: number): Promise<{ id: Uint8Array; height: bigint }>;
  /** Moves the clock forward and produces a block at the new time (devnet.advance_time). */
  advanceTime(milliseconds: number): Promise<{ id: Uint8Array; height: bigint; timestamp: bigint }>;
  /** Sets a token balance in a block produced at once (devnet.set_balance). @throws WalletError INVALID_ARGUMENT */
  setBalance(options: SetBalanceOptions): Promise<{ id: Uint8Array; height: bigint }>;
  /** Creates a KCS-4 test token in a block produced at once (devnet.create_token). @throws WalletError INVALID_ARGUMENT */
  createToken(options: CreateTokenOptions): Promise<{ contractId: Uint8Array; id: Uint8Array; height: bigint }>;
  /** Remembers the chain now; answers the id `revert` takes (devnet.snapshot). */
  snapshot(): Promise<bigint>;
  /** Goes back to a snapshot, dropping later blocks and the mempool (devnet.revert). @throws WalletError INVALID_ARGUMENT */
  revert(id: bigint): Promise<{ id: Uint8Array; height: bigint }>;
  /** Replaces the chain by a new one with a new chain ID (devnet.reset); answers the new chain ID. */
  reset(options?: ResetOptions): Promise<Uint8Array>;
  close(): Promise<void>;
}
