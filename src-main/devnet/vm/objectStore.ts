// The state the host reads and writes: objects by (object space, key), ordered as koinos-state-db orders them, by the
// bytes of the serialized `database_key{space, key}` (so within a space an empty key comes first, then shorter keys
// before longer ones). `put` and `remove` answer the disk bytes they use, as state_db's put_object counts them.
import { encode } from '../../koinos/codec.ts';
import type { ObjectSpace } from '../../koinos/types.ts';
import { keyText } from '../store/storeKeys.ts';

export interface StoredObject {
  key: Uint8Array;
  value: Uint8Array;
}

/** What system calls need from the chain state (all synchronous: a host call cannot wait). */
export interface ObjectStore {
  get(space: ObjectSpace, key: Uint8Array): Uint8Array | undefined;
  /** Disk bytes used: a new object its serialized database_key plus its value, a changed one the size difference. */
  put(space: ObjectSpace, key: Uint8Array, value: Uint8Array): number;
  /** Disk bytes used (negative: freed). */
  remove(space: ObjectSpace, key: Uint8Array): number;
  /** The first object of the space after `key` in state_db order (get_next_object). */
  next(space: ObjectSpace, key: Uint8Array): StoredObject | undefined;
  /** The last object of the space before `key` (get_prev_object). */
  prev(space: ObjectSpace, key: Uint8Array): StoredObject | undefined;
}

/** The serialized `database_key{space, key}` as latin1 text: comparing two such texts compares the bytes. */
export function databaseKeyText(space: ObjectSpace, key: Uint8Array): string {
  return keyText(encode('koinos.chain.database_key', { space, key }));
}

/** The prefix every database key of a space starts with (its serialized `space` field). */
function spacePrefixText(space: ObjectSpace): string {
  return keyText(encode('koinos.chain.database_key', { space }));
}

/** Index of the first element of the sorted array not below `k`. */
function lowerBound(sorted: string[], k: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** An ordered in-memory object store (a sorted key index over a map), for contracts run outside a chain. */
export class MemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, StoredObject>();
  private readonly sorted: string[] = [];

  get(space: ObjectSpace, key: Uint8Array): Uint8Array | undefined {
    return this.objects.get(databaseKeyText(space, key))?.value;
  }

  put(space: ObjectSpace, key: Uint8Array, value: Uint8Array): number {
    const k = databaseKeyText(space, key);
    const old = this.objects.get(k);
    this.objects.set(k, { key: key.slice(), value: value.slice() });
    if (old) return value.length - old.value.length;
    this.sorted.splice(lowerBound(this.sorted, k), 0, k);
    return k.length + value.length;
  }

  remove(space: ObjectSpace, key: Uint8Array): number {
    const k = databaseKeyText(space, key);
    const old = this.objects.get(k);
    if (!old) return 0;
    this.objects.delete(k);
    this.sorted.splice(lowerBound(this.sorted, k), 1);
    return -(k.length + old.value.length);
  }

  next(space: ObjectSpace, key: Uint8Array): StoredObject | undefined {
    const k = databaseKeyText(space, key);
    let i = lowerBound(this.sorted, k);
    if (this.sorted[i] === k) i++;
    const found = this.sorted[i];
    return found !== undefined && found.startsWith(spacePrefixText(space)) ? this.objects.get(found) : undefined;
  }

  prev(space: ObjectSpace, key: Uint8Array): StoredObject | undefined {
    const i = lowerBound(this.sorted, databaseKeyText(space, key)) - 1;
    const found = i >= 0 ? this.sorted[i] : undefined;
    return found !== undefined && found.startsWith(spacePrefixText(space)) ? this.objects.get(found) : undefined;
  }
}
