// How figures read on screen: token amounts from base-unit strings, durations ("3 h 20 min"), ages, short
// addresses. Pure functions over the contract's decimal strings; amounts never pass through a number.
import { formatAmount } from '../../src-main/koinos/amounts.ts';

/**
 * A base-unit decimal string as the token's amount, with thousands grouped: `"150000000000"` (8 decimals) is
 * `"1,500"`. Invalid input (not a decimal string) shows as `"?"` rather than throwing in the middle of a page.
 * @example
 * displayAmount('123456789', 8); // '1.23456789'
 */
export function displayAmount(units: string | undefined, decimals: number, maxFraction = decimals): string {
  if (units === undefined || !/^\d+$/.test(units)) return '?';
  const text = formatAmount(BigInt(units), decimals);
  const [whole = '0', fraction] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (!fraction) return grouped;
  const shown = fraction.slice(0, maxFraction).replace(/0+$/, '');
  return shown ? `${grouped}.${shown}` : grouped;
}

/** The amount as `parseAmount` reads it back (no grouping), for filling an input. */
export function plainAmount(units: string, decimals: number): string {
  return formatAmount(BigInt(units), decimals);
}

/** Milliseconds as "3 h 20 min", "45 s", "2 d 4 h". */
export function displayDuration(msText: string | number | bigint): string {
  const ms =
    typeof msText === 'bigint' ? msText : BigInt(typeof msText === 'number' ? Math.max(0, Math.round(msText)) : msText);
  let s = ms / 1000n;
  if (s < 60n) return `${s} s`;
  const d = s / 86400n;
  s %= 86400n;
  const h = s / 3600n;
  s %= 3600n;
  const m = s / 60n;
  if (d > 0n) return h > 0n ? `${d} d ${h} h` : `${d} d`;
  if (h > 0n) return m > 0n ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}

/**
 * How old the head block is, as the network facts show it: a chain with no block yet (height 0, a genesis without a
 * time) says so rather than dating its head to 1970.
 * @example
 * headAge({ height: '0', time: '0' }, Date.now()); // 'no block yet'
 * headAge({ height: '9', time: '1000' }, 46_000); // '45 s ago'
 */
export function headAge(head: { height: string; time: string }, now: number): string {
  if (head.height === '0') return 'no block yet';
  return `${displayDuration(Math.max(0, now - Number(head.time)))} ago`;
}

/** Share `part / whole` in percent with one decimal, "0" when whole is zero. */
export function percent(part: string, whole: string): number {
  const w = BigInt(whole);
  if (w === 0n) return 0;
  const p = BigInt(part);
  return Number((p * 1000n) / w) / 10;
}

/** `1AbCdEf…wXyZ`: enough of an address to recognise it, the full one is in the title/aria label. */
export function shortAddress(address: string | undefined): string {
  if (!address) return '';
  return address.length > 16 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
}

/** The local date and time format, made once: toLocaleString with options builds a new one on every call. */
let timeFormat: Intl.DateTimeFormat | undefined;

/**
 * Makes the date and time format now: the first one costs several ms (the locale's data), which the first History page
 * would otherwise pay after its click. main.ts calls it when the page is idle.
 */
export function prepareTimeFormat(): Intl.DateTimeFormat {
  return (timeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));
}

/** Epoch milliseconds as the local date and time. */
export function displayTime(msText: string | undefined): string {
  if (!msText) return '';
  const format = prepareTimeFormat();
  const date = new Date(Number(msText));
  // "Invalid Date", as toLocaleString says it (format throws).
  return Number.isNaN(date.getTime()) ? String(date) : format.format(date);
}
