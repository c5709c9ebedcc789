// Where the vault's sealed entries live: the OS keychain through keytar, or - where no keychain answers - one file in
// the data folder readable by the owner alone. Both hold only values already encrypted by vaultCrypto.ts.
import { readFile } from 'node:fs/promises';
import { WalletError } from '../../koinos/errors.ts';
import { writeFileAtomic } from '../atomicFile.ts';
import { withFileLock } from './fileLock.ts';

/**
 * The part of keytar (`@github/keytar`) the vault uses; tests pass the real module, or a wrapper that fails on cue.
 * Not its listing (findCredentials): that crashes the process on an entry whose secret the keychain did not hand over,
 * as after a cancelled unlock prompt (atom/node-keytar#477), so the vault keeps its own list (entries.ts withStrays).
 */
export interface Keychain {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** Writes a file atomically; the vault takes it as an option so that tests can make a write fail mid-way. */
export type WriteFile = (path: string, content: string, options: { mode: number }) => Promise<void>;

/** Sealed entries by name, under one wallet's prefix. */
export interface SecretStore {
  readonly kind: 'keychain' | 'file';
  read(name: string): Promise<string | undefined>;
  write(name: string, value: string): Promise<void>;
  remove(name: string): Promise<void>;
}

/** The sentence shown when the wallet keeps its entries in a file (VaultStatus.storageNotice). */
export const FILE_STORAGE_NOTICE =
  'No system keychain answered (no Secret Service on this machine), so your encrypted keys are kept in a file in the ' +
  'wallet data folder that only your user can read. They are as safe as your wallet password: choose a strong one, ' +
  'and keep an encrypted backup.';

function keychainError(action: string, cause: unknown): WalletError {
  return new WalletError('KEYCHAIN_UNAVAILABLE', `expected the system keychain to ${action}, but it did not answer`, {
    metaMessages: [
      'Unlock or start the system keychain (Secret Service, Keychain Access or Credential Manager) and try again.',
    ],
    details: cause instanceof Error ? cause.message : String(cause),
    cause,
  });
}

/**
 * Entries in the OS keychain: keytar service `service`, one account per entry named `<prefix>/<name>`, so that two
 * wallets (two data folders) under one service never see each other's entries.
 */
export function keychainStore(keychain: Keychain, service: string, prefix: string): SecretStore {
  const account = (name: string) => `${prefix}/${name}`;
  return {
    kind: 'keychain',
    async read(name) {
      try {
        return (await keychain.getPassword(service, account(name))) ?? undefined;
      } catch (cause) {
        throw keychainError('read a key', cause);
      }
    },
    async write(name, value) {
      try {
        await keychain.setPassword(service, account(name), value);
      } catch (cause) {
        throw keychainError('store a key', cause);
      }
    },
    async remove(name) {
      try {
        await keychain.deletePassword(service, account(name));
      } catch (cause) {
        throw keychainError('delete a key', cause);
      }
    },
  };
}

/**
 * Whether the keychain stores, returns and deletes an entry. A locked or absent Secret Service may answer reads with
 * "nothing" and fail only on writes, so the probe writes.
 */
export async function keychainAnswers(
  keychain: Keychain,
  service: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const probe = `probe/${Math.random().toString(36).slice(2)}`;
  try {
    await keychain.setPassword(service, probe, 'probe');
    const back = await keychain.getPassword(service, probe);
    await keychain.deletePassword(service, probe);
    return back === 'probe' ? { ok: true } : { ok: false, reason: 'the keychain did not return what was stored' };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

interface SecretFile {
  version: 1;
  entries: Record<string, string>;
}

/**
 * Entries in one owner-only (0600) JSON file, rewritten atomically on every change, so a crash leaves either the
 * previous or the next set of entries. Each change reads and rewrites the file under its lock (`<path>.lock`): a
 * second process on the folder must not write back a list read before this one's new entry.
 */
export function fileStore(path: string, writeFile: WriteFile = writeFileAtomic): SecretStore {
  async function load(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new WalletError(
        'STORAGE_FAILED',
        `expected to read the wallet's key file ${path}, but it could not be read`,
        {
          details: (error as Error).message,
        },
      );
    }
    try {
      const parsed = JSON.parse(text) as SecretFile;
      if (parsed?.version !== 1 || typeof parsed.entries !== 'object' || parsed.entries === null)
        throw new Error('not a version 1 key file');
      return { ...parsed.entries };
    } catch (error) {
      throw new WalletError(
        'VAULT_CORRUPT',
        `expected the wallet's key file ${path} to be JSON written by this wallet, but it is not`,
        {
          metaMessages: ['Restore it from a copy, or import your encrypted backup into a new wallet.'],
          details: (error as Error).message,
        },
      );
    }
  }
  async function save(entries: Record<string, string>): Promise<void> {
    const content: SecretFile = { version: 1, entries };
    try {
      await writeFile(path, JSON.stringify(content, null, 1), { mode: 0o600 });
    } catch (error) {
      throw new WalletError(
        'STORAGE_FAILED',
        `expected to save the wallet's key file ${path}, but the write failed; nothing was changed`,
        {
          metaMessages: ['Check that the disk has free space and the folder is writable, then try again.'],
          details: (error as Error).message,
          cause: error,
        },
      );
    }
  }
  return {
    kind: 'file',
    async read(name) {
      return (await load())[name];
    },
    async write(name, value) {
      await withFileLock(`${path}.lock`, async () => {
        const entries = await load();
        entries[name] = value;
        await save(entries);
      });
    },
    async remove(name) {
      await withFileLock(`${path}.lock`, async () => {
        const entries = await load();
        if (!(name in entries)) return;
        delete entries[name];
        await save(entries);
      });
    },
  };
}

/**
 * keytar, loaded on first use: a missing native module counts as "no keychain" rather than a crash at start.
 * @example
 * const vault = await Vault.open({ dataDir, keychain: await loadKeytar() });
 */
export async function loadKeytar(): Promise<Keychain> {
  try {
    const module = (await import('@github/keytar')) as unknown as Keychain & { default?: Keychain };
    return module.default ?? module;
  } catch (error) {
    const fail = async (): Promise<never> => {
      throw new Error(`keytar could not be loaded: ${(error as Error).message}`);
    };
    return { getPassword: fail, setPassword: fail, deletePassword: fail };
  }
}
