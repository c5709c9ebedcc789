// The devnet's mempool: transactions accepted with broadcast=true and waiting for the next block, with the rules
// of koinos-mempool: per-payer rc reservation (rc_limit of every pending transaction), one pending transaction
// per (account, nonce), and the pending nonce and count of each account. Held in memory only (lost on a kill).
import type { PreparedTransaction } from './applyTransaction.ts';
import { fillsBlock, type ResourcesUsed } from './blockFill.ts';
import { keyText } from '../store/storeKeys.ts';

/**
 * A transaction in the mempool, with what its acceptance computed.
 *
 * Measured and not kept: an entry that held only the transaction's canonical bytes and the figures the bookkeeping
 * reads, the block preparing the transaction again from its bytes (its fields views into them). A pending KOIN
 * transfer then held 18 objects and about 1.5 KB of the heap instead of 60 objects and 4.3 KB. In four alternated
 * pairs of `npm run bench` the node's thread collected no less (full collections 9-14 against 10-14 a run, pauses
 * over 3 ms 54-105 against 61-105, about 1 s of pauses in all either way) and the p99 from due was no better (22.9-166
 * ms against 17.2-72.4), and a block, measured in process, took 3-13 µs a transaction more. Pending transactions are
 * not what this thread spends its collections on.
 */
export interface PendingEntry {
  prepared: PreparedTransaction;
  /**
   * What the execution at submission (against the head state) used; the block applies it again. Only these figures of
   * the receipt are kept: the rest of it (events, logs, delta entries) would otherwise live until the block, and every
   * young-generation collection on the way copies what lives.
   */
  used: ResourcesUsed;
  /** Payer's mana in the head state when the transaction was accepted (the mempool's max_payer_rc). */
  maxPayerRc: bigint;
}

/**
 * A pending entry's place in the mempool, emptied when the entry leaves. The map outlives its entries by far, and a
 * removed entry stayed reachable through it to young collections (not to full ones), with all it holds, until the next
 * full collection. In process, with a block every 50 submissions, each young collection found about 1 MB alive and
 * paused 2.6 ms; with the slot emptied on removal, 390 KB and 1.5-1.9 ms (a new map each time the mempool emptied did
 * the same). With blocks of 382 (the benchmark's at 3,000/s) two alternated benchmark pairs showed no difference.
 * The measurements of blocks of 382 here were made before b63859c, while the block timer was starved: two blocks'
 * worth was pending at all times, so pending transactions lived about three times as long as they do now.
 * There a young collection copies about 1.05 MB, most of it promoted, and the sampled sites of what it promoted are the
 * pending transactions' decoded fields. With pending entries of the bytes and the bookkeeping's figures only (as the
 * entry's comment above describes, prepared again for the block; measured in process, not kept), 1.19-1.26 MB survived
 * instead of 1.05-1.07, and what was promoted moved to the block's copies: the block being planned holds its
 * transactions as long as they were pending. Both made smaller (the block preparing each transaction again from its
 * bytes just before applying it, and keeping of it only what the block's build reads; not kept): in process 786-834 KB
 * survived and 507-562 KB were promoted a collection against 1,092-1,126 and 896-936 KB, pauses 1.7-2.3 ms against
 * 2.8-3.0, a block of 382 took 25-32 ms against 20-22. In two benchmark pairs alternated the node's thread had fewer
 * young collections over 3 ms (76 and 47 against 130 and 64) and spent as much a transfer, and the p99 from due went
 * one way and the other (50.8 and 38.3 ms against 85.9 and 33.2).
 */
interface Slot {
  entry: PendingEntry | undefined;
}

interface Reservation {
  maxRc: bigint;
  currentRc: bigint;
}

/** An account's pending nonces and the highest of them (asked at every submission; kept, not searched for). */
interface PendingNonces {
  all: Set<bigint>;
  max: bigint;
}

/** Pending transactions and the per-account bookkeeping of koinos-mempool. */
export class Mempool {
  /** Pending transactions in arrival order, by transaction id (hex). */
  private readonly slots = new Map<string, Slot>();
  private readonly reservations = new Map<string, Reservation>();
  /** Pending nonces per nonce account. */
  private readonly nonces = new Map<string, PendingNonces>();
  /** Disk, network and compute the pending transactions used when accepted, in all. */
  private readonly used = [0n, 0n, 0n];

  /** Whether the pending transactions, by what they used when accepted, would fill `blocks` blocks (blockFill.ts). */
  fillsBlock(blocks = 1n): boolean {
    return fillsBlock(this.used, blocks);
  }

