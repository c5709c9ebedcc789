// Where the devnet keeps its chain: LevelDB (classic-level) in a data directory, or a map in memory. Writes are
// atomic batches applied in order (one per block); reads see a batch as soon as it is queued, before it is on disk.
//
// The key layout, and every function that builds a key, is in storeKeys.ts.
import { ClassicLevel } from 'classic-level';
import { keyText, keyTextBytes } from './storeKeys.ts';

/** One put or delete of a batch. */
export interface StoreOp {
  type: 'put' | 'del';
  key: Uint8Array;
  value?: Uint8Array;
}

/** The storage the devnet writes blocks to: LevelDB or memory. */
export interface Store {
  /** True when the chain is on disk. */
  readonly persistent: boolean;
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  /**
   * Writes one atomic batch and resolves once it is on disk (LevelDB) or applied (memory). The node publishes a
   * block only after its batch is written, so a process killed at any moment restarts at the last block anyone saw.
   * @throws the storage error; nothing of the batch is written then.
   */
  write(ops: StoreOp[]): Promise<void>;
  /** Every entry whose key starts with `prefix`, in key order. */
  entries(prefix: Uint8Array): AsyncIterable<[Uint8Array, Uint8Array]>;
  /** Deletes every entry (a reset of the chain). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** A plain Uint8Array over the same memory (LevelDB hands out Buffers; the codec and tests expect Uint8Array). */
function plain(bytes: Uint8Array | undefined): Uint8Array | undefined {
  return bytes === undefined || bytes.constructor === Uint8Array
    ? bytes
    : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Bytes of one slab of the in-memory store. */
const SLAB_BYTES = 1 << 20;
/** The longest value kept in a slab (its length is written before it in two bytes); longer ones stay apart. */
const MAX_PACKED = 0xffff;

/**
 * Values appended to slabs of memory: one array object per megabyte instead of one (with its buffer) per value. A
 * value's place is one number, its slab times SLAB_BYTES plus its offset (a small integer up to 2,048 slabs).
 */
class SlabArena {
  private readonly slabs: Uint8Array[] = [];
  private slab = new Uint8Array(0);
  private used = 0;
  /** Bytes appended (each value with its 2-byte length), and how many of them were released since. */
  private appended = 0;
  private released = 0;

  /** Copies `value` (at most MAX_PACKED bytes) in and returns its place. */
  append(value: Uint8Array): number {
    if (this.used + 2 + value.length > this.slab.length) {
      this.slab = new Uint8Array(SLAB_BYTES);
      this.slabs.push(this.slab);
      this.used = 0;
    }
    const at = this.used;
    this.slab[at] = value.length & 0xff;
    this.slab[at + 1] = value.length >>> 8;
    this.slab.set(value, at + 2);
    this.used = at + 2 + value.length;
    this.appended += 2 + value.length;
    return (this.slabs.length - 1) * SLAB_BYTES + at;
  }

  /** The value at `place`: a view into its slab. */
  read(place: number): Uint8Array {
    const slab = this.slabs[Math.floor(place / SLAB_BYTES)]!;
    const at = place % SLAB_BYTES;
    return slab.subarray(at + 2, at + 2 + (slab[at]! | (slab[at + 1]! << 8)));
  }

  /** Counts the value at `place` as no longer read (replaced or deleted): its bytes stay until a compaction. */
  release(place: number): void {
    this.released += 2 + this.read(place).length;
  }

  /** True once released values take more of the slabs than live ones (and at least a slab's worth). */
  get wasteful(): boolean {
    return this.released > SLAB_BYTES && this.released > this.appended - this.released;
  }

  /** Bytes of the slabs held. */
  get bytes(): number {
    return this.slabs.length * SLAB_BYTES;
  }
}

/**
 * The in-memory store (no data directory). A chain written here is mostly written once (blocks, transaction records,
 * account history): those values are copied into slabs (SlabArena), so that a chain of a million transactions is a
 * few hundred array objects, not millions, which every garbage collection of the devnet's thread would otherwise walk
 * (in a run of 200,000 transfers the young-generation collections took nearly twice as long at the end as at the
 * start).
 * A key written again (state objects, the head) keeps its later values apart, as plain arrays, so that its updates do
 * not fill the slabs. A slab value replaced or deleted (a developer's revert deletes blocks that are then written
 * again) stays in its slab until such values outweigh the live ones; the live ones are then copied into new slabs.
 * A value read is a view into its slab: like the arrays stored before, it must not be changed.
 */
export class MemoryStore implements Store {
  readonly persistent = false;
  private readonly packed = new Map<string, number>();
  private readonly loose = new Map<string, Uint8Array>();
  private arena = new SlabArena();

  /** Bytes of the slabs held, live values and released ones (for tests: compaction keeps it near the live size). */
  get slabBytes(): number {
    return this.arena.bytes;
  }

  private value(key: string): Uint8Array | undefined {
    const place = this.packed.get(key);
    return place === undefined ? this.loose.get(key) : this.arena.read(place);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.value(keyText(key));
  }

  async getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return keys.map((k) => this.value(keyText(k)));
  }

  async write(ops: StoreOp[]): Promise<void> {
    for (const op of ops) {
      const key = keyText(op.key);
      const place = this.packed.get(key);
      if (op.type === 'put' && place === undefined && !this.loose.has(key) && op.value!.length <= MAX_PACKED) {
        this.packed.set(key, this.arena.append(op.value!));
        continue;
      }
      if (place !== undefined) {
        this.arena.release(place);
        this.packed.delete(key);
      }
      if (op.type === 'put') this.loose.set(key, op.value!);
      else this.loose.delete(key);
    }
    if (this.arena.wasteful) this.compact();
  }

  /** Copies the live slab values into new slabs, leaving the released ones behind. */
  private compact(): void {
    const old = this.arena;
    this.arena = new SlabArena();
    for (const [key, place] of this.packed) this.packed.set(key, this.arena.append(old.read(place)));
  }

  async *entries(prefix: Uint8Array): AsyncIterable<[Uint8Array, Uint8Array]> {
    const p = keyText(prefix);
    const keys = [...this.packed.keys(), ...this.loose.keys()].filter((k) => k.startsWith(p)).sort();
    for (const k of keys) yield [keyTextBytes(k), this.value(k)!];
  }

  async clear(): Promise<void> {
    this.packed.clear();
    this.loose.clear();
    this.arena = new SlabArena();
  }

  async close(): Promise<void> {}
}

/** The LevelDB store of a data directory. */
export class LevelStore implements Store {
  readonly persistent = true;
  private readonly db: ClassicLevel<Uint8Array, Uint8Array>;

