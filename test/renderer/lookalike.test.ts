// What a history's counterparty poses as: the first known address it begins and ends like without being it.
import { describe, expect, it } from 'vitest';
import { posesAs } from '../../src-renderer/lib/lookalike.ts';
import { lookalikeAddress } from '../helpers/lookalike.ts';

const CAROL = '1DFF1akeStY8SfomzFsSYsZPesQcbnF1vR';
const BOB = '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs';

describe('posesAs', () => {
  const known = [
    { address: BOB, name: 'your account “Main”' },
    { address: CAROL, name: 'your contact “Carol”' },
  ];

  it('names the known address a look-alike poses as, the first one it looks like', () => {
    expect(posesAs(lookalikeAddress(CAROL), known)).toBe('your contact “Carol”');
    expect(posesAs(lookalikeAddress(BOB), known)).toBe('your account “Main”');
  });

  it('names nothing for a known address itself, or one that looks like none', () => {
    expect(posesAs(CAROL, known)).toBeUndefined();
    // A look-alike saved as a contact is known: it is named as itself, not as what it looks like.
    const saved = lookalikeAddress(CAROL);
    expect(posesAs(saved, [...known, { address: saved, name: 'your contact “Dana”' }])).toBeUndefined();
    expect(posesAs('1KD9Es7LBBjA1FY3ViCgQJ7e6WH1ipKbhz', known)).toBeUndefined();
    expect(posesAs(lookalikeAddress(CAROL), [])).toBeUndefined();
  });
});
