// keytar as the tests use it: the part the vault uses, and its listing (findCredentials), which the vault never calls
// (see secretStore.ts Keychain) but a test may, once no vault of it is at work, to see or clear what is stored.
import { loadKeytar, type Keychain } from '../../src-main/wallet/vault/secretStore.ts';

export interface ListingKeychain extends Keychain {
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

/** The real keytar, with its listing; where it did not load, a keychain that fails every call (nothing is stored). */
export async function loadListingKeytar(): Promise<ListingKeychain> {
  const keychain = (await loadKeytar()) as Partial<ListingKeychain> & Keychain;
  if (keychain.findCredentials) return keychain as ListingKeychain;
  return {
    ...keychain,
    findCredentials: async () => {
      throw new Error('keytar could not be loaded');
    },
  };
}

/**
 * Deletes every keychain entry under a keytar service: a test's or a benchmark's cleanup, once no vault on it is at
 * work (listing while entries are deleted can crash the process, atom/node-keytar#477). Failures are ignored.
 */
export async function removeKeychainService(service: string, keychain?: ListingKeychain): Promise<void> {
  const keytar = keychain ?? (await loadListingKeytar());
  for (const { account } of await keytar.findCredentials(service).catch(() => []))
    await keytar.deletePassword(service, account).catch(() => false);
}
