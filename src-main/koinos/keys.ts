// Koinos keys: private keys (hex, WIF, BIP39/BIP32), public keys and 65-byte compact signatures (protocol spec §3.5,
// §3.8). Main process only (secp256k1, BIP39); addresses live in address.ts. No secret ever appears in an error text.
import * as secp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256 as nobleSha256, sha512 } from '@noble/hashes/sha2.js';
import { HARDENED_OFFSET, HDKey } from '@scure/bip32';
import * as bip39 from '@scure/bip39';
import { wordlist as ENGLISH_WORDLIST } from '@scure/bip39/wordlists/english.js';
import { addressFromPublicKey, checksum4 } from './address.ts';
import {
  assertBytes,
  concatBytes,
  equalBytes,
  firstNonBase58,
  fromBase58,
  hexByte,
  MAX_BASE58_LENGTH,
  toBase58,
  toHex,
} from './bytes.ts';
import { WalletError, describe } from './errors.ts';

// noble-secp256k1 v3 ships without hashes; its sync API (sign, RFC 6979 nonces) needs these two.
secp.hashes.sha256 = nobleSha256;
secp.hashes.hmacSha256 = (key, message) => hmac(nobleSha256, key, message);

/** Order n of the secp256k1 group: valid private keys are 1..n-1. */
export const CURVE_ORDER = secp.Point.CURVE().n;
const HALF_CURVE_ORDER = CURVE_ORDER >> 1n;
const ENGLISH_WORDS: ReadonlySet<string> = new Set(ENGLISH_WORDLIST);

/** First byte of a WIF private key (crypto-cpp `to_wif` default prefix). */
const WIF_PREFIX = 0x80;
/** Length of a compact signature: header (1) + r (32) + s (32). */
const SIGNATURE_LENGTH = 65;
/** Added to the recovery id to form the signature header byte (27 + 4 for "compressed key"). */
const SIGNATURE_HEADER_OFFSET = 31;
/** The BIP44 node of Koinos (coin type 659) under which every account's path goes on. */
export const KOINOS_COIN_PATH = "m/44'/659'";

/** A private key with the WIF compression flag it was written with (Koinos always uses the compressed key). */
export interface ParsedPrivateKey {
  privateKey: Uint8Array;
  compressed: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Private keys

/** Checks a key is 32 bytes and 1..n-1, without ever printing it. */
function assertPrivateKey(
  privateKey: unknown,
  code: 'INVALID_PRIVATE_KEY' | 'INVALID_WIF' = 'INVALID_PRIVATE_KEY',
): asserts privateKey is Uint8Array {
  if (!(privateKey instanceof Uint8Array)) {
    // A string here may be the key itself in hex or WIF: name its type only.
    const found = typeof privateKey === 'string' ? 'a string' : describe(privateKey);
    throw new WalletError(code, `expected a private key as a Uint8Array, got ${found}`);
  }
  if (privateKey.length !== 32) {
    throw new WalletError(code, `expected a private key of 32 bytes, got ${privateKey.length}`);
  }
  const value = BigInt('0x' + toHex(privateKey));
  if (value === 0n) {
    throw new WalletError(code, 'private key must be between 1 and n-1 (the secp256k1 group order), got zero');
  }
  if (value >= CURVE_ORDER) {
    throw new WalletError(
      code,
      'private key must be between 1 and n-1 (the secp256k1 group order), got a value not below n',
    );
  }
}

/**
 * A new random private key (32 bytes, from the platform's secure random source).
 * @throws Error when the platform has no `crypto.getRandomValues`.
 * @example
 * const key = newPrivateKey(); // Uint8Array(32)
 */
export function newPrivateKey(): Uint8Array {
  return secp.utils.randomSecretKey();
}

/**
 * Parses a private key written as 64 hex digits (an optional `0x` prefix allowed).
 * @throws WalletError INVALID_PRIVATE_KEY on another length, a non-hex character, zero or a value ≥ n.
 * @example
 * privateKeyFromHex('bab7fd6e5bd624f4ea0c33f7e7219262a6fa93a945a8964d9f110148286b7b37'); // Uint8Array(32)
 */
export function privateKeyFromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string') {
    throw new WalletError('INVALID_PRIVATE_KEY', `expected a private key as 64 hex digits, got ${describe(hex)}`);
  }
  const digits = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  // Checked here rather than by fromHex, whose messages quote the input: this input is a secret.
  const bad = digits.search(/[^0-9a-fA-F]/);
  if (bad >= 0) {
    throw new WalletError(
      'INVALID_PRIVATE_KEY',
      `expected a private key as 64 hex digits, got a character that is not a hex digit at character ${bad + 1}`,
    );
  }
  if (digits.length !== 64) {
    throw new WalletError('INVALID_PRIVATE_KEY', `expected a private key as 64 hex digits, got ${digits.length}`);
  }
  const key = new Uint8Array(32);
  for (let i = 0; i < 32; i++) key[i] = parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  assertPrivateKey(key);
  return key;
}

