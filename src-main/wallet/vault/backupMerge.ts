// Between a wallet and its backup payload: what an export writes (every account and secret), and how an import merges
// (a phrase the wallet holds is matched by its first address, an account it has is skipped, addresses are derived
// again from the secrets rather than trusted from the file).
import { WalletError } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { assertMnemonic, parsePrivateKey } from '../../koinos/keys.ts';
import { cleanName, newId } from './accountBook.ts';
import type { BackupAccount, BackupPayload } from './backupFile.ts';
import { addressOfKey, deriveAccount, keyOf, keyPayload, phraseOf, phrasePayload } from './secretPayload.ts';
import { zero } from './vaultCrypto.ts';
import type { VaultRecord } from './walletFile.ts';

/** Every account and secret of the wallet, for sealBackup. `readSecret` opens a secret's payload (the caller zeroes nothing: this does). */
export async function backupPayloadOf(
  vault: VaultRecord,
  readSecret: (secretId: string) => Promise<Uint8Array>,
): Promise<BackupPayload> {
  const payload: BackupPayload = { phrases: [], accounts: [] };
  for (const phrase of vault.phrases) {
    const bytes = await readSecret(phrase.id);
    payload.phrases.push({ ref: phrase.id, phrase: phraseOf(bytes), nextIndex: phrase.nextIndex });
    zero(bytes);
  }
  for (const a of vault.accounts) {
    const entry: BackupAccount = { name: a.name, kind: a.kind, address: a.address };
    if (a.developmentOnly) entry.developmentOnly = true;
    if (a.kind === 'phrase') Object.assign(entry, { phraseRef: a.phraseId, derivationIndex: a.derivationIndex });
    if (a.kind === 'key') {
      const bytes = await readSecret(a.secretId!);
      entry.privateKeyHex = Buffer.from(keyOf(bytes)).toString('hex');
      zero(bytes);
    }
    payload.accounts.push(entry);
  }
  return payload;
}

/**
 * Adds the payload's accounts to `vault` (a copy the caller commits) and returns the new secrets to store, by id.
 * @throws WalletError INVALID_BACKUP, INVALID_MNEMONIC, INVALID_PRIVATE_KEY, INVALID_ADDRESS for damaged content.
 */
export function mergeBackup(vault: VaultRecord, payload: BackupPayload): [string, Uint8Array][] {
  const entries: [string, Uint8Array][] = [];
  const phrases = new Map<string, { id: string; phrase: string }>();
  try {
    for (const p of payload.phrases) {
      const phrase = assertMnemonic(p.phrase);
      const firstAddress = deriveAccount(phrase, 0).address;
      const known = vault.phrases.find((q) => q.firstAddress === firstAddress);
      if (known) {
        known.nextIndex = Math.max(known.nextIndex, p.nextIndex);
        phrases.set(p.ref, { id: known.id, phrase });
      } else {
        const id = newId();
        vault.phrases.push({ id, nextIndex: Math.max(1, p.nextIndex), firstAddress });
        entries.push([id, phrasePayload(phrase)]);
        phrases.set(p.ref, { id, phrase });
      }
    }
    const has = (address: string, watchToo: boolean) =>
      vault.accounts.some((a) => a.address === address && (watchToo || a.kind !== 'watch'));
    for (const a of payload.accounts) {
      const name = cleanName(a.name, vault);
      if (a.kind === 'phrase') {
        const phrase = phrases.get(a.phraseRef!);
        if (!phrase)
          throw new WalletError(
            'INVALID_BACKUP',
            'expected every phrase account of the backup to name a phrase in it, but one does not',
          );
        const { privateKey, address } = deriveAccount(phrase.phrase, a.derivationIndex!);
        zero(privateKey);
        if (!has(address, false))
          vault.accounts.push({
            id: newId(),
            name,
            address,
            kind: 'phrase',
            phraseId: phrase.id,
            derivationIndex: a.derivationIndex!,
          });
      } else if (a.kind === 'key') {
        const { privateKey } = parsePrivateKey(a.privateKeyHex!);
        const address = addressOfKey(privateKey);
        if (!has(address, false)) {
          const secretId = newId();
          entries.push([secretId, keyPayload(privateKey)]);
          vault.accounts.push({
            id: newId(),
            name,
            address,
            kind: 'key',
            secretId,
            ...(a.developmentOnly ? { developmentOnly: true } : {}),
          });
        }
        zero(privateKey);
      } else {
        addressFromString(a.address);
        if (!has(a.address, true)) vault.accounts.push({ id: newId(), name, address: a.address, kind: 'watch' });
      }
    }
    return entries;
  } catch (error) {
    for (const [, bytes] of entries) zero(bytes);
    throw error;
  }
}
