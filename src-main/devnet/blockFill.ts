// Which pending transactions go into the next block, as koinos-block-producer's fill_block chooses them
// (src/koinos/block_production/block_producer.cpp): in mempool order, each by the resources it used when the
// node accepted it, while the block stays under its limits.
import type { TransactionReceipt } from '../koinos/types.ts';
import { RESOURCE_LIMITS } from './resources.ts';

/** Pending transactions one block looks at (koinos_block_producer.cpp MAX_INCLUSION_ATTEMPTS_DEFAULT). */
export const MAX_INCLUSION_ATTEMPTS = 2000;
/** Once a resource reaches this share of its limit (percent), the block takes no more (RESOURCES_LOWER_BOUND_DEFAULT). */
export const RESOURCES_LOWER_BOUND = 75n;
/** A transaction that would take a resource past this share (percent) waits for a later block (RESOURCES_UPPER_BOUND_DEFAULT). */
export const RESOURCES_UPPER_BOUND = 90n;

const LIMITS = [RESOURCE_LIMITS.disk_storage_limit, RESOURCE_LIMITS.network_bandwidth_limit, RESOURCE_LIMITS.compute_bandwidth_limit] as const;

/** The running totals of one block being filled. */
export class BlockFill {
  private readonly used = [0n, 0n, 0n];
  private count = 0;

  /**
   * Whether the transaction measured by `receipt` goes in: `'take'` (counted), `'skip'` (it would take the block past
   * the upper bound: it waits), or `'stop'` (the block reached the lower bound: no more transactions).
   * One difference from fill_block: the first transaction of a block is taken whatever it uses (the chain's own
   * limits, 100 %, still apply when it runs), so that a transaction the node accepted is never left out of every block.
   */
  admit(receipt: Pick<TransactionReceipt, 'disk_storage_used' | 'network_bandwidth_used' | 'compute_bandwidth_used'>): 'take' | 'skip' | 'stop' {
    if (this.used.some((used, i) => used * 100n >= LIMITS[i]! * RESOURCES_LOWER_BOUND)) return 'stop';
    const next = [
      this.used[0]! + receipt.disk_storage_used,
      this.used[1]! + receipt.network_bandwidth_used,
      this.used[2]! + receipt.compute_bandwidth_used,
    ];
    if (this.count > 0 && next.some((used, i) => used * 100n > LIMITS[i]! * RESOURCES_UPPER_BOUND)) return 'skip';
    for (let i = 0; i < 3; i++) this.used[i] = next[i]!;
    this.count++;
    return 'take';
  }
}
