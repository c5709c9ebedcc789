// One small JSON file in the data folder (the address book, the network settings): read once and kept, validated by
// its owner's reader, and rewritten atomically on every change, the changes run one after another. A file the reader
// cannot keep whole (not JSON, or entries or fields it drops) is copied beside it as it was, before any change replaces
// it. The reading and the copy serve the dApp connections' file too (dappStore.ts), which has its own writes.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { WalletError, type ErrorCode } from '../koinos/errors.ts';
import { writeFileAtomic } from './atomicFile.ts';

export interface JsonFileStoreOptions<T> {
  /** Keeps the well-formed parts of what the file holds (`undefined`: no file, or not JSON); never throws. */
  read: (json: unknown) => T;
  /** The file's content as the user knows it, for the message when it cannot be read ("the address book"). */
  what: string;
  /** The code of that message. */
  code: ErrorCode;
  /**
   * What the copy of a file that could not be kept whole holds instead of its bytes (default: the bytes): a file that
   * may hold a secret in plain text (an older wallet's API key in an address) gives it without.
   */
  keptAs?: (bytes: Uint8Array) => Uint8Array;
}

/**
 * Whether `kept` holds every value of `file`: equal scalars, arrays of the same length whose items hold the file's, and
 * objects with each of the file's keys (`kept` may add keys, such as the defaults of fields an older wallet did not
 * write).
 */
function holdsAll(kept: unknown, file: unknown): boolean {
  if (typeof file !== 'object' || file === null) return Object.is(kept, file);
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept) !== Array.isArray(file)) return false;
  if (Array.isArray(file)) {
    const items = kept as unknown[];
    return items.length === file.length && file.every((item, i) => holdsAll(items[i], item));
  }
  const fields = kept as Record<string, unknown>;
  return Object.entries(file).every(([key, value]) => Object.hasOwn(fields, key) && holdsAll(fields[key], value));
}

/** A JSON file as read: what the reader kept of it, and the file's bytes when they held more. */
export interface JsonFileRead<T> {
  kept: T;
  /** The file as it is, when it is not JSON in UTF-8 or holds more than `kept` (keep it aside before replacing it). */
  unkept?: Buffer;
}

/**
 * Reads a JSON file through its owner's reader (a missing file reads as `read(undefined)`).
 * @throws WalletError with `options.code` when the file exists but cannot be read (permissions).
 */
export async function readJsonFile<T extends object>(
  path: string,
  options: JsonFileStoreOptions<T>,
): Promise<JsonFileRead<T>> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new WalletError(options.code, `Cannot read ${options.what} in ${path}. Check the folder's permissions.`, {
        cause,
      });
    }
  }
  let json: unknown;
  let whole = true;
  try {
    // Bytes that are not UTF-8 make the file damaged too: read as U+FFFD, they would be written back as such.
    json = bytes === undefined ? undefined : JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    json = undefined; // a damaged file starts over rather than stopping the wallet
    whole = false;
  }
  const kept = options.read(json);
  return bytes !== undefined && !(whole && holdsAll({ version: 1, ...kept }, json))
    ? { kept, unkept: bytes }
    : { kept };
}

/**
 * Copies `bytes`, a file's content the wallet could not keep whole, to `<path>.damaged-<12 hex digits of its SHA-256>`
 * (the same content is the same copy) and returns the copy's path. `written` is what the copy holds instead of the
 * bytes themselves (sealed, for a file that may hold secrets); the name is still the bytes'.
 * @throws the file system's error; nothing is left half-written.
 */
export async function keepAside(path: string, bytes: Uint8Array, written: Uint8Array = bytes): Promise<string> {
  const copy = `${path}.damaged-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`;
  await writeFileAtomic(copy, written);
  return copy;
}

/**
 * The data of one JSON file: a damaged file reads as whatever `read` keeps of it (an empty store), never as an error;
 * each update writes `{ version: 1, ...data }` atomically, so a crash leaves the old file or the new one. A file that
 * holds more than `read` keeps (not JSON in UTF-8, cut short, edited by hand, entries the reader drops, fields or a
 * version of a newer wallet) is copied byte for byte as it is read ({@link keepAside}), and {@link keptAside} names the
 * copy: what it held can still be read there. A copy that fails then is made again before the first update, which
 * writes nothing without it; a file read again unchanged makes no second copy.
 * @example
 * const store = new JsonFileStore(join(dataDir, 'address-book.json'), { read: readData, what: 'the address book', code: 'STORAGE_FAILED' });
 * await store.update((d) => { d.contacts.push(contact); });
 */
export class JsonFileStore<T extends object> {
  readonly path: string;
  private readonly options: JsonFileStoreOptions<T>;
  private cached: T | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  /** The file as read, while it holds more than the reader kept and has not been copied aside yet. */
  private unkept: Buffer | undefined;
  /** The copy of the file as read, when it held more than the reader kept. */
  private copy: string | undefined;

  constructor(path: string, options: JsonFileStoreOptions<T>) {
    this.path = path;
    this.options = options;
  }

  /**
   * The data as last written (read from the file the first time). The same object on every call: do not change it.
   * @throws WalletError with the store's code when the file exists but cannot be read (permissions).
   */
  async read(): Promise<T> {
    if (!this.cached) {
      const { kept, unkept } = await readJsonFile(this.path, this.options);
      if (unkept) {
        this.unkept = unkept;
        // A copy that fails now is made again before the first change replaces the file.
        await this.keepUnkept().catch(() => {});
      }
      this.cached = kept;
    }
    return this.cached;
  }

  /** The copy of the file as read (a path beside it), when it held more than the wallet could keep; else undefined. */
  get keptAside(): string | undefined {
    return this.copy;
  }

  private async keepUnkept(): Promise<void> {
    this.copy = await keepAside(this.path, this.unkept!, this.options.keptAs?.(this.unkept!));
    this.unkept = undefined;
  }

  /**
   * Runs `change` on a copy and writes it as one atomic file; the copy is kept only once written. Changes run one after
   * another, each on the data the one before left.
   * @throws what `change` throws (nothing is written), or the file system's error.
   */
  update<R>(change: (data: T) => R): Promise<R> {
    const run = this.tail.then(async () => {
      const next = structuredClone(await this.read());
      const result = change(next);
      if (this.unkept) await this.keepUnkept();
      await writeFileAtomic(this.path, JSON.stringify({ version: 1, ...next }, null, 2));
      this.cached = next;
      return result;
    });
    this.tail = run.catch(() => {});
    return run;
  }
}
