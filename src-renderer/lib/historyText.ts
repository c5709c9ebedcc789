// One history entry as a sentence ("Sent 1.5 KOIN to 1Abc…"), for the history list and its screen readers.
import type { HistoryEntry, HistoryRecord } from '../../src-main/ipc/contract.ts';
import { displayAmount, shortAddress } from './format.ts';

function amountOf(entry: HistoryEntry): string {
  // A token id may be 32 bytes or more: shortened as an address is (the export has it whole).
  if (entry.tokenId !== undefined) return `NFT ${shortAddress(entry.tokenId)} of ${shortAddress(entry.contract)}`;
  if (entry.allNfts) return `every NFT of ${shortAddress(entry.contract)}`;
  if (!entry.token || entry.amount === undefined) return entry.amount ?? '';
  const amount = `${displayAmount(entry.amount, entry.token.decimals)} ${entry.token.symbol}`;
  // Any contract can call itself KOIN: one the wallet does not list is named by its address too.
  return entry.token.unlisted ? `${amount} (unlisted token ${shortAddress(entry.token.contract)})` : amount;
}

/** A name for an address (a contact's label, the names main found), when there is one. */
export type NameOf = (address: string) => string | undefined;

/** The sentence for one entry; with `nameOf`, the other side's name goes before its short address. */
export function describeEntry(entry: HistoryEntry, nameOf?: NameOf): string {
  const name = entry.counterparty === undefined ? undefined : nameOf?.(entry.counterparty);
  const who = name ? `${name} (${shortAddress(entry.counterparty)})` : shortAddress(entry.counterparty);
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
      return `Allowed ${who || 'an account'} to ${entry.tokenId !== undefined || entry.allNfts ? 'transfer' : 'spend'} ${amountOf(entry)}`;
    case 'call':
      return `Called ${entry.name ?? 'a contract'}${entry.contract ? ` on ${shortAddress(entry.contract)}` : ''}`;
    case 'event':
      return `Event ${entry.name ?? ''}`.trim();
  }
}

/** The sentence for a record (its entries joined), or what it was when it has none. */
export function describeRecord(record: HistoryRecord, nameOf?: NameOf): string {
  if (record.entries.length === 0) return record.payer ? 'Transaction' : 'Block produced';
  return record.entries.map((e) => describeEntry(e, nameOf)).join('; ');
}

/** The main kind of a record, for its colour: the first entry's. */
export function recordKind(record: HistoryRecord): HistoryEntry['kind'] | 'other' {
  return record.entries[0]?.kind ?? 'other';
}
