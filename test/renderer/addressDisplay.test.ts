// The address display of reviews and receipts: groups that join back to the address, marked ends for the recipient,
// and the addresses of a summary sentence found (checksum checked) with the recipient told apart.
import { describe, expect, it } from 'vitest';
import { KNOWN_TOKEN_CONTRACTS } from '../../src-main/koinos/knownContracts.ts';
import { addressGroups, summaryParts } from '../../src-renderer/lib/addressDisplay.ts';

const [a, b] = KNOWN_TOKEN_CONTRACTS.map((c) => c.address);
const join = (groups: ReturnType<typeof addressGroups>) => groups.map((g) => g.map((r) => r.text).join('')).join('');

describe('addressGroups', () => {
  it('cuts an address into groups of four that join back to it, the last one shorter', () => {
    const groups = addressGroups(a!);
    expect(join(groups)).toBe(a);
    expect(groups.map((g) => g.map((r) => r.text).join('').length)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 2]);
    expect(groups.flat().every((r) => !r.emphasis)).toBe(true);
  });

  it('marks the first and last four characters when emphasised, across group borders', () => {
    const groups = addressGroups(a!, { emphasis: true, size: 5 });
    expect(join(groups)).toBe(a);
    const marked = groups
      .flat()
      .filter((r) => r.emphasis)
      .map((r) => r.text);
    expect(marked).toEqual([a!.slice(0, 4), a!.slice(-4)]);
    expect(groups[0]).toEqual([
      { text: a!.slice(0, 4), emphasis: true },
      { text: a!.slice(4, 5), emphasis: false },
    ]);
    // A text shorter than both ends is marked whole, never twice.
    expect(join(addressGroups('1Ab', { emphasis: true }))).toBe('1Ab');
  });
});

describe('summaryParts', () => {
  it('finds the addresses of a transfer sentence and tells the recipient', () => {
    expect(summaryParts(`Transfer 1.5 KOIN from ${a} to ${b}`)).toEqual([
      { text: 'Transfer 1.5 KOIN from ' },
      { address: a, recipient: false },
      { text: ' to ' },
      { address: b, recipient: true },
    ]);
  });

  it('leaves text that only looks like an address, and a sentence without any', () => {
    const mistyped = `${a!.slice(0, -1)}${a!.endsWith('a') ? 'b' : 'a'}`;
    expect(summaryParts(`Call approve on ${mistyped}`)).toEqual([{ text: `Call approve on ${mistyped}` }]);
    expect(summaryParts('A set system call operation')).toEqual([{ text: 'A set system call operation' }]);
    expect(summaryParts(`${a}`)).toEqual([{ address: a, recipient: false }]);
  });
});