/**
 * The secp256k1 public key of a private key: 33 bytes compressed (what Koinos uses) or 65 bytes uncompressed.
 * @throws WalletError INVALID_PRIVATE_KEY unless the key is 32 bytes in 1..n-1.
 * @example
 * toHex(publicKeyFromPrivateKey(privateKeyFromHex('bab7fd6e5bd624f4ea0c33f7e7219262a6fa93a945a8964d9f110148286b7b37')));
 * // '032921dd54fdd8fb5d2ab1a9928db7e9e08b34f8711a3332e0f1b36e71076b9cf2'
 */
export function publicKeyFromPrivateKey(privateKey: Uint8Array, compressed = true): Uint8Array {
  assertPrivateKey(privateKey);
  return secp.getPublicKey(privateKey, compressed);
}

// ---------------------------------------------------------------------------------------------------------------
// WIF

/**
 * Writes a private key as WIF: base58(`0x80 || key || [0x01] || checksum4`). The compressed form (`K…`/`L…`,
 * the default) is what crypto-cpp and koilib emit; both forms denote the same key and the same Koinos address.
 * @throws WalletError INVALID_PRIVATE_KEY unless the key is 32 bytes in 1..n-1.
 * @example
 * privateKeyToWif(privateKeyFromHex('bab7fd6e5bd624f4ea0c33f7e7219262a6fa93a945a8964d9f110148286b7b37'));
 * // 'L3UfgFJWmbVziGB1uZBjkG1UjKkF7hhpXWY7mbTUdmycmvXCVtiL'
 */
export function privateKeyToWif(privateKey: Uint8Array, compressed = true): string {
  assertPrivateKey(privateKey);
  const body = compressed
    ? concatBytes(Uint8Array.of(WIF_PREFIX), privateKey, Uint8Array.of(0x01))
    : concatBytes(Uint8Array.of(WIF_PREFIX), privateKey);
  return toBase58(concatBytes(body, checksum4(body)));
}

/**
 * Parses a WIF private key (37 bytes uncompressed or 38 bytes with the 0x01 compression flag), checking in the
 * order crypto-cpp `from_wif` does: length, prefix 0x80, compression flag, checksum; then the key's range.
 * @throws WalletError INVALID_WIF naming what is wrong; the message never quotes the WIF.
 * @example
 * privateKeyFromWif('L3UfgFJWmbVziGB1uZBjkG1UjKkF7hhpXWY7mbTUdmycmvXCVtiL'); // { privateKey: Uint8Array(32), compressed: true }
 */
