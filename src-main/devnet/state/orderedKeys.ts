// A sorted index of a state layer's keys (latin1 state keys, so string order is byte order), kept beside the layer's
// map so that get_next_object / get_prev_object find a neighbour by binary search instead of scanning the layer.
// Changes are buffered and folded in at the next query: a block commits many keys at once and is then queried.

/** Work the indexes did, for tests that bound the cost of a neighbour lookup (not a timing). */
export const ORDERED_KEYS_WORK = {
  /** Keys compared by binary searches. */
  probes: 0,
  /** Keys moved while folding buffered changes into a sorted array. */
  merged: 0,
};

/** Folding more added keys than this sorts and merges them in one pass; fewer are spliced in one by one. */
const SPLICE_LIMIT = 16;

/** The sorted keys of one layer; the owner tells it which keys appear and disappear (each key once). */
export class OrderedKeys {
  private sorted: string[] = [];
  /** Keys added since the last fold (not in `sorted`). */
  private readonly added = new Set<string>();
  /** Keys of `sorted` removed since the last fold. */
  private readonly removed = new Set<string>();

  /** A key the layer did not have. */
  add(key: string): void {
    if (this.removed.has(key)) this.removed.delete(key);
    else this.added.add(key);
  }

  /** A key the layer had. */
  delete(key: string): void {
    if (this.added.has(key)) this.added.delete(key);
    else this.removed.add(key);
  }

  clear(): void {
    this.sorted = [];
    this.added.clear();
    this.removed.clear();
  }

  private fold(): void {
    if (this.removed.size > 0) {
      ORDERED_KEYS_WORK.merged += this.sorted.length;
      this.sorted = this.sorted.filter((k) => !this.removed.has(k));
      this.removed.clear();
    }
    if (this.added.size === 0) return;
    if (this.added.size <= SPLICE_LIMIT) {
      for (const k of this.added) {
        this.sorted.splice(this.lowerBound(k), 0, k);
        ORDERED_KEYS_WORK.merged += 1;
      }
    } else {
      const fresh = [...this.added].sort();
      const old = this.sorted;
      const out = new Array<string>(old.length + fresh.length);
      let i = 0;
      let j = 0;
      let o = 0;
      while (i < old.length && j < fresh.length) out[o++] = old[i]! < fresh[j]! ? old[i++]! : fresh[j++]!;
      while (i < old.length) out[o++] = old[i++]!;
      while (j < fresh.length) out[o++] = fresh[j++]!;
      ORDERED_KEYS_WORK.merged += out.length;
      this.sorted = out;
    }
    this.added.clear();
  }

  /** Index of the first key not below `key` in `sorted`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      ORDERED_KEYS_WORK.probes += 1;
      if (this.sorted[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first key above `key`, or undefined. */
  higher(key: string): string | undefined {
    if (this.added.size > 0 || this.removed.size > 0) this.fold();
    let i = this.lowerBound(key);
    if (this.sorted[i] === key) i++;
    return this.sorted[i];
  }

  /** The last key below `key`, or undefined. */
  lower(key: string): string | undefined {
    if (this.added.size > 0 || this.removed.size > 0) this.fold();
    const i = this.lowerBound(key) - 1;
    return i >= 0 ? this.sorted[i] : undefined;
  }
}

/**
 * A Map that keeps an ordered index of its keys: a drop-in for the layers' maps (callers that set, delete, clear and
 * copy it need not know about the index).
 */
export class IndexedMap<V> extends Map<string, V> {
  readonly order = new OrderedKeys();

  override set(key: string, value: V): this {
    // `order` is undefined while Map's constructor runs; this class is always built empty.
    if (!super.has(key)) this.order?.add(key);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    const had = super.delete(key);
    if (had) this.order.delete(key);
    return had;
  }

  override clear(): void {
    super.clear();
    this.order.clear();
  }
}
