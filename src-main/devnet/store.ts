// Where the devnet keeps its chain: LevelDB (classic-level) in a data directory, or a map in memory. Writes are
// atomic batches applied in order (one per block); reads see a batch as soon as it is queued, before it is on disk.
//
// Key layout (ASCII prefix + binary):
//   meta                      koinos.devnet.chain_meta        what the chain was created with
//   head                      koinos.devnet.head_record       the last complete block
//   s <tag> <object key>      object value                    chain state (see state.ts for the tags)
//   b <height:8>              koinos.block_store.block_item   block and block receipt
//   h <height:8>              koinos.block_topology           id, height and previous of a block
//   i <block id>              koinos.devnet.record_pointer    height of a block
//   x <height:8> <index:4>    koinos.account_history.transaction_record   transaction and its receipt
//   t <transaction id>        koinos.devnet.record_pointer    where a transaction is
//   a <address:25> <seq:8>    koinos.devnet.record_pointer    account history entry `seq` of an address
import { ClassicLevel } from 'classic-level';

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
  /** Queues one atomic batch; batches reach the disk in the order they were queued. */
  write(ops: StoreOp[]): void;
  /** Resolves when every queued batch is on disk; rejects if one failed. */
  flush(): Promise<void>;
  /** Every entry whose key starts with `prefix`, in key order (reads the disk: call after flush). */
  entries(prefix: Uint8Array): AsyncIterable<[Uint8Array, Uint8Array]>;
  close(): Promise<void>;
}

/** `prefix || parts...` as one key. */
export function storeKey(prefix: string, ...parts: Uint8Array[]): Uint8Array {
  let length = prefix.length;
  for (const p of parts) length += p.length;
  const key = new Uint8Array(length);
  for (let i = 0; i < prefix.length; i++) key[i] = prefix.charCodeAt(i);
  let offset = prefix.length;
  for (const p of parts) {
    key.set(p, offset);
    offset += p.length;
  }
  return key;
}

/** Big-endian 8-byte encoding, so that heights and sequence numbers sort in key order. */
export function u64Key(value: bigint | number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

/** Big-endian 4-byte encoding. */
export function u32Key(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

/** A plain Uint8Array over the same memory (LevelDB hands out Buffers; the codec and tests expect Uint8Array). */
function plain(bytes: Uint8Array | undefined): Uint8Array | undefined {
  return bytes === undefined || bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function text(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
}

/** The in-memory store (no data directory). */
export class MemoryStore implements Store {
  readonly persistent = false;
  private readonly map = new Map<string, Uint8Array>();

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.map.get(text(key));
  }

  async getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return keys.map((k) => this.map.get(text(k)));
  }

  write(ops: StoreOp[]): void {
    for (const op of ops) {
      if (op.type === 'put') this.map.set(text(op.key), op.value!);
      else this.map.delete(text(op.key));
    }
  }

  async flush(): Promise<void> {}

  async *entries(prefix: Uint8Array): AsyncIterable<[Uint8Array, Uint8Array]> {
    const p = text(prefix);
    const keys = [...this.map.keys()].filter((k) => k.startsWith(p)).sort();
    for (const k of keys) yield [new Uint8Array(Buffer.from(k, 'latin1')), this.map.get(k)!];
  }

  async close(): Promise<void> {}
}

/** The LevelDB store of a data directory. */
export class LevelStore implements Store {
  readonly persistent = true;
  private readonly db: ClassicLevel<Uint8Array, Uint8Array>;
  /** Queued batches not yet on disk, by key (null = deleted), so that reads see them at once. */
  private readonly unflushed = new Map<string, { value: Uint8Array | null; batch: number }>();
  private tail: Promise<void> = Promise.resolve();
  private batchNo = 0;
  private failure: unknown;
  private readonly onFailure: (error: unknown) => void;

  private constructor(db: ClassicLevel<Uint8Array, Uint8Array>, onFailure: (error: unknown) => void) {
    this.db = db;
    this.onFailure = onFailure;
  }

  /**
   * Opens (creating if needed) the LevelDB in `dir`; with `reset`, deletes every entry first. Only LevelDB's own
   * entries are removed, never other files of the directory. `onFailure` hears of the first batch that cannot be
   * written (later batches are then dropped: the disk keeps the last complete block).
   * @throws Error when the directory is locked by another devnet or is not a LevelDB.
   */
  static async open(dir: string, reset: boolean, onFailure: (error: unknown) => void = () => {}): Promise<LevelStore> {
    const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
    try {
      await db.open();
    } catch (cause) {
      const detail = cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : String(cause);
      throw new Error(`cannot open the devnet data directory ${dir}: ${detail} (is another devnet using it?)`, { cause });
    }
    if (reset) await db.clear();
    return new LevelStore(db, onFailure);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const queued = this.unflushed.get(text(key));
    if (queued) return queued.value ?? undefined;
    return plain((await this.db.get(key)) ?? undefined);
  }

  async getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const out: (Uint8Array | undefined)[] = new Array(keys.length);
    const missing: number[] = [];
    keys.forEach((k, i) => {
      const queued = this.unflushed.get(text(k));
      if (queued) out[i] = queued.value ?? undefined;
      else missing.push(i);
    });
    if (missing.length > 0) {
      const found = await this.db.getMany(missing.map((i) => keys[i]!));
      missing.forEach((i, j) => (out[i] = plain(found[j] ?? undefined)));
    }
    return out;
  }

  write(ops: StoreOp[]): void {
    const batch = ++this.batchNo;
    for (const op of ops) this.unflushed.set(text(op.key), { value: op.type === 'put' ? op.value! : null, batch });
    this.tail = this.tail.then(async () => {
      if (this.failure) return;
      try {
        await this.db.batch(ops.map((op) => (op.type === 'put' ? { type: 'put', key: op.key, value: op.value! } : { type: 'del', key: op.key })));
      } catch (error) {
        this.failure = error;
        this.onFailure(error);
        return;
      }
      for (const op of ops) {
        const k = text(op.key);
        if (this.unflushed.get(k)?.batch === batch) this.unflushed.delete(k);
      }
    });
  }

  async flush(): Promise<void> {
    await this.tail;
    if (this.failure) throw this.failure;
  }

  async *entries(prefix: Uint8Array): AsyncIterable<[Uint8Array, Uint8Array]> {
    const end = Uint8Array.from(prefix);
    end[end.length - 1]! += 1;
    for await (const [key, value] of this.db.iterator({ gte: prefix, lt: end })) yield [plain(key)!, plain(value)!];
  }

  async close(): Promise<void> {
    try {
      await this.tail;
    } finally {
      await this.db.close();
    }
  }
}