export function privateKeyFromWif(wif: string): ParsedPrivateKey {
  if (typeof wif !== 'string' || wif.length === 0) {
    throw new WalletError('INVALID_WIF', `expected a WIF private key as base58 text, got ${describe(wif)}`);
  }
  // Checked here rather than by fromBase58, whose message quotes the input: this input is a secret.
  const bad = firstNonBase58(wif);
  if (bad >= 0) {
    throw new WalletError(
      'INVALID_WIF',
      `expected a WIF private key in base58, got a character base58 does not use at character ${bad + 1}`,
    );
  }
  if (wif.length > MAX_BASE58_LENGTH) {
    throw new WalletError(
      'INVALID_WIF',
      `expected a WIF private key of 51 or 52 characters, got ${wif.length} characters`,
    );
  }
  const bytes = fromBase58(wif);
  if (bytes.length !== 37 && bytes.length !== 38) {
    throw new WalletError('INVALID_WIF', `expected a WIF private key of 37 or 38 bytes, got ${bytes.length}`, {
      metaMessages: ['A WIF private key is 51 or 52 characters starting with 5, K or L.'],
    });
  }
  if (bytes[0] !== WIF_PREFIX) {
    throw new WalletError('INVALID_WIF', `WIF prefix byte must be 0x80, got ${hexByte(bytes[0]!)}`, {
      metaMessages: ['A WIF private key starts with 5, K or L.'],
    });
  }
  const compressed = bytes.length === 38;
  if (compressed && bytes[33] !== 0x01) {
    throw new WalletError('INVALID_WIF', `WIF compression flag must be 0x01, got ${hexByte(bytes[33]!)}`);
  }
  const body = bytes.subarray(0, bytes.length - 4);
  if (!equalBytes(checksum4(body), bytes.subarray(bytes.length - 4))) {
    // The checksums are not shown: they are derived from the secret.
    throw new WalletError('INVALID_WIF', 'WIF checksum does not match', {
      metaMessages: ['A character is probably mistyped or missing; copy the key again.'],
    });
  }
  const privateKey = bytes.slice(1, 33);
  assertPrivateKey(privateKey, 'INVALID_WIF');
  return { privateKey, compressed };
}

/**
 * Whether `text` is a well-formed WIF private key (prefix, length, flag, checksum and key range).
 * @example
 * isWif('L3UfgFJWmbVziGB1uZBjkG1UjKkF7hhpXWY7mbTUdmycmvXCVtiL'); // true
 */
export function isWif(text: unknown): boolean {
  try {
    privateKeyFromWif(text as string);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses a private key as a user pastes it: a WIF, or 64 hex digits (optional `0x`); surrounding whitespace is
 * ignored. A hex key counts as compressed, as Koinos always uses the compressed public key.
 * @throws WalletError INVALID_PRIVATE_KEY (hex-looking input) or INVALID_WIF (anything else) naming what is wrong.
 * @example
 * parsePrivateKey('  0xbab7fd6e5bd624f4ea0c33f7e7219262a6fa93a945a8964d9f110148286b7b37 \n'); // { privateKey: Uint8Array(32), compressed: true }
 */
export function parsePrivateKey(text: string): ParsedPrivateKey {
  if (typeof text !== 'string') {
    throw new WalletError(
      'INVALID_PRIVATE_KEY',
      `expected a private key as WIF or 64 hex digits, got ${describe(text)}`,
    );
  }
  const trimmed = text.trim();
  if (trimmed.length === 0) {
    throw new WalletError('INVALID_PRIVATE_KEY', 'expected a private key as WIF or 64 hex digits, got nothing');
  }
  // A 51/52-character WIF made only of hex digits is possible in theory but vanishingly rare.
  if (/^0[xX]/.test(trimmed) || /^[0-9a-fA-F]+$/.test(trimmed)) {
    return { privateKey: privateKeyFromHex(trimmed), compressed: true };
  }
  return privateKeyFromWif(trimmed);
}

// ---------------------------------------------------------------------------------------------------------------
// Signatures

/**
 * Signs a 32-byte digest (for a transaction or block: the id without its `12 20` prefix) as a 65-byte Koinos
 * compact signature `recid+31 || r || s`. Deterministic (RFC 6979) and low-S, so it equals koilib's signature.
 * @throws WalletError INVALID_BYTES unless the digest is 32 bytes; INVALID_PRIVATE_KEY for a bad key.
 * @example
 * const signature = signDigest(digestOfMultihash(txId), privateKey); // Uint8Array(65), first byte 31 or 32
 */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  assertBytes(digest, 32, 'a digest');
  assertPrivateKey(privateKey);
  const recovered = secp.sign(digest, privateKey, { prehash: false, lowS: true, format: 'recovered' });
  return koinosSignature(recovered[0]!, recovered.subarray(1));
}

/**
 * The 65-byte Koinos compact signature `recid+31 || r || s` of a recovery id and the 64 bytes `r || s`: for a
 * signature made by another secp256k1 library (the devnet signs its blocks with libsecp256k1).
 * @throws WalletError INTERNAL for a recovery id above 1, which the node cannot recover.
 */
export function koinosSignature(recoveryId: number, compact: Uint8Array): Uint8Array {
  assertBytes(compact, 64, 'a compact signature (r || s)');
  if (recoveryId > 1) {
    // Only when r ≥ n - p (probability about 2^-127); the node reads header 33 as recovery id 1, so it could not
    // recover this signature.
    throw new WalletError('INTERNAL', `signature has recovery id ${recoveryId}, which the Koinos node cannot recover`);
  }
  const signature = new Uint8Array(SIGNATURE_LENGTH);
  signature[0] = recoveryId + SIGNATURE_HEADER_OFFSET;
  signature.set(compact, 1);
  return signature;
}

function readScalar(bytes: Uint8Array): bigint {
  return BigInt('0x' + toHex(bytes));
}

/**
 * Whether a signature has the form the node accepts: 65 bytes, header 31..33, 0 < r < n and 0 < s ≤ n/2 (low S).
 * @example
 * isCanonicalSignature(signDigest(digest, key)); // true
 */
export function isCanonicalSignature(signature: Uint8Array): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== SIGNATURE_LENGTH) return false;
  const header = signature[0]!;
  if (header < 31 || header > 33) return false;
  const r = readScalar(signature.subarray(1, 33));
  const s = readScalar(signature.subarray(33, 65));
  return r > 0n && r < CURVE_ORDER && s > 0n && s <= HALF_CURVE_ORDER;
}

