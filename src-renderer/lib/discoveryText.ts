// The sentence account discovery ends with: the accounts it added and up to where it looked, or that it found none on
// the network and how to look on another.
import type { AccountDiscovery } from '../../src-main/ipc/contract.ts';

/** How to look on another network, from the screen that looked: the Accounts screen, or the first run's step. */
const ELSEWHERE = {
  accounts: 'To look on another network, select it, then Find used accounts under Next account of a phrase.',
  firstRun: 'To look on another network, choose it and look again.',
} as const;

/**
 * One line for the discovery's status, said on the Accounts screen (default) or in the first run.
 * @example
 * discoveryText({ networkName: 'Mainnet', added: [a2, a3], checkedFrom: 1, checkedThrough: 7 });
 * // 'Added Account 2 and Account 3, the accounts of this phrase up to the last one used on Mainnet (indexes 1 to 7 looked at).'
 */
export function discoveryText(discovery: AccountDiscovery, on: keyof typeof ELSEWHERE = 'accounts'): string {
  const { networkName, added, checkedFrom, checkedThrough } = discovery;
  // Past the last index discovery looks at (100), nothing is looked at.
  if (checkedThrough < checkedFrom)
    return `This phrase has accounts up to index ${checkedFrom - 1}: Find used accounts looks no further. Add more with Add next account.`;
  const looked =
    checkedFrom === checkedThrough ? `index ${checkedFrom}` : `indexes ${checkedFrom} to ${checkedThrough}`;
  if (added.length === 0)
    return `No other account of this phrase was used on ${networkName} (${looked} looked at). ${ELSEWHERE[on]}`;
  const names = added.map((a) => a.name);
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const what = added.length === 1 ? 'the account' : 'the accounts';
  return `Added ${listed}, ${what} of this phrase up to the last one used on ${networkName} (${looked} looked at).`;
}
