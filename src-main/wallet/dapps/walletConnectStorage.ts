// The key-value store WalletConnect's client keeps its state in (pairings, sessions, their symmetric keys, the
// client's own private key): one file in the data folder, sealed (AES-256-GCM) with a key the vault keeps as it keeps
// an API key (a keychain entry; without a keychain, sealed under the password), owner-only, written atomically, the
// writes of one burst coalesced into one. A file an older wallet wrote in plain JSON is read and sealed at once; one
// that cannot be read (damaged, or sealed with a key this wallet does not hold) is kept beside it and the client
// starts without sessions: dApps connect again. A damaged file in plain text, which may hold an older wallet's keys,
// is kept sealed.
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { WalletError } from '../../koinos/errors.ts';
import { writeFileAtomic } from '../atomicFile.ts';
import type { ApiKeyStore } from '../chain/apiKeyStore.ts';
import { keepAside } from '../jsonFileStore.ts';
import { looksSealed, open as openSealed, seal, zero } from '../vault/vaultCrypto.ts';

/** At most this many writes, each following the last, are waited for as the storage closes. */
const CLOSE_ROUNDS = 8;
/** What the file's content is sealed for (the associated data): it opens as this file only. */
const SEALED_AS = 'koinos-wallet/walletconnect.json';
/** What a damaged plain file's copy is sealed for: it opens as that copy only, never as the sessions. */
export const KEPT_SEALED_AS = 'koinos-wallet/walletconnect.json.damaged';
/**
 * Where the key is kept: an entry of the vault's API key store that no network has (networks are mainnet, testnet,
 * local and custom-<uuid>), so that it lives where API keys do and is never sent to a node.
 */
export const STORAGE_KEY_ID = 'walletconnect-storage';
const KEY_BYTES = 32;

/**
 * The key the file at `path` is sealed with: the one kept in `keys`, or a new one kept there. A key the store lists but
 * does not hand over (a keychain that answers "nothing" while it is locked) is not replaced while the file it sealed
 * is there: that would leave the sessions unreadable for good.
 * @throws WalletError KEYCHAIN_UNAVAILABLE (that case, or a keychain that does not answer), VAULT_LOCKED (no keychain:
 *   the key is sealed under the password), VAULT_NOT_FOUND.
 */
export async function storageKey(keys: ApiKeyStore, path: string): Promise<Uint8Array> {
  const stored = await keys.get(STORAGE_KEY_ID);
  const key = stored === undefined ? undefined : Buffer.from(stored.key, 'base64');
  if (key?.length === KEY_BYTES) return copyAndZero(key);
  if (stored === undefined && (await keys.has?.(STORAGE_KEY_ID)) && (await exists(path))) {
    throw new WalletError(
      'KEYCHAIN_UNAVAILABLE',
      `expected the key of the WalletConnect sessions in ${path} from the system keychain, but it did not hand it over`,
      {
        metaMessages: [
          'Unlock the system keychain and start the wallet again; or move the file away to start without the sessions (dApps then connect again).',
        ],
      },
    );
  }
  const made = randomBytes(KEY_BYTES);
  await keys.set(STORAGE_KEY_ID, made.toString('base64'));
  return copyAndZero(made);
}

/** The bytes in a Uint8Array of their own (not Node's shared Buffer pool), the Buffer zeroed. */
function copyAndZero(buffer: Buffer): Uint8Array {
  const bytes = new Uint8Array(buffer);
  buffer.fill(0);
  return bytes;
}

/** Whether there is a file at `path` (one that cannot be looked at counts as there). */
async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
  );
}

/**
 * The shape @walletconnect/keyvaluestorage's IKeyValueStorage has (the client calls only these five).
 * @example
 * const storage = await FileKeyValueStorage.open(join(dataDir, 'walletconnect.json'));
 * await SignClient.init({ storage, ... });
 */
export class FileKeyValueStorage {
  readonly #path: string;
  readonly #key: Uint8Array;
  readonly #entries: Map<string, unknown>;
  /** Where the file was kept as it was, when it could not be read. */
  readonly keptAside: string | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;
  #closed = false;

