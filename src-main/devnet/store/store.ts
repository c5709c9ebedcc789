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

/** The in-memory store (no data directory). */
export class MemoryStore implements Store {
  readonly persistent = false;
  private readonly map = new Map<string, Uint8Array>();

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.map.get(keyText(key));
  }

  async getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return keys.map((k) => this.map.get(keyText(k)));
  }

  async write(ops: StoreOp[]): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') this.map.set(keyText(op.key), op.value!);
      else this.map.delete(keyText(op.key));
    }
  }

  async *entries(prefix: Uint8Array): AsyncIterable<[Uint8Array, Uint8Array]> {
    const p = keyText(prefix);
    const keys = [...this.map.keys()].filter((k) => k.startsWith(p)).sort();
    for (const k of keys) yield [keyTextBytes(k), this.map.get(k)!];
  }

  async clear(): Promise<void> {
    this.map.clear();
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
