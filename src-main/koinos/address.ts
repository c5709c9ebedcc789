// Koinos addresses: the 25-byte form, its base58 text, and the checks every address read from text must pass
// (protocol spec §1.4, §3.7). Pure and key-free: the renderer may import it (keys.ts, with secp256k1, may not).
import {
  assertBytes,
  bytesKey,
  concatBytes,
  equalBytes,
  firstNonBase58,
  fromBase58,
  hexByte,
  remember,
  toBase58,
  toHex,
} from './bytes.ts';
import { WalletError, describe } from './errors.ts';
import { ripemd160, sha256 } from './hash.ts';

/** Version byte of every Koinos address (crypto-cpp `to_address_bytes` default prefix). */
export const ADDRESS_VERSION = 0x00;
/** Length of an address in bytes: version (1) + RIPEMD160 (20) + checksum (4). */
export const ADDRESS_LENGTH = 25;
/**
 * The longest base58 text of 25 bytes (35 characters; a valid address, which starts with a zero byte, has at most
 * 34). Longer text is refused before decoding: base58 decoding costs the square of the length.
 */
export const MAX_ADDRESS_TEXT_LENGTH = 35;

/**
 * The 4-byte check of base58check (address and WIF): the first 4 bytes of sha256(sha256(body)).
 * @example
 * checksum4(address.subarray(0, 21)); // equals address.subarray(21)
 */
export function checksum4(body: Uint8Array): Uint8Array {
  return sha256(sha256(body)).subarray(0, 4);
}

/**
 * Addresses of recent public keys. The same few keys sign over and over (a devnet's contract checks each signer's
 * address in every check_authority; three hashes in JavaScript, ~11 µs), and a key's address never changes.
 */
const ADDRESSES_OF_KEYS = new Map<string, Uint8Array>();
const ADDRESSES_OF_KEYS_MAX = 10_000;

/**
 * The 25-byte address of a public key: `0x00 || RIPEMD160(SHA256(key)) || checksum4`.
 * Koinos derives addresses from the 33-byte compressed key; a 65-byte key gives a different address that no
 * node checks signatures against.
 * @throws WalletError INVALID_ARGUMENT unless the key is 33 bytes starting 02/03 or 65 bytes starting 04.
 * @example
 * addressToString(addressFromPublicKey(publicKey)); // '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'
 */
