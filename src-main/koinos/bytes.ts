// Byte helpers shared by the protocol library: hex, base64 (both alphabets), base58, concat, compare.
// The JSON renderings of the Koinos gateway depend on these exact alphabets and paddings.
import bs58 from 'bs58';
import { WalletError, describe } from './errors.ts';

const HEX_CHARS = '0123456789abcdef';
const HEX_CODES = Array.from(HEX_CHARS, (c) => c.charCodeAt(0));
const HEX_VALUE = new Uint8Array(128);
for (let i = 0; i < 16; i++) {
  HEX_VALUE[HEX_CHARS.charCodeAt(i)] = i;
  HEX_VALUE[HEX_CHARS.toUpperCase().charCodeAt(i)] = i;
}

/** Throws unless `value` is a Uint8Array (of `length`, when given). */
export function assertBytes(value: unknown, length?: number, what = 'bytes'): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new WalletError('INVALID_BYTES', `expected ${what} as a Uint8Array, got ${describe(value)}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new WalletError('INVALID_BYTES', `expected ${what} of length ${length}, got ${value.length}`);
  }
}

/** One byte as `0x` and two hex digits, for messages ("version byte 0x05"). */
export function hexByte(value: number): string {
  return '0x' + value.toString(16).padStart(2, '0');
}

/** Lowercase hex, no prefix. */
export function toHex(bytes: Uint8Array): string {
  const codes = new Array<number>(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    codes[2 * i] = HEX_CODES[bytes[i]! >> 4]!;
    codes[2 * i + 1] = HEX_CODES[bytes[i]! & 15]!;
  }
  return textOfCodes(codes);
}

/** Character codes per String.fromCharCode call: far below any engine's limit on the number of arguments. */
const CODES_PER_CALL = 8192;

/**
 * The text of character codes. Hex and base64 are written as codes and made a string once: appending each character
 * to a string made a string object per character (a good part of what the devnet's JSON answers allocated).
 */
function textOfCodes(codes: number[]): string {
  if (codes.length <= CODES_PER_CALL) return String.fromCharCode.apply(null, codes);
  const parts: string[] = [];
  for (let at = 0; at < codes.length; at += CODES_PER_CALL) {
    parts.push(String.fromCharCode.apply(null, codes.slice(at, at + CODES_PER_CALL)));
  }
  return parts.join('');
}

/**
 * Parses hex (an optional `0x` prefix allowed unless `requirePrefix`).
 * @throws WalletError INVALID_BYTES on odd length or a non-hex character.
 */
export function fromHex(text: string, what = 'hex', requirePrefix = false): Uint8Array {
  if (typeof text !== 'string')
    throw new WalletError('INVALID_BYTES', `expected ${what} as a string, got ${describe(text)}`);
  let s = text;
  if (s.startsWith('0x') || s.startsWith('0X')) s = s.slice(2);
  else if (requirePrefix)
    throw new WalletError('INVALID_BYTES', `expected ${what} as "0x" followed by hex, got ${describe(text)}`);
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) {
    throw new WalletError('INVALID_BYTES', `expected ${what} as an even number of hex digits, got ${describe(text)}`);
  }
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++)
    out[i] = (HEX_VALUE[s.charCodeAt(i * 2)]! << 4) | HEX_VALUE[s.charCodeAt(i * 2 + 1)]!;
  return out;
}

const B64_STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  B64_DECODE[B64_STD.charCodeAt(i)] = i;
  B64_DECODE[B64_URL.charCodeAt(i)] = i;
}

const B64_URL_CODES = Array.from(B64_URL, (c) => c.charCodeAt(0));
const PAD_CODE = '='.charCodeAt(0);

function encodeBase64(bytes: Uint8Array, alphabet: readonly number[], pad: boolean): string {
  const rest = bytes.length % 3;
  const codes = new Array<number>(((bytes.length - rest) / 3) * 4 + (rest === 0 ? 0 : pad ? 4 : rest + 1));
  let j = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    codes[j++] = alphabet[n >> 18]!;
    codes[j++] = alphabet[(n >> 12) & 63]!;
    codes[j++] = alphabet[(n >> 6) & 63]!;
    codes[j++] = alphabet[n & 63]!;
  }
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    codes[j++] = alphabet[n >> 18]!;
    codes[j++] = alphabet[(n >> 12) & 63]!;
    if (rest === 2) codes[j++] = alphabet[(n >> 6) & 63]!;
    if (pad) while (j < codes.length) codes[j++] = PAD_CODE;
  }
  return textOfCodes(codes);
}

/** URL-safe base64 with `=` padding: the gateway's rendering of plain bytes (Go base64.URLEncoding). */
export function toBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes, B64_URL_CODES, true);
}

/**
 * Decodes base64 in either alphabet, with or without padding.
 * @throws WalletError INVALID_BYTES on any other character or an impossible length.
 */
export function fromBase64(text: string, what = 'base64'): Uint8Array {
  if (typeof text !== 'string')
    throw new WalletError('INVALID_BYTES', `expected ${what} as a string, got ${describe(text)}`);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end--;
  const padding = text.length - end;
  if (padding > 2 || (padding > 0 && text.length % 4 !== 0) || end % 4 === 1) {
    throw new WalletError(
      'INVALID_BYTES',
      `expected ${what} (base64), got ${describe(text)} with a length that no base64 text has`,
    );
  }
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? B64_DECODE[c]! : -1;
    if (v < 0) {
      throw new WalletError(
        'INVALID_BYTES',
        `expected ${what} (base64), got the character "${text[i]}" at position ${i}`,
      );
    }
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

// Addresses are rendered and parsed over and over (every receipt, event and history record names a few), and
// base58 is a quadratic big-number conversion: remember the recent 25-byte values both ways.
const ADDRESS_CACHE_MAX = 50_000;
const ADDRESS_TEXTS = new Map<string, string>();
const ADDRESS_BYTES = new Map<string, Uint8Array>();

/** Short bytes (an address, a public key) as the key of a cache of recent values: one character per byte. */
export function bytesKey(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

/** Keeps `value` in a cache of recent values; a cache that holds `max` already starts over. */
export function remember<V>(cache: Map<string, V>, key: string, value: V, max = ADDRESS_CACHE_MAX): void {
  if (cache.size >= max) cache.clear();
  cache.set(key, value);
}

/** Base58 (Bitcoin alphabet). */
export function toBase58(bytes: Uint8Array): string {
  if (bytes.length !== 25) return bs58.encode(bytes);
  const key = bytesKey(bytes);
  let text = ADDRESS_TEXTS.get(key);
  if (text === undefined) {
    text = bs58.encode(bytes);
    remember(ADDRESS_TEXTS, key, text);
  }
  return text;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Index of the first character outside the Bitcoin base58 alphabet, or -1 (for messages that must not echo the text). */
export function firstNonBase58(text: string): number {
  for (let i = 0; i < text.length; i++) if (!BASE58_ALPHABET.includes(text[i]!)) return i;
  return -1;
}

/**
 * The longest base58 text read anywhere: the longest the protocol uses is a compressed WIF (38 bytes, 52 characters;
 * addresses and contract ids have at most 35), and a little room lets a slightly-too-long key be named by its byte
 * count. Base58 decoding costs the square of the length, so longer text is refused unread.
 */
export const MAX_BASE58_LENGTH = 64;

/**
 * Decodes base58 (Bitcoin alphabet) of at most `maxLength` characters.
 * @throws WalletError INVALID_BYTES on longer text (before any decoding work) or a character outside the alphabet.
 * @example
 * fromBase58('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs', 'an address', 35); // Uint8Array(25)
 */
export function fromBase58(text: string, what = 'base58', maxLength = MAX_BASE58_LENGTH): Uint8Array {
  if (typeof text !== 'string' || text.length === 0) {
    throw new WalletError('INVALID_BYTES', `expected ${what} as base58 text, got ${describe(text)}`);
  }
  if (text.length > maxLength) {
    throw new WalletError(
      'INVALID_BYTES',
      `expected ${what} as base58 text of at most ${maxLength} characters, got ${text.length} characters`,
    );
  }
  const known = ADDRESS_BYTES.get(text);
  if (known) return known.slice();
  const decoded = bs58.decodeUnsafe(text);
  if (!decoded) {
    const bad = text[firstNonBase58(text)];
    throw new WalletError(
      'INVALID_BYTES',
      `expected ${what} as base58 text, got ${describe(text)} with the character "${bad}" that base58 does not use`,
    );
  }
  if (decoded.length === 25) remember(ADDRESS_BYTES, text, decoded.slice());
  return decoded;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return concatAll(parts);
}

/** Concatenation of an array of parts (no spread arguments: a block may have tens of thousands of parts). */
export function concatAll(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function utf8ToBytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** @throws WalletError INVALID_BYTES when the bytes are not valid UTF-8. */
export function bytesToUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch (cause) {
    throw new WalletError('INVALID_BYTES', `expected UTF-8 text, got ${bytes.length} bytes that are not valid UTF-8`, {
      cause,
    });
  }
}
