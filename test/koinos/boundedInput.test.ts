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
