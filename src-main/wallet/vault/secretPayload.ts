// What a sealed entry holds once opened: a recovery phrase, a private key or an API key, as bytes with a kind tag, so
// that the vault can zero-fill them on lock (a JavaScript string cannot be overwritten; bytes can).
import { pbkdf2Sync } from 'node:crypto';
import { WalletError } from '../../koinos/errors.ts';
import { addressFromPublicKey, addressToString } from '../../koinos/address.ts';
import { phraseKeys, privateKeyFromMnemonic, publicKeyFromPrivateKey, type Pbkdf2Sha512 } from '../../koinos/keys.ts';

const PHRASE_TAG = 1;
const KEY_TAG = 2;
const API_KEY_TAG = 3;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function tagged(tag: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 1);
  out[0] = tag;
  out.set(body, 1);
  return out;
}

/** The payload of a (normalized) recovery phrase. */
export function phrasePayload(phrase: string): Uint8Array {
  return tagged(PHRASE_TAG, encoder.encode(phrase));
}

/** The payload of a 32-byte private key. */
export function keyPayload(privateKey: Uint8Array): Uint8Array {
  return tagged(KEY_TAG, privateKey);
}

/** The payload of a network's API key. */
export function apiKeyPayload(apiKey: string): Uint8Array {
  return tagged(API_KEY_TAG, encoder.encode(apiKey));
}

function wrongKind(expected: string): WalletError {
  return new WalletError(
    'VAULT_CORRUPT',
    `expected a sealed ${expected} in the vault entry, but it holds something else`,
    {
      metaMessages: ['Import your encrypted backup to restore this account.'],
    },
  );
}

/**
 * The phrase in a payload. It returns a string because BIP39 derivation takes one; callers keep it no longer than the
 * derivation.
 */
export function phraseOf(payload: Uint8Array): string {
  if (payload[0] !== PHRASE_TAG) throw wrongKind('recovery phrase');
  return decoder.decode(payload.subarray(1));
}

/** A view (not a copy: zeroing the payload zeroes it) of the private key in a payload. */
export function keyOf(payload: Uint8Array): Uint8Array {
  if (payload[0] !== KEY_TAG || payload.length !== 33) throw wrongKind('private key');
  return payload.subarray(1);
}

export function apiKeyOf(payload: Uint8Array): string {
  if (payload[0] !== API_KEY_TAG) throw wrongKind('API key');
  return decoder.decode(payload.subarray(1));
}

/** The Koinos address (base58, compressed public key) of a private key. */
export function addressOfKey(privateKey: Uint8Array): string {
  return addressToString(addressFromPublicKey(publicKeyFromPrivateKey(privateKey)));
}

/** BIP39's PBKDF2 by node:crypto: the seed of a phrase in ~1 ms, a ninth of the pure-JavaScript default's time. */
const nodePbkdf2Sha512: Pbkdf2Sha512 = (password, salt, iterations, keyLength) =>
  pbkdf2Sync(password, salt, iterations, keyLength, 'sha512');

/** The private key and address of account `index` of a phrase (m/44'/659'/index'/0/0). */
export function deriveAccount(phrase: string, index: number): { privateKey: Uint8Array; address: string } {
  const privateKey = privateKeyFromMnemonic(phrase, index, '', nodePbkdf2Sha512);
  return { privateKey, address: addressOfKey(privateKey) };
}

/**
 * Accounts of one phrase, its seed computed once (for an import of many accounts of one phrase): `accountAt(index)`
 * is what {@link deriveAccount} answers; `wipe()` zeroes what the phrase's node holds.
 */
export function phraseAccounts(phrase: string): {
  accountAt: (index: number) => { privateKey: Uint8Array; address: string };
  wipe: () => void;
} {
  const keys = phraseKeys(phrase, '', nodePbkdf2Sha512);
  return {
    accountAt(index) {
      const { privateKey, publicKey } = keys.keyAt(index);
      return { privateKey, address: addressToString(addressFromPublicKey(publicKey)) };
    },
    wipe: keys.wipe,
  };
}