export function addressFromPublicKey(publicKey: Uint8Array): Uint8Array {
  if (!(publicKey instanceof Uint8Array)) {
    throw new WalletError('INVALID_ARGUMENT', `expected a public key as a Uint8Array, got ${describe(publicKey)}`);
  }
  const prefix = publicKey[0];
  const wellFormed =
    (publicKey.length === 33 && (prefix === 0x02 || prefix === 0x03)) || (publicKey.length === 65 && prefix === 0x04);
  if (!wellFormed) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected a public key of 33 bytes starting 02 or 03 (or 65 bytes starting 04), got ${publicKey.length} bytes` +
        (publicKey.length > 0 ? ` starting ${toHex(publicKey.subarray(0, 1))}` : ''),
    );
  }
  const key = bytesKey(publicKey);
  const known = ADDRESSES_OF_KEYS.get(key);
  if (known) return known.slice();
  const address = addressFromHash160(ripemd160(sha256(publicKey)));
  remember(ADDRESSES_OF_KEYS, key, address, ADDRESSES_OF_KEYS_MAX);
  return address.slice();
}

/**
 * The 25-byte address around a 20-byte RIPEMD160(SHA256(...)) hash: version 0x00, the hash, a 4-byte checksum.
 * addressFromPublicKey uses it; so does the devnet for built-in contracts, whose hash is of a label, not a key.
 * @throws WalletError INVALID_BYTES unless `hash` is 20 bytes.
 * @example
 * addressToString(addressFromHash160(ripemd160(sha256(publicKey)))) // same as addressFromPublicKey
 */
export function addressFromHash160(hash: Uint8Array): Uint8Array {
  assertBytes(hash, 20, 'a RIPEMD160 hash');
  const body = new Uint8Array(21);
  body[0] = ADDRESS_VERSION;
  body.set(hash, 1);
  return concatBytes(body, checksum4(body));
}

/**
 * The text form (base58) of a 25-byte address.
 * @throws WalletError INVALID_ADDRESS unless `address` is 25 bytes.
 * @example
 * addressToString(addressFromString('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs')); // '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'
 */
export function addressToString(address: Uint8Array): string {
  if (!(address instanceof Uint8Array)) {
    throw new WalletError('INVALID_ADDRESS', `expected an address as a Uint8Array, got ${describe(address)}`);
  }
  if (address.length !== ADDRESS_LENGTH) {
    throw new WalletError('INVALID_ADDRESS', `expected an address of ${ADDRESS_LENGTH} bytes, got ${address.length}`);
  }
  return toBase58(address);
}

/**
 * Checks 25 address bytes as the node and koilib do: length, version byte 0x00 and the checksum.
 * For bytes that came from somewhere other than base58 text (a decoded operation, a protobuf field).
 * @throws WalletError INVALID_ADDRESS naming what is wrong (the length, the version byte or the checksum).
 * @example
 * assertAddressBytes(addressFromPublicKey(publicKey)); // passes
 */
export function assertAddressBytes(bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array)) {
    throw new WalletError('INVALID_ADDRESS', `expected an address as a Uint8Array, got ${describe(bytes)}`);
  }
  if (bytes.length !== ADDRESS_LENGTH) {
    throw new WalletError('INVALID_ADDRESS', `expected an address of ${ADDRESS_LENGTH} bytes, got ${bytes.length}`, {
      metaMessages: ['A Koinos address is 25 to 34 characters starting with "1".'],
    });
  }
  if (bytes[0] !== ADDRESS_VERSION) {
    throw new WalletError('INVALID_ADDRESS', `expected the address version byte 0x00, got ${hexByte(bytes[0]!)}`, {
      metaMessages: ['A Koinos address starts with "1".'],
    });
  }
  const expected = checksum4(bytes.subarray(0, 21));
  const found = bytes.subarray(21);
  if (!equalBytes(expected, found)) {
    throw new WalletError(
      'INVALID_ADDRESS',
      `the address checksum does not match: a character is mistyped (expected checksum ${toHex(expected)}, got ${toHex(found)})`,
      { metaMessages: ['Copy the address again from its source.'] },
    );
  }
}

/** How many checked addresses addressFromString remembers; it forgets them all when full. */
const CHECKED_ADDRESSES_SIZE = 4096;
/**
 * Addresses that passed every check, text to bytes: decoding a page of history or a block meets the same few addresses
 * again and again, and each check is two SHA-256 rounds. Only valid addresses go in, so errors are found as before.
 */
const checkedAddresses = new Map<string, Uint8Array>();

/**
 * Parses and checks a base58 address: at most 35 characters, base58 alphabet, 25 bytes, version byte 0x00, and a
 * checksum that matches.
 * @throws WalletError INVALID_ADDRESS naming what is wrong (the length of the text, a non-base58 character, the
 *   number of bytes, the version byte or the checksum).
 * @example
 * addressFromString('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'); // Uint8Array(25) [0, 167, …]
 * addressFromString('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cS'); // throws "the address checksum does not match: …"
 */
export function addressFromString(text: string): Uint8Array {
  if (typeof text !== 'string' || text.length === 0) {
    throw new WalletError('INVALID_ADDRESS', `expected an address as base58 text, got ${describe(text)}`);
  }
  const checked = checkedAddresses.get(text);
  // A copy: the caller may change the bytes it gets.
  if (checked) return checked.slice();
  if (text.length > MAX_ADDRESS_TEXT_LENGTH) {
    throw new WalletError(
      'INVALID_ADDRESS',
      `expected an address of at most ${MAX_ADDRESS_TEXT_LENGTH} characters, got ${text.length} characters`,
      { metaMessages: ['A Koinos address is 25 to 34 characters starting with "1".'] },
    );
  }
  const bad = firstNonBase58(text);
  if (bad >= 0) {
    throw new WalletError(
      'INVALID_ADDRESS',
      `expected an address in base58, got ${JSON.stringify(text[bad])} at character ${bad + 1}, which base58 does not use`,
    );
  }
  const bytes = fromBase58(text, 'an address', MAX_ADDRESS_TEXT_LENGTH);
  assertAddressBytes(bytes);
  if (checkedAddresses.size >= CHECKED_ADDRESSES_SIZE) checkedAddresses.clear();
  checkedAddresses.set(text, bytes.slice());
  return bytes;
}

/**
 * Whether `text` is a well-formed Koinos address (base58, 25 bytes, version 0x00, checksum).
 * @example
 * isAddress('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'); // true
 * isAddress('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cS'); // false
 */
export function isAddress(text: unknown): boolean {
  try {
    addressFromString(text as string);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when two addresses differ yet begin and end alike, as one made to pass for the other does (address poisoning: an
 * address whose first and last characters match one the person uses sends a small transfer, so that it shows in the
 * history to be copied from there). After the leading 1, both ends match over 2 characters at least and 5 in all; two
 * unrelated addresses do so about once in 300 million pairs.
 * @example
 * looksLike('1CVf2N57Ys641tvmppmqKBy5R7AZ1nUwC', '1CVfXr8c2hKq9TmPq4n7Bz3wYv6Gd1nUwC'); // true
 */
export function looksLike(a: string, b: string): boolean {
  if (a === b) return false;
  let start = 1;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const leading = start - 1;
  return leading >= 2 && end >= 2 && leading + end >= 5;
}

/**
 * The first of `known` whose address `address` looks like ({@link looksLike}) without being any of them; undefined when
 * `address` is one of them or looks like none.
 * @example
 * lookalikeAmong([{ address: dana, label: 'your contact Dana' }], poisoner); // { address: dana, label: … }
 */
export function lookalikeAmong<T extends { address: string }>(known: readonly T[], address: string): T | undefined {
  if (known.some((k) => k.address === address)) return undefined;
  return known.find((k) => looksLike(k.address, address));
}
