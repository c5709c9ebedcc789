// The API keys of networks, kept by the vault as the chain services' ApiKeyStore. Each key is stored with the origins
// it was given for (one stored text, so the two cannot part). With a keychain, a key is a keychain entry of its own
// (the keychain protects it): readable while locked and before a wallet exists, as the chain services need. Without
// one, it is sealed under the password like a private key (never plain in a file), so it is readable only while
// unlocked. Whether a key is stored is not secret: wallet.json lists the networks that have one.
import { WalletError } from '../../koinos/errors.ts';
import type { ApiKeyStore, StoredApiKey } from '../chain/apiKeyStore.ts';
import { newId, requireText } from './accountBook.ts';
import { apiKeyEntry, keychainApiKeyEntry, openEntry, removeAll, sealEntry, withStrays } from './entries.ts';
import { apiKeyOf, apiKeyPayload } from './secretPayload.ts';
import type { SecretStore } from './secretStore.ts';
import type { VaultSession } from './vaultSession.ts';
import { zero } from './vaultCrypto.ts';
import type { VaultRecord, WalletFile } from './walletFile.ts';

/** The vault's limit on what it stores for one network's key (the key, or the key with its origins). */
const MAX_STORED_CHARS = 4096;
/** Marks a stored text as a key with its origins; a text without it is a bare key stored before keys were bound. */
const FORMAT = 'koinos-wallet/api-key@1';

/**
 * The text the vault stores for a key bound to `origins`.
 * @throws WalletError INVALID_ARGUMENT when key and origins do not fit the vault's 4096 characters.
 * @example
 * encodeStoredApiKey('K', ['https://api.example.com']); // '{"format":"koinos-wallet/api-key@1","key":"K","origins":["https://api.example.com"]}'
 */
export function encodeStoredApiKey(key: string, origins: readonly string[]): string {
  const text = JSON.stringify({ format: FORMAT, key, origins });
  if (text.length > MAX_STORED_CHARS) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected an API key and the network's server names to fit ${MAX_STORED_CHARS} characters, got ${text.length}; use shorter addresses`,
    );
  }
  return text;
}

/** Reads what encodeStoredApiKey wrote; any other text is a bare key from before, returned without origins. */
export function decodeStoredApiKey(text: string): StoredApiKey {
  if (text.startsWith(`{"format":"${FORMAT}"`)) {
    try {
      const parsed: unknown = JSON.parse(text);
      const { key, origins } = parsed as { key?: unknown; origins?: unknown };
      if (typeof key === 'string' && Array.isArray(origins) && origins.every((o) => typeof o === 'string'))
        return { key, origins: origins as string[] };
    } catch {
      // not ours after all: a bare key that happens to look like the format
    }
  }
  return { key: text };
}

/**
 * The networks whose keys are sealed entries of the vault's generations (file storage), which a password change seals
 * again; with a keychain the keys are entries outside the generations.
 */
export function sealedApiKeys(file: WalletFile, store: SecretStore): string[] {
  return store.kind === 'file' ? (file.apiKeys ?? []) : [];
}

/** What the API keys use of the vault: its view of wallet.json, its secret store, its session and its commits. */
export interface VaultAccess {
  /** What the vault last read or wrote of wallet.json. */
  file(): WalletFile;
  /** Where the vault's sealed entries live (keychain or file). */
  store(): SecretStore;
  /** The keychain entries of this install's API keys (keychain storage), prefixed with `installId`. */
  installStore(installId: string): SecretStore;
  /** The open session. @throws WalletError VAULT_NOT_FOUND, VAULT_LOCKED. */
  requireSession(): VaultSession;
  /** The vault section of wallet.json. @throws WalletError VAULT_NOT_FOUND. */
  vault(): VaultRecord;
  /** Commits wallet.json (VAULT_CHANGED when another process wrote since). */
  commit(file: WalletFile): Promise<void>;
  /** Runs `work` in the vault's queue, after every change already queued. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * The vault's API keys, as the chain services' ApiKeyStore. Built by the vault (`vault.apiKeys`), which hands it
 * access to its session and commits.
 * @example
 * const networks = new NetworkService({ settings, apiKeys: vault.apiKeys, localDevnetUrl });
 */
export class VaultApiKeys implements ApiKeyStore {
  readonly #vault: VaultAccess;

