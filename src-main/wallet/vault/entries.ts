// The names of the vault's sealed entries and the generations they belong to: every entry is `<generation>/...` and
// is sealed with its full name (behind the wallet id) as associated data, so it opens only where it was written.
// A password change writes a whole new generation before wallet.json switches to it (see Vault.changePassword).
import { WalletError } from '../../koinos/errors.ts';
import type { SecretStore } from './secretStore.ts';
import { open, seal, zero } from './vaultCrypto.ts';
import type { VaultRecord } from './walletFile.ts';

/** The entry of an account secret (a phrase or a private key) in a generation. */
export const secretEntry = (generation: string, secretId: string): string => `${generation}/secret/${secretId}`;
/** The sealed entry of a network's API key (file storage only) in a generation. */
export const apiKeyEntry = (generation: string, networkId: string): string =>
  `${generation}/apikey/${encodeURIComponent(networkId)}`;
/** The keychain entry of a network's API key (keychain storage: the keychain protects it, no password needed). */
export const keychainApiKeyEntry = (networkId: string): string => `apikey/${encodeURIComponent(networkId)}`;

/** An entry's name as a function of the generation. */
export type EntryName = (generation: string) => string;

/** Every sealed entry wallet.json refers to: phrases, private keys, and (file storage) API keys. */
export function entryNames(vault: VaultRecord, sealedApiKeys: readonly string[]): EntryName[] {
  const secrets = [
    ...vault.phrases.map((p) => p.id),
    ...vault.accounts.filter((a) => a.kind === 'key').map((a) => a.secretId!),
  ];
  return [
    ...secrets.map((id) => (g: string) => secretEntry(g, id)),
    ...sealedApiKeys.map((n) => (g: string) => apiKeyEntry(g, n)),
  ];
}

const identity = (vault: VaultRecord, name: string) => `${vault.walletId}/${name}`;

/** Seals a payload as the entry `name` of this wallet. */
export function sealEntry(vault: VaultRecord, key: Uint8Array, name: string, payload: Uint8Array): string {
  return seal(key, payload, identity(vault, name));
}

/**
 * Reads and opens the entry `name`.
 * @throws WalletError VAULT_CORRUPT when it is missing, altered, or moved from another entry's name;
 *   KEYCHAIN_UNAVAILABLE / STORAGE_FAILED from the store.
 */
export async function openEntry(
  store: SecretStore,
  vault: VaultRecord,
  key: Uint8Array,
  name: string,
): Promise<Uint8Array> {
  const sealed = await store.read(name);
  const plain = sealed === undefined ? undefined : open(key, sealed, identity(vault, name));
  if (!plain) {
    const where = store.kind === 'file' ? 'wallet key file' : 'system keychain';
    throw new WalletError(
      'VAULT_CORRUPT',
      `expected a sealed key in the ${where}, but it is ${sealed === undefined ? 'missing' : 'damaged or moved'}`,
      {
        metaMessages: ['Import your encrypted backup to restore the keys.'],
      },
    );
  }
  return plain;
}

/**
 * Writes every entry again, sealed under `newKey`, as generation `to`; the entries of generation `vault.generation`
 * stay untouched. On a failure the entries already written are removed (best effort) and the error is thrown.
 */
export async function resealGeneration(
  store: SecretStore,
  vault: VaultRecord,
  names: EntryName[],
  oldKey: Uint8Array,
  newKey: Uint8Array,
  to: string,
): Promise<void> {
  const written: string[] = [];
  try {
    for (const name of names) {
      const payload = await openEntry(store, vault, oldKey, name(vault.generation));
      const sealed = sealEntry(vault, newKey, name(to), payload);
      zero(payload);
      await store.write(name(to), sealed);
      written.push(name(to));
    }
  } catch (error) {
    await removeAll(store, written);
    throw error;
  }
}

/**
 * Removes entries, ignoring failures: what is left is sealed and unreferenced, and stays listed as a stray entry where
 * it was. Returns the names it removed.
 */
export async function removeAll(store: SecretStore, names: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const name of names) {
    try {
      await store.remove(name);
      removed.push(name);
    } catch {
      // stays where it is listed, for the next unlock
    }
  }
  return removed;
}

/**
 * The vault record with its list of stray entries changed: the names that may be in the store while the vault does
 * not name them. A commit lists an entry before it is written (the commit after names it) and when it stops naming
 * it (it is deleted after), so a crash in between leaves a listed name; the next unlock deletes what is listed
 * (Vault.#removeStrays). The vault therefore never has to list the keychain, which keytar cannot do safely: its
 * FindCredentials crashes the process on an entry whose secret the keychain did not hand over (a cancelled unlock
 * prompt, or an entry deleted meanwhile: atom/node-keytar#477).
 * @example
 * await commit({ ...file, vault: withStrays(vault, { add: [name] }) }); // then write the entry
 */
export function withStrays(
  vault: VaultRecord,
  change: { add?: readonly string[]; drop?: readonly string[] },
): VaultRecord {
  const drop = new Set(change.drop);
  const strays = [...new Set([...(vault.strayEntries ?? []).filter((name) => !drop.has(name)), ...(change.add ?? [])])];
  const next: VaultRecord = { ...vault };
  if (strays.length > 0) next.strayEntries = strays;
  else delete next.strayEntries;
  return next;
}
