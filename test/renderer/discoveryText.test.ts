import { describe, expect, it } from 'vitest';
import type { AccountInfo } from '../../src-main/ipc/contract.ts';
import { discoveryText } from '../../src-renderer/lib/discoveryText.ts';

const account = (index: number): AccountInfo => ({
  id: `acc-${index}`,
  name: `Account ${index + 1}`,
  address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
  kind: 'phrase',
  phraseId: 'phrase-1',
  derivationIndex: index,
});

describe('discoveryText', () => {
  it('names the accounts added and where it looked, or says none was used on the network and how to look elsewhere', () => {
    expect(
      discoveryText({ networkName: 'Mainnet', added: [1, 2, 3].map(account), checkedFrom: 1, checkedThrough: 8 }),
    ).toBe(
      'Added Account 2, Account 3 and Account 4, the accounts of this phrase up to the last one used on Mainnet (indexes 1 to 8 looked at).',
    );
    expect(discoveryText({ networkName: 'Mainnet', added: [account(1)], checkedFrom: 1, checkedThrough: 6 })).toBe(
      'Added Account 2, the account of this phrase up to the last one used on Mainnet (indexes 1 to 6 looked at).',
    );
    expect(discoveryText({ networkName: 'Local (devnet)', added: [], checkedFrom: 1, checkedThrough: 5 })).toBe(
      'No other account of this phrase was used on Local (devnet) (indexes 1 to 5 looked at). To look on another network, select it, then Find used accounts under Next account of a phrase.',
    );
    // The first run chooses the network on its own step.
    expect(discoveryText({ networkName: 'Mainnet', added: [], checkedFrom: 1, checkedThrough: 5 }, 'firstRun')).toBe(
      'No other account of this phrase was used on Mainnet (indexes 1 to 5 looked at). To look on another network, choose it and look again.',
    );
    expect(discoveryText({ networkName: 'Harbinger', added: [], checkedFrom: 100, checkedThrough: 100 })).toContain(
      '(index 100 looked at)',
    );
    expect(discoveryText({ networkName: 'Harbinger', added: [], checkedFrom: 101, checkedThrough: 100 })).toBe(
      'This phrase has accounts up to index 100: Find used accounts looks no further. Add more with Add next account.',
    );
  });
});
