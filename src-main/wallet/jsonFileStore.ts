// One small JSON file in the data folder (the address book, the network settings): read once and kept, validated by
// its owner's reader, and rewritten atomically on every change, the changes run one after another. A file that is not
// JSON is kept beside it before the first change replaces it.
import { constants } from 'node:fs';
import { copyFile, readFile } from 'node:fs/promises';
import { WalletError, type ErrorCode } from '../koinos/errors.ts';
import { writeFileAtomic } from './atomicFile.ts';

export interface JsonFileStoreOptions<T> {
  /** Keeps the well-formed parts of what the file holds (`undefined`: no file, or not JSON); never throws. */
  read: (json: unknown) => T;
  /** The file's content as the user knows it, for the message when it cannot be read ("the address book"). */
  what: string;
  /** The code of that message. */
  code: ErrorCode;
}

/**
 * The data of one JSON file: a damaged file reads as whatever `read` keeps of it (an empty store), never as an error;
 * each update writes `{ version: 1, ...data }` atomically, so a crash leaves the old file or the new one. A file that is
 * not JSON at all (cut short, edited by hand) is copied to `<name>.damaged-<epoch ms>` before the first update replaces
 * it: what it held can still be read there.
 * @example
 * const store = new JsonFileStore(join(dataDir, 'address-book.json'), { read: readData, what: 'the address book', code: 'STORAGE_FAILED' });
 * await store.update((d) => { d.contacts.push(contact); });
 */
export class JsonFileStore<T extends object> {
  readonly path: string;
  private readonly options: JsonFileStoreOptions<T>;
  private cached: T | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  /** True while the file read was not JSON and has not been kept aside yet. */
  private damaged = false;

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
      let text: string | undefined;
      try {
        text = await readFile(this.path, 'utf8');
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') {
          throw new WalletError(
            this.options.code,
            `Cannot read ${this.options.what} in ${this.path}. Check the folder's permissions.`,
            { cause },
          );
        }
      }
      let json: unknown;
      try {
        json = text === undefined ? undefined : JSON.parse(text);
      } catch {
        json = undefined; // a damaged file starts over rather than stopping the wallet
        this.damaged = true;
      }
      this.cached = this.options.read(json);
    }
    return this.cached;
  }

  /**
   * Copies the damaged file aside before it is replaced. A copy that fails writes nothing (the next change tries again);
   * a file gone meanwhile has nothing to keep.
   */
  private async keepDamaged(): Promise<void> {
    try {
      await copyFile(this.path, `${this.path}.damaged-${Date.now()}`, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.damaged = false;
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
      if (this.damaged) await this.keepDamaged();
      await writeFileAtomic(this.path, JSON.stringify({ version: 1, ...next }, null, 2));
      this.cached = next;
      return result;
    });
    this.tail = run.catch(() => {});
    return run;
  }
}
