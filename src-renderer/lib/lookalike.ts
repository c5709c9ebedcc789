// Addresses made to look like one the person knows (address poisoning): an attacker whose address begins and ends like
// one of the person's accounts, contacts or recipients sends a small transfer, so that the history shows that address
// to be copied. The history names what such an address poses as.
import { lookalikeAmong } from '../../src-main/koinos/address.ts';

/** An address the person knows, and how a screen names it ("your contact “Carol”"). */
export interface KnownAddress {
  address: string;
  name: string;
}

/**
 * How the first of `known` that `address` begins and ends like without being it is named; undefined when there is none
 * or `address` is itself one of them.
 * @example
 * posesAs(poisoner, [{ address: carol, name: 'your contact “Carol”' }]); // 'your contact “Carol”'
 */
export function posesAs(address: string, known: readonly KnownAddress[]): string | undefined {
  return lookalikeAmong(known, address)?.name;
}
