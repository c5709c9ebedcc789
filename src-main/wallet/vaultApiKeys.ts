// The vault as the chain services' ApiKeyStore: API keys of networks live sealed in the keychain with the accounts'
// secrets. Listing networks works locked (whether a key is stored is not secret); using a key needs the wallet unlocked.
import type { ApiKeyStore } from './chain/apiKeyStore.ts';
import type { Vault } from './vault/vault.ts';

/**
 * @example
 * const networks = new NetworkService({ settings, apiKeys: vaultApiKeys(vault), localDevnetUrl });
 */
export function vaultApiKeys(vault: Vault): ApiKeyStore {
  return {
    has: async (networkId) => vault.hasApiKey(networkId),
    // VAULT_LOCKED when a key is stored but the wallet is locked: the node is not asked without its key.
    get: (networkId) => vault.getApiKey(networkId),
    set: (networkId, key) => vault.setApiKey(networkId, key),
  };
}