  constructor(vault: VaultAccess) {
    this.#vault = vault;
  }

  /** Whether a key is stored for this network (works locked). */
  async has(networkId: string): Promise<boolean> {
    return this.#vault.file().apiKeys?.includes(networkId) ?? false;
  }

  /**
   * The stored key of a network with its origins (none for a bare key stored before keys were bound), or undefined.
   * @throws WalletError VAULT_LOCKED (file storage, locked: the node is not asked without its key),
   *   KEYCHAIN_UNAVAILABLE, VAULT_CORRUPT.
   */
  async get(networkId: string): Promise<StoredApiKey | undefined> {
    const text = await this.#read(networkId);
    return text === undefined ? undefined : decodeStoredApiKey(text);
  }

  /**
   * Stores a key bound to `origins` (or with `null` removes it). A key without origins (none of the wallet's own
   * callers) is stored bare, bound to the network's addresses when used.
   * @throws WalletError INVALID_ARGUMENT (empty, or over 4096 characters with its origins); with file storage
   *   VAULT_NOT_FOUND, VAULT_LOCKED.
   */
  async set(networkId: string, key: string | null, origins?: readonly string[]): Promise<void> {
    return this.#write(networkId, key === null ? null : origins ? encodeStoredApiKey(key, origins) : key);
  }

  async #read(networkId: string): Promise<string | undefined> {
    if (!(await this.has(networkId))) return undefined;
    const file = this.#vault.file();
    const store = this.#vault.store();
    if (store.kind === 'keychain')
      return this.#vault.installStore(file.installId ?? 'none').read(keychainApiKeyEntry(networkId));
    const session = this.#vault.requireSession();
    const vault = this.#vault.vault();
    const key = session.keyCopy();
    const bytes = await openEntry(store, vault, key, apiKeyEntry(vault.generation, networkId)).finally(() => zero(key));
    try {
      return apiKeyOf(bytes);
    } finally {
      zero(bytes);
    }
  }

  #write(networkId: string, text: string | null): Promise<void> {
    return this.#vault.exclusive(async () => {
      requireText(networkId, 'a network id');
      if (text !== null && (typeof text !== 'string' || text.length === 0 || text.length > MAX_STORED_CHARS)) {
        const found = typeof text === 'string' ? `${text.length} characters` : typeof text;
        throw new WalletError(
          'INVALID_ARGUMENT',
          `expected an API key of 1 to ${MAX_STORED_CHARS} characters, got ${found}`,
        );
      }
      const current = this.#vault.file();
      const store = this.#vault.store();
      const apiKeys = (current.apiKeys ?? []).filter((id) => id !== networkId);
      if (text !== null) apiKeys.push(networkId);
      if (store.kind === 'keychain') {
        const file = { ...current, installId: current.installId ?? newId(), apiKeys };
        const entries = this.#vault.installStore(file.installId);
        if (text === null) {
          await this.#vault.commit(file);
          await entries.remove(keychainApiKeyEntry(networkId)).catch(() => undefined);
        } else {
          await entries.write(keychainApiKeyEntry(networkId), text);
          await this.#vault.commit(file);
        }
        return;
      }
      const session = this.#vault.requireSession();
      const vault = this.#vault.vault();
      const name = apiKeyEntry(vault.generation, networkId);
      // Listed as a stray before it is written or once it is no longer named (entries.ts withStrays).
      if (text === null) {
        await this.#vault.commit({ ...current, apiKeys, vault: withStrays(vault, { add: [name] }) });
        await removeAll(store, [name]);
        return;
      }
      const payload = apiKeyPayload(text);
      const sealed = sealEntry(vault, session.key, name, payload);
      zero(payload);
      await this.#vault.commit({ ...current, vault: withStrays(vault, { add: [name] }) });
      await store.write(name, sealed);
      await this.#vault.commit({ ...this.#vault.file(), apiKeys, vault: withStrays(vault, { drop: [name] }) });
    });
  }
}
