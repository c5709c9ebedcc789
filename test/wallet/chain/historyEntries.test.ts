// How one transaction's events become history entries for an account, whatever name a KCS-4 token gives its events:
// `token.*_event` (koinos-sdk-as today, @koinosbox), the bare `*_event` of older examples, KOIN's names; amounts stay
// base units with the token attached, so the screen shows them in the token's decimals.
import { describe, expect, it } from 'vitest';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { encode } from '../../../src-main/koinos/codec.ts';
import { devKey } from '../../../src-main/devnet/chain/devKeys.ts';
import type { TokenInfo } from '../../../src-main/ipc/contract.ts';
import { expectedTokenEvents, transactionEntries } from '../../../src-main/wallet/chain/history.ts';
import { koinOperation } from '../../../src-main/koinos/koin.ts';
import { KCS5_ABI } from '../../../src-main/wallet/chain/kcs5.ts';
import type { Transaction } from '../../../src-main/koinos/types.ts';

const holder = devKey(0).address;
const other = devKey(1).address;
const token: TokenInfo = { contract: devKey(2).address, name: 'My Token', symbol: 'TKN', decimals: 8 };
const source = addressFromString(token.contract);

function event(name: string, kind: 'transfer' | 'mint' | 'burn', data: object) {
  return { sequence: 0, source, name, data: encode(`koinos.contracts.token.${kind}_event`, data), impacted: [] };
}

describe('history entries of a KCS-4 token', () => {
  it.each(['token.transfer_event', 'transfer_event', 'koinos.contracts.token.transfer_event'])(
    'decodes a transfer named %s on both sides',
    (name) => {
      const events = [
        event(name, 'transfer', {
          from: addressFromString(holder),
          to: addressFromString(other),
          value: 1_250_000_000n,
        }),
      ];
      expect(transactionEntries(undefined, events, holder, [token])).toEqual([
        { kind: 'sent', amount: '1250000000', counterparty: other, contract: token.contract, token },
      ]);
      expect(transactionEntries(undefined, events, other, [token])).toEqual([
        { kind: 'received', amount: '1250000000', counterparty: holder, contract: token.contract, token },
      ]);
    },
  );

  it.each([
    ['mint_event', 'mint', 'minted'],
    ['token.mint_event', 'mint', 'minted'],
    ['burn_event', 'burn', 'burned'],
    ['token.burn_event', 'burn', 'burned'],
  ] as const)('decodes %s as %s', (name, kind, entry) => {
    const data =
      kind === 'mint' ? { to: addressFromString(holder), value: 7n } : { from: addressFromString(holder), value: 7n };
    expect(transactionEntries(undefined, [event(name, kind, data)], holder, [token])).toEqual([
      { kind: entry, amount: '7', contract: token.contract, token },
    ]);
  });

  it("decodes an allowance the account gave, with its spender and amount; not one taken back (0), nor another's", () => {
    const approval = (value: bigint) => ({
      sequence: 0,
      source,
      name: 'token.approve_event',
      data: encode('koinos.contracts.token.approve_event', {
        owner: addressFromString(holder),
        spender: addressFromString(other),
        value,
      }),
      impacted: [],
    });
    expect(transactionEntries(undefined, [approval(7n)], holder, [token])).toEqual([
      { kind: 'approved', amount: '7', counterparty: other, contract: token.contract, token },
    ]);
    expect(transactionEntries(undefined, [approval(0n)], holder, [token])).toEqual([
      { kind: 'event', name: 'token.approve_event', amount: '0', contract: token.contract, token },
    ]);
    expect(transactionEntries(undefined, [approval(7n)], other, [token])).toEqual([
      { kind: 'event', name: 'token.approve_event', amount: '7', contract: token.contract, token },
    ]);
  });

  it('leaves an event of another name as a named event', () => {
    const named = { sequence: 0, source, name: 'transferred', data: new Uint8Array([1, 2]), impacted: [] };
    expect(transactionEntries(undefined, [named], holder, [token])).toEqual([
      { kind: 'event', name: 'transferred', contract: token.contract },
    ]);
  });

  it('decodes a pending transaction from its calls as it will read once included, and leaves calls to unknown contracts as calls', () => {
    const unknown = addressFromString(devKey(3).address);
    const tx: Transaction = {
      id: new Uint8Array(34),
      operations: [
        koinOperation(source, 'transfer', { from: addressFromString(holder), to: addressFromString(other), value: 5n }),
        koinOperation(unknown, 'transfer', {
          from: addressFromString(holder),
          to: addressFromString(other),
          value: 6n,
        }),
      ],
      signatures: [],
    };
    const events = expectedTokenEvents(tx, [token]);
    expect(events).toHaveLength(1);
    expect(transactionEntries(tx, events, holder, [token])).toEqual([
      { kind: 'sent', amount: '5', counterparty: other, contract: token.contract, token },
      { kind: 'call', name: 'transfer', contract: devKey(3).address },
    ]);
    expect(transactionEntries(tx, events, other, [token])[0]).toEqual({
      kind: 'received',
      amount: '5',
      counterparty: holder,
      contract: token.contract,
      token,
    });
  });
});

