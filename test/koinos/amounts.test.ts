// Amount parsing and formatting: the accepted spellings, the message for each rejected one, the uint64 boundary,
// round trips, and agreement with koilib's formatUnits (which the REST API uses for balances).
import { describe, expect, it } from 'vitest';
import { utils as koilibUtils } from 'koilib';
import { KOIN_DECIMALS, UINT64_MAX, formatAmount, parseAmount } from '../../src-main/koinos/amounts.ts';
import { vector } from '../vectors.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';

describe('parseAmount', () => {
  const valid: Array<[text: string, units: bigint, decimals?: number]> = [
    ['1', 100000000n],
    ['1.5', 150000000n],
    ['0.5', 50000000n],
    ['1.50000000', 150000000n],
    ['0.00000001', 1n],
    ['001.10', 110000000n],
    ['0', 0n],
    ['0.0', 0n],
    [' 1.5\n', 150000000n],
    ['1501.13019176', 150113019176n],
    ['184467440737.09551615', UINT64_MAX],
    ['18446744073709551615', UINT64_MAX, 0],
    ['42', 42n, 0],
    ['1.23', 123n, 2],
  ];
  for (const [text, units, decimals] of valid) {
    it(`reads ${JSON.stringify(text)} with ${decimals ?? 8} decimals as ${units}`, () => {
      expect(parseAmount(text, decimals)).toBe(units);
    });
  }

  const invalid: Array<[input: unknown, message: string | RegExp, decimals?: number]> = [
    ['', 'expected an amount such as "1.5", got an empty string'],
    ['   ', 'expected an amount such as "1.5", got only whitespace'],
    ['-1', 'expected an amount without a sign, got "-1"'],
    ['+1', 'expected an amount without a sign, got "+1"'],
    ['1e8', 'expected a plain decimal amount, got "1e8" with an exponent'],
    ['1.5E-3', 'expected a plain decimal amount, got "1.5E-3" with an exponent'],
    ['0.000000001', 'expected at most 8 decimal places, got 9 in "0.000000001"'],
    ['1.500000000', 'expected at most 8 decimal places, got 9 in "1.500000000"'],
    ['1.5', 'expected at most 0 decimal places, got 1 in "1.5"', 0],
    ['1.55', 'expected at most 1 decimal place, got 2 in "1.55"', 1],
    ['.', 'expected digits on both sides of ".", got "."'],
    ['1.', 'expected digits on both sides of ".", got "1."'],
    ['.5', 'expected digits on both sides of ".", got ".5"'],
    ['1.2.3', 'expected at most one ".", got 2 in "1.2.3"'],
    ['1,5', 'expected only digits and one ".", got "," in "1,5"'],
    ['1 000', 'expected only digits and one ".", got " " in "1 000"'],
    ['abc', 'expected only digits and one ".", got "a" in "abc"'],
    ['0x10', 'expected only digits and one ".", got "x" in "0x10"'],
    ['１', 'expected only digits and one ".", got "１" in "１"'],
    ['184467440737.09551616', 'expected an amount of at most 184467440737.09551615, got "184467440737.09551616"'],
    ['99999999999999999999', /^expected an amount of at most 184467440737\.09551615, got/],
    [1.5, 'expected an amount as a decimal string such as "1.5", got number 1.5'],
    [150000000n, 'expected an amount as a decimal string such as "1.5", got 150000000n'],
    [null, 'expected an amount as a decimal string such as "1.5", got null'],
  ];
  for (const [input, message, decimals] of invalid) {
    it(`rejects ${typeof input === 'string' ? JSON.stringify(input) : String(input)} saying what was expected`, () => {
      const error = expectWalletError(() => parseAmount(input as string, decimals));
      expect(error.code).toBe('INVALID_AMOUNT');
      if (typeof message === 'string') expect(error.shortMessage).toBe(message);
      else expect(error.shortMessage).toMatch(message);
    });
  }

  it('explains the decimal separator when a comma is used', () => {
    expect(expectWalletError(() => parseAmount('1,5')).metaMessages.join(' ')).toMatch(/"\." as the decimal separator/);
  });

  it('rejects a number of decimals that is not an integer from 0 to 255', () => {
    for (const decimals of [-1, 1.5, 256])
      expect(expectWalletError(() => parseAmount('1', decimals)).code).toBe('INVALID_ARGUMENT');
  });

  it('reads the amount of the koinos-cli offline transfer (docs-cli-offline-tx) as its on-chain value', () => {
    const match = /(\S+) \(=> value (\d+)\)$/.exec(vector('docs-cli-offline-tx').cli_command);
    expect(match).not.toBeNull();
    expect(parseAmount(match![1]!)).toBe(BigInt(match![2]!));
  });
});

