// Between a wallet and its backup payload: what an export writes (every account and secret), and how an import merges
// (a phrase the wallet holds is matched by its first address, an account it has is skipped, addresses are derived
// again from the secrets and must be the file's).
import { WalletError } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { assertMnemonic, parsePrivateKey } from '../../koinos/keys.ts';
import { cleanName, newId } from './accountBook.ts';
import { tooMany, type BackupAccount, type BackupPayload } from './backupFile.ts';
import { addressOfKey, keyOf, keyPayload, phraseAccounts, phraseOf, phrasePayload } from './secretPayload.ts';
import { zero } from './vaultCrypto.ts';
import type { AccountRecord, VaultRecord } from './walletFile.ts';

/**
 * Every account and secret of the wallet, for sealBackup. `readSecret` opens a secret's payload (the caller zeroes
 * nothing: this does).
 * @throws WalletError INVALID_BACKUP for a wallet of more accounts than a backup carries (before any secret is read).
 */
export async function backupPayloadOf(
  vault: VaultRecord,
  readSecret: (secretId: string) => Promise<Uint8Array>,
): Promise<BackupPayload> {
  tooMany(vault.accounts.length, 'accounts');
  tooMany(vault.phrases.length, 'recovery phrases');
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

/** Accounts checked between two turns of the event loop: some 20 ms of work on a slow machine. */
const ACCOUNTS_PER_TURN = 16;

/** What a merge did to the accounts, for the import's summary. */
export interface MergedAccounts {
  /** The secrets to store, by id (the caller zeroes them once written). */
  entries: [string, Uint8Array][];
  /** Accounts the backup added, in the wallet's order. */
  addedIds: string[];
  /** Watch-only accounts of the wallet that the backup's key or phrase turned into signing accounts. */
  upgradedIds: string[];
  /** The backup's accounts the wallet had already (same address). */
  alreadyPresent: number;
}

function mismatch(index: number, total: number, what: string, derived: string, written: string): WalletError {
  return new WalletError(
    'INVALID_BACKUP',
    `expected account entry ${index + 1} of ${total} of the backup (${what}) to have the address its key gives, ` +
      `${derived}, but the backup says ${written}; nothing was imported`,
    {
      metaMessages: [
        'The file may be damaged, or made by a wallet that derives phrase accounts on another path: check it there.',
      ],
    },
  );
}

/**
 * Adds the payload's accounts to `vault` (a copy the caller commits): a phrase the wallet holds is matched, an account
 * it has is skipped, and a watch-only account whose key or phrase account the backup holds becomes that signing account
 * (it keeps its id, name and place). A phrase's next index ends above its highest account. Each phrase's seed is
 * computed once, whatever its number of accounts, and the event loop is let go every {@link ACCOUNTS_PER_TURN} accounts
 * (each costs about a millisecond of elliptic-curve work): the caller keeps `vault` to itself until this resolves.
 * @throws WalletError INVALID_BACKUP (a phrase or key account whose address is not the file's: nothing is merged),
 *   INVALID_MNEMONIC, INVALID_PRIVATE_KEY, INVALID_ADDRESS for damaged content.
 */
export async function mergeBackup(vault: VaultRecord, payload: BackupPayload): Promise<MergedAccounts> {
  const merged: MergedAccounts = { entries: [], addedIds: [], upgradedIds: [], alreadyPresent: 0 };
  const { entries } = merged;
  const phrases = new Map<string, { id: string; accountAt: ReturnType<typeof phraseAccounts>['accountAt'] }>();
  const wipes: (() => void)[] = [];
  const total = payload.accounts.length;
  try {
    const phraseByFirstAddress = new Map(vault.phrases.map((q) => [q.firstAddress, q]));
    for (const [index, p] of payload.phrases.entries()) {
      // A phrase costs a seed (2048 PBKDF2 rounds) and a BIP32 path: a few milliseconds.
      if (index > 0 && index % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
      const phrase = assertMnemonic(p.phrase);
      const { accountAt, wipe } = phraseAccounts(phrase);
      wipes.push(wipe);
      const first = accountAt(0);
      zero(first.privateKey);
      const known = phraseByFirstAddress.get(first.address);
      if (known) {
        known.nextIndex = Math.max(known.nextIndex, p.nextIndex);
        phrases.set(p.ref, { id: known.id, accountAt });
      } else {
        const id = newId();
        const record = { id, nextIndex: Math.max(1, p.nextIndex), firstAddress: first.address };
        vault.phrases.push(record);
        phraseByFirstAddress.set(first.address, record);
        entries.push([id, phrasePayload(phrase)]);
        phrases.set(p.ref, { id, accountAt });
      }
    }
    const byAddress = new Map(vault.accounts.map((a) => [a.address, a]));
    const added = new Set<string>();
    /** Adds a signing account, or turns the watch-only account of its address into it; false when it is there. */
    const addSigning = (
      address: string,
      name: string,
      fields: Pick<AccountRecord, 'kind'> & Partial<AccountRecord>,
    ): boolean => {
      const existing = byAddress.get(address);
      if (existing && existing.kind !== 'watch') return false;
      if (existing) {
        Object.assign(existing, fields);
        if (!added.has(existing.id)) merged.upgradedIds.push(existing.id);
        return true;
      }
      const account: AccountRecord = { id: newId(), name, address, ...fields };
      vault.accounts.push(account);
      byAddress.set(address, account);
      added.add(account.id);
      return true;
    };
    for (const [index, a] of payload.accounts.entries()) {
      if (index > 0 && index % ACCOUNTS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      const name = cleanName(a.name, vault);
      let isNew: boolean;
      if (a.kind === 'phrase') {
        const phrase = phrases.get(a.phraseRef!);
        if (!phrase)
          throw new WalletError(
            'INVALID_BACKUP',
            `expected account entry ${index + 1} of ${total} of the backup to name one of its recovery phrases, ` +
              'but the phrase it names is not in it',
          );
        const { privateKey, address } = phrase.accountAt(a.derivationIndex!);
        zero(privateKey);
        if (address !== a.address)
          throw mismatch(index, total, `recovery phrase account ${a.derivationIndex}`, address, a.address);
        isNew = addSigning(address, name, { kind: 'phrase', phraseId: phrase.id, derivationIndex: a.derivationIndex! });
      } else if (a.kind === 'key') {
        const { privateKey } = parsePrivateKey(a.privateKeyHex!);
        try {
          const address = addressOfKey(privateKey);
          if (address !== a.address) throw mismatch(index, total, 'an imported key', address, a.address);
          const secretId = newId();
          const fields = { kind: 'key' as const, secretId, ...(a.developmentOnly ? { developmentOnly: true } : {}) };
          isNew = addSigning(address, name, fields);
          if (isNew) entries.push([secretId, keyPayload(privateKey)]);
        } finally {
          zero(privateKey);
        }
      } else {
        addressFromString(a.address);
        isNew = !byAddress.has(a.address);
        if (isNew) {
          const account = { id: newId(), name, address: a.address, kind: 'watch' as const };
          vault.accounts.push(account);
          byAddress.set(a.address, account);
          added.add(account.id);
        }
      }
      if (!isNew) merged.alreadyPresent++;
    }
    // "Next account" must not hand out an index the wallet has now, whatever nextIndex the file said.
    const highest = new Map<string, number>();
    for (const a of vault.accounts)
      if (a.kind === 'phrase') highest.set(a.phraseId!, Math.max(highest.get(a.phraseId!) ?? 0, a.derivationIndex!));
    for (const q of vault.phrases) q.nextIndex = Math.max(q.nextIndex, (highest.get(q.id) ?? 0) + 1);
    merged.addedIds = vault.accounts.filter((a) => added.has(a.id)).map((a) => a.id);
    return merged;
  } catch (error) {
    for (const [, bytes] of entries) zero(bytes);
    throw error;
  } finally {
    for (const wipe of wipes) wipe();
  }
}