  private constructor(db: ClassicLevel<Uint8Array, Uint8Array>) {
    this.db = db;
  }

  /**
   * Opens (creating if needed) the LevelDB in `dir`; with `reset`, deletes every entry first. Only LevelDB's own
   * entries are removed, never other files of the directory.
   * @throws Error when the directory is locked by another devnet or is not a LevelDB.
   */
  static async open(dir: string, reset: boolean): Promise<LevelStore> {
    const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
    try {
      await db.open();
    } catch (cause) {
      const detail = cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : String(cause);
      throw new Error(`cannot open the devnet data directory ${dir}: ${detail} (is another devnet using it?)`, {
        cause,
      });
    }
    if (reset) await db.clear();
    return new LevelStore(db);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return plain((await this.db.get(key)) ?? undefined);
  }

  async getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    if (keys.length === 0) return [];
    return (await this.db.getMany(keys)).map((value) => plain(value ?? undefined));
  }

  async write(ops: StoreOp[]): Promise<void> {
    await this.db.batch(
      ops.map((op) =>
        op.type === 'put' ? { type: 'put', key: op.key, value: op.value! } : { type: 'del', key: op.key },
      ),
    );
  }

  async *entries(prefix: Uint8Array): AsyncIterable<[Uint8Array, Uint8Array]> {
    const end = Uint8Array.from(prefix);
    end[end.length - 1]! += 1;
    for await (const [key, value] of this.db.iterator({ gte: prefix, lt: end })) yield [plain(key)!, plain(value)!];
  }

  async clear(): Promise<void> {
    await this.db.clear();
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
