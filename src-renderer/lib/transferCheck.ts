// What the transfer form says of an amount as it is typed: above the balance, or more than the mana allows (with the
// figures: needed, available, and when mana is full again). The same rules main applies when it prepares, read from
// the dashboard's figures, so Review is refused before it is pressed rather than after.
import type { ManaInfo } from '../../src-main/ipc/contract.ts';
import { KOIN_DECIMALS } from '../../src-main/koinos/amounts.ts';
import { displayAmount, displayDuration } from './format.ts';

/** What the form knows when an amount is typed; amounts in base units, as bigint. */
export interface AmountContext {
  /** The token's balance; absent while unknown. */
  balance?: bigint;
  decimals: number;
  symbol: string;
  /** True for KOIN, whose unused mana is what can be sent (KOIN is the mana). */
  koin: boolean;
  /** The account's mana (the dashboard's); absent while unknown. */
  mana?: ManaInfo;
  /** The mana the transfer is expected to use (the estimate, or the limit set by hand); absent while unknown. */
  cost?: bigint;
}

/**
 * When mana is full again, in words; with no KOIN there is no mana to grow back, which "full" would misstate.
 * @example
 * manaRefill({ current: '0', max: '0', pending: '0', fullInMs: '0' }); // 'this account has no KOIN, so it has no mana to regenerate'
 */
export function manaRefill(mana: ManaInfo, symbol = 'KOIN'): string {
  if (mana.max === '0') return `this account has no ${symbol}, so it has no mana to regenerate`;
  if (mana.fullInMs === '0') return 'mana is full';
  return `full again in ${displayDuration(mana.fullInMs)}`;
}

const manaText = (units: bigint): string => displayAmount(units.toString(), KOIN_DECIMALS);

/** "0.05 mana needed, 0.01 available, full again in 3 h 20 min." */
function figures(needed: bigint, available: bigint, mana: ManaInfo): string {
  const line = `${manaText(needed)} mana needed, ${manaText(available)} available, ${manaRefill(mana)}.`;
  return line.charAt(0).toUpperCase() + line.slice(1);
}

/**
 * Why `amount` cannot be sent now, as one or two sentences with the figures, or `''` when nothing stands in its way
 * (as far as the figures known so far tell: main checks again when it prepares).
 * @example
 * amountProblem(2_000_000n * 10n ** 8n, { balance: 10n ** 14n, decimals: 8, symbol: 'KOIN', koin: true });
 * // 'This is more than the balance of 1,000,000 KOIN: send at most the balance.'
 */
export function amountProblem(amount: bigint, context: AmountContext): string {
  const { balance, decimals, symbol, koin, mana, cost } = context;
  if (balance !== undefined && amount > balance) {
    return `This is more than the balance of ${displayAmount(balance.toString(), decimals)} ${symbol}: send at most the balance.`;
  }
  if (!mana) return '';
  const current = BigInt(mana.current);
  const held = BigInt(mana.pending);
  const available = current > held ? current - held : 0n;
  const needed = (koin ? amount : 0n) + (cost ?? 0n);
  if (koin && needed > current) {
    const most = cost !== undefined && current > cost ? current - cost : 0n;
    const advice =
      most > 0n
        ? `send at most ${displayAmount(most.toString(), decimals)} ${symbol} (Max)`
        : mana.max === '0'
          ? `this account needs ${symbol} first`
          : 'wait for mana to regenerate';
    return `Sending ${displayAmount(amount.toString(), decimals)} ${symbol} leaves too little mana for the transfer's own cost: ${advice}. ${figures(needed, current, mana)}`;
  }
  if (cost !== undefined && cost > available) {
    return `The account has too little mana for this transfer. ${figures(cost, available, mana)}`;
  }
  return '';
}
