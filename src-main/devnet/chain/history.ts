// The account history index, in memory: per address, its records in sequence order (seq_num from 0), each a
// pointer to a block (a block record) or to a transaction of a block. Compact (8 bytes a record) so that an address
// with millions of records stays cheap, and a page is a few array reads.
import type { TransactionReceipt } from '../../koinos/types.ts';
import type { PreparedTransaction } from './applyTransaction.ts';
import { keyText, keyTextBytes } from '../store/storeKeys.ts';

/** Records per block height are packed into one number: height × 2^22 + slot (0 = the block, i + 1 = transaction i). */
const SLOTS = 4_194_304;
/** Highest block height a packed pointer holds exactly (height × 2^22 + slot stays below 2^53). */
export const MAX_HISTORY_HEIGHT = 2 ** 31 - 1;

/** Where a history record lives. */
export interface HistoryPointer {
  /** A number: heights stay below MAX_HISTORY_HEIGHT (2^31 blocks: 200 years at 3 s, weeks at 1,000 blocks a second). */
  height: number;
  /** Index of the transaction in its block, or undefined for a block record. */
  transactionIndex?: number;
}

/**
 * A pointer packed into one number (see SLOTS).
 * @throws RangeError for a height above MAX_HISTORY_HEIGHT or a transaction index beyond a block's slots.
 */
function packPointer(pointer: HistoryPointer): number {
  const { height, transactionIndex } = pointer;
  if (!Number.isInteger(height) || height < 0 || height > MAX_HISTORY_HEIGHT) {
    throw new RangeError(`account history: expected a block height from 0 to ${MAX_HISTORY_HEIGHT}, got ${height}`);
  }
  if (
    transactionIndex !== undefined &&
    !(Number.isInteger(transactionIndex) && transactionIndex >= 0 && transactionIndex < SLOTS - 1)
  ) {
    throw new RangeError(`account history: expected a transaction index below ${SLOTS - 1}, got ${transactionIndex}`);
  }
  return pointer.height * SLOTS + (pointer.transactionIndex === undefined ? 0 : pointer.transactionIndex + 1);
}

/** The pointer a packed number holds. */
function unpackPointer(packed: number): HistoryPointer {
  const height = Math.floor(packed / SLOTS);
  const slot = packed - height * SLOTS;
  return slot === 0 ? { height } : { height, transactionIndex: slot - 1 };
}

class RecordList {
  refs = new Float64Array(16);
  length = 0;

  push(ref: number): number {
    if (this.length === this.refs.length) {
      const grown = new Float64Array(this.refs.length * 2);
      grown.set(this.refs);
      this.refs = grown;
    }
    this.refs[this.length] = ref;
    return this.length++;
  }

  /** Number of records whose block height is at most `height` (heights only grow along the list). */
  countUpTo(height: number): number {
    const limit = (height + 1) * SLOTS;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.refs[mid]! < limit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** One record of a page: its sequence number and where it lives. */
export interface HistoryPage {
  /** Index into an in-memory list, so below 2^32. */
  seq: number;
  pointer: HistoryPointer;
}

/** Every address's records, in sequence order. */
export class HistoryIndex {
  private readonly lists = new Map<string, RecordList>();

  /** The sequence number the next record of `address` gets. */
  nextSeq(address: Uint8Array): number {
    return this.lists.get(keyText(address))?.length ?? 0;
  }

  /** Appends a record for `address`; returns its sequence number. */
  append(address: Uint8Array, pointer: HistoryPointer): number {
    const key = keyText(address);
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = new RecordList()));
    return list.push(packPointer(pointer));
  }

  /**
   * Drops every record of a block above `maxHeight` (a revert); returns, per address, the sequence numbers dropped
   * (from `from`, up to but not including `to`).
   */
  truncate(maxHeight: number): { address: Uint8Array; from: number; to: number }[] {
    const dropped: { address: Uint8Array; from: number; to: number }[] = [];
    for (const [key, list] of this.lists) {
      const keep = list.countUpTo(maxHeight);
      if (keep < list.length) {
        dropped.push({ address: keyTextBytes(key), from: keep, to: list.length });
        list.length = keep;
      }
    }
    return dropped;
  }

  /**
   * A page as koinos-account-history reads it: from `seq` (default: 0 ascending, the newest descending), up to
   * `limit` records, stopping at the first sequence number that does not exist. With `maxHeight`, only records of
   * blocks up to that height exist (the irreversible view).
   */
  page(
    address: Uint8Array,
    options: { seq?: number; limit: number; ascending: boolean; maxHeight?: number },
  ): HistoryPage[] {
    const list = this.lists.get(keyText(address));
    if (!list) return [];
    const available = options.maxHeight === undefined ? list.length : list.countUpTo(options.maxHeight);
    let seq = options.seq ?? (options.ascending ? 0 : available - 1);
    const out: HistoryPage[] = [];
    while (out.length < options.limit && seq >= 0 && seq < available) {
      out.push({ seq, pointer: unpackPointer(list.refs[seq]!) });
      seq += options.ascending ? 1 : -1;
    }
    return out;
  }
}

/**
 * Addresses a transaction adds a history record for (koinos-account-history add_transaction): payer, payee, the
 * contracts its operations name, and the source and impacted addresses of its events; once each, sorted. Any
 * length: KOIN, like the real contract, accepts a `to` that is not a 25-byte address.
 */
export function historyAddresses(prepared: PreparedTransaction, receipt: TransactionReceipt): Uint8Array[] {
  const set = new Map<string, Uint8Array>();
  const add = (a: Uint8Array | undefined): void => {
    if (a && a.length > 0) set.set(keyText(a), a);
  };
  add(prepared.payer);
  add(prepared.payee);
  for (const op of prepared.tx.operations) {
    add(op.upload_contract?.contract_id);
    add(op.call_contract?.contract_id);
    add(op.set_system_call?.target?.system_call_bundle?.contract_id);
    add(op.set_system_contract?.contract_id);
  }
  for (const event of receipt.events) {
    add(event.source);
    for (const a of event.impacted) add(a);
  }
  return [...set.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, a]) => a);
}
