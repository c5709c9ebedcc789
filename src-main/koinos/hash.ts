// Hashes the protocol uses, and the multihash wrapper every Koinos id and root carries (`12 20` + sha256).
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js';
import { WalletError } from './errors.ts';

/** Multihash code of sha2-256, the only hash Koinos uses for ids and roots. */
const SHA256_CODE = 0x12;

export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}

export function ripemd160(data: Uint8Array): Uint8Array {
  return nobleRipemd160(data);
}

/** `12 20 || digest`: the binary multihash of a sha256 digest. */
export function multihashSha256(digest: Uint8Array): Uint8Array {
  if (digest.length !== 32)
    throw new WalletError('INVALID_BYTES', `expected a 32-byte sha256 digest, got ${digest.length} bytes`);
  const out = new Uint8Array(34);
  out[0] = SHA256_CODE;
  out[1] = 32;
  out.set(digest, 2);
  return out;
}

/**
 * The digest inside a sha256 multihash.
 * @throws WalletError INVALID_BYTES unless the bytes are `12 20` followed by 32 bytes.
 */
export function digestOfMultihash(multihash: Uint8Array, what = 'multihash'): Uint8Array {
  if (multihash.length !== 34 || multihash[0] !== SHA256_CODE || multihash[1] !== 32) {
    const head = Array.from(multihash.slice(0, 2), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new WalletError(
      'INVALID_BYTES',
      `expected ${what} as a sha2-256 multihash (34 bytes starting 12 20), got ${multihash.length} bytes starting ${head || '(nothing)'}`,
    );
  }
  return multihash.subarray(2);
}