  private constructor(path: string, key: Uint8Array, entries: Map<string, unknown>, keptAside?: string) {
    this.#path = path;
    this.#key = key;
    this.#entries = entries;
    this.keptAside = keptAside;
  }

  /**
   * Reads the file with `key` (missing: empty). A plain JSON object (an older wallet's) is sealed at once; a file that
   * is neither a JSON object nor sealed with `key` is copied to `<path>.damaged-<hash>` and the storage starts empty:
   * a sealed one (another machine's key) as it is, anything else sealed with `key` (KEPT_SEALED_AS), since an older
   * wallet's plain file cut short still holds the keys it had.
   * The storage keeps `key` until close() and zeroes it then.
   * @throws WalletError STORAGE_FAILED when the file cannot be read (permissions), or a damaged one cannot be copied
   *   aside, or an older one cannot be sealed: the file is left as it was.
   */
  static async open(path: string, key: Uint8Array): Promise<FileKeyValueStorage> {
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return new FileKeyValueStorage(path, key, new Map());
      throw failed(`Cannot read the WalletConnect sessions in ${path}. Check its permissions.`, cause);
    }
    const text = bytes.toString('utf8');
    const opened = openSealedState(key, text);
    const entries = opened ?? entriesOf(text);
    const copy =
      entries === undefined
        ? await keepAside(path, bytes, keptContent(key, bytes, text)).catch((cause: unknown) => {
            throw failed(
              `The WalletConnect sessions in ${path} cannot be read, nor kept aside to start without them.`,
              cause,
            );
          })
        : undefined;
    const storage = new FileKeyValueStorage(path, key, entries ?? new Map(), copy);
    // Written in plain JSON by an older wallet, or kept aside: sealed anew before the client runs.
    if (!opened) {
      await storage.#schedule().catch((cause: unknown) => {
        throw failed(`The WalletConnect sessions in ${path} could not be sealed.`, cause);
      });
    }
    return storage;
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
    zero(this.#key);
  }

  /** One write after the current one for any number of changes made meanwhile. */
  #schedule(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#dirty) return this.#writing;
    this.#dirty = true;
    const write = this.#writing.then(async () => {
      this.#dirty = false;
      await writeFileAtomic(this.#path, sealState(this.#key, this.#entries));
    });
    // A failed write fails the set that caused it; the next one writes everything again.
    this.#writing = write.catch(() => undefined);
    return write;
  }
}

/** The file's content for `entries`, sealed with `key`. */
export function sealState(key: Uint8Array, entries: ReadonlyMap<string, unknown>): string {
  const plain = Buffer.from(JSON.stringify(Object.fromEntries(entries)), 'utf8');
  try {
    return seal(key, plain, SEALED_AS);
  } finally {
    plain.fill(0);
  }
}

/** The entries of a file's content sealed with `key` by sealState, or undefined (not sealed, or not with this key). */
export function openSealedState(key: Uint8Array, text: string): Map<string, unknown> | undefined {
  const plain = openSealed(key, text, SEALED_AS);
  if (plain === undefined) return undefined;
  try {
    return entriesOf(Buffer.from(plain).toString('utf8'));
  } finally {
    zero(plain);
  }
}

/** What a damaged file's copy holds: a sealed file as it is (ciphertext already), anything else sealed with `key`. */
function keptContent(key: Uint8Array, bytes: Uint8Array, text: string): Uint8Array {
  return looksSealed(text) ? bytes : Buffer.from(seal(key, bytes, KEPT_SEALED_AS), 'utf8');
}

/** The error of an open that leaves the file as it was. */
function failed(message: string, cause: unknown): WalletError {
  return new WalletError('STORAGE_FAILED', message, { cause });
}

/** The entries of a JSON object's text, or undefined for anything else. */
function entriesOf(text: string): Map<string, unknown> | undefined {
  try {
    const json = JSON.parse(text) as unknown;
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? new Map(Object.entries(json))
      : undefined;
  } catch {
    return undefined;
  }
}
