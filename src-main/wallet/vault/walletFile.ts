// The wallet's settings file (`wallet.json` in the data folder): everything that is not secret - settings, the scrypt
// salt and cost, the current entry generation, accounts (names, order, addresses, derivation indexes). Read strictly,
// written atomically: this file is the vault's commit point.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccountKind, VaultSettings } from './types.ts';
import { WalletError } from '../../koinos/errors.ts';
import { writeFileAtomic } from '../atomicFile.ts';
import { makeFolders } from '../makeFolders.ts';
import { withFileLock } from './fileLock.ts';
import type { WriteFile } from './secretStore.ts';
import { MIN_SCRYPT_LOG_N, scryptParamsProblem, type ScryptParams } from './vaultCrypto.ts';

const WALLET_FILE_NAME = 'wallet.json';
export const KEY_FILE_NAME = 'vault-keys.json';
const WALLET_FILE_VERSION = 1;

const DEFAULT_SETTINGS: Readonly<VaultSettings> = Object.freeze({ autoLockMinutes: 5, theme: 'system' });

export interface AccountRecord {
  id: string;
  name: string;
  address: string;
  kind: AccountKind;
  /** `key` accounts: the id of their sealed private key. */
  secretId?: string;
  /** `phrase` accounts: the phrase (its id is also its sealed entry's id) and the derivation index. */
  phraseId?: string;
  derivationIndex?: number;
  developmentOnly?: boolean;
}

export interface PhraseRecord {
  id: string;
  /** The next derivation index deriveNext hands out (never reused, even after a removal). */
  nextIndex: number;
  /** The address at index 0: recognises the same phrase imported twice without decrypting anything. */
  firstAddress: string;
}

export interface VaultRecord {
  /** Random; prefixes this wallet's keychain entries so that two data folders never touch each other's. */
  walletId: string;
  storage: 'keychain' | 'file';
  keychainService: string;
  kdf: ScryptParams;
  /** Entries are named `<generation>/...`; a password change writes a new generation, then switches this field. */
  generation: string;
  /** A constant sealed under the current key: proves a password without reading any entry. */
  check: string;
  accounts: AccountRecord[];
  phrases: PhraseRecord[];
  /**
   * Names of entries that may be in the store though nothing above names them: listed before an entry is written and
   * when a commit stops naming one, deleted at the next unlock (entries.ts withStrays). Absent when there are none.
   */
  strayEntries?: string[];
}

export interface WalletFile {
  version: typeof WALLET_FILE_VERSION;
  /**
   * Counts commits: each one writes the revision it read plus one, and is refused when the file on disk has moved on
   * (another window or process wrote it). A file written before the counter existed reads as revision 0.
   */
  revision: number;
  settings: VaultSettings;
  /** Random, made with the first API key: prefixes API key entries in the keychain (they may exist before a vault). */
  installId?: string;
  /** Networks that have a stored API key. */
  apiKeys?: string[];
  vault?: VaultRecord;
  /**
   * Only read, never written: the network selection that a file written before the chain settings owned it still
   * carries in its settings. The vault hands it over once (Vault.handOverSelectedNetwork); any commit drops it.
   */
  legacySelectedNetworkId?: string;
}

