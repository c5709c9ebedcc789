// Which pending transactions go into the next block, as koinos-block-producer's fill_block chooses them
// (src/koinos/block_production/block_producer.cpp): in mempool order, each by the resources it used when the
// node accepted it, while the block stays under its limits; and proposing again without a transaction that failed.
import type { TransactionReceipt } from '../../koinos/types.ts';
import { RESOURCE_LIMITS } from '../state/resources.ts';

/** Pending transactions one block looks at (koinos_block_producer.cpp MAX_INCLUSION_ATTEMPTS_DEFAULT). */
export const MAX_INCLUSION_ATTEMPTS = 2000;
/** Once a resource reaches this share of its limit (percent), the block takes no more (RESOURCES_LOWER_BOUND_DEFAULT). */
const RESOURCES_LOWER_BOUND = 75n;
/** A transaction that would take a resource past this share (percent) waits for a later block (RESOURCES_UPPER_BOUND_DEFAULT). */
const RESOURCES_UPPER_BOUND = 90n;

const LIMITS = [
  RESOURCE_LIMITS.disk_storage_limit,
  RESOURCE_LIMITS.network_bandwidth_limit,
  RESOURCE_LIMITS.compute_bandwidth_limit,
] as const;

/** What a transaction used of a block (its receipt's figures): what block filling and the mempool's totals read. */
export type ResourcesUsed = Pick<
  TransactionReceipt,
  'disk_storage_used' | 'network_bandwidth_used' | 'compute_bandwidth_used'
>;

/**
 * Whether resources `used` (disk, network, compute) reach the share of a block at which it takes no more, or of
 * `blocks` blocks: what that many blocks in a row would take at least.
 */
export function fillsBlock(used: readonly bigint[], blocks = 1n): boolean {
  return used.some((amount, i) => amount * 100n >= LIMITS[i]! * RESOURCES_LOWER_BOUND * blocks);
}

/** The running totals of one block being filled. */
class BlockFill {
  private readonly used = [0n, 0n, 0n];
  private count = 0;

  /**
   * Whether the transaction measured by `receipt` goes in: `'take'` (counted), `'skip'` (it would take the block past
   * the upper bound: it waits), or `'stop'` (the block reached the lower bound: no more transactions).
   * One difference from fill_block: the first transaction of a block is taken whatever it uses (the chain's own
   * limits, 100 %, still apply when it runs), so that a transaction the node accepted is never left out of every block.
   */
  admit(receipt: ResourcesUsed): 'take' | 'skip' | 'stop' {
    if (fillsBlock(this.used)) return 'stop';
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

/** A pending transaction as the producer weighs it: its id and the resources it used when the node accepted it. */
export interface BlockCandidate {
  idHex: string;
  receipt: ResourcesUsed;
}

/** A transaction a proposed block could not take: dropped from the mempool, or (`wait`) left there for a later block. */
export interface LeftOut {
  idHex: string;
  wait: boolean;
}

/** How applying one proposed block went: its result, or the transactions that failed in it. */
export type ProposalRun<R> = { applied: R } | { failed: LeftOut[] };

/** The block that applied: its transactions, the run's result, and what was left out on the way. */
export interface Proposal<C, R> {
  chosen: C[];
  applied: R;
  /** Dropped from the mempool (they failed), in the order they failed. */
  dropped: C[];
  /** Some pending transactions wait for a later block (the fill left them out, or they hit the block's limits). */
  full: boolean;
}

/**
 * Proposes blocks until one applies whole, as koinos-block-producer does: it fills a block from the pending
 * transactions (fill_block), the chain applies it, and when a transaction fails there the chain rejects the block,
 * the mempool loses that transaction and the producer proposes again. So a contract that reads the block being applied
 * (get_block, get_block_field, get_head_info) reads the block that is then written: the run that returns `applied` is
 * the one whose block is written. One shortcut: every failure of a run is left out before the next proposal, not only
 * the first (a failed transaction changes no state, so the others would fail again).
 * @param moreWaiting pending transactions beyond those in `pending` (they wait whatever happens)
 * @param run applies the proposed transactions on a fresh state as one block (it may pause between transactions)
 */
export async function proposeBlock<C extends BlockCandidate, R>(
  pending: readonly C[],
  moreWaiting: boolean,
  run: (chosen: C[]) => ProposalRun<R> | Promise<ProposalRun<R>>,
): Promise<Proposal<C, R>> {
  const out = new Set<string>();
  const dropped: C[] = [];
  let waited = false;
  for (;;) {
    const filling = new BlockFill();
    const chosen: C[] = [];
    let full = moreWaiting || waited;
    for (const candidate of pending) {
      if (out.has(candidate.idHex)) continue;
      const fits = filling.admit(candidate.receipt);
      if (fits === 'stop') {
        full = true;
        break;
      }
      if (fits === 'skip') full = true;
      else chosen.push(candidate);
    }
    const result = await run(chosen);
    if ('applied' in result) return { chosen, applied: result.applied, dropped, full };
    // Each failed run leaves out at least one chosen transaction, so this ends (at worst with an empty block).
    if (result.failed.length === 0) throw new Error('a proposed block failed without naming a transaction');
    for (const { idHex, wait } of result.failed) {
      out.add(idHex);
      if (wait) waited = true;
      else dropped.push(...chosen.filter((c) => c.idHex === idHex));
    }
  }
}
