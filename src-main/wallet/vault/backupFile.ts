// The encrypted backup file: one JSON text holding every account and secret of a wallet, sealed with AES-256-GCM under
// a key derived by scrypt from a backup password (its own salt). It needs no keychain, so it moves keys to a new machine.
import type { AccountKind } from './types.ts';
import { WalletError } from '../../koinos/errors.ts';
import { isIndex } from './walletFile.ts';
import {
  MIN_SCRYPT_LOG_N,
  deriveKey,
  newSalt,
  open,
  scryptParamsProblem,
  seal,
  zero,
  type ScryptCost,
  type ScryptParams,
} from './vaultCrypto.ts';

const BACKUP_FORMAT = 'koinos-wallet-backup';
const BACKUP_VERSION = 1;
/** A backup of thousands of accounts stays far below this; anything larger is refused before any work. */
const MAX_BACKUP_CHARS = 4 * 1024 * 1024;
/**
 * The most accounts (and phrases) a backup carries: an import checks each one's address against its key, which holds
 * main's event loop for about a millisecond per account.
 */
const MAX_BACKUP_ACCOUNTS = 1000;

/**
 * Export and import both check it, so that no wallet writes a backup it cannot read.
 * @throws WalletError INVALID_BACKUP when a backup would carry more than {@link MAX_BACKUP_ACCOUNTS} `what`. */
export function tooMany(count: number, what: 'accounts' | 'recovery phrases'): void {
  if (count > MAX_BACKUP_ACCOUNTS)
    throw new WalletError(
      'INVALID_BACKUP',
      `expected a backup of at most ${MAX_BACKUP_ACCOUNTS} ${what}, got ${count}`,
    );
}

export interface BackupAccount {
  name: string;
  kind: AccountKind;
  address: string;
  /** `phrase` accounts: which phrase of `phrases` and the derivation index. */
  phraseRef?: string;
  derivationIndex?: number;
  /** `key` accounts: the private key, 64 hex digits. */
  privateKeyHex?: string;
  developmentOnly?: boolean;
}

/** What the sealed part of a backup holds. */
export interface BackupPayload {
  phrases: { ref: string; phrase: string; nextIndex: number }[];
  accounts: BackupAccount[];
  /** The address book's contacts (absent in backups made before there was one). */
  contacts?: { label: string; address: string; networkId: string }[];
  /**
   * The wallet's custom networks, which its contacts may be on: their names and addresses, never an API key (absent in
   * backups made before they were kept, and when there is none).
   */
  networks?: BackupNetwork[];
  /** The person's notes on transactions (historyNotes.ts; absent in backups made before them, and when there is none). */
  notes?: BackupNote[];
}

/** A note on a transaction in a backup: its network's id in the wallet that made it, the transaction and the note. */
export interface BackupNote {
  networkId: string;
  transactionId: string;
  note: string;
}

/** A custom network in a backup: its id in the wallet that made it, its name and its addresses. */
export interface BackupNetwork {
  id: string;
  name: string;
  jsonRpcUrl: string;
  restUrl?: string;
}

interface BackupEnvelope {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  kdf: ScryptParams;
  data: string;
}

const identity = (kdf: ScryptParams) => `${BACKUP_FORMAT}/${BACKUP_VERSION}/${kdf.salt}`;

/**
 * Seals a payload with a backup password into the backup file's text.
 * @example
 * const text = await sealBackup(payload, 'backup password', { N: 65536, r: 8, p: 1 }, new Date());
 */
export async function sealBackup(
  payload: BackupPayload,
  backupPassword: string,
  cost: ScryptCost,
  now: Date,
): Promise<string> {
  const kdf: ScryptParams = { ...cost, salt: newSalt() };
  const key = await deriveKey(backupPassword, kdf);
  try {
    const plain = new TextEncoder().encode(JSON.stringify(payload));
    const data = seal(key, plain, identity(kdf));
    plain.fill(0);
    const envelope: BackupEnvelope = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: now.toISOString(),
      kdf,
      data,
    };
    return JSON.stringify(envelope, null, 2) + '\n';
  } finally {
    zero(key);
  }
}

function invalid(what: string): WalletError {
  return new WalletError('INVALID_BACKUP', `expected a Koinos wallet backup file, but ${what}`, {
    metaMessages: ['Choose the file that "Export encrypted backup" wrote.'],
  });
}

/** What a derivation index that is not one is, for the refusal: indexes run from 0 to 2^31 - 1. */
function badIndex(value: unknown): string {
  const shown = typeof value === 'number' ? String(value) : typeof value;
  return `${shown.slice(0, 40)}, not a whole number from 0 to 2147483647`;
}

/**
 * What a field holds, for a refusal that must not quote it (a phrase, a key): its type only; a kind, a short text.
 */