  private count(used: ResourcesUsed, sign: 1n | -1n): void {
    this.used[0]! += sign * used.disk_storage_used;
    this.used[1]! += sign * used.network_bandwidth_used;
    this.used[2]! += sign * used.compute_bandwidth_used;
  }

  /** koinos-mempool check_pending_account_resources: the payer's reserved rc leaves room for `rcLimit`. */
  checkPendingAccountResources(payer: Uint8Array, maxPayerRc: bigint, rcLimit: bigint): boolean {
    const r = this.reservations.get(keyText(payer));
    if (!r) return rcLimit <= maxPayerRc;
    return r.currentRc + (maxPayerRc - r.maxRc) - rcLimit >= 0n;
  }

  /** koinos-mempool check_account_nonce: no pending transaction of `account` uses `nonce`. */
  checkAccountNonce(account: Uint8Array, nonce: bigint): boolean {
    return !this.nonces.get(keyText(account))?.all.has(nonce);
  }

  /** Highest pending nonce of an account, if it has pending transactions. */
  pendingNonce(account: Uint8Array): bigint | undefined {
    return this.nonces.get(keyText(account))?.max;
  }

  pendingCount(account: Uint8Array): number {
    return this.nonces.get(keyText(account))?.all.size ?? 0;
  }

  /** Mana reserved by the payer's pending transactions (sum of their rc_limit, as koinos-mempool counts it). */
  reservedRc(account: Uint8Array): bigint {
    const r = this.reservations.get(keyText(account));
    return r ? r.maxRc - r.currentRc : 0n;
  }

  /** How many transactions are pending. */
  get size(): number {
    return this.slots.size;
  }

  add(entry: PendingEntry): void {
    const { prepared, maxPayerRc } = entry;
    this.slots.set(prepared.idHex, { entry });
    this.count(entry.used, 1n);
    const payer = keyText(prepared.payer);
    const rcLimit = prepared.rcLimit;
    const r = this.reservations.get(payer);
    if (r) {
      r.currentRc = r.currentRc + (maxPayerRc - r.maxRc) - rcLimit;
      r.maxRc = maxPayerRc;
    } else {
      this.reservations.set(payer, { maxRc: maxPayerRc, currentRc: maxPayerRc - rcLimit });
    }
    const account = keyText(prepared.nonceAccount);
    const nonce = prepared.nonce ?? 0n;
    const pending = this.nonces.get(account);
    if (!pending) this.nonces.set(account, { all: new Set([nonce]), max: nonce });
    else {
      pending.all.add(nonce);
      if (nonce > pending.max) pending.max = nonce;
    }
  }

  /** Drops everything (a revert or a reset of the chain). */
  clear(): void {
    for (const slot of this.slots.values()) slot.entry = undefined;
    this.slots.clear();
    this.reservations.clear();
    this.nonces.clear();
    this.used.fill(0n);
  }

  /** Removes a transaction (included in a block, or dropped), releasing its reservation and nonce. */
  remove(idHex: string): void {
    const slot = this.slots.get(idHex);
    const entry = slot?.entry;
    if (!slot || !entry) return;
    this.slots.delete(idHex);
    slot.entry = undefined;
    this.count(entry.used, -1n);
    const { prepared } = entry;
    const payer = keyText(prepared.payer);
    const r = this.reservations.get(payer);
    if (r) {
      if (r.currentRc + prepared.rcLimit >= r.maxRc) this.reservations.delete(payer);
      else r.currentRc += prepared.rcLimit;
    }
    const account = keyText(prepared.nonceAccount);
    const pending = this.nonces.get(account);
    if (pending) {
      const nonce = prepared.nonce ?? 0n;
      pending.all.delete(nonce);
      if (pending.all.size === 0) this.nonces.delete(account);
      // Blocks take the oldest nonces: the highest leaves last, and is searched for again only then.
      else if (nonce === pending.max) pending.max = [...pending.all].reduce((a, b) => (b > a ? b : a));
    }
  }

  get(idHex: string): PendingEntry | undefined {
    return this.slots.get(idHex)?.entry;
  }

  /** Pending transactions in arrival order. */
  list(limit = Number.POSITIVE_INFINITY): PendingEntry[] {
    const out: PendingEntry[] = [];
    for (const { entry } of this.slots.values()) {
      if (out.length >= limit) break;
      if (entry) out.push(entry);
    }
    return out;
  }
}
