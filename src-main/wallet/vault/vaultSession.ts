// What exists only while the vault is unlocked: the key derived from the password, the secrets opened so far, the
// private keys derived from them, and phrases waiting for confirmation - all bytes, all zero-filled by wipe() on lock.
import { zero } from './vaultCrypto.ts';

/** A phrase made by newPhrase, kept until confirmed (as bytes, so it can be wiped). */
export interface PhraseDraft {
  payload: Uint8Array;
  checkPositions: number[];
}

/** How many unconfirmed phrases are kept at once; making another forgets (and wipes) the oldest. */
export const MAX_DRAFTS = 4;

export class VaultSession {
  #key: Uint8Array;
  #wiped = false;
  /** Opened entries by secret id (phrase or private key payloads). */
  readonly payloads = new Map<string, Uint8Array>();
  /** Private keys by account id. */
  readonly signingKeys = new Map<string, Uint8Array>();
  readonly drafts = new Map<string, PhraseDraft>();

  constructor(key: Uint8Array) {
    this.#key = key;
  }

  /** The key itself: use it only synchronously (a lock may wipe it at the next await). */
  get key(): Uint8Array {
    return this.#key;
  }

  /** A copy of the key for work that awaits; the caller zero-fills it when done. */
  keyCopy(): Uint8Array {
    return Uint8Array.from(this.#key);
  }

  get wiped(): boolean {
    return this.#wiped;
  }

  /** After a password change: the new key replaces (and wipes) the old one. */
  replaceKey(key: Uint8Array): void {
    zero(this.#key);
    this.#key = key;
  }

  addDraft(id: string, draft: PhraseDraft): void {
    while (this.drafts.size >= MAX_DRAFTS) {
      const oldest = this.drafts.keys().next().value as string;
      this.dropDraft(oldest);
    }
    this.drafts.set(id, draft);
  }

  dropDraft(id: string): void {
    zero(this.drafts.get(id)?.payload);
    this.drafts.delete(id);
  }

  /** Forgets what was opened for an account and for secrets no longer in the wallet. */
  forget(accountId: string, secretIds: readonly string[]): void {
    zero(this.signingKeys.get(accountId));
    this.signingKeys.delete(accountId);
    for (const id of secretIds) {
      zero(this.payloads.get(id));
      this.payloads.delete(id);
    }
  }

  /** Zero-fills every key, secret and draft, and forgets them. */
  wipe(): void {
    this.#wiped = true;
    zero(this.#key);
    for (const bytes of this.payloads.values()) zero(bytes);
    for (const bytes of this.signingKeys.values()) zero(bytes);
    for (const draft of this.drafts.values()) zero(draft.payload);
    this.payloads.clear();
    this.signingKeys.clear();
    this.drafts.clear();
  }
}