/**
 * Recovers the 33-byte compressed public key that made a Koinos compact signature over a 32-byte digest, with the
 * node's rules (crypto-cpp `public_key::recover`): header 31..33 only, low S only.
 * @throws WalletError INVALID_SIGNATURE for a length other than 65, a header outside 31..33, a high S, or a
 *   signature from which no key can be recovered; INVALID_BYTES unless the digest is 32 bytes.
 * @example
 * toHex(recoverPublicKey(signature, digest)); // '032921dd54fd…9cf2'
 */
export function recoverPublicKey(signature: Uint8Array, digest: Uint8Array): Uint8Array {
  if (!(signature instanceof Uint8Array)) {
    throw new WalletError('INVALID_SIGNATURE', `expected a signature as a Uint8Array, got ${describe(signature)}`);
  }
  if (signature.length !== SIGNATURE_LENGTH) {
    throw new WalletError(
      'INVALID_SIGNATURE',
      `unexpected signature length: expected ${SIGNATURE_LENGTH} bytes, got ${signature.length}`,
    );
  }
  assertBytes(digest, 32, 'a digest');
  const header = signature[0]!;
  if (header < 31 || header > 33) {
    throw new WalletError(
      'INVALID_SIGNATURE',
      `unexpected signature header byte ${header}: expected 31, 32 or 33 (recovery id + 31, compressed key)`,
    );
  }
  const s = readScalar(signature.subarray(33, 65));
  if (s > HALF_CURVE_ORDER) {
    throw new WalletError(
      'INVALID_SIGNATURE',
      'signature must be canonical: its S value is in the upper half of the curve order',
      {
        details: 'Koinos requires low-S signatures (BIP-62); sign again with a canonical signer.',
      },
    );
  }
  // crypto-cpp passes `header >> 5` as the recovery id, so header 33 recovers like header 32 on the node.
  const recoveryId = header >> 5;
  const nobleSignature = new Uint8Array(SIGNATURE_LENGTH);
  nobleSignature[0] = recoveryId;
  nobleSignature.set(signature.subarray(1), 1);
  try {
    return secp.recoverPublicKey(nobleSignature, digest, { prehash: false });
  } catch (cause) {
    throw new WalletError('INVALID_SIGNATURE', 'signature does not recover a public key', {
      details: cause instanceof Error ? cause.message : String(cause),
      cause,
    });
  }
}

/**
 * The 25-byte address of the key that made a signature (what the node compares with the payer).
 * @throws WalletError INVALID_SIGNATURE as {@link recoverPublicKey}.
 * @example
 * addressToString(recoverAddress(signature, digest)); // '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'
 */
export function recoverAddress(signature: Uint8Array, digest: Uint8Array): Uint8Array {
  return addressFromPublicKey(recoverPublicKey(signature, digest));
}

// ---------------------------------------------------------------------------------------------------------------
// Recovery phrases (BIP39) and accounts (BIP32)

const MNEMONIC_WORD_COUNTS = [12, 15, 18, 21, 24];