function corrupt(path: string, what: string): WalletError {
  return new WalletError('VAULT_CORRUPT', `expected ${path} to be a wallet file written by this wallet, but ${what}`, {
    metaMessages: ['Restore the file from a copy, or move it away and import your encrypted backup into a new wallet.'],
  });
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;
/** An entry name: a generation, a kind and an id, or a network id's encoding, which may be longer than an id. */
const isEntryName = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 2000;
/** A BIP32 child index below the hardened range: what a phrase account's index and a phrase's next index can be. */
export const isIndex = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 31;

/** Checks settings read from the file or sent by the renderer; returns the field that is wrong, if any. */
export function settingsProblem(settings: Partial<VaultSettings>): string | undefined {
  const { autoLockMinutes, theme, selectedAccountId } = settings;
  if (
    autoLockMinutes !== undefined &&
    !(Number.isInteger(autoLockMinutes) && autoLockMinutes >= 1 && autoLockMinutes <= 1440)
  ) {
    return 'autoLockMinutes must be a whole number of minutes from 1 to 1440';
  }
  if (theme !== undefined && theme !== 'system' && theme !== 'light' && theme !== 'dark')
    return 'theme must be system, light or dark';
  if (selectedAccountId !== undefined && !isString(selectedAccountId)) return 'selectedAccountId must be an account id';
  return undefined;
}

function accountProblem(a: AccountRecord): boolean {
  if (!isString(a.id) || typeof a.name !== 'string' || !isString(a.address)) return true;
  if (a.kind === 'key') return !isString(a.secretId);
  if (a.kind === 'phrase') return !isString(a.phraseId) || !isIndex(a.derivationIndex);
  return a.kind !== 'watch';
}

function checkVault(path: string, v: VaultRecord, minScryptN: number): VaultRecord {
  const ok =
    isString(v.walletId) &&
    (v.storage === 'keychain' || v.storage === 'file') &&
    isString(v.keychainService) &&
    v.kdf !== undefined &&
    isString(v.generation) &&
    typeof v.check === 'string' &&
    Array.isArray(v.accounts) &&
    Array.isArray(v.phrases);
  if (!ok) throw corrupt(path, 'its vault section is incomplete');
  // Before any password is tried: scrypt must never run with settings the wallet would not have written.
  const problem = scryptParamsProblem(v.kdf, minScryptN);
  if (problem) throw corrupt(path, `its key derivation settings are not ones this wallet writes (${problem})`);
  if (v.accounts.some(accountProblem)) throw corrupt(path, 'an account entry is incomplete');
  if (v.phrases.some((p) => !isString(p.id) || !isIndex(p.nextIndex) || !isString(p.firstAddress)))
    throw corrupt(path, 'a phrase entry is incomplete');
  if (v.strayEntries !== undefined && !(Array.isArray(v.strayEntries) && v.strayEntries.every(isEntryName)))
    throw corrupt(path, 'its list of stray entries is not a list of entry names');
  return v;
}

/** How a wallet file is read and committed. */
export interface WalletFileOptions {
  /** The smallest scrypt N accepted from the file (default 2^15); only a test's cheap scryptCost lowers it. */
  minScryptN?: number;
  /** Atomic file write (default writeFileAtomic). */
  writeFile?: WriteFile;
}

/**
 * Reads the wallet file of a data folder; a missing file is a fresh wallet (default settings, no vault, revision 0).
 * @throws WalletError VAULT_CORRUPT when the file is not one this wallet wrote (it is never overwritten then), including
 *   scrypt settings the wallet never writes (refused before any password is tried); STORAGE_FAILED when it cannot be read.
 */
export async function readWalletFile(dataDir: string, options: WalletFileOptions = {}): Promise<WalletFile> {
  const path = join(dataDir, WALLET_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { version: WALLET_FILE_VERSION, revision: 0, settings: { ...DEFAULT_SETTINGS } };
    throw new WalletError('STORAGE_FAILED', `expected to read ${path}, but it could not be read`, {
      details: (error as Error).message,
    });
  }
  let parsed: WalletFile;
  try {
    parsed = JSON.parse(text) as WalletFile;
  } catch {
    throw corrupt(path, 'it is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || parsed.version !== WALLET_FILE_VERSION)
    throw corrupt(path, `its version is not ${WALLET_FILE_VERSION}`);
  // A file from before the chain settings owned the network selection carries it here: set aside, not kept.
  const { selectedNetworkId: legacySelectedNetworkId, ...stored } = (parsed.settings ??
    {}) as Partial<VaultSettings> & { selectedNetworkId?: unknown };
  const settings = { ...DEFAULT_SETTINGS, ...stored };
  if (settingsProblem(settings)) throw corrupt(path, `its settings are invalid (${settingsProblem(settings)})`);
  const { installId, apiKeys, revision = 0 } = parsed;
  if (!Number.isSafeInteger(revision) || revision < 0)
    throw corrupt(path, 'its revision is not a whole number from 0 up');
  if (installId !== undefined && !isString(installId)) throw corrupt(path, 'its install id is not text');
  if (apiKeys !== undefined && !(Array.isArray(apiKeys) && apiKeys.every(isString)))
    throw corrupt(path, 'its API key list is not a list of network ids');
  const file: WalletFile = { version: WALLET_FILE_VERSION, revision, settings };
  if (installId !== undefined) file.installId = installId;
  if (apiKeys !== undefined) file.apiKeys = apiKeys;
  // Nothing reads it any more but the hand-over: a value that is no network id is dropped, not a reason to refuse the file.
  if (isString(legacySelectedNetworkId)) file.legacySelectedNetworkId = legacySelectedNetworkId;
  if (parsed.vault !== undefined)
    file.vault = checkVault(path, parsed.vault, options.minScryptN ?? 2 ** MIN_SCRYPT_LOG_N);
  return file;
}

/**
 * Commits `file` as the revision after `file.revision`, the one its writer read: under the folder's commit lock it
 * reads wallet.json again and writes only when that is still the revision on disk. A window or process with a stale
 * view therefore fails instead of dropping what another one added. Returns the file as written.
 * @throws WalletError VAULT_CHANGED when wallet.json moved on since `file.revision` (nothing is written);
 *   VAULT_CORRUPT when the file on disk is not one this wallet wrote; STORAGE_FAILED when a read, the lock or the
 *   write fails (the previous file is then intact).
 * @example
 * view = await commitWalletFile(dataDir, { ...view, settings: { ...view.settings, theme: 'dark' } });
 */
export async function commitWalletFile(
  dataDir: string,
  file: WalletFile,
  options: WalletFileOptions = {},
): Promise<WalletFile> {
  await makeFoldersOrFail(dataDir);
  return withFileLock(join(dataDir, `${WALLET_FILE_NAME}.lock`), async () => {
    const onDisk = await readWalletFile(dataDir, options);
    if (onDisk.revision !== file.revision) {
      throw new WalletError(
        'VAULT_CHANGED',
        'another wallet window or process changed this wallet since this one opened it, so this change was not saved',
        {
          metaMessages: ['Close this window and reopen the wallet to see the current accounts, then try again.'],
          details: `expected revision ${file.revision} of ${join(dataDir, WALLET_FILE_NAME)}, found revision ${onDisk.revision}`,
        },
      );
    }
    const next = { ...file, revision: file.revision + 1 };
    await writeWalletFile(dataDir, next, options.writeFile);
    return next;
  });
}

async function makeFoldersOrFail(dataDir: string): Promise<void> {
  try {
    await makeFolders(dataDir, 0o700);
  } catch (error) {
    throw new WalletError(
      'STORAGE_FAILED',
      `expected to save the wallet in ${dataDir}, but the folder cannot be created; nothing was changed`,
      {
        details: (error as Error).message,
        cause: error,
      },
    );
  }
}

/**
 * Replaces the wallet file atomically (owner-only), creating the data folder (owner-only) when needed. No revision
 * check: the vault commits through {@link commitWalletFile}. A write that reports a failure after it landed (the folder's
 * sync failing after the rename) is a success: the vault would otherwise remove the entries the file on disk names.
 * @throws WalletError STORAGE_FAILED when the write fails; the previous file is then intact.
 */
async function writeWalletFile(
  dataDir: string,
  file: WalletFile,
  writeFile: WriteFile = writeFileAtomic,
): Promise<void> {
  const path = join(dataDir, WALLET_FILE_NAME);
  const written = { ...file };
  delete written.legacySelectedNetworkId; // read from old files only, never written back
  const text = JSON.stringify(written, null, 2) + '\n';
  try {
    await makeFolders(dataDir, 0o700);
    await writeFile(path, text, { mode: 0o600 });
  } catch (error) {
    // The text carries the new revision: finding it on disk proves this write put it there.
    if ((await readFile(path, 'utf8').catch(() => undefined)) === text) return;
    throw new WalletError('STORAGE_FAILED', `expected to save ${path}, but the write failed; nothing was changed`, {
      metaMessages: ['Check that the disk has free space and the folder is writable, then try again.'],
      details: (error as Error).message,
      cause: error,
    });
  }
}
