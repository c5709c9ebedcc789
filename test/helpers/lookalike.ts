// An address that begins and ends like another, made the way an address-poisoning attacker makes one: a valid address
// (its checksum right) whose hash differs in the middle, tried until its last characters match. Nobody holds its key;
// the tests only review sends to it.
import { addressFromHash160, addressFromString, addressToString } from '../../src-main/koinos/address.ts';

/**
 * A valid address other than `address` with the same first dozen characters and the same last two.
 * @example
 * lookalikeAddress('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'); // '1GE2JqXw5LMQaU…cs', another address
 */
export function lookalikeAddress(address: string): string {
  const hash = addressFromString(address).slice(1, 21);
  // The hash's bytes 9 and 10 change only the lower half of the base58 digits, and the checksum the last ones.
  for (let i = 1; i < 65_536; i++) {
    const changed = hash.slice();
    changed[9]! ^= i >> 8;
    changed[10]! ^= i & 0xff;
    const text = addressToString(addressFromHash160(changed));
    if (text.slice(-2) === address.slice(-2)) return text;
  }
  throw new Error(`no address ending like ${address} found in 65,535 tries`);
}
