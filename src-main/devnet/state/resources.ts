// Resource prices and the one compute table of the devnet (mainnet's registry plus the native contracts' own work), and
// the meter that charges a transaction's mana. Prices make a KOIN transfer cost about what it costs on mainnet.
import { ChainError, ERROR_CODE } from './chainError.ts';
import { COMPUTE_REGISTRY } from '../vm/computeRegistry.ts';

/**
 * The devnet's `resource_limit_data` (genesis object, `chain.get_resource_limits`). rc_used =
 * disk × disk_storage_cost + network × network_bandwidth_cost + compute × compute_bandwidth_cost.
 * The limits are mainnet's per-block limits (koinos-system-contracts contracts/resources/resources.cpp:
 * max_disk_per_block 200 << 10, max_network_per_block 1 << 20, max_compute_per_block 287,500,000; get_resource_limits
 * reports min(resource_supply - 1, block_limit), which is the block limit on mainnet). The costs are the devnet's own
 * (mainnet's float with its markets), chosen so that a KOIN transfer costs about what it costs on mainnet.
 */
export const RESOURCE_LIMITS = {
  disk_storage_limit: 204_800n,
  disk_storage_cost: 5_000n,
  network_bandwidth_limit: 1_048_576n,
  network_bandwidth_cost: 3_000n,
  compute_bandwidth_limit: 287_500_000n,
  compute_bandwidth_cost: 2n,
} as const;

/** koinos/chain/error.proto: the failures (codes <= -1) of a block's resource_meter. */
const BLOCK_LIMIT_ERROR = {
  network_bandwidth_limit_exceeded: -1012,
  compute_bandwidth_limit_exceeded: -1013,
  disk_storage_limit_exceeded: -1014,
} as const;

/** Whether an error is a block limit running out (the transaction may fit in a later block). */
export function isBlockLimitError(error: unknown): boolean {
  return error instanceof ChainError && Object.values(BLOCK_LIMIT_ERROR).includes(error.code as -1012);
}

/**
 * What a block has left of each resource: koinos-chain's resource_meter, which apply_block (and submit_transaction,
 * for the one transaction it applies) sets from get_resource_limits, and which every transaction of the block draws
 * on (resource_meter.cpp). Freed disk is given back to the block.
 */
export class BlockResources {
  disk: bigint = RESOURCE_LIMITS.disk_storage_limit;
  network: bigint = RESOURCE_LIMITS.network_bandwidth_limit;
  compute: bigint = RESOURCE_LIMITS.compute_bandwidth_limit;
}

/**
 * Devnet-only compute for the work of the native KOIN contract's own code, which a real node measures in VM ticks
 * while the wasm KOIN runs. Sized so that a KOIN transfer uses about the compute of a mainnet transfer (~560,000
 * ticks, fidelity audit #10); every system call the native contracts make is charged from COMPUTE_REGISTRY instead.
 */
export const NATIVE_CONTRACT_COMPUTE = {
  koin_consume_account_rc: 18_000,
  koin_get_account_rc: 18_000,
  koin_read: 25_000,
  koin_transfer: 410_000,
  koin_mint: 350_000,
  koin_burn: 350_000,
} as const;

/**
 * The one compute table of the devnet: mainnet's genesis compute_bandwidth_registry (vm/computeRegistry.ts, which
 * the WebAssembly host charges from) plus the native contracts' stand-ins above, so that a system call costs the same
 * whether the chain, a native contract or a wasm contract makes it.
 */
export const COMPUTE = { ...COMPUTE_REGISTRY, ...NATIVE_CONTRACT_COMPUTE } as const;

/** Name of a compute cost. */
export type ComputeName = keyof typeof COMPUTE;

/** Hash computations a merkle tree over `leaves` leaves takes (chain `hashes_per_leaves`). */
function hashesPerLeaves(leaves: number): number {
  if (leaves <= 2) return 1;
  const even = Math.ceil(leaves / 2) * 2;
  if ((even & (even - 1)) === 0) return even - 1;
  return even / 2 + hashesPerLeaves(even / 2);
}

