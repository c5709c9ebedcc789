// Input whose cost would grow faster than its length is refused before the expensive step: JSON nesting (measured in
// one pass before JSON.parse), decimal amounts (before BigInt), transactions nested too deeply for the CLI.
import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../src-main/koinos/amounts.ts';
import { MAX_JSON_DEPTH, jsonDepth } from '../../src-main/koinos/jsonDepth.ts';
import { parseTransactionText } from '../../src-main/koinos/transactionText.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';

describe('jsonDepth', () => {
  it('counts nesting of objects and arrays, not brackets inside strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":"[[{{"}]}')).toBe(3);
    expect(jsonDepth('["\\"[[["]')).toBe(1);
  });

  it('ends a string at the first quote after an even run of backslashes, as a character-at-a-time reading does', () => {
    // The reading jsonDepth replaced: every character in turn, a backslash in a string skipping the next.
    const reference = (text: string): number => {
      let depth = 0;
      let deepest = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
          if (c === '\\') i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
        else if (c === '}' || c === ']') depth--;
      }
      return deepest;
    };
    expect(jsonDepth('["\\\\"[[]]')).toBe(3);
    expect(jsonDepth('["\\\\\\"[[]]"]')).toBe(1);
    // Texts of the characters that matter, in every mix (a fixed pseudo-random sequence, so a failure repeats).
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16;
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: next() % 40 }, () => '[]{}"\\a'[next() % 7]).join('');
      expect(jsonDepth(text), JSON.stringify(text)).toBe(reference(text));
    }
  });

  it('stops counting past the limit, so a megabyte of brackets costs one short scan', () => {
    expect(jsonDepth('['.repeat(1_000_000), 64)).toBe(65);
    expect(jsonDepth('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(MAX_JSON_DEPTH);
  });

  it('makes the CLI refuse a transaction nested deeper than any is', () => {
    const deep = `{"header":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(expectWalletError(() => parseTransactionText(deep), 'INVALID_TRANSACTION').shortMessage).toMatch(
      /JSON nested more than 64 levels deep, which no transaction is$/,
    );
  });
});

describe('parseAmount', () => {
  it('refuses more whole digits than any uint64 amount has, before reading them', () => {
    expect(expectWalletError(() => parseAmount('9'.repeat(1_000_000)), 'INVALID_AMOUNT').shortMessage).toBe(
      'expected an amount of at most 184467440737.09551615, got 1000000 whole digits',
    );
    expect(parseAmount(`${'0'.repeat(1000)}1.5`)).toBe(150_000_000n); // leading zeros are not significant
  });
});
