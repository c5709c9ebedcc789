// How an address reads where the user decides (a review, a receipt): in full, cut into groups of a few characters
// so that it can be compared group by group, its first and last characters marked; and the addresses inside a
// review's summary sentence found, so that each is shown that way too.
import { isAddress } from '../../src-main/koinos/address.ts';

/** Characters per group: four reads at a glance, as card numbers and IBANs do. */
const ADDRESS_GROUP_SIZE = 4;
/** How many characters at each end are marked when an address is emphasised: the ones people compare. */
const ADDRESS_EMPHASIS = 4;

/** One run of characters inside a group, marked or not. */
export interface AddressRun {
  text: string;
  emphasis: boolean;
}

/**
 * `address` cut into groups of `size` characters from its start (the last group may be shorter), each group as runs
 * of marked and unmarked characters: with `emphasis`, the first and last `ends` characters are marked. Joining every
 * run's text gives the address back unchanged.
 * @example
 * addressGroups('1AbcdEfgh', { emphasis: true, ends: 2 });
 * // [[{ text: '1A', emphasis: true }, { text: 'bc', emphasis: false }], [{ text: 'dEfg', emphasis: false }], [{ text: 'h', emphasis: true }]]
 */
export function addressGroups(
  address: string,
  options: { size?: number; emphasis?: boolean; ends?: number } = {},
): AddressRun[][] {
  const size = Math.max(1, options.size ?? ADDRESS_GROUP_SIZE);
  const ends = options.emphasis ? Math.min(options.ends ?? ADDRESS_EMPHASIS, Math.floor(address.length / 2)) : 0;
  const marked = (i: number) => i < ends || i >= address.length - ends;
  const groups: AddressRun[][] = [];
  for (let start = 0; start < address.length; start += size) {
    const runs: AddressRun[] = [];
    for (let i = start; i < Math.min(start + size, address.length); i++) {
      const emphasis = marked(i);
      const last = runs[runs.length - 1];
      if (last && last.emphasis === emphasis) last.text += address[i];
      else runs.push({ text: address[i]!, emphasis });
    }
    groups.push(runs);
  }
  return groups;
}

/** A piece of a summary sentence: plain text, or an address (with `recipient` when the sentence sends to it). */
export type SummaryPart = { text: string } | { address: string; recipient: boolean };

const ADDRESS_LIKE = /1[1-9A-HJ-NP-Za-km-z]{25,34}/g;

/**
 * A review's summary sentence ("Transfer 1.5 KOIN from 1Abc… to 1Def…") split into text and the valid addresses in
 * it (checksum checked, so a number is never taken for one). An address right after "to " is the recipient.
 * @example
 * summaryParts(`Transfer 1 KOIN from ${a} to ${b}`);
 * // [{ text: 'Transfer 1 KOIN from ' }, { address: a, recipient: false }, { text: ' to ' }, { address: b, recipient: true }]
 */
export function summaryParts(summary: string): SummaryPart[] {
  const parts: SummaryPart[] = [];
  let at = 0;
  for (const match of summary.matchAll(ADDRESS_LIKE)) {
    const index = match.index;
    const before = summary[index - 1];
    const after = summary[index + match[0].length];
    // Part of a longer base58 word is not an address on its own.
    if (
      (before !== undefined && /[1-9A-HJ-NP-Za-km-z]/.test(before)) ||
      (after !== undefined && /[1-9A-HJ-NP-Za-km-z]/.test(after))
    )
      continue;
    if (!isAddress(match[0])) continue;
    if (index > at) parts.push({ text: summary.slice(at, index) });
    parts.push({ address: match[0], recipient: /(?:^|\s)to $/.test(summary.slice(0, index)) });
    at = index + match[0].length;
  }
  if (at < summary.length) parts.push({ text: summary.slice(at) });
  return parts;
}