/**
 * A recovery phrase in its canonical spelling: Unicode NFKD, lower case, single spaces, no surrounding space.
 * @example
 * normalizeMnemonic('  Abandon   abandon\nabout '); // 'abandon abandon about'
 */
export function normalizeMnemonic(mnemonic: string): string {
  if (typeof mnemonic !== 'string') {
    throw new WalletError('INVALID_MNEMONIC', `expected a recovery phrase as text, got ${describe(mnemonic)}`);
  }
  return mnemonic.normalize('NFKD').trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');
}

/**
 * A new random BIP39 recovery phrase (English word list) of 12 words (128 bits) or 24 words (256 bits).
 * @throws WalletError INVALID_ARGUMENT for another word count.
 * @example
 * newMnemonic(24).split(' ').length; // 24
 */
export function newMnemonic(words: 12 | 24 = 12): string {
  if (words !== 12 && words !== 24) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected a recovery phrase length of 12 or 24 words, got ${describe(words)}`,
    );
  }
  return bip39.generateMnemonic(ENGLISH_WORDLIST, words === 24 ? 256 : 128);
}

/**
 * Checks a recovery phrase (any case and spacing) and returns it normalized.
 * @throws WalletError INVALID_MNEMONIC naming the problem: the position of the first word not in the English list,
 *   the word count, or the checksum. The phrase and its words are never quoted.
 * @example
 * assertMnemonic('Abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about');
 * // 'abandon abandon … about'
 */
export function assertMnemonic(mnemonic: string): string {
  const normalized = normalizeMnemonic(mnemonic);
  const words = normalized === '' ? [] : normalized.split(' ');
  if (words.length === 0) {
    throw new WalletError('INVALID_MNEMONIC', 'expected a recovery phrase of 12, 15, 18, 21 or 24 words, got none');
  }
  const unknown = words.findIndex((word) => !ENGLISH_WORDS.has(word));
  if (unknown >= 0) {
    throw new WalletError(
      'INVALID_MNEMONIC',
      `word ${unknown + 1} of the recovery phrase is not in the BIP39 English word list`,
      {
        metaMessages: ['Check its spelling.'],
      },
    );
  }
  if (!MNEMONIC_WORD_COUNTS.includes(words.length)) {
    throw new WalletError(
      'INVALID_MNEMONIC',
      `expected a recovery phrase of 12, 15, 18, 21 or 24 words, got ${words.length}`,
    );
  }
  if (!bip39.validateMnemonic(normalized, ENGLISH_WORDLIST)) {
    throw new WalletError('INVALID_MNEMONIC', 'recovery phrase checksum does not match', {
      metaMessages: ['A word is probably wrong or out of order.'],
    });
  }
  return normalized;
}

/**
 * Whether a recovery phrase is valid BIP39 English (any case and spacing).
 * @example
 * validateMnemonic('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'); // true
 */
export function validateMnemonic(mnemonic: string): boolean {
  try {
    assertMnemonic(mnemonic);
    return true;
  } catch {
    return false;
  }
}

function assertAccountIndex(accountIndex: number): void {
  if (!Number.isInteger(accountIndex) || accountIndex < 0 || accountIndex >= 2 ** 31) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected an account index from 0 to 2147483647, got ${describe(accountIndex)}`,
    );
  }
}

/**
 * The BIP32 path of account N, as Kondor and My Koinos Wallet derive it: `m/44'/659'/N'/0/0`.
 * @throws WalletError INVALID_ARGUMENT unless the index is an integer in 0..2^31-1.
 * @example
 * derivationPath(2); // "m/44'/659'/2'/0/0"
 */
export function derivationPath(accountIndex = 0): string {
  assertAccountIndex(accountIndex);
  return `${KOINOS_COIN_PATH}/${accountIndex}'/0/0`;
}

/**
 * PBKDF2 with HMAC-SHA512, as BIP39 runs it: `iterations` rounds over `password` and `salt` (UTF-8), `keyLength` bytes.
 * This library's own is @noble/hashes' (it runs anywhere); the main process and the devnet pass node:crypto's, which
 * takes ~1 ms for a seed where the pure-JavaScript one takes ~9 ms once compiled and several times that before. A
 * wallet pays a seed for every key it derives from a phrase and every signature with such a key.
 */
