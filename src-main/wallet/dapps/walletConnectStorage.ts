// The key-value store WalletConnect's client keeps its state in (pairings, sessions, their symmetric keys): one JSON
// file in the data folder, owner-only, written atomically, the writes of one burst coalesced into one.
import { readFile } from 'node:fs/promises';
import { WalletError } from '../../koinos/errors.ts';
import { writeFileAtomic } from '../atomicFile.ts';

/** At most this many writes, each following the last, are waited for as the storage closes. */
const CLOSE_ROUNDS = 8;

/**
 * The shape @walletconnect/keyvaluestorage's IKeyValueStorage has (the client calls only these five).
 * @example
 * const storage = await FileKeyValueStorage.open(join(dataDir, 'walletconnect.json'));
 * await SignClient.init({ storage, ... });
 */
export class FileKeyValueStorage {
  readonly #path: string;
  readonly #entries: Map<string, unknown>;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;
  #closed = false;

  private constructor(path: string, entries: Map<string, unknown>) {
    this.#path = path;
    this.#entries = entries;
  }

  /**
   * Reads the file (missing: empty).
   * @throws WalletError STORAGE_FAILED when it is not a JSON object.
   */
  static async open(path: string): Promise<FileKeyValueStorage> {
    let entries = new Map<string, unknown>();
    try {
      const json = JSON.parse(await readFile(path, 'utf8')) as unknown;
      if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not an object');
      entries = new Map(Object.entries(json));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new WalletError(
          'STORAGE_FAILED',
          `The WalletConnect sessions could not be read. Move ${path} away to start without them (dApps then connect again).`,
          { cause: error },
        );
      }
    }
    return new FileKeyValueStorage(path, entries);
  }

  async getKeys(): Promise<string[]> {
    return [...this.#entries.keys()];
  }

  async getEntries<T = unknown>(): Promise<[string, T][]> {
    return [...this.#entries.entries()].map(([k, v]) => [k, structuredClone(v) as T]);
  }

  async getItem<T = unknown>(key: string): Promise<T | undefined> {
    const value = this.#entries.get(key);
    return value === undefined ? undefined : (structuredClone(value) as T);
  }

  async setItem<T = unknown>(key: string, value: T): Promise<void> {
    this.#entries.set(key, structuredClone(value));
    return this.#schedule();
  }

  async removeItem(key: string): Promise<void> {
    if (this.#entries.delete(key)) return this.#schedule();
  }

  /**
   * Writes what was set so far, and what a caller sets once a write of its own is on disk, then nothing more. The
   * client records some changes in two steps, the second set when the first is written (what it saw of a message,
   * then whether it took the message in): a close between the two left the file saying a request was not taken in,
   * and the next start took it in again. Later changes (the client still changes a few entries after its relay
   * connection closed: WalletConnect publishes an error answer in the background and records it once the relay
   * acknowledged it) stay in memory instead of reaching a folder the wallet has let go of.
   */
  async close(): Promise<void> {
    // The next step is set in the promise callbacks that follow a write: once they ran (one turn of the event loop),
    // either a write was scheduled or none is coming.
    for (let round = 0; round < CLOSE_ROUNDS; round++) {
      const writing = this.#writing;
      await writing;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#writing === writing) break;
    }
    this.#closed = true;
    await this.#writing;
  }

  /** One write after the current one for any number of changes made meanwhile. */
  #schedule(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#dirty) return this.#writing;
    this.#dirty = true;
    const write = this.#writing.then(async () => {
      this.#dirty = false;
      await writeFileAtomic(this.#path, JSON.stringify(Object.fromEntries(this.#entries)));
    });
    // A failed write fails the set that caused it; the next one writes everything again.
    this.#writing = write.catch(() => undefined);
    return write;
  }
}
