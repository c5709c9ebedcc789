// The vault as the chain services' ApiKeyStore: API keys of networks live sealed in the keychain with the accounts'
// secrets, each together with the origins it was given for (one stored text, so the two cannot part). Listing networks
// works locked (whether a key is stored is not secret); using a key needs the wallet unlocked.
import { WalletError } from '../koinos/errors.ts';
import type { ApiKeyStore, StoredApiKey } from './chain/apiKeyStore.ts';
import type { Vault } from './vault/vault.ts';

/** The vault's limit on what it stores for one network's key. */
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
    throw new WalletError('INVALID_ARGUMENT', `expected an API key and the network's server names to fit ${MAX_STORED_CHARS} characters, got ${text.length}; use shorter addresses`);
  }
  return text;
}

/** Reads what encodeStoredApiKey wrote; any other text is a bare key from before, returned without origins. */
export function decodeStoredApiKey(text: string): StoredApiKey {
  if (text.startsWith(`{"format":"${FORMAT}"`)) {
    try {
      const parsed: unknown = JSON.parse(text);
      const { key, origins } = parsed as { key?: unknown; origins?: unknown };
      if (typeof key === 'string' && Array.isArray(origins) && origins.every((o) => typeof o === 'string')) return { key, origins: origins as string[] };
    } catch {
      // not ours after all: a bare key that happens to look like the format
    }
  }
  return { key: text };
}

/**
 * @example
 * const networks = new NetworkService({ settings, apiKeys: vaultApiKeys(vault), localDevnetUrl });
 */
export function vaultApiKeys(vault: Vault): ApiKeyStore {
  return {
    has: async (networkId) => vault.hasApiKey(networkId),
    // VAULT_LOCKED when a key is stored but the wallet is locked: the node is not asked without its key.
    get: async (networkId) => {
      const text = await vault.getApiKey(networkId);
      return text === undefined ? undefined : decodeStoredApiKey(text);
    },
    // A key without origins (none of the wallet's own callers) is stored bare, bound to the addresses when used.
    set: (networkId, key, origins) => vault.setApiKey(networkId, key === null ? null : origins ? encodeStoredApiKey(key, origins) : key),
  };
}