/** Compute of the chain's system_call::hash (sha2-256) over `bytes` bytes: the `hash` thunk and its per-byte work. */
export function hashCompute(bytes: number): number {
  return COMPUTE.hash + COMPUTE.sha2_256_base + COMPUTE.sha2_256_per_byte * bytes;
}

/** Compute of the chain's system_call::verify_merkle_root over `leaves` 34-byte multihash leaves. */
export function merkleCompute(leaves: number): number {
  const deserialize = (leaves + 1) * (COMPUTE.deserialize_multihash_base + 34 * COMPUTE.deserialize_multihash_per_byte);
  return (
    COMPUTE.verify_merkle_root +
    deserialize +
    hashesPerLeaves(leaves) * (COMPUTE.sha2_256_base + 64 * COMPUTE.sha2_256_per_byte)
  );
}

/**
 * The mana session of one transaction within its block: every use is checked against what the block has left (a
 * failure: "compute bandwidth limit exceeded", -1013, and alike), then charged at the block's prices against
 * `rc_limit` (past it the reversion "insufficient rc", 104, and nothing is charged), then taken from the block, in the
 * order of koinos-chain resource_meter.cpp use_*.
 */
export class RcMeter {
  readonly limit: bigint;
  /** What the block has left; by default a block of its own (a submission: controller.cpp submit_transaction). */
  readonly block: BlockResources;
  /**
   * Mana used so far: below 0 when the bytes freed were worth more than everything charged before them (koinos-chain
   * session.cpp lets `_end_rc` rise above `_begin_rc`; later charges use the credit). {@link rcUsed} is what is
   * charged.
   */
  used = 0n;
  disk = 0n;
  network = 0n;
  compute = 0n;

  constructor(limit: bigint, block: BlockResources = new BlockResources()) {
    this.limit = limit;
    this.block = block;
  }

  private charge(cost: bigint): void {
    if (this.used + cost > this.limit) throw new ChainError(ERROR_CODE.insufficient_rc, 'insufficient rc');
    this.used += cost;
  }

  /** The mana the transaction is charged (session::used_rc: 0 when the credits outweigh the charges). */
  get rcUsed(): bigint {
    return this.used > 0n ? this.used : 0n;
  }

  /**
   * resource_meter::compute_bandwidth_remaining with a session: what both the mana and the block still allow (the
   * session's remaining_rc is min(begin, end): a credit never raises it above the limit).
   */
  computeRemaining(): bigint {
    const byRc = (this.limit - this.rcUsed) / RESOURCE_LIMITS.compute_bandwidth_cost;
    return byRc < this.block.compute ? byRc : this.block.compute;
  }

  useCompute(ticks: number): void {
    const t = BigInt(ticks);
    if (t > this.block.compute)
      throw new ChainError(BLOCK_LIMIT_ERROR.compute_bandwidth_limit_exceeded, 'compute bandwidth limit exceeded');
    this.charge(t * RESOURCE_LIMITS.compute_bandwidth_cost);
    this.block.compute -= t;
    this.compute += t;
  }

  useNetwork(bytes: number): void {
    const b = BigInt(bytes);
    if (b > this.block.network)
      throw new ChainError(BLOCK_LIMIT_ERROR.network_bandwidth_limit_exceeded, 'network bandwidth limit exceeded');
    this.charge(b * RESOURCE_LIMITS.network_bandwidth_cost);
    this.block.network -= b;
    this.network += b;
  }

  /**
   * Disk bytes (negative when an object shrinks or goes: freed bytes are credited within the transaction, and a credit
   * larger than what was charged so far pays for later charges, as in session.cpp).
   */
  useDisk(bytes: number): void {
    const b = BigInt(bytes);
    if (b > this.block.disk)
      throw new ChainError(BLOCK_LIMIT_ERROR.disk_storage_limit_exceeded, 'disk storage limit exceeded');
    if (b >= 0n) this.charge(b * RESOURCE_LIMITS.disk_storage_cost);
    else this.used += b * RESOURCE_LIMITS.disk_storage_cost;
    this.block.disk -= b;
    this.disk += b;
  }

  /** Disk bytes as the receipt reports them (never negative). */
  get diskUsed(): bigint {
    return this.disk > 0n ? this.disk : 0n;
  }
}
