// How figures read on screen: amounts from base-unit strings (grouped, trimmed, cut to a number of decimals, "?" for
// what is not a decimal string), durations, percentages, short addresses and times.
import { describe, expect, it } from 'vitest';
import {
  displayAmount,
  displayDuration,
  displayTime,
  headAge,
  percent,
  plainAmount,
  shortAddress,
} from '../../src-renderer/lib/format.ts';

describe('displayAmount', () => {
  it('places the decimal point, groups thousands and drops trailing zeros', () => {
    expect(displayAmount('123456789', 8)).toBe('1.23456789');
    expect(displayAmount('150000000000', 8)).toBe('1,500');
    expect(displayAmount('123456789012345678901234567890', 8)).toBe('1,234,567,890,123,456,789,012.3456789');
    expect(displayAmount('1', 8)).toBe('0.00000001');
    expect(displayAmount('0', 8)).toBe('0');
    expect(displayAmount('1000', 0)).toBe('1,000');
  });

  it('cuts the fraction to maxFraction digits without rounding', () => {
    expect(displayAmount('199999999', 8, 2)).toBe('1.99');
    expect(displayAmount('100000001', 8, 2)).toBe('1');
  });

  it('shows "?" for anything that is not a decimal string of base units', () => {
    for (const bad of [undefined, '', '-1', '1.5', '1e9', ' 1', '0x10']) expect(displayAmount(bad, 8)).toBe('?');
  });
});

describe('plainAmount', () => {
  it('gives the amount as typed in a field: no grouping, all the decimals that are not zero', () => {
    expect(plainAmount('150000000000', 8)).toBe('1500');
    expect(plainAmount('123456789', 8)).toBe('1.23456789');
  });
});

describe('headAge', () => {
  it('dates a head block by its time, and a chain with no block yet by nothing', () => {
    expect(headAge({ height: '9', time: '1000' }, 46_000)).toBe('45 s ago');
    expect(headAge({ height: '9', time: '50000' }, 46_000)).toBe('0 s ago');
    expect(headAge({ height: '0', time: '0' }, 1_795_000_000_000)).toBe('no block yet');
  });
});

describe('displayDuration', () => {
  it('says seconds, then minutes, hours and days, two units at most', () => {
    expect(displayDuration('45000')).toBe('45 s');
    expect(displayDuration(60_000)).toBe('1 min');
    expect(displayDuration(3_600_000n + 20n * 60_000n)).toBe('1 h 20 min');
    expect(displayDuration('7200000')).toBe('2 h');
    expect(displayDuration(String(2 * 86_400_000 + 4 * 3_600_000 + 59_000))).toBe('2 d 4 h');
    expect(displayDuration(86_400_000)).toBe('1 d');
  });

  it('reads a negative or fractional number of milliseconds as zero or rounded', () => {
    expect(displayDuration(-5)).toBe('0 s');
    expect(displayDuration(59_999.6)).toBe('1 min');
  });
});

describe('percent', () => {
  it('gives one decimal, cut rather than rounded, and 0 of nothing', () => {
    expect(percent('1', '3')).toBe(33.3);
    expect(percent('2', '3')).toBe(66.6);
    expect(percent('5', '5')).toBe(100);
    expect(percent('5', '0')).toBe(0);
    // Beyond a number's precision the parts stay bigint until the share.
    expect(percent('123456789012345678901234567890', '246913578024691357802469135780')).toBe(50);
  });
});

describe('shortAddress', () => {
  it('keeps the first eight and the last six characters of a long address', () => {
    expect(shortAddress('1AbCdEfGhJkLmNoPqRsTuVwXyZ')).toBe('1AbCdEfG…uVwXyZ');
  });

  it('leaves a short text whole and shows nothing for no address', () => {
    expect(shortAddress('1Abc')).toBe('1Abc');
    expect(shortAddress('')).toBe('');
    expect(shortAddress(undefined)).toBe('');
  });
});

describe('displayTime', () => {
  it('shows epoch milliseconds as the local date and time, nothing for none', () => {
    const ms = Date.UTC(2024, 0, 2, 3, 4, 5);
    expect(displayTime(String(ms))).toBe(
      new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
    );
    expect(displayTime(undefined)).toBe('');
  });
});
