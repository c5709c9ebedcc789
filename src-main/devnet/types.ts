// The contract between the devnet's chain (the service layer) and its thin HTTP layers (REST, JSON-RPC, CLI).
// The service speaks decoded protobuf messages: `call('chain.get_account_rc', { account })` takes the
// `koinos.rpc.chain.get_account_rc_request` object and returns the `..._response` object.
import type { ProtoMessage } from '../koinos/codec.ts';

export interface DevnetConfig {
  /** Seed of the genesis data: the same seed gives the same chain ID; a new seed gives a new chain. Default 'koinos-devnet'. */
  genesisSeed?: string;
  /** Number of pre-funded development accounts (default 10). */
  accounts?: number;
  /** KOIN (base units) given to each development account at genesis (default 1,000,000 KOIN). */
  initialBalance?: bigint;
  /** Block interval in ms (default 3000); 0 produces one block per accepted transaction. */
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
  /** Worker threads that recover signatures (default: cores - 1, at least 1, at most 2); 0 recovers on the calling thread. */
  signatureThreads?: number;
  /** Called after each block is produced (in memory; its batch is queued for the disk). */
  onBlock?: (block: { id: Uint8Array; height: bigint; timestamp: bigint; transactionCount: number }) => void;
  /** Where warnings go (a transaction dropped at block time, a failed block). Default console.warn. */
  log?: (message: string) => void;
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

/** An error of the chain or of another node service, as the gateway reports it (JSON-RPC -32603). */
export class NodeError extends Error {
  override readonly name = 'NodeError';
  /** Koinos chain error code (facts §8), e.g. -201 invalid_nonce; undefined for non-chain services. */
  readonly code?: number;
  /** Extra keys of the data object (logs, template keys such as "a", "n", "c"). */
  readonly data: Record<string, unknown>;

  constructor(message: string, options: { code?: number; data?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.data = options.data ?? {};
  }
}

export interface DevnetNode {
  readonly chainId: Uint8Array;
  readonly genesisAddress: string;
  readonly koinAddress: string;
  readonly mnemonic: string;
  readonly accounts: DevAccount[];
  /** The genesis key: signs every block and is the only key KOIN's mint accepts. Development only. */
  readonly genesisAccount: DevAccount;
  /** JSON-RPC method names the service answers, `service.method`. */
  readonly methods: readonly string[];
  /**
   * Runs one node method on a decoded request; resolves the decoded response.
   * @throws NodeError for chain and service errors (no state changes on a rejected request).
   */
  call(method: string, request: ProtoMessage): Promise<ProtoMessage>;
  /** Produces one block now with whatever is pending (manual mode, tests). */
  produceBlock(): Promise<{ id: Uint8Array; height: bigint }>;
  close(): Promise<void>;
}
