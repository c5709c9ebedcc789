// The rules of the account list, apart from keys and storage: ids, display names, duplicates, order, what a removal
// takes with it, and the password rule. Functions over a VaultRecord copy; the vault commits the result.
import { randomBytes } from 'node:crypto';
import type { AccountInfo } from './types.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import type { AccountRecord, VaultRecord } from './walletFile.ts';
import { oneLine } from '../oneLine.ts';

/** Shortest password a new wallet or a backup accepts. */
export const MIN_PASSWORD_LENGTH = 8;
const MAX_NAME_LENGTH = 64;

/** A random id (accounts, phrases, secrets, generations). */
export const newId = (): string => randomBytes(8).toString('hex');

/** Checks a value from the renderer is text; never quotes it (it may be a password or a key). */
export function requireText(value: unknown, field: string): string {
  if (typeof value !== 'string')
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected ${field} as text, got ${value === null ? 'null' : typeof value}`,
    );
  return value;
}

/** @throws WalletError WEAK_PASSWORD under MIN_PASSWORD_LENGTH characters. */
export function checkNewPassword(password: unknown, field = 'the new password'): string {
  const text = requireText(password, field);
  if (text.length < MIN_PASSWORD_LENGTH) {
    throw new WalletError(
      'WEAK_PASSWORD',
      `expected ${field} to have at least ${MIN_PASSWORD_LENGTH} characters, got ${text.length}`,
      {
        metaMessages: ['A longer password (several words) protects the keys better.'],
      },
    );
  }
  return text;
}

/** What the contract shows of an account (never the secret's id). */
export function toInfo(a: AccountRecord): AccountInfo {
  const info: AccountInfo = { id: a.id, name: a.name, address: a.address, kind: a.kind };
  if (a.kind === 'phrase') Object.assign(info, { phraseId: a.phraseId, derivationIndex: a.derivationIndex });
  if (a.developmentOnly) info.developmentOnly = true;
  return info;
}

/** A display name: on one line ({@link oneLine}), at most 64 characters; empty becomes the fallback. */
export function cleanName(name: unknown, vault: VaultRecord, fallback?: string): string {
  const text = typeof name === 'string' ? oneLine(name, MAX_NAME_LENGTH) : '';
  return text || fallback || `Account ${vault.accounts.length + 1}`;
}

/** @throws WalletError ACCOUNT_EXISTS when an account of the wallet has this address. */
export function assertNewAddress(vault: VaultRecord, address: string): void {
  const existing = vault.accounts.find((a) => a.address === address);
  if (existing) {
    throw new WalletError(
      'ACCOUNT_EXISTS',
      `expected an account new to this wallet, but ${address} is already in it as "${existing.name}"`,
      {
        metaMessages: existing.kind === 'watch' ? ['Remove the watch-only account first to add it with its key.'] : [],
      },
    );
  }
}

/** @throws WalletError ACCOUNT_NOT_FOUND. */
export function findAccount(vault: VaultRecord | undefined, id: unknown): AccountRecord {
  const record = vault?.accounts.find((a) => a.id === id);
  if (!record)
    throw new WalletError(
      'ACCOUNT_NOT_FOUND',
      `expected an account of this wallet, got unknown account id ${describe(id)}`,
    );
  return record;
}

/** Puts the accounts in the order of `ids`. @throws WalletError INVALID_ARGUMENT unless ids name every account once. */
export function reorder(vault: VaultRecord, ids: unknown): void {
  const list = Array.isArray(ids) ? (ids as unknown[]) : [];
  const byId = new Map(vault.accounts.map((a) => [a.id, a]));
  if (list.length !== byId.size || new Set(list).size !== list.length || list.some((id) => !byId.has(id as string))) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected the ids of all ${byId.size} accounts, each once, got ${list.length} ids that do not match them`,
    );
  }
  vault.accounts = list.map((id) => byId.get(id as string)!);
}

/** Takes an account out; returns the secret ids no account needs any more (its key, or its phrase with the last one). */
export function removeAccount(vault: VaultRecord, record: AccountRecord): string[] {
  vault.accounts = vault.accounts.filter((a) => a.id !== record.id);
  if (record.kind === 'key') return [record.secretId!];
  if (record.kind === 'phrase' && !vault.accounts.some((a) => a.phraseId === record.phraseId)) {
    vault.phrases = vault.phrases.filter((p) => p.id !== record.phraseId);
    return [record.phraseId!];
  }
  return [];
}
