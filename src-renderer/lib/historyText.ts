// One history entry as a sentence ("Sent 1.5 KOIN to 1Abc…"), for the history list and its screen readers.
import type { HistoryEntry, HistoryRecord } from '../../src-main/ipc/contract.ts';
import { displayAmount, shortAddress } from './format.ts';

function amountOf(entry: HistoryEntry): string {
  if (!entry.token || entry.amount === undefined) return entry.amount ?? '';
  return `${displayAmount(entry.amount, entry.token.decimals)} ${entry.token.symbol}`;
}

/** The sentence for one entry. */
export function describeEntry(entry: HistoryEntry): string {
  const who = shortAddress(entry.counterparty);
  switch (entry.kind) {
    case 'sent':
      return `Sent ${amountOf(entry)}${who ? ` to ${who}` : ''}`;
    case 'received':
      return `Received ${amountOf(entry)}${who ? ` from ${who}` : ''}`;
    case 'minted':
      return `Minted ${amountOf(entry)}`;
    case 'burned':
      return `Burned ${amountOf(entry)}`;
    case 'approved':
      return `Allowed ${who || 'an account'} to spend ${amountOf(entry)}`;
    case 'call':
      return `Called ${entry.name ?? 'a contract'}${entry.contract ? ` on ${shortAddress(entry.contract)}` : ''}`;
    case 'event':
      return `Event ${entry.name ?? ''}`.trim();
  }
}

/** The sentence for a record (its entries joined), or what it was when it has none. */
export function describeRecord(record: HistoryRecord): string {
  if (record.entries.length === 0) return record.payer ? 'Transaction' : 'Block produced';
  return record.entries.map(describeEntry).join('; ');
}

/** The main kind of a record, for its colour: the first entry's. */
export function recordKind(record: HistoryRecord): HistoryEntry['kind'] | 'other' {
  return record.entries[0]?.kind ?? 'other';
}
