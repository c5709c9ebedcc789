// A history record as the sentence the list and screen readers get: each kind of entry, amounts as the token's (or as
// given when there is no token), the other side's name before its short address, and records without entries.
import { describe, expect, it } from 'vitest';
import type { HistoryEntry, HistoryRecord, TokenInfo } from '../../src-main/ipc/contract.ts';
import { describeEntry, describeRecord, recordKind } from '../../src-renderer/lib/historyText.ts';

const KOIN: TokenInfo = {
  contract: '15DJN4a8SgrbGhhGksSBASiSYjGnMU8dGL',
  name: 'Koin',
  symbol: 'KOIN',
  decimals: 8,
  system: 'koin',
};
const OTHER = '1AbCdEfGhJkLmNoPqRsTuVwXyZ';
const sent: HistoryEntry = { kind: 'sent', token: KOIN, amount: '150000000', counterparty: OTHER };
const record = (entries: HistoryEntry[], payer?: string): HistoryRecord =>
  ({ status: 'included', entries, ...(payer ? { payer } : {}) }) as HistoryRecord;

describe('describeEntry', () => {
  it('says each kind of entry with the amount in the token and the short address of the other side', () => {
    expect(describeEntry(sent)).toBe('Sent 1.5 KOIN to 1AbCdEfG…uVwXyZ');
    expect(describeEntry({ ...sent, kind: 'received' })).toBe('Received 1.5 KOIN from 1AbCdEfG…uVwXyZ');
    expect(describeEntry({ kind: 'minted', token: KOIN, amount: '100000000' })).toBe('Minted 1 KOIN');
    expect(describeEntry({ kind: 'burned', token: KOIN, amount: '1' })).toBe('Burned 0.00000001 KOIN');
    // A token the wallet does not list claims its symbol: its address goes beside it.
    expect(describeEntry({ ...sent, kind: 'received', token: { ...KOIN, contract: OTHER, unlisted: true } })).toBe(
      'Received 1.5 KOIN (unlisted token 1AbCdEfG…uVwXyZ) from 1AbCdEfG…uVwXyZ',
    );
    expect(describeEntry({ ...sent, kind: 'approved' })).toBe('Allowed 1AbCdEfG…uVwXyZ to spend 1.5 KOIN');
    expect(describeEntry({ kind: 'call', name: 'transfer', contract: KOIN.contract })).toBe(
      `Called transfer on ${KOIN.contract.slice(0, 8)}…${KOIN.contract.slice(-6)}`,
    );
    expect(describeEntry({ kind: 'event', name: 'koinos.contracts.token.mint_event' })).toBe(
      'Event koinos.contracts.token.mint_event',
    );
  });

  it('names an NFT by its token id (a long one shortened) and its collection', () => {
    const nft = { contract: KOIN.contract, tokenId: '0x01', counterparty: OTHER };
    const collection = `${KOIN.contract.slice(0, 8)}…${KOIN.contract.slice(-6)}`;
    expect(describeEntry({ kind: 'received', ...nft })).toBe(`Received NFT 0x01 of ${collection} from 1AbCdEfG…uVwXyZ`);
    expect(describeEntry({ kind: 'sent', ...nft })).toBe(`Sent NFT 0x01 of ${collection} to 1AbCdEfG…uVwXyZ`);
    expect(describeEntry({ kind: 'minted', contract: KOIN.contract, tokenId: `0x${'ab'.repeat(32)}` })).toBe(
      `Minted NFT 0xababab…ababab of ${collection}`,
    );
    expect(describeEntry({ kind: 'approved', ...nft })).toBe(
      `Allowed 1AbCdEfG…uVwXyZ to transfer NFT 0x01 of ${collection}`,
    );
    expect(describeEntry({ kind: 'approved', contract: KOIN.contract, counterparty: OTHER, allNfts: true })).toBe(
      `Allowed 1AbCdEfG…uVwXyZ to transfer every NFT of ${collection}`,
    );
  });

  it('fills in what an entry leaves out', () => {
    expect(describeEntry({ kind: 'sent', token: KOIN, amount: '100000000' })).toBe('Sent 1 KOIN');
    expect(describeEntry({ kind: 'approved', token: KOIN, amount: '100000000' })).toBe(
      'Allowed an account to spend 1 KOIN',
    );
    expect(describeEntry({ kind: 'call' })).toBe('Called a contract');
    expect(describeEntry({ kind: 'event' })).toBe('Event');
    // Without a token the amount is shown as given (main could not say whose units they are).
    expect(describeEntry({ kind: 'received', amount: '42', counterparty: OTHER })).toBe(
      'Received 42 from 1AbCdEfG…uVwXyZ',
    );
  });

  it('puts a known name before the short address', () => {
    const nameOf = (address: string) => (address === OTHER ? 'Alice' : undefined);
    expect(describeEntry(sent, nameOf)).toBe('Sent 1.5 KOIN to Alice (1AbCdEfG…uVwXyZ)');
    expect(describeEntry({ ...sent, counterparty: '1Zz' }, nameOf)).toBe('Sent 1.5 KOIN to 1Zz');
  });
});

describe('describeRecord', () => {
  it('joins the entries of a record', () => {
    expect(describeRecord(record([sent, { kind: 'minted', token: KOIN, amount: '1' }]))).toBe(
      'Sent 1.5 KOIN to 1AbCdEfG…uVwXyZ; Minted 0.00000001 KOIN',
    );
  });

  it('says what a record without entries was: a transaction when it has a payer, else a produced block', () => {
    expect(describeRecord(record([], OTHER))).toBe('Transaction');
    expect(describeRecord(record([]))).toBe('Block produced');
  });
});

describe('recordKind', () => {
  it("is the first entry's kind, or other", () => {
    expect(recordKind(record([{ ...sent, kind: 'received' }, sent]))).toBe('received');
    expect(recordKind(record([]))).toBe('other');
  });
});
