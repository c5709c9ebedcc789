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
//   a <length:4> <address> <seq:8>   koinos.devnet.record_pointer   account history entry `seq` of an address
// The address in `a` keys carries its length: KOIN (like the real contract) accepts a `to` of any length, and
// every address a transaction impacts gets history records, so the key must not assume 25-byte addresses.
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

/**
 * Bytes as a string with one character per byte (latin1): the devnet's map key for binary keys and addresses.
 * @example
 * keyText(Uint8Array.of(0, 255)); // '\u0000\u00ff'
 */
export function keyText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** The bytes of a {@link keyText} string. */
export function keyTextBytes(text: string): Uint8Array {
  return Uint8Array.from(Buffer.from(text, 'latin1'));
}

/** Key of account history record `seq` of `address`: `a <length:4> <address> <seq:8>`. */
export function historyKey(address: Uint8Array, seq: bigint | number): Uint8Array {
  return storeKey('a', u32Key(address.length), address, u64Key(seq));
}

/**
 * The address and sequence number of a history key.
 * @throws Error when the key is not `a <length:4> <address> <seq:8>` (a data directory of another layout).
 */
export function parseHistoryKey(key: Uint8Array): { address: Uint8Array; seq: bigint } {
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  const length = key.length >= 5 ? view.getUint32(1) : -1;
  if (key[0] !== 0x61 || length < 0 || key.length !== 1 + 4 + length + 8) {
    throw new Error(`the account history in the data directory has a malformed key (${key.length} bytes)`);
  }
  return { address: key.subarray(5, 5 + length), seq: view.getBigUint64(5 + length) };
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
      throw new Error(`cannot open the devnet data directory ${dir}: ${detail} (is another devnet using it?)`, { cause });
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
    await this.db.batch(ops.map((op) => (op.type === 'put' ? { type: 'put', key: op.key, value: op.value! } : { type: 'del', key: op.key })));
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
