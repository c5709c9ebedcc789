// A receipt's status line for each standing of its transaction, and which standings mean the chain never applied it
// (so that the mana and events of the node's answer at submission are not shown as what happened), or reverted it in
// its block (the block's mana figure instead).
import { describe, expect, it } from 'vitest';
import type { SubmitReceipt, TxUpdate } from '../../src-main/ipc/contract.ts';
import { eventText, receiptStanding } from '../../src-renderer/lib/receiptText.ts';

const receipt: SubmitReceipt = {
  transactionId: '0x1220' + 'ab'.repeat(32),
  rcUsed: '2500000',
  rcLimit: '10000000',
  reverted: false,
  events: [
    {
      name: 'koinos.contracts.token.transfer_event',
      source: '15DJN4a8SgrbGhhGksSBASiSYjGnMU8dGL',
      impacted: [],
      data: {},
    },
  ],
  broadcast: true,
};
const update = (status: TxUpdate['status'], more: Partial<TxUpdate> = {}): TxUpdate => ({
  transactionId: receipt.transactionId,
  networkId: 'local',
  status,
  ...more,
});

describe('receiptStanding', () => {
  it('follows a sent transaction from waiting to irreversible, applied all along', () => {
    expect(receiptStanding(receipt, undefined)).toEqual({
      text: 'Sent. Waiting for it to be included in a block…',
      notApplied: false,
    });
    expect(receiptStanding(receipt, update('pending')).text).toBe('Sent. Waiting for it to be included in a block…');
    expect(receiptStanding(receipt, update('included', { blockHeight: '12' }))).toEqual({
      text: 'Included in block 12. Waiting until it is irreversible…',
      notApplied: false,
    });
    expect(receiptStanding(receipt, update('irreversible', { blockHeight: '12' }))).toEqual({
      text: 'Irreversible (block 12). It can no longer be undone.',
      notApplied: false,
    });
  });

  it("says a dropped transaction was not applied, with the follower's reason or a plain one", () => {
    const reason = 'Its block lost a fork, and the node no longer has the transaction. Nothing was changed.';
    expect(receiptStanding(receipt, update('expired', { message: reason }))).toEqual({
      text: reason,
      notApplied: true,
    });
    expect(receiptStanding(receipt, update('expired'))).toEqual({
      text: 'It expired without being included in a block: nothing was changed. Send it again if needed.',
      notApplied: true,
    });
    expect(receiptStanding(receipt, update('failed', { message: 'the payer has no mana' }))).toEqual({
      text: 'It failed: the payer has no mana.',
      notApplied: true,
    });
  });

  it('says a transaction the chain reverted in its block was applied that far: its block charged mana, nothing else', () => {
    const reason =
      "Included in block 7, but the chain reverted it: account 'from' has insufficient balance. Nothing was changed but the mana it used.";
    expect(
      receiptStanding(receipt, update('failed', { blockHeight: '7', rcUsed: '2228304', message: reason })),
    ).toEqual({ text: reason, notApplied: false, revertedRcUsed: '2228304' });
    expect(receiptStanding(receipt, update('failed', { blockHeight: '7', rcUsed: '2228304' })).text).toBe(
      'Included in block 7, but the chain reverted it.',
    );
  });

  it('keeps a trial run and a reverted transaction apart from what a follower says', () => {
    // A trial run is never followed; a reverted transaction was applied (its mana was used) whatever comes next.
    expect(receiptStanding({ ...receipt, broadcast: false }, update('expired'))).toEqual({
      text: 'Trial run only: nothing was sent.',
      notApplied: false,
    });
    expect(receiptStanding({ ...receipt, reverted: true }, update('included', { blockHeight: '3' }))).toEqual({
      text: 'The transaction was reverted: it changed nothing, but its mana was used.',
      notApplied: false,
    });
  });
});

describe('eventText', () => {
  const koin = { contract: '15DJN4a8SgrbGhhGksSBASiSYjGnMU8dGL', name: 'Koin', symbol: 'KOIN', decimals: 8 };
  const [a, b] = ['1BoatSLRHtKNngkdXEeobR76b53LETtpyT', '1AGNa15ZQXAZUgFiqJ2i7Z2DPU2J6hW62i'];
  const event = (name: string, data: unknown, source = koin.contract) => ({ name, source, impacted: [], data });

  it("says a token's transfer, mint, burn and allowance with its decimals, and main's sentence of an NFT event", () => {
    expect(eventText(event('token.transfer_event', { from: a, to: b, value: '150000000' }), [koin])).toBe(
      `Transfer 1.5 KOIN from ${a} to ${b}`,
    );
    expect(eventText(event('koinos.contracts.token.mint_event', { to: a, value: '100000000' }), [koin])).toBe(
      `Mint 1 KOIN to ${a}`,
    );
    expect(eventText(event('token.burn_event', { from: a, value: '1' }), [koin])).toBe(
      `Burn 0.00000001 KOIN from ${a}`,
    );
    expect(eventText(event('token.approve_event', { owner: a, spender: b, value: '5' }), [koin])).toBe(
      `Allow ${b} to spend up to 0.00000005 KOIN from ${a}`,
    );
    // The review's words for an allowance of the largest uint64.
    const unlimited = event('token.approve_event', { owner: a, spender: b, value: '18446744073709551615' });
    expect(eventText(unlimited, [koin])).toBe(
      `Allow ${b} to spend up to 184,467,440,737.09551615 KOIN (no limit) from ${a}`,
    );
    const nft = { ...event('collections.transfer_event', 'AQID'), summary: 'Transfer NFT 0x01 of …' };
    expect(eventText(nft, [])).toBe('Transfer NFT 0x01 of …');
  });

  it('says nothing of a token the wallet does not list (its decimals unknown), nor of another event', () => {
    expect(eventText(event('token.transfer_event', { from: a, to: b, value: '1' }), [])).toBeUndefined();
    expect(eventText(event('guestbook.signed', { by: a }), [koin])).toBeUndefined();
  });
});
