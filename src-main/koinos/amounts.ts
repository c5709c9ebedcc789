// Token amounts: decimal text as users and the REST API write it <-> bigint base units (KOIN has 8 decimals).
// Parsing is strict so that a typo never becomes a different amount; every rejection says what was expected.
import { WalletError, describe } from './errors.ts';

/** Decimals of KOIN (and of mana / RC, which use the same base units). */
export const KOIN_DECIMALS = 8;
/** Largest uint64: token balances and transfer values are uint64 on chain. */
export const UINT64_MAX = 2n ** 64n - 1n;

/** Options of {@link formatAmount}. */
export interface FormatAmountOptions {
  /** Drop trailing fractional zeros (and the point when nothing is left). Default true. */
  trim?: boolean;
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new WalletError('INVALID_ARGUMENT', `expected a number of decimals from 0 to 255, got ${describe(decimals)}`);
  }
}

/**
 * Parses a decimal amount into base units: `"1.5"` with 8 decimals is `150000000n`.
 * Accepts digits with at most one `.` that has digits on both sides, and at most `decimals` fractional digits;
 * surrounding whitespace is ignored, leading zeros are fine. Rejects signs, exponents, `,`, `"1."`, `".5"`, and
 * values above uint64 max.
 * @throws WalletError INVALID_AMOUNT saying what was expected and what was found; INVALID_ARGUMENT for bad `decimals`.
 * @example
 * parseAmount('1.5'); // 150000000n
 * parseAmount('0.000000001'); // throws 'expected at most 8 decimal places, got 9 in "0.000000001"'
 */
export function parseAmount(text: string, decimals: number = KOIN_DECIMALS): bigint {
  assertDecimals(decimals);
  if (typeof text !== 'string') {
    throw new WalletError(
      'INVALID_AMOUNT',
      `expected an amount as a decimal string such as "1.5", got ${describe(text)}`,
    );
  }
  const s = text.trim();
  if (s.length === 0) {
    throw new WalletError(
      'INVALID_AMOUNT',
      `expected an amount such as "1.5", got ${text.length === 0 ? 'an empty string' : 'only whitespace'}`,
    );
  }
  if (s[0] === '-' || s[0] === '+') {
    throw new WalletError('INVALID_AMOUNT', `expected an amount without a sign, got ${describe(s)}`, {
      metaMessages: s[0] === '-' ? ['Amounts cannot be negative.'] : [],
    });
  }
  if (/^[0-9.]*[0-9][eE][-+]?[0-9]+$/.test(s)) {
    throw new WalletError('INVALID_AMOUNT', `expected a plain decimal amount, got ${describe(s)} with an exponent`, {
      metaMessages: ['Write the amount out in full, e.g. "100000000" instead of "1e8".'],
    });
  }
  const badIndex = s.search(/[^0-9.]/);
  if (badIndex >= 0) {
    const bad = s[badIndex]!;
    throw new WalletError(
      'INVALID_AMOUNT',
      `expected only digits and one ".", got ${JSON.stringify(bad)} in ${describe(s)}`,
      {
        metaMessages: bad === ',' ? ['Use "." as the decimal separator and no thousands separators.'] : [],
      },
    );
  }
  const parts = s.split('.');
  if (parts.length > 2) {
    throw new WalletError('INVALID_AMOUNT', `expected at most one ".", got ${parts.length - 1} in ${describe(s)}`);
  }
  const whole = parts[0]!;
  const fraction = parts[1];
  if (whole === '' || fraction === '') {
    throw new WalletError('INVALID_AMOUNT', `expected digits on both sides of ".", got ${describe(s)}`, {
      metaMessages: ['Write "0.5" rather than ".5", and "1" rather than "1."'],
    });
  }
  if (fraction !== undefined && fraction.length > decimals) {
    throw new WalletError(
      'INVALID_AMOUNT',
      `expected at most ${decimals} decimal place${decimals === 1 ? '' : 's'}, got ${fraction.length} in ${describe(s)}`,
    );
  }
  // More than 20 significant whole digits is above uint64 max whatever the decimals; BigInt() of a long text costs the
  // square of its length, so such text is refused unread.
  if (whole.replace(/^0+/, '').length > 20) {
    throw new WalletError(
      'INVALID_AMOUNT',
      `expected an amount of at most ${formatAmount(UINT64_MAX, decimals)}, got ${whole.length} whole digits`,
      {
        details: 'Token amounts are uint64 base units on chain.',
      },
    );
  }
  const units = BigInt(whole + (fraction ?? '').padEnd(decimals, '0'));
  if (units > UINT64_MAX) {
    throw new WalletError(
      'INVALID_AMOUNT',
      `expected an amount of at most ${formatAmount(UINT64_MAX, decimals)}, got ${describe(s)}`,
      { details: 'Token amounts are uint64 base units on chain.' },
    );
  }
  return units;
}

/**
 * Writes base units as a decimal string: `150000000n` with 8 decimals is `"1.5"`, or `"1.50000000"` with
 * `{ trim: false }` (the REST API's form).
 * @throws WalletError INVALID_AMOUNT for a value that is not a bigint or is negative; INVALID_ARGUMENT for bad `decimals`.
 * @example
 * formatAmount(150113019176n); // '1501.13019176'
 * formatAmount(100000000n, 8, { trim: false }); // '1.00000000'
 */
export function formatAmount(
  units: bigint,
  decimals: number = KOIN_DECIMALS,
  { trim = true }: FormatAmountOptions = {},
): string {
  assertDecimals(decimals);
  if (typeof units !== 'bigint') {
    throw new WalletError('INVALID_AMOUNT', `expected an amount in base units as a bigint, got ${describe(units)}`);
  }
  if (units < 0n) {
    throw new WalletError('INVALID_AMOUNT', `expected a non-negative amount, got ${describe(units)}`);
  }
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals);
  if (trim) fraction = fraction.replace(/0+$/, '');
  return fraction.length > 0 ? `${whole}.${fraction}` : whole;
}
