// The account history index, in memory: per address, its records in sequence order (seq_num from 0), each a
// pointer to a block (a block record) or to a transaction of a block. Compact (8 bytes a record) so that an address
// with millions of records stays cheap, and a page is a few array reads.

/** Records per block height are packed into one number: height × 2^22 + slot (0 = the block, i + 1 = transaction i). */
const SLOTS = 4_194_304;

/** Where a history record lives. */
export interface HistoryPointer {
  height: number;
  /** Index of the transaction in its block, or undefined for a block record. */
  transactionIndex?: number;
}

/** A pointer packed into one number (see SLOTS). */
export function packPointer(pointer: HistoryPointer): number {
  return pointer.height * SLOTS + (pointer.transactionIndex === undefined ? 0 : pointer.transactionIndex + 1);
}

/** The pointer a packed number holds. */
export function unpackPointer(packed: number): HistoryPointer {
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

function keyOf(address: Uint8Array): string {
  return Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString('latin1');
}

/** One record of a page: its sequence number and where it lives. */
export interface HistoryPage {
  seq: number;
  pointer: HistoryPointer;
}

/** Every address's records, in sequence order. */
export class HistoryIndex {
  private readonly lists = new Map<string, RecordList>();

  /** Appends a record for `address`; returns its sequence number. */
  append(address: Uint8Array, pointer: HistoryPointer): number {
    const key = keyOf(address);
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = new RecordList()));
    return list.push(packPointer(pointer));
  }

  count(address: Uint8Array): number {
    return this.lists.get(keyOf(address))?.length ?? 0;
  }

  /**
   * A page as koinos-account-history reads it: from `seq` (default: 0 ascending, the newest descending), up to
   * `limit` records, stopping at the first sequence number that does not exist. With `maxHeight`, only records of
   * blocks up to that height exist (the irreversible view).
   */
  page(address: Uint8Array, options: { seq?: number; limit: number; ascending: boolean; maxHeight?: number }): HistoryPage[] {
    const list = this.lists.get(keyOf(address));
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
