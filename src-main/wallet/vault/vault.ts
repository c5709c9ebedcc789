// The vault: the wallet password, the accounts and their keys. One method per `vault:*`, `settings:*` and
// `accounts:*` channel of the IPC contract, plus signing (TransactionSigner) and the idle lock; the API keys of networks
// (apiKeys.ts) use its session and commits. Secrets are sealed entries in a SecretStore; wallet.json (walletFile.ts)
// is the commit point of every change.
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import type {
  AccountInfo,
  BackupImportResult,
  BackupImportSummary,
  EncryptedBackup,
  NewPhrase,
  RevealedSecret,
  VaultSettings,
  VaultStatus,
} from './types.ts';
import type { ContactMergeSummary } from '../addressBookTypes.ts';
import { WalletError, causeText, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { sha256 } from '../../koinos/hash.ts';
import { assertMnemonic, newMnemonic, parsePrivateKey, privateKeyToWif, signDigest } from '../../koinos/keys.ts';
import { signTransaction } from '../../koinos/transaction.ts';
import { redeemApproval, redeemMessageApproval, type Approval } from '../approvals/approvalQueue.ts';
import type { Transaction } from '../../koinos/types.ts';
import { makeFolders } from '../makeFolders.ts';
import type { TransactionSigner } from '../signer.ts';
import {
  assertNewAddress,
  checkNewPassword,
  cleanName,
  findAccount,
  newId,
  removeAccount,
  reorder,
  requireText,
  toInfo,
} from './accountBook.ts';
import { VaultApiKeys, sealedApiKeys } from './apiKeys.ts';
import { openBackup, sealBackup, type BackupPayload } from './backupFile.ts';
import { backupPayloadOf, mergeBackup } from './backupMerge.ts';
import { entryNames, openEntry, removeAll, resealGeneration, sealEntry, secretEntry, withStrays } from './entries.ts';
import { IdleTimer, SYSTEM_CLOCK, type Clock } from './idleTimer.ts';
import {
  addressOfKey,
  deriveAccount,
  keyOf,
  keyPayload,
  phraseAccounts,
  phraseOf,
  phrasePayload,
} from './secretPayload.ts';
import {
  FILE_STORAGE_NOTICE,
  fileStore,
  keychainAnswers,
  keychainStore,
  type Keychain,
  type SecretStore,
  type WriteFile,
} from './secretStore.ts';
import { formatWait, throttleFor, type PasswordThrottle } from './passwordThrottle.ts';
import { VaultSession } from './vaultSession.ts';
import {
  MIN_SCRYPT_LOG_N,
  calibrateScrypt,
  deriveKey,
  makeCheck,
  newSalt,
  verifyCheck,
  zero,
  type ScryptCost,
} from './vaultCrypto.ts';
import {
  KEY_FILE_NAME,
  commitWalletFile,
  readWalletFile,
  settingsProblem,
  type AccountRecord,
  type VaultRecord,
  type WalletFile,
  type WalletFileOptions,
} from './walletFile.ts';

export { MIN_PASSWORD_LENGTH } from './accountBook.ts';

export interface VaultOptions {
  /** The wallet's data folder (wallet.json, and vault-keys.json when no keychain answers). */
  dataDir: string;
  /** keytar, or anything with its four calls (see loadKeytar). */
  keychain: Keychain;
  /** keytar service name of a new wallet's entries (default `koinos-wallet`); tests use a unique one. */
  keychainService?: string;
  /** Time and timers of the idle lock (default: the system's). */
  clock?: Clock;
  /**
   * scrypt cost of a new wallet or password (default: calibrated to about 0.25 s on this machine, N from 2^15 to
   * 2^20). Tests give a cheap N here; only then does the vault also read wallet files and backups with an N that low.
   * r and p are always 8 and 1, and N never above 2^20, whatever a file says.
   */
  scryptCost?: ScryptCost;
  /** Atomic file write (default writeFileAtomic); tests inject failures through it. */
  writeFile?: WriteFile;
}

const CHECK_WORDS = 3;
/** Phrase indexes deriveNext skips at most, one after another, when their addresses are in the wallet already. */
const MAX_SKIPPED_INDEXES = 100;
/** Addresses phraseAddresses derives at most in one call. */
const MAX_PHRASE_ADDRESSES = 100;

/** @throws WalletError NOT_FOUND when the vault has no phrase `id`. */
function findPhrase(vault: VaultRecord, id: unknown): VaultRecord['phrases'][number] {
  const phrase = vault.phrases.find((p) => p.id === id);
  if (!phrase)
    throw new WalletError(
      'NOT_FOUND',
      `expected a recovery phrase of this wallet, got unknown phrase id ${describe(id)}`,
    );
  return phrase;
}

/**
 * The wallet's keys behind a password. One class because the IPC contract maps onto its methods one to one; the
 * rules live beside it (accountBook.ts, entries.ts, backupMerge.ts), this class holds the session and the commits.
 * @example
 * const vault = await Vault.open({ dataDir, keychain: await loadKeytar() });
 * await vault.create({ password: 'correct horse battery' });
 * const account = await vault.importKey({ key: wif, name: 'Main' });
 * const signed = await vault.signTransaction(account.address, prepared);
 */
export class Vault implements TransactionSigner {
  readonly #options: VaultOptions;
  readonly #clock: Clock;
  readonly #idle: IdleTimer;
  readonly #listeners = new Set<(status: VaultStatus) => void>();
  readonly #throttle: PasswordThrottle;
  /** What this process last read or wrote of wallet.json; its revision is what the next commit expects on disk. */
  #file: WalletFile;
  #store: SecretStore;
  #session?: VaultSession;
  #queue: Promise<unknown> = Promise.resolve();
  /** The API keys of networks, kept in this vault (the chain services' ApiKeyStore). */
  readonly apiKeys: VaultApiKeys;

  private constructor(options: VaultOptions, file: WalletFile, store: SecretStore) {
    this.#options = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#idle = new IdleTimer(this.#clock, () => this.lock());
    this.#throttle = throttleFor(options.dataDir);
    this.#file = file;
    this.#store = store;
    this.apiKeys = new VaultApiKeys({
      file: () => this.#file,
      store: () => this.#store,
      installStore: (installId) =>
        keychainStore(options.keychain, Vault.#service(options, this.#file.vault), `install-${installId}`),
      requireSession: () => this.#requireSession(),
      vault: () => this.#vault(),
      commit: (next) => this.#commit(next),
      exclusive: (work) => this.#exclusive(work),
    });
  }

  /**
   * Opens the wallet of a data folder (a fresh one when the folder holds none). For a new wallet it probes the
   * keychain once to tell where keys would go.
   * @throws WalletError VAULT_CORRUPT when wallet.json is not one this wallet wrote (it is never overwritten);
   *   STORAGE_FAILED when the data folder cannot be created (e.g. under /proc: refused at once, never a hang).
   */
  static async open(options: VaultOptions): Promise<Vault> {
    try {
      await makeFolders(options.dataDir, 0o700);
    } catch (error) {
      throw new WalletError(
        'STORAGE_FAILED',
        `expected a folder for the wallet's data at ${options.dataDir}, but it cannot be created`,
        {
          metaMessages: ['Choose a folder you can write to (the default is the user data folder).'],
          details: (error as Error).message,
          cause: error,
        },
      );
    }
    const file = await readWalletFile(options.dataDir, Vault.#fileOptions(options));
    return new Vault(options, file, await Vault.#storeFor(options, file.vault));
  }

  /** How wallet.json is read and written: the floor of scrypt's N is 2^15, or lower only for a test's cheap cost. */
  static #fileOptions(options: VaultOptions): WalletFileOptions {
    const floor = 2 ** MIN_SCRYPT_LOG_N;
    return { minScryptN: Math.min(floor, options.scryptCost?.N ?? floor), writeFile: options.writeFile };
  }

  static #service(options: VaultOptions, record: VaultRecord | undefined): string {
    return record?.keychainService ?? options.keychainService ?? 'koinos-wallet';
  }

  static async #storeFor(options: VaultOptions, record: VaultRecord | undefined): Promise<SecretStore> {
    const service = Vault.#service(options, record);
    const storage = record?.storage ?? ((await keychainAnswers(options.keychain, service)).ok ? 'keychain' : 'file');
    return storage === 'keychain'
      ? keychainStore(options.keychain, service, record?.walletId ?? 'unset')
      : fileStore(join(options.dataDir, KEY_FILE_NAME), options.writeFile);
  }

  // ---- vault:* ------------------------------------------------------------------------------------------------

  /** `vault:status` */
  status(): VaultStatus {
    const status: VaultStatus = {
      exists: this.#file.vault !== undefined,
      unlocked: this.#session !== undefined,
      storage: this.#store.kind,
      autoLockMinutes: this.#file.settings.autoLockMinutes,
    };
    if (this.#store.kind === 'file') status.storageNotice = FILE_STORAGE_NOTICE;
    return status;
  }

  /**
   * `vault:create`: a new empty wallet protected by `password`, left unlocked.
   * @throws WalletError VAULT_EXISTS, WEAK_PASSWORD, STORAGE_FAILED.
   */
  create(args: { password: string }): Promise<VaultStatus> {
    return this.#exclusive(async () => {
      if (this.#file.vault)
        throw new WalletError('VAULT_EXISTS', 'expected no wallet in this data folder, but one exists', {
          metaMessages: ['Unlock it with its password instead.'],
        });
      const password = checkNewPassword(args?.password, 'the wallet password');
      const kdf = { ...(this.#options.scryptCost ?? (await calibrateScrypt())), salt: newSalt() };
      const key = await deriveKey(password, kdf);
      const walletId = newId();
      const generation = newId();
      // API keys saved before the wallet existed are entries of the keychain that answered then: the wallet keeps that
      // keychain even when it does not answer this moment (locked, its prompt cancelled), rather than look for the
      // keys in a file they were never in. Without such keys, the keychain is asked now.
      const keptKeychain = (this.#file.apiKeys?.length ?? 0) > 0 && this.#store.kind === 'keychain';
      const storage = keptKeychain ? 'keychain' : (await Vault.#storeFor(this.#options, undefined)).kind;
      const vault: VaultRecord = {
        walletId,
        storage,
        keychainService: this.#options.keychainService ?? 'koinos-wallet',
        kdf,
        generation,
        check: makeCheck(key, `${walletId}/${generation}`),
        accounts: [],
        phrases: [],
      };
      try {
        await this.#commit({ ...this.#file, vault });
      } catch (error) {
        zero(key);
        throw error;
      }
      this.#store = await Vault.#storeFor(this.#options, vault);
      this.#startSession(key);
      return this.status();
    });
  }

  /**
   * `vault:unlock`: derives the key once (scrypt), checks it against the check value; entries are opened when used.
   * @throws WalletError VAULT_NOT_FOUND, WRONG_PASSWORD (nothing changes).
   */
  unlock(args: { password: string }): Promise<VaultStatus> {
    return this.#exclusive(async () => {
      const key = await this.#keyFromPassword(args?.password);
      if (this.#session && this.#idle.expired()) this.lock();
      if (this.#session) {
        zero(key);
        this.touch();
      } else {
        this.#startSession(key);
        // Done after the unlock answers: the keychain may first ask the user to unlock it.
        void this.#exclusive(() => this.#removeStrays());
      }
      return this.status();
    });
  }

  /** Resolves once every queued change and the background cleanup are done (the shell awaits it before quitting). */
  async settled(): Promise<void> {
    for (let queue = this.#queue; ; queue = this.#queue) {
      await queue;
      if (queue === this.#queue) return;
    }
  }

  /** `vault:lock`, also on idle and on machine sleep: every decrypted key and phrase is zero-filled and dropped. */
  lock(): VaultStatus {
    const session = this.#session;
    if (session) {
      this.#session = undefined;
      session.wipe();
    }
    this.#idle.stop();
    const status = this.status();
    if (session) this.#emit(status);
    return status;
  }

  /**
   * `vault:changePassword`. Every entry is sealed again under the new key as a new generation of entries; then one
   * atomic write of wallet.json switches to it; then the old generation is deleted. A crash before the switch leaves
   * the old password valid, after it the new one: wallet.json always names the generation its check value opens.
   * Like every operation that opens secrets, it needs the wallet unlocked (secrets are decrypted only then).
   * @throws WalletError VAULT_LOCKED, WRONG_PASSWORD, WEAK_PASSWORD, VAULT_CORRUPT (an entry is missing: nothing changes),
   *   KEYCHAIN_UNAVAILABLE / STORAGE_FAILED (nothing changes).
   */
  changePassword(args: { oldPassword: string; newPassword: string }): Promise<VaultStatus> {
    return this.#exclusive(async () => {
      this.#requireSession();
      const newPassword = checkNewPassword(args?.newPassword);
      const oldKey = await this.#keyFromPassword(args?.oldPassword);
      const current = this.#vault();
      const kdf = {
        ...(this.#options.scryptCost ?? { N: current.kdf.N, r: current.kdf.r, p: current.kdf.p }),
        salt: newSalt(),
      };
      const newKey = await deriveKey(newPassword, kdf);
      const generation = newId();
      const names = entryNames(current, sealedApiKeys(this.#file, this.#store));
      const written = names.map((name) => name(generation));
      const replaced = names.map((name) => name(current.generation));
      try {
        await this.#commit({ ...this.#file, vault: withStrays(current, { add: written }) });
        await resealGeneration(this.#store, current, names, oldKey, newKey, generation);
        const check = makeCheck(newKey, `${current.walletId}/${generation}`);
        try {
          const vault = { ...withStrays(current, { add: replaced }), kdf, generation, check };
          await this.#commit({ ...this.#file, vault });
        } catch (error) {
          await removeAll(this.#store, written);
          throw error;
        }
      } catch (error) {
        zero(newKey);
        throw error;
      } finally {
        zero(oldKey);
      }
      // Committed. The session takes the new key before anything awaits (a signature in between reads the new
      // generation); the old generation is garbage now, and what a crash leaves of it goes at the next unlock.
      if (this.#session) this.#session.replaceKey(newKey);
      else zero(newKey);
      await removeAll(this.#store, replaced);
      return this.status();
    });
  }

  /**
   * `vault:exportBackup`: every account and secret, sealed with `backupPassword` (its own salt), in one file's text,
   * with the address book's contacts and the custom networks when given (they are not the vault's, but belong in the
   * same sealed file).
   * @throws WalletError VAULT_LOCKED, WRONG_PASSWORD (the wallet password), WEAK_PASSWORD (the backup password).
   */
  exportBackup(
    args: { password: string; backupPassword: string },
    extras: Pick<BackupPayload, 'contacts' | 'networks' | 'notes'> = {},
  ): Promise<EncryptedBackup> {
    return this.#exclusive(async () => {
      this.#requireSession();
      const backupPassword = checkNewPassword(args?.backupPassword, 'the backup password');
      const key = await this.#keyFromPassword(args?.password);
      const vault = this.#vault();
      let payload;
      try {
        payload = await backupPayloadOf(vault, (id) =>
          openEntry(this.#store, vault, key, secretEntry(vault.generation, id)),
        );
      } finally {
        zero(key);
      }
      if (extras.contacts && extras.contacts.length > 0) payload.contacts = extras.contacts;
      if (extras.networks && extras.networks.length > 0) payload.networks = extras.networks;
      if (extras.notes && extras.notes.length > 0) payload.notes = extras.notes;
      const now = new Date(this.#clock.now());
      const content = await sealBackup(
        payload,
        backupPassword,
        { N: vault.kdf.N, r: vault.kdf.r, p: vault.kdf.p },
        now,
      );
      return { fileName: `koinos-wallet-backup-${now.toISOString().slice(0, 10)}.json`, content };
    });
  }

  /**
   * `vault:importBackup`: adds the backup's accounts to this (unlocked) wallet, skipping those it already has; phrases
   * it already holds are matched, not duplicated; a watch-only account becomes the backup's signing account of its
   * address. The backup's contacts, custom networks and notes go to `mergeContacts` once the accounts are committed: its
   * failure is a warning of the summary, not a failed import (the accounts are in). Returns the wallet's accounts and
   * what the import did.
   * @throws WalletError INVALID_BACKUP (nothing is imported), WRONG_PASSWORD (the backup password), VAULT_LOCKED.
   */
  importBackup(
    args: { content: string; backupPassword: string },
    options: {
      mergeContacts?: (
        contacts: NonNullable<BackupPayload['contacts']>,
        networks: NonNullable<BackupPayload['networks']>,
        notes: NonNullable<BackupPayload['notes']>,
      ) => Promise<ContactMergeSummary>;
    } = {},
  ): Promise<BackupImportResult> {
    return this.#exclusive(async () => {
      this.#requireSession();
      const backupPassword = requireText(args?.backupPassword, 'the backup password');
      const payload = await openBackup(args?.content, backupPassword, {
        minScryptN: Vault.#fileOptions(this.#options).minScryptN,
      });
      this.#requireSession();
      const vault = structuredClone(this.#vault());
      const { entries, addedIds, upgradedIds, alreadyPresent } = await mergeBackup(vault, payload);
      try {
        // The merge lets the event loop turn: the wallet may have locked meanwhile (idle time, sleep), its key wiped.
        const session = this.#requireSession();
        await this.#writeEntriesAndCommit(vault, entries, session.key);
      } finally {
        for (const [, bytes] of entries) zero(bytes);
      }
      const summary: BackupImportSummary = {
        addedAccountIds: addedIds,
        upgradedAccountIds: upgradedIds,
        alreadyPresent,
        contacts: { added: 0, invalid: 0, duplicate: 0, overLimit: 0, unknownNetwork: 0 },
        warnings: [],
      };
      const contacts = payload.contacts ?? [];
      const networks = payload.networks ?? [];
      const notes = payload.notes ?? [];
      if ((contacts.length > 0 || networks.length > 0 || notes.length > 0) && options.mergeContacts) {
        try {
          summary.contacts = await options.mergeContacts(contacts, networks, notes);
        } catch (error) {
          const what =
            contacts.length > 0
              ? `${contacts.length} contact(s)`
              : networks.length > 0
                ? `${networks.length} network(s)`
                : `${notes.length} note(s)`;
          summary.warnings.push(`The accounts were imported, but the backup's ${what} were not: ${causeText(error)}`);
        }
      }
      return { accounts: this.listAccounts(), summary };
    });
  }

  // ---- settings:* ---------------------------------------------------------------------------------------------

  /** `settings:get` without the network selection, which the chain settings own (works locked and before a wallet exists). */
  getSettings(): VaultSettings {
    return { ...this.#file.settings };
  }

  /**
   * `settings:update` of the vault's fields: only the known fields are taken; a new auto-lock time applies at once.
   * @throws WalletError INVALID_ARGUMENT naming the field; ACCOUNT_NOT_FOUND for an unknown selectedAccountId.
   */
  updateSettings(patch: Partial<VaultSettings>): Promise<VaultSettings> {
    return this.#exclusive(async () => {
      const picked: Partial<VaultSettings> = {};
      for (const field of ['autoLockMinutes', 'theme', 'selectedAccountId'] as const) {
        if (patch && patch[field] !== undefined) Object.assign(picked, { [field]: patch[field] });
      }
      const problem = settingsProblem(picked);
      if (problem) throw new WalletError('INVALID_ARGUMENT', `expected valid settings, but ${problem}`);
      if (picked.selectedAccountId !== undefined) findAccount(this.#file.vault, picked.selectedAccountId);
      const settings = { ...this.#file.settings, ...picked };
      await this.#commit({ ...this.#file, settings });
      if (this.#session) this.#idle.setIdleMs(settings.autoLockMinutes * 60_000);
      return this.getSettings();
    });
  }

  /**
   * Hands the network selection of a wallet.json written before the chain settings owned it to `adopt` (which keeps it
   * only when the chain settings have none), then drops it from the file. Once per data folder; a file without one
   * changes nothing. When the drop cannot be written now (another process committed), any later commit drops it.
   * @throws what `adopt` throws (the file then keeps the selection for the next start).
   * @example
   * await vault.handOverSelectedNetwork((id) => chainSettings.update((d) => { d.selectedNetworkId ??= id; }));
   */
  handOverSelectedNetwork(adopt: (networkId: string) => Promise<unknown>): Promise<void> {
    return this.#exclusive(async () => {
      const networkId = this.#file.legacySelectedNetworkId;
      if (networkId === undefined) return;
      await adopt(networkId);
      const file = { ...this.#file };
      delete file.legacySelectedNetworkId;
      this.#file = file;
      await this.#commit(file).catch(() => undefined);
    });
  }

  // ---- accounts:* ---------------------------------------------------------------------------------------------

  /** `accounts:list`, in the user's order (works locked). */
  listAccounts(): AccountInfo[] {
    return (this.#file.vault?.accounts ?? []).map(toInfo);
  }

  /** `accounts:newPhrase`: a new phrase kept (unsaved) until confirmPhrase; it is forgotten on lock. */
  async newPhrase(args: { words: 12 | 24 }): Promise<NewPhrase> {
    const session = this.#requireSession();
    if (args?.words !== 12 && args?.words !== 24)
      throw new WalletError('INVALID_ARGUMENT', `expected a phrase of 12 or 24 words, got ${describe(args?.words)}`);
    const phrase = newMnemonic(args.words);
    const positions = new Set<number>();
    while (positions.size < CHECK_WORDS) positions.add(randomInt(1, args.words + 1));
    const draftId = newId();
    const checkPositions = [...positions].sort((a, b) => a - b);
    session.addDraft(draftId, { payload: phrasePayload(phrase), checkPositions });
    return { draftId, words: phrase.split(' '), checkPositions };
  }

  /**
   * `accounts:confirmPhrase`: checks the words at the asked positions, then saves the phrase and its account 0.
   * @throws WalletError NOT_FOUND (draft gone: the wallet locked), INVALID_MNEMONIC (a word does not match; the draft
   *   stays for another try).
   */
  confirmPhrase(args: {
    draftId: string;
    name: string;
    checks: { position: number; word: string }[];
  }): Promise<AccountInfo> {
    return this.#exclusive(async () => {
      const session = this.#requireSession();
      const draft = session.drafts.get(args?.draftId);
      if (!draft)
        throw new WalletError(
          'NOT_FOUND',
          'expected a recovery phrase waiting for confirmation, but there is none (the wallet locked since)',
          { metaMessages: ['Create a new phrase.'] },
        );
      const words = phraseOf(draft.payload).split(' ');
      const checks = Array.isArray(args?.checks) ? args?.checks : [];
      for (const position of draft.checkPositions) {
        const given = checks.find((c) => c?.position === position)?.word;
        if (typeof given !== 'string' || given.trim().toLowerCase() !== words[position - 1]) {
          throw new WalletError(
            'INVALID_MNEMONIC',
            `expected word ${position} of the phrase you wrote down, but the word given does not match`,
            {
              metaMessages: ['Check your written copy: an error there would lose the account.'],
            },
          );
        }
      }
      const account = await this.#addPhrase(session, words.join(' '), args?.name);
      session.dropDraft(args?.draftId);
      return account;
    });
  }

  /**
   * `accounts:importPhrase`: saves a BIP39 phrase and its account 0 (m/44'/659'/0'/0/0).
   * @throws WalletError INVALID_MNEMONIC (never quoting the phrase), ACCOUNT_EXISTS, VAULT_LOCKED.
   */
  importPhrase(args: { phrase: string; name: string }): Promise<AccountInfo> {
    return this.#exclusive(async () => {
      const session = this.#requireSession();
      return this.#addPhrase(session, assertMnemonic(args?.phrase), args?.name);
    });
  }

  /**
   * `accounts:importKey` (and `devnet:importAccount` with `developmentOnly`): a WIF or 64 hex digits.
   * @throws WalletError INVALID_WIF / INVALID_PRIVATE_KEY (never quoting the key), ACCOUNT_EXISTS, VAULT_LOCKED.
   */
  importKey(args: { key: string; name: string }, options: { developmentOnly?: boolean } = {}): Promise<AccountInfo> {
    return this.#exclusive(async () => {
      const session = this.#requireSession();
      const { privateKey } = parsePrivateKey(args?.key);
      const vault = structuredClone(this.#vault());
      const payload = keyPayload(privateKey);
      zero(privateKey);
      try {
        const address = addressOfKey(keyOf(payload));
        assertNewAddress(vault, address);
        const secretId = newId();
        const record: AccountRecord = {
          id: newId(),
          name: cleanName(args?.name, vault),
          address,
          kind: 'key',
          secretId,
        };
        if (options.developmentOnly) record.developmentOnly = true;
        vault.accounts.push(record);
        await this.#writeEntriesAndCommit(vault, [[secretId, payload]], session.key);
        return toInfo(record);
      } finally {
        zero(payload);
      }
    });
  }

  /**
   * `accounts:addWatch`: an address only (balances and history, no signing).
   * @throws WalletError INVALID_ADDRESS, ACCOUNT_EXISTS, VAULT_NOT_FOUND.
   */
  addWatch(args: { address: string; name: string }): Promise<AccountInfo> {
    return this.#exclusive(async () => {
      const address = addressToText(args?.address);
      const vault = structuredClone(this.#vault());
      assertNewAddress(vault, address);
      const record: AccountRecord = { id: newId(), name: cleanName(args?.name, vault), address, kind: 'watch' };
      vault.accounts.push(record);
      await this.#commit({ ...this.#file, vault });
      return toInfo(record);
    });
  }

  /**
   * `accounts:deriveNext`: the phrase's next account (index never reused, even after a removal). An index whose address
   * is in the wallet already (its key imported as a WIF, or watched) is skipped: else the phrase could add no more.
   * @throws WalletError NOT_FOUND (no such phrase), VAULT_LOCKED, ACCOUNT_EXISTS.
   */
  deriveNext(args: { phraseId: string; name: string }): Promise<AccountInfo> {
    return this.#exclusive(async () => {
      const session = this.#requireSession();
      const vault = structuredClone(this.#vault());
      const phrase = findPhrase(vault, args?.phraseId);
      const payload = await this.#payload(session, phrase.id);
      let index = phrase.nextIndex;
      let { privateKey, address } = deriveAccount(phraseOf(payload), index);
      for (
        let skipped = 0;
        skipped < MAX_SKIPPED_INDEXES && vault.accounts.some((a) => a.address === address);
        skipped++
      ) {
        zero(privateKey);
        ({ privateKey, address } = deriveAccount(phraseOf(payload), ++index));
      }
      const record: AccountRecord = {
        id: newId(),
        name: cleanName(args?.name, vault),
        address,
        kind: 'phrase',
        phraseId: phrase.id,
        derivationIndex: index,
      };
      try {
        assertNewAddress(vault, address);
        vault.accounts.push(record);
        phrase.nextIndex = index + 1;
        await this.#commit({ ...this.#file, vault });
      } catch (error) {
        zero(privateKey);
        throw error;
      }
      if (this.#session === session) session.signingKeys.set(record.id, privateKey);
      else zero(privateKey);
      return toInfo(record);
    });
  }

  /** The phrase's next index: the first its accounts were not added at. @throws WalletError NOT_FOUND. */
  phraseNextIndex(phraseId: string): number {
    return findPhrase(this.#vault(), phraseId).nextIndex;
  }

  /**
   * The addresses of a phrase's accounts at `count` indexes from `from`, derived and not added: what account discovery
   * asks a node about. The keys are zeroed at once.
   * @throws WalletError NOT_FOUND (no such phrase), INVALID_ARGUMENT (count outside 1-100), VAULT_LOCKED.
   */
  phraseAddresses(args: {
    phraseId: string;
    from: number;
    count: number;
  }): Promise<{ index: number; address: string }[]> {
    return this.#exclusive(async () => {
      const session = this.#requireSession();
      const phrase = findPhrase(this.#vault(), args?.phraseId);
      const { from, count } = args;
      if (!Number.isInteger(from) || from < 0 || !Number.isInteger(count) || count < 1 || count > MAX_PHRASE_ADDRESSES)
        throw new WalletError(
          'INVALID_ARGUMENT',
          `expected an index from 0 and a count of 1 to ${MAX_PHRASE_ADDRESSES}, got ${describe(from)} and ${describe(count)}`,
        );
      const accounts = phraseAccounts(phraseOf(await this.#payload(session, phrase.id)));
      try {
        return Array.from({ length: count }, (_, i) => {
          const { privateKey, address } = accounts.accountAt(from + i);
          zero(privateKey);
          return { index: from + i, address };
        });
      } finally {
        accounts.wipe();
      }
    });
  }

  /**
   * Adds a phrase's accounts from its next index through `throughIndex` in one write (account discovery found the last
   * one used there), named as new accounts are; an index whose address is in the wallet already is skipped. None
   * when the phrase's next index is past it.
   * @throws WalletError NOT_FOUND (no such phrase), VAULT_LOCKED.
   */
  addPhraseAccountsThrough(args: { phraseId: string; throughIndex: number }): Promise<AccountInfo[]> {
    return this.#exclusive(async () => {
      const session = this.#requireSession();
      const vault = structuredClone(this.#vault());
      const phrase = findPhrase(vault, args?.phraseId);
      const accounts = phraseAccounts(phraseOf(await this.#payload(session, phrase.id)));
      const added: { record: AccountRecord; privateKey: Uint8Array }[] = [];
      try {
        for (let index = phrase.nextIndex; index <= args.throughIndex; index++) {
          const { privateKey, address } = accounts.accountAt(index);
          if (vault.accounts.some((a) => a.address === address)) {
            zero(privateKey);
            continue;
          }
          const record: AccountRecord = {
            id: newId(),
            name: cleanName('', vault),
            address,
            kind: 'phrase',
            phraseId: phrase.id,
            derivationIndex: index,
          };
          vault.accounts.push(record);
          added.push({ record, privateKey });
        }
        phrase.nextIndex = Math.max(phrase.nextIndex, args.throughIndex + 1);
        if (added.length > 0) await this.#commit({ ...this.#file, vault });
      } catch (error) {
        for (const { privateKey } of added) zero(privateKey);
        throw error;
      } finally {
        accounts.wipe();
      }
      for (const { record, privateKey } of added) {
        if (this.#session === session) session.signingKeys.set(record.id, privateKey);
        else zero(privateKey);
      }
      return added.map(({ record }) => toInfo(record));
    });
  }

  /** `accounts:rename` @throws WalletError ACCOUNT_NOT_FOUND. */
  renameAccount(args: { id: string; name: string }): Promise<AccountInfo> {
    return this.#exclusive(async () => {
      const vault = structuredClone(this.#vault());
      const record = findAccount(vault, args?.id);
      record.name = cleanName(args?.name, vault, record.name);
      await this.#commit({ ...this.#file, vault });
      return toInfo(record);
    });
  }

  /** `accounts:reorder`: `ids` must name every account once. @throws WalletError INVALID_ARGUMENT. */
  reorderAccounts(args: { ids: string[] }): Promise<AccountInfo[]> {
    return this.#exclusive(async () => {
      const vault = structuredClone(this.#vault());
      reorder(vault, args?.ids);
      await this.#commit({ ...this.#file, vault });
      return this.listAccounts();
    });
  }

  /**
   * `accounts:remove` (asks the password): the account goes; its key entry (or its phrase, with its last account)
   * is deleted after wallet.json no longer names it.
   * @throws WalletError WRONG_PASSWORD, ACCOUNT_NOT_FOUND.
   */
  removeAccount(args: { id: string; password: string }): Promise<AccountInfo[]> {
    return this.#exclusive(async () => {
      zero(await this.#keyFromPassword(args?.password));
      const vault = structuredClone(this.#vault());
      const record = findAccount(vault, args?.id);
      const gone = removeAccount(vault, record);
      const goneEntries = gone.map((id) => secretEntry(vault.generation, id));
      const settings = { ...this.#file.settings };
      if (settings.selectedAccountId === record.id) delete settings.selectedAccountId;
      await this.#commit({ ...this.#file, settings, vault: withStrays(vault, { add: goneEntries }) });
      this.#session?.forget(record.id, gone);
      await removeAll(this.#store, goneEntries);
      return this.listAccounts();
    });
  }

  /**
   * `accounts:reveal` (asks the password): the phrase of a phrase account, or the WIF of a key account.
   * @throws WalletError VAULT_LOCKED, WRONG_PASSWORD, WATCH_ONLY, ACCOUNT_NOT_FOUND.
   */
  reveal(args: { id: string; password: string }): Promise<RevealedSecret> {
    return this.#exclusive(async () => {
      this.#requireSession();
      const key = await this.#keyFromPassword(args?.password);
      try {
        const record = findAccount(this.#file.vault, args?.id);
        if (record.kind === 'watch')
          throw new WalletError('WATCH_ONLY', `expected an account with a key, but "${record.name}" is watch-only`);
        const vault = this.#vault();
        const bytes = await openEntry(
          this.#store,
          vault,
          key,
          secretEntry(vault.generation, record.phraseId ?? record.secretId!),
        );
        try {
          return record.kind === 'phrase'
            ? { kind: 'phrase', secret: phraseOf(bytes) }
            : { kind: 'wif', secret: privateKeyToWif(keyOf(bytes)) };
        } finally {
          zero(bytes);
        }
      } finally {
        zero(key);
      }
    });
  }

  /**
   * Checks the wallet password without opening anything (an approval that asks for the password calls it). Throttled
   * like every password check.
   * @throws WalletError VAULT_LOCKED, WRONG_PASSWORD, TOO_MANY_ATTEMPTS (the message says how long to wait).
   */
  verifyPassword(args: { password: string }): Promise<void> {
    return this.#exclusive(async () => {
      this.#requireSession();
      zero(await this.#keyFromPassword(args?.password));
      this.touch();
    });
  }

  // ---- signing, activity, lock events ------------------------------------------------------------------------

  /**
   * Signs a transaction as the account with this address (TransactionSigner), only under an approval the approval
   * queue issued for exactly this transaction: no key is touched before it is redeemed.
   * @throws WalletError APPROVAL_REQUIRED, VAULT_LOCKED, WATCH_ONLY, ACCOUNT_NOT_FOUND; INVALID_TRANSACTION as signTransaction.
   */
  async signTransaction(address: string, transaction: Transaction, approval: Approval): Promise<Transaction> {
    redeemApproval(approval, address, transaction);
    const key = await this.#keyOfSigner(address);
    return signTransaction(transaction, key);
  }

  /**
   * Signs a text message as koilib's signMessage does (the 65-byte signature of sha256 of its bytes), only under an
   * approval the approval queue issued for exactly this text (redeemMessageApproval).
   * @throws WalletError APPROVAL_REQUIRED, VAULT_LOCKED, WATCH_ONLY, ACCOUNT_NOT_FOUND.
   */
  async signMessage(address: string, message: Uint8Array, approval: Approval): Promise<Uint8Array> {
    redeemMessageApproval(approval, address, message);
    const key = await this.#keyOfSigner(address);
    return signDigest(sha256(message), key);
  }

  /**
   * The private key of the account with this address, for a signature already approved; counts as activity.
   * @throws WalletError VAULT_LOCKED, WATCH_ONLY, ACCOUNT_NOT_FOUND.
   */
  async #keyOfSigner(address: string): Promise<Uint8Array> {
    const session = this.#requireSession();
    const accounts = this.#file.vault?.accounts.filter((a) => a.address === address) ?? [];
    const record = accounts.find((a) => a.kind !== 'watch');
    if (!record) {
      if (accounts.length > 0)
        throw new WalletError('WATCH_ONLY', `expected an account with a key for ${address}, but it is watch-only`);
      throw new WalletError('ACCOUNT_NOT_FOUND', `expected an account of this wallet, got ${describe(address)}`);
    }
    const key = await this.#signingKey(session, record);
    if (session.wiped) throw this.#lockedError();
    this.touch();
    return key;
  }

  /** Registers a listener of lock and unlock (for the `vault:lockState` push); returns a function that removes it. */
  onLockChange(listener: (status: VaultStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** User activity: moves the idle-lock deadline (the shells call it on every call from the window). */
  touch(): void {
    if (this.#session && !this.#idle.expired()) this.#idle.touch();
  }

  // ---- internals ---------------------------------------------------------------------------------------------

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #emit(status: VaultStatus): void {
    for (const listener of this.#listeners) {
      try {
        listener(status);
      } catch {
        // A failing listener must not keep the vault unlocked or stop the others.
      }
    }
  }

  #startSession(key: Uint8Array): void {
    this.#session = new VaultSession(key);
    this.#idle.start(this.#file.settings.autoLockMinutes * 60_000);
    this.#emit(this.status());
  }

  #vault(): VaultRecord {
    if (!this.#file.vault)
      throw new WalletError('VAULT_NOT_FOUND', 'expected a wallet in this data folder, but none was created yet', {
        metaMessages: ['Create a wallet first.'],
      });
    return this.#file.vault;
  }

  #lockedError(): WalletError {
    return new WalletError('VAULT_LOCKED', 'expected an unlocked wallet, but it is locked', {
      metaMessages: ['Unlock it with your password and try again.'],
    });
  }

  #requireSession(): VaultSession {
    this.#vault();
    if (this.#session && this.#idle.expired()) this.lock();
    if (!this.#session) throw this.#lockedError();
    return this.#session;
  }

  /**
   * The one place a password is checked (unlock, reveal, remove, export, change password, verifyPassword); every caller
   * runs in the queue, so parallel guesses meet the throttle one after another.
   */
  async #keyFromPassword(password: unknown): Promise<Uint8Array> {
    const vault = this.#vault();
    const text = requireText(password, 'the password');
    this.#throttle.check(this.#clock.now());
    const key = await deriveKey(text, vault.kdf);
    if (!verifyCheck(key, vault.check, `${vault.walletId}/${vault.generation}`)) {
      zero(key);
      const wait = this.#throttle.failed(this.#clock.now());
      const hints = ['Check the keyboard layout and Caps Lock, and try again.'];
      if (wait > 0) hints.push(`After several wrong passwords the next try waits ${formatWait(wait)}.`);
      throw new WalletError('WRONG_PASSWORD', "That is not this wallet's password.", { metaMessages: hints });
    }
    this.#throttle.succeeded();
    return key;
  }

  /** The opened payload of a secret, cached for the session; throws VAULT_LOCKED if the wallet locked meanwhile. */
  async #payload(session: VaultSession, secretId: string): Promise<Uint8Array> {
    const cached = session.payloads.get(secretId);
    if (cached) return cached;
    const vault = this.#vault();
    const key = session.keyCopy();
    try {
      const plain = await openEntry(this.#store, vault, key, secretEntry(vault.generation, secretId));
      if (this.#session !== session) {
        zero(plain);
        throw this.#lockedError();
      }
      session.payloads.set(secretId, plain);
      return plain;
    } finally {
      zero(key);
    }
  }

  async #signingKey(session: VaultSession, record: AccountRecord): Promise<Uint8Array> {
    const cached = session.signingKeys.get(record.id);
    if (cached) return cached;
    const payload = await this.#payload(session, record.phraseId ?? record.secretId!);
    const derived =
      record.kind === 'phrase'
        ? deriveAccount(phraseOf(payload), record.derivationIndex!)
        : { privateKey: Uint8Array.from(keyOf(payload)), address: addressOfKey(keyOf(payload)) };
    if (derived.address !== record.address) {
      zero(derived.privateKey);
      throw new WalletError(
        'VAULT_CORRUPT',
        `expected the key of account "${record.name}" to match its address ${record.address}, but it does not`,
        {
          metaMessages: ['wallet.json was changed outside the wallet; import your encrypted backup.'],
        },
      );
    }
    if (this.#session !== session) {
      zero(derived.privateKey);
      throw this.#lockedError();
    }
    session.signingKeys.set(record.id, derived.privateKey);
    return derived.privateKey;
  }

  async #addPhrase(session: VaultSession, phrase: string, name: string): Promise<AccountInfo> {
    const vault = structuredClone(this.#vault());
    const { privateKey, address } = deriveAccount(phrase, 0);
    zero(privateKey);
    if (vault.phrases.some((p) => p.firstAddress === address)) {
      throw new WalletError(
        'ACCOUNT_EXISTS',
        'expected a recovery phrase new to this wallet, but it is already in it',
        { metaMessages: ['Use "Add account" on its accounts instead.'] },
      );
    }
    assertNewAddress(vault, address);
    const phraseId = newId();
    const record: AccountRecord = {
      id: newId(),
      name: cleanName(name, vault),
      address,
      kind: 'phrase',
      phraseId,
      derivationIndex: 0,
    };
    vault.phrases.push({ id: phraseId, nextIndex: 1, firstAddress: address });
    vault.accounts.push(record);
    const payload = phrasePayload(phrase);
    try {
      await this.#writeEntriesAndCommit(vault, [[phraseId, payload]], session.key);
    } finally {
      zero(payload);
    }
    return toInfo(record);
  }

  /**
   * Lists new sealed entries as strays, writes them, then commits `vault`, which names them; on failure removes the
   * entries again (what a crash leaves, the next unlock removes).
   */
  async #writeEntriesAndCommit(vault: VaultRecord, entries: [string, Uint8Array][], key: Uint8Array): Promise<void> {
    const sealed = entries.map(
      ([id, payload]) =>
        [secretEntry(vault.generation, id), sealEntry(vault, key, secretEntry(vault.generation, id), payload)] as const,
    );
    const names = sealed.map(([name]) => name);
    await this.#commit({ ...this.#file, vault: withStrays(this.#vault(), { add: names }) });
    const written: string[] = [];
    try {
      for (const [name, value] of sealed) {
        await this.#store.write(name, value);
        written.push(name);
      }
      await this.#commit({ ...this.#file, vault: withStrays(vault, { drop: names }) });
    } catch (error) {
      await removeAll(this.#store, written);
      throw error;
    }
  }

  /** Writes `file` as the next revision; VAULT_CHANGED (nothing written) when another process wrote since we read. */
  async #commit(file: WalletFile): Promise<void> {
    this.#file = await commitWalletFile(this.#options.dataDir, file, Vault.#fileOptions(this.#options));
  }

  /**
   * Deletes the stray entries wallet.json lists (left by a crash, or by a failed delete) unless it names them; what
   * fails to go stays listed for next time. Another process on the folder may be between listing its new entries and
   * the commit that names them, so they are deleted only after a commit of this same view succeeds: that proves the
   * view is the newest, and makes the other writer's commit fail (it then removes its own entries). A stale view fails
   * that commit with VAULT_CHANGED and deletes nothing.
   */
  async #removeStrays(): Promise<void> {
    const vault = this.#vault();
    if (!vault.strayEntries) return;
    try {
      const wanted = new Set(
        entryNames(vault, sealedApiKeys(this.#file, this.#store)).map((name) => name(vault.generation)),
      );
      const named: string[] = [];
      const unnamed: string[] = [];
      for (const name of vault.strayEntries) (wanted.has(name) ? named : unnamed).push(name);
      await this.#commit({ ...this.#file });
      const removed = await removeAll(this.#store, unnamed);
      await this.#commit({ ...this.#file, vault: withStrays(this.#vault(), { drop: [...removed, ...named] }) });
    } catch {
      // Strays are sealed and harmless; the next unlock tries again.
    }
  }
}

/** A checked address in its base58 text form. */
function addressToText(address: unknown): string {
  addressFromString(address as string);
  return address as string;
}
