// The transfer form's checks as an amount is typed: above the balance (grouped as everywhere else), more KOIN than the
// mana leaves room for, too little mana for the cost, with the figures and when mana is full again (or that an
// account with no KOIN has none to regenerate).
import { describe, expect, it } from 'vitest';
import type { ManaInfo } from '../../src-main/ipc/contract.ts';
import { amountProblem, manaRefill } from '../../src-renderer/lib/transferCheck.ts';
import { KOIN } from '../helpers/constants.ts';

const koinContext = { decimals: 8, symbol: 'KOIN', koin: true };
const full = (balance: bigint): ManaInfo => ({
  current: balance.toString(),
  max: balance.toString(),
  pending: '0',
  fullInMs: '0',
});

describe('amountProblem', () => {
  it('refuses more than the balance, with the balance grouped in thousands', () => {
    const balance = 1_000_000n * KOIN;
    expect(amountProblem(2_000_000n * KOIN, { ...koinContext, balance, mana: full(balance) })).toBe(
      'This is more than the balance of 1,000,000 KOIN: send at most the balance.',
    );
  });

  it('refuses the whole KOIN balance when the transfer needs mana too, and says the most that can be sent', () => {
    const balance = 1_000_000n * KOIN;
    const message = amountProblem(balance, { ...koinContext, balance, mana: full(balance), cost: 5_000_000n });
    expect(message).toBe(
      "Sending 1,000,000 KOIN leaves too little mana for the transfer's own cost: send at most 999,999.95 KOIN (Max). " +
        '1,000,000.05 mana needed, 1,000,000 available, mana is full.',
    );
    expect(
      amountProblem(balance - 5_000_000n, { ...koinContext, balance, mana: full(balance), cost: 5_000_000n }),
    ).toBe('');
  });

  it('gives the figures and when mana is full again when mana was used', () => {
    const mana: ManaInfo = {
      current: (2n * KOIN).toString(),
      max: (100n * KOIN).toString(),
      pending: '0',
      fullInMs: String(3 * 3_600_000 + 20 * 60_000),
    };
    expect(amountProblem(3n * KOIN, { ...koinContext, balance: 100n * KOIN, mana, cost: 10_000_000n })).toBe(
      "Sending 3 KOIN leaves too little mana for the transfer's own cost: send at most 1.9 KOIN (Max). " +
        '3.1 mana needed, 2 available, full again in 3 h 20 min.',
    );
  });

  it('counts mana held by pending transactions as unavailable for the cost of another token', () => {
    const mana: ManaInfo = {
      current: '6000000',
      max: (10n * KOIN).toString(),
      pending: '4000000',
      fullInMs: '3600000',
    };
    const token = { decimals: 2, symbol: 'TT', koin: false, balance: 1_000n };
    expect(amountProblem(500n, { ...token, mana, cost: 5_000_000n })).toBe(
      'The account has too little mana for this transfer. 0.05 mana needed, 0.02 available, full again in 1 h.',
    );
    expect(amountProblem(500n, { ...token, mana: { ...mana, pending: '0' }, cost: 5_000_000n })).toBe('');
  });

  it('says an account with no KOIN has no mana to regenerate, rather than that mana is full', () => {
    const none: ManaInfo = { current: '0', max: '0', pending: '0', fullInMs: '0' };
    expect(
      amountProblem(1n, { decimals: 0, symbol: 'TT', koin: false, balance: 10n, mana: none, cost: 5_000_000n }),
    ).toBe(
      'The account has too little mana for this transfer. 0.05 mana needed, 0 available, this account has no KOIN, so it has no mana to regenerate.',
    );
    expect(manaRefill(none)).not.toContain('full');
  });

  it('checks only what it knows: the balance before the mana is read', () => {
    expect(amountProblem(10n, { ...koinContext, balance: 10n })).toBe('');
    expect(amountProblem(11n, { ...koinContext, balance: 10n })).toMatch(
      /^This is more than the balance of 0\.0000001 KOIN/,
    );
  });
});