describe('history entries of a KCS-5 collection', () => {
  const collection = devKey(3).address;
  const nftEvent = (name: string, data: Uint8Array) => ({
    sequence: 0,
    source: addressFromString(collection),
    name,
    data,
    impacted: [],
  });
  /** A transfer event's data: KCS-5's transfer arguments, field for field. */
  const transferData = (json: object) => KCS5_ABI.encodeArguments(KCS5_ABI.method('transfer'), json);
  /** A length-delimited protobuf field (lengths under 128). */
  const field = (number: number, bytes: Uint8Array) => [(number << 3) | 2, bytes.length, ...bytes];

  it('decodes an NFT transfer on both sides, with its token id and memo, and leaves the call it explains out', () => {
    const events = [
      nftEvent(
        'collections.transfer_event',
        transferData({ from: holder, to: other, token_id: '0x3132', memo: 'for\nyou' }),
      ),
    ];
    const tx = {
      operations: [
        {
          call_contract: {
            contract_id: addressFromString(collection),
            entry_point: 0x27f576ca,
            args: new Uint8Array(),
          },
        },
      ],
    } as unknown as Transaction;
    expect(transactionEntries(tx, events, holder, [token])).toEqual([
      { kind: 'sent', counterparty: other, memo: 'for you', contract: collection, tokenId: '0x3132' },
    ]);
    expect(transactionEntries(tx, events, other, [token])).toEqual([
      { kind: 'received', counterparty: holder, memo: 'for you', contract: collection, tokenId: '0x3132' },
    ]);
    // Another account's NFT moving (this account paid the mana): an event, with the NFT.
    expect(transactionEntries(undefined, events, devKey(4).address, [token])).toEqual([
      { kind: 'event', name: 'collections.transfer_event', contract: collection, tokenId: '0x3132' },
    ]);
  });

  it('decodes an NFT minted to the account, and leaves data that does not decode as a named event', () => {
    // collections.mint_event: to (1), token_id (2).
    const minted = nftEvent(
      'collections.mint_event',
      new Uint8Array([...field(1, addressFromString(holder)), ...field(2, new Uint8Array([7]))]),
    );
    expect(transactionEntries(undefined, [minted], holder, [token])).toEqual([
      { kind: 'minted', contract: collection, tokenId: '0x07' },
    ]);
    const garbled = { ...minted, name: 'collections.transfer_event', data: new Uint8Array([0xff, 0xff]) };
    expect(transactionEntries(undefined, [garbled], holder, [token])).toEqual([
      { kind: 'event', name: 'collections.transfer_event', contract: collection },
    ]);
  });

  it("decodes an NFT burned, and a grant of one NFT or of every NFT to an operator; not a grant taken back, nor another's", () => {
    const encoded = (method: 'approve' | 'set_approval_for_all', json: object) =>
      KCS5_ABI.encodeArguments(KCS5_ABI.method(method), json);
    // collections.burn_event: from (1), token_id (2).
    const burned = nftEvent(
      'collections.burn_event',
      new Uint8Array([...field(1, addressFromString(holder)), ...field(2, new Uint8Array([9]))]),
    );
    expect(transactionEntries(undefined, [burned], holder, [token])).toEqual([
      { kind: 'burned', contract: collection, tokenId: '0x09' },
    ]);
    const all = (approved: boolean) =>
      nftEvent(
        'collections.operator_approval_event',
        encoded('set_approval_for_all', { owner: holder, operator: other, approved }),
      );
    const one = (approve?: boolean) =>
      nftEvent(
        'collections.token_approval_event',
        encoded('approve', {
          owner: holder,
          operator: other,
          token_id: '0x01',
          ...(approve === undefined ? {} : { approve }),
        }),
      );
    // The grants' calls (set_approval_for_all, approve) are what the events tell: not listed again.
    const calls = {
      operations: ['set_approval_for_all', 'approve'].map((name) => ({
        call_contract: {
          contract_id: addressFromString(collection),
          entry_point: KCS5_ABI.method(name as 'approve').entryPoint,
          args: new Uint8Array(),
        },
      })),
    } as unknown as Transaction;
    expect(transactionEntries(calls, [all(true), one()], holder, [token])).toEqual([
      { kind: 'approved', counterparty: other, contract: collection, allNfts: true },
      { kind: 'approved', counterparty: other, contract: collection, tokenId: '0x01' },
    ]);
    expect(transactionEntries(undefined, [all(false), one(false)], holder, [token])).toEqual([
      { kind: 'event', name: 'collections.operator_approval_event', contract: collection },
      { kind: 'event', name: 'collections.token_approval_event', contract: collection, tokenId: '0x01' },
    ]);
    // An NFT approved to its owner (the wallet's Allowances take an approval back so): an event, not a grant.
    const toSelf = nftEvent(
      'collections.token_approval_event',
      encoded('approve', { owner: holder, operator: holder, token_id: '0x01' }),
    );
    expect(transactionEntries(undefined, [toSelf], holder, [token])).toEqual([
      { kind: 'event', name: 'collections.token_approval_event', contract: collection, tokenId: '0x01' },
    ]);
    // Seen from the operator's history: another account's grant.
    expect(transactionEntries(undefined, [all(true)], other, [token])).toEqual([
      { kind: 'event', name: 'collections.operator_approval_event', contract: collection },
    ]);
  });
});
