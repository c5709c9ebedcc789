// The addresses of the devnet's own built-in contracts: derived from labels, so that no private key controls them.
// Kept apart from genesis.ts so that the contract registry and the shapes can use them without an import cycle.
import { utf8ToBytes } from '../../koinos/bytes.ts';
import { ripemd160, sha256 } from '../../koinos/hash.ts';
import { addressFromHash160 } from '../../koinos/address.ts';

/**
 * A 25-byte address that no private key controls: version 0, RIPEMD160(SHA256(label)), checksum. Used for the
 * built-in contracts, which have no upload key on the devnet.
 */
export function labelAddress(label: string): Uint8Array {
  return addressFromHash160(ripemd160(sha256(utf8ToBytes(label))));
}

/**
 * KOIN's address on a plain devnet (independent of the seed), resolvable as the system name "koin", and the zone
 * its balances are kept in wherever a network shape places KOIN. Derived from the label `koinos-devnet/koin`.
 */
export const KOIN_ADDRESS = labelAddress('koinos-devnet/koin');