describe('formatAmount', () => {
  const cases: Array<[units: bigint, trimmed: string, full: string, decimals?: number]> = [
    [0n, '0', '0.00000000'],
    [1n, '0.00000001', '0.00000001'],
    [50000000n, '0.5', '0.50000000'],
    [100000000n, '1', '1.00000000'],
    [150000000n, '1.5', '1.50000000'],
    [1000000000n, '10', '10.00000000'],
    [150113019176n, '1501.13019176', '1501.13019176'],
    [UINT64_MAX, '184467440737.09551615', '184467440737.09551615'],
    [2n ** 70n, '11805916207174.11303424', '11805916207174.11303424'],
    [5n, '5', '5', 0],
    [120n, '1.2', '1.20', 2],
  ];
  for (const [units, trimmed, full, decimals] of cases) {
    it(`writes ${units} with ${decimals ?? 8} decimals as ${trimmed} (or ${full} untrimmed)`, () => {
      expect(formatAmount(units, decimals)).toBe(trimmed);
      expect(formatAmount(units, decimals, { trim: false })).toBe(full);
    });
  }

  it('rejects a negative amount and a value that is not a bigint', () => {
    const negative = expectWalletError(() => formatAmount(-1n));
    expect(negative.code).toBe('INVALID_AMOUNT');
    expect(negative.shortMessage).toBe('expected a non-negative amount, got -1n');
    expect(expectWalletError(() => formatAmount(5 as unknown as bigint)).shortMessage).toBe(
      'expected an amount in base units as a bigint, got number 5',
    );
    expect(expectWalletError(() => formatAmount(1n, -1)).code).toBe('INVALID_ARGUMENT');
  });

  it('writes what koilib formatUnits writes (the REST API balance form)', () => {
    for (const [units] of cases.filter(([, , , decimals]) => decimals === undefined)) {
      expect(formatAmount(units)).toBe(koilibUtils.formatUnits(units, KOIN_DECIMALS));
    }
  });
});

describe('round trips', () => {
  const samples = [
    0n,
    1n,
    9n,
    10n,
    99999999n,
    100000000n,
    100000001n,
    123456789012345678n,
    UINT64_MAX - 1n,
    UINT64_MAX,
  ];
  // A fixed pseudo-random walk over the uint64 range, so failures reproduce.
  let x = 0x9e3779b97f4a7c15n;
  for (let i = 0; i < 200; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & UINT64_MAX;
    samples.push(x >> BigInt(i % 64));
  }

  it('parses back every formatted amount, trimmed or not', () => {
    for (const units of samples) {
      expect(parseAmount(formatAmount(units))).toBe(units);
      expect(parseAmount(formatAmount(units, 8, { trim: false }))).toBe(units);
      expect(parseAmount(formatAmount(units, 0), 0)).toBe(units);
    }
  });

  it('formats parsed text in its canonical spelling', () => {
    expect(formatAmount(parseAmount('001.10'))).toBe('1.1');
    expect(formatAmount(parseAmount('1.50000000'), 8, { trim: false })).toBe('1.50000000');
    expect(formatAmount(parseAmount('184467440737.09551615'))).toBe('184467440737.09551615');
  });
});