export type Pbkdf2Sha512 = (password: string, salt: string, iterations: number, keyLength: number) => Uint8Array;

const noblePbkdf2Sha512: Pbkdf2Sha512 = (password, salt, c, dkLen) => pbkdf2(sha512, password, salt, { c, dkLen });

/**
 * The BIP39 seed of a recovery phrase: PBKDF2-HMAC-SHA512 of the phrase with the salt "mnemonic" + passphrase, both in
 * NFKD, 2048 rounds, 64 bytes (what @scure/bip39's `mnemonicToSeedSync` computes). The phrase is not checked here.
 * @example
 * seedFromMnemonic('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about');
 * // 5eb00bbd…9e38e4 (64 bytes)
 */
export function seedFromMnemonic(
  mnemonic: string,
  passphrase = '',
  pbkdf2Sha512: Pbkdf2Sha512 = noblePbkdf2Sha512,
): Uint8Array {
  return pbkdf2Sha512(mnemonic.normalize('NFKD'), `mnemonic${passphrase.normalize('NFKD')}`, 2048, 64);
}

/**
 * The private key of account `accountIndex` of a recovery phrase (path {@link derivationPath}), with an optional
 * BIP39 passphrase; `pbkdf2Sha512` computes the seed ({@link Pbkdf2Sha512}).
 * @throws WalletError INVALID_MNEMONIC for an invalid phrase; INVALID_ARGUMENT for a bad index or passphrase.
 * @example
 * const key = privateKeyFromMnemonic(newMnemonic(), 0);
 * addressToString(addressFromPublicKey(publicKeyFromPrivateKey(key))); // '1…'
 */
export function privateKeyFromMnemonic(
  mnemonic: string,
  accountIndex = 0,
  passphrase = '',
  pbkdf2Sha512: Pbkdf2Sha512 = noblePbkdf2Sha512,
): Uint8Array {
  const keys = phraseKeys(mnemonic, passphrase, pbkdf2Sha512);
  try {
    return keys.keyAt(accountIndex).privateKey;
  } finally {
    keys.wipe();
  }
}

/**
 * The keys of many accounts of one recovery phrase for the price of one seed: the phrase is checked and its BIP39 seed
 * (2048 PBKDF2 rounds) and `m/44'/659'` node computed once, then each `keyAt(index)` derives only `index'/0/0` below
 * it: the same private key as {@link privateKeyFromMnemonic}, with its compressed public key (which BIP32 computed on
 * the way: computing it again would cost a fourth of the time). `wipe()` zeroes the node's private data.
 * @throws WalletError INVALID_MNEMONIC for an invalid phrase; `keyAt` INVALID_ARGUMENT for a bad index.
 * @example
 * const keys = phraseKeys(phrase);
 * const { privateKey, publicKey } = keys.keyAt(1);
 * keys.wipe();
 */
export function phraseKeys(
  mnemonic: string,
  passphrase = '',
  pbkdf2Sha512: Pbkdf2Sha512 = noblePbkdf2Sha512,
): { keyAt: (accountIndex: number) => { privateKey: Uint8Array; publicKey: Uint8Array }; wipe: () => void } {
  const normalized = assertMnemonic(mnemonic);
  if (typeof passphrase !== 'string') {
    throw new WalletError('INVALID_ARGUMENT', `expected the passphrase as text, got ${describe(passphrase)}`);
  }
  const seed = seedFromMnemonic(normalized, passphrase, pbkdf2Sha512);
  const master = HDKey.fromMasterSeed(seed);
  seed.fill(0);
  const coin = master.derive(KOINOS_COIN_PATH);
  master.wipePrivateData();
  return {
    keyAt(accountIndex) {
      assertAccountIndex(accountIndex);
      const account = coin.deriveChild(HARDENED_OFFSET + accountIndex);
      const change = account.deriveChild(0);
      const node = change.deriveChild(0);
      account.wipePrivateData();
      change.wipePrivateData();
      if (!node.privateKey || !node.publicKey) throw new WalletError('INTERNAL', 'BIP32 derivation returned no key');
      const keys = { privateKey: Uint8Array.from(node.privateKey), publicKey: Uint8Array.from(node.publicKey) };
      node.wipePrivateData();
      return keys;
    },
    wipe: () => void coin.wipePrivateData(),
  };
}