function found(value: unknown, quote = false): string {
  if (value === undefined) return 'nothing';
  if (quote && typeof value === 'string') return JSON.stringify(value.slice(0, 20));
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

/** Why an account entry cannot be read (its field, what was expected and found), or undefined when it can. */
function accountProblem(a: BackupAccount): string | undefined {
  if (typeof a !== 'object' || a === null) return `is ${found(a)}, not an account`;
  if (typeof a.name !== 'string') return `has ${found(a.name)} as its "name", not text`;
  if (typeof a.address !== 'string') return `has ${found(a.address)} as its "address", not text`;
  if (a.kind === 'phrase') {
    if (typeof a.phraseRef !== 'string') return `has ${found(a.phraseRef)} as its "phraseRef", not text`;
    if (!isIndex(a.derivationIndex)) return `has a "derivationIndex" of ${badIndex(a.derivationIndex)}`;
  } else if (a.kind === 'key') {
    // Never quoted: it is the private key.
    if (typeof a.privateKeyHex !== 'string') return `has ${found(a.privateKeyHex)} as its "privateKeyHex", not text`;
  } else if (a.kind !== 'watch') {
    return `has ${found(a.kind, true)} as its "kind", not "phrase", "key" or "watch"`;
  }
  return undefined;
}

function checkPayload(value: unknown): BackupPayload {
  const p = value as BackupPayload;
  if (!p || !Array.isArray(p.phrases) || !Array.isArray(p.accounts)) throw invalid('its content has no account list');
  tooMany(p.accounts.length, 'accounts');
  tooMany(p.phrases.length, 'recovery phrases');
  const refs = new Map<string, number>();
  for (const [i, phrase] of p.phrases.entries()) {
    const entry = `recovery phrase entry ${i + 1} of ${p.phrases.length}`;
    if (typeof phrase !== 'object' || phrase === null) throw invalid(`${entry} is ${found(phrase)}, not a phrase`);
    if (typeof phrase.ref !== 'string') throw invalid(`${entry} has ${found(phrase.ref)} as its "ref", not text`);
    // Accounts name their phrase by it: two phrases of one name would leave it to chance which one an account means.
    const twin = refs.get(phrase.ref);
    if (twin !== undefined) throw invalid(`${entry} has the "ref" of recovery phrase entry ${twin + 1}`);
    refs.set(phrase.ref, i);
    // Never quoted: it is the phrase.
    if (typeof phrase.phrase !== 'string')
      throw invalid(`${entry} has ${found(phrase.phrase)} as its "phrase", not text`);
    if (!isIndex(phrase.nextIndex)) throw invalid(`${entry} has a "nextIndex" of ${badIndex(phrase.nextIndex)}`);
  }
  for (const [i, a] of p.accounts.entries()) {
    const problem = accountProblem(a);
    if (problem) throw invalid(`account entry ${i + 1} of ${p.accounts.length} ${problem}`);
  }
  checkTextEntries(p.contacts, 'contact', ['label', 'address', 'networkId']);
  checkTextEntries(p.networks, 'network', ['id', 'name', 'jsonRpcUrl'], ['restUrl']);
  checkTextEntries(p.notes, 'note', ['networkId', 'transactionId', 'note']);
  return p;
}

/**
 * Checks an optional list of entries whose fields are all text: `fields` always, `optional` when present.
 * @throws WalletError INVALID_BACKUP naming the entry and its first field that is not text.
 */
function checkTextEntries<T extends object>(
  list: T[] | undefined,
  what: 'contact' | 'network' | 'note',
  fields: readonly (keyof T & string)[],
  optional: readonly (keyof T & string)[] = [],
): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) throw invalid(`its ${what}s are not a list`);
  for (const [i, entry] of list.entries()) {
    const value = (field: keyof T & string): unknown => (entry as Partial<T> | null)?.[field];
    const bad =
      fields.find((f) => typeof value(f) !== 'string') ??
      optional.find((f) => value(f) !== undefined && typeof value(f) !== 'string');
    if (bad)
      throw invalid(`${what} entry ${i + 1} of ${list.length} has ${found(value(bad))} as its "${bad}", not text`);
  }
}

/**
 * Opens a backup file's text with its password.
 * `minScryptN` lowers the smallest scrypt N accepted (2^15) for wallets that tests create with a cheap cost; nothing
 * raises the ceiling, and r and p must be the wallet's own (8 and 1).
 * @throws WalletError INVALID_BACKUP for a text that is not a backup (or too large, or with key derivation settings
 *   this wallet never writes: refused before any scrypt work); WRONG_PASSWORD when the backup password does not open
 *   it (or the file was altered).
 */
export async function openBackup(
  content: string,
  backupPassword: string,
  options: { minScryptN?: number } = {},
): Promise<BackupPayload> {
  if (typeof content !== 'string') throw invalid('got no text');
  if (content.length > MAX_BACKUP_CHARS)
    throw invalid(`it is ${content.length} characters long, more than a backup can be`);
  let envelope: BackupEnvelope;
  try {
    envelope = JSON.parse(content) as BackupEnvelope;
  } catch {
    throw invalid('it is not JSON');
  }
  if (envelope?.format !== BACKUP_FORMAT) throw invalid(`its format is not "${BACKUP_FORMAT}"`);
  if (envelope.version !== BACKUP_VERSION)
    throw invalid(`its version is ${String(envelope.version)}, and this wallet reads version ${BACKUP_VERSION}`);
  // Checked before scrypt runs: a crafted file must not make it allocate gigabytes or hold the vault for minutes.
  const problem = scryptParamsProblem(envelope.kdf, options.minScryptN ?? 2 ** MIN_SCRYPT_LOG_N);
  if (problem) throw invalid(`its key derivation settings are not ones this wallet writes (${problem})`);
  if (typeof envelope.data !== 'string') throw invalid('its sealed content is missing');
  const key = await deriveKey(backupPassword, envelope.kdf);
  const plain = open(key, envelope.data, identity(envelope.kdf));
  zero(key);
  if (!plain) {
    throw new WalletError(
      'WRONG_PASSWORD',
      'That password does not open this backup: it needs the password the backup was made with.',
      {
        metaMessages: ['Check the backup password (it may differ from the wallet password) and try again.'],
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw invalid('its content is not JSON');
  } finally {
    plain.fill(0);
  }
  return checkPayload(parsed);
}
