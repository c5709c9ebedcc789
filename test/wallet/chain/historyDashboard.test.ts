// History and dashboard of an account against a real devnet: decoded transfers in and out, paging in both orders,
// the irreversible filter, pending transactions listed until included; balances, mana and the head.
import { describe, expect, it } from 'vitest';
import { manaRefillText, msUntilFullMana, MANA_REGEN_MS } from '../../../src-main/wallet/chain/dashboard.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { HistoryService } from '../../../src-main/wallet/chain/history.ts';
import type { HistoryPage } from '../../../src-main/wallet/chain/types.ts';
import { PendingTransactions } from '../../../src-main/wallet/chain/pendingTransactions.ts';
import { testDevnet } from './helpers.ts';
import { testServices } from './services.ts';
import { KOIN } from '../../helpers/constants.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

describe('HistoryService', () => {
  it('decodes transfers out and in with amounts and counterparties, and pages by sequence number both ways', async () => {
    const devnet = await testDevnet({ irreversibleDepth: 1 });
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    for (const amount of ['1', '2', '3']) {
      const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount });
      await s.send.confirm(review.reviewId);
    }
    const back = await s.send.prepare({ from: b!.address, to: a!.address, token: 'koin', amount: '0.5' });
    await s.send.confirm(back.reviewId);

    const newest = await s.history.page({ address: a!.address, limit: 2, ascending: false, irreversibleOnly: false });
    expect(newest.records).toHaveLength(2);
    const [received, sent3] = newest.records;
    expect(received!.entries).toEqual([
      expect.objectContaining({ kind: 'received', amount: String(KOIN / 2n), counterparty: b!.address }),
    ]);
    expect(received!.entries[0]!.token?.symbol).toBe('KOIN');
    expect(received!.status).toBe('included');
    expect(sent3!.entries).toEqual([
      expect.objectContaining({ kind: 'sent', amount: String(3n * KOIN), counterparty: b!.address }),
    ]);
    expect(sent3!.payer).toBe(a!.address);
    expect(BigInt(sent3!.rcUsed!)).toBeGreaterThan(0n);
    expect(sent3!.blockHeight).toBeDefined();
    expect(sent3!.status).toBe('irreversible'); // a later block exists and irreversibleDepth is 1
    expect(newest.next).toBe(String(BigInt(sent3!.seqNum!) - 1n));

    const older = await s.history.page({
      address: a!.address,
      limit: 10,
      seqNum: newest.next,
      ascending: false,
      irreversibleOnly: false,
    });
    expect(older.records.map((r) => r.entries[0]!.amount)).toEqual([String(2n * KOIN), String(KOIN)]);
    expect(older.next).toBeUndefined();

    const oldest = await s.history.page({ address: a!.address, limit: 3, ascending: true, irreversibleOnly: false });
    expect(oldest.records.map((r) => r.seqNum)).toEqual(['0', '1', '2']);
    expect(oldest.next).toBe('3');

    const irreversible = await s.history.page({
      address: a!.address,
      limit: 10,
      ascending: false,
      irreversibleOnly: true,
    });
    expect(irreversible.records.length).toBe(3);
    expect(irreversible.records.every((r) => r.status === 'irreversible')).toBe(true);
    expect(
      (
        await expectWalletError(
          s.history.page({ address: a!.address, limit: 0, ascending: true, irreversibleOnly: false }),
        )
      ).code,
    ).toBe('INVALID_ARGUMENT');
  });

  it('gives the block of every record as a new service reads it, after new blocks and after a fork moved a transaction', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const send = async (amount: string) => {
      const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount });
      return (await s.send.confirm(review.reviewId)).transactionId;
    };
    const request = { address: a!.address, limit: 10, ascending: false, irreversibleOnly: false };
    // A service that has read no block yet: what the long-lived one must match.
    const fresh = () =>
      new HistoryService({ networks: s.networks, tokens: s.tokens, pending: s.pending }).page(request);
    const blocks = (page: HistoryPage) =>
      page.records.map((r) => [r.transactionId, r.blockId, r.blockHeight, r.time, r.entries[0]?.amount]);

    await send('1');
    await send('2');
    const first = await s.history.page(request);
    expect(first.records).toHaveLength(2);
    expect(first.records.every((r) => r.blockHeight !== undefined && r.time !== undefined)).toBe(true);

    const beforeThird = await devnet.node.snapshot();
    const third = await send('3');
    const later = await s.history.page(request);
    expect(later.records.map((r) => r.entries[0]!.amount)).toEqual(
      ['3', '2', '1'].map((k) => String(BigInt(k) * KOIN)),
    );
    expect(BigInt(later.records[0]!.blockHeight!)).toBeGreaterThan(BigInt(later.records[1]!.blockHeight!));
    expect(blocks(later)).toEqual(blocks(await fresh()));

    // A fork: the chain goes back before the third transfer, an empty block comes first, then the same signed transfer
    // lands in another block, higher up.
    const { node } = await s.networks.node();
    const [entry] = await node.accountHistory({
      address: addressFromString(a!.address),
      limit: 1n,
      ascending: false,
      irreversible: false,
    });
    await devnet.node.revert(beforeThird);
    await devnet.node.produceBlock();
    await devnet.node.call('chain.submit_transaction', { transaction: entry!.trx!.transaction!, broadcast: true });
    const forked = await s.history.page(request);
    expect(forked.records[0]!.transactionId).toBe(third);
    expect(BigInt(forked.records[0]!.blockHeight!)).toBe(BigInt(later.records[0]!.blockHeight!) + 1n);
    expect(blocks(forked)).toEqual(blocks(await fresh()));
  });

  it("lists this wallet's pending transactions first until they are included", async () => {
    const devnet = await testDevnet({ blockTimeMs: 60_000 });
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const receipt = await s.send.confirm(review.reviewId);
    const page = await s.history.page({ address: a!.address, limit: 10, ascending: false, irreversibleOnly: false });
    expect(page.records[0]).toMatchObject({ status: 'pending', transactionId: receipt.transactionId });
    // decoded like an included transfer, from the call's arguments
    expect(page.records[0]!.entries).toEqual([
      expect.objectContaining({ kind: 'sent', amount: String(KOIN), counterparty: b!.address }),
    ]);
    expect(page.records[0]!.entries[0]!.token?.symbol).toBe('KOIN');
    await devnet.node.produceBlock();
    await s.follower.waitFor(receipt.transactionId, ['included', 'irreversible'], 10_000);
    const after = await s.history.page({ address: a!.address, limit: 10, ascending: false, irreversibleOnly: false });
    expect(after.records.filter((r) => r.status === 'pending')).toEqual([]);
    expect(after.records[0]).toMatchObject({ transactionId: receipt.transactionId, status: 'included' });
  });

  it('never lists as pending a transaction the node already has in a block, even one on a later page the follower has not seen', async () => {
    // The order a slow machine gives by chance, forced: blocks are made by hand, and the history reads a copy of the
    // follower's entries taken before the block, as a follower that has not polled since would hold them.
    const devnet = await testDevnet({ manual: true, irreversibleDepth: 1 });
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const send = async (from: string, to: string, amount: string) =>
      (await s.send.confirm((await s.send.prepare({ from, to, token: 'koin', amount })).reviewId)).transactionId;
    const sent1 = await send(a!.address, b!.address, '1');
    const sent2 = await send(a!.address, b!.address, '2');
    const back = await send(b!.address, a!.address, '0.5');
    const lagging = new PendingTransactions();
    for (const entry of s.pending.all()) lagging.add({ ...entry, status: 'pending' });
    const history = new HistoryService({ networks: s.networks, tokens: s.tokens, pending: lagging });
    expect(
      (await history.page({ address: a!.address, limit: 2, ascending: false, irreversibleOnly: false })).records.map(
        (r) => [r.transactionId, r.status],
      ),
    ).toEqual([
      [sent2, 'pending'],
      [sent1, 'pending'],
    ]);

    await devnet.node.produceBlock();
    expect(lagging.all().map((e) => e.status)).toEqual(['pending', 'pending', 'pending']); // the follower's view, unchanged
    const newest = await history.page({ address: a!.address, limit: 2, ascending: false, irreversibleOnly: false });
    expect(newest.records.map((r) => [r.transactionId, r.status])).toEqual([
      [back, 'included'],
      [sent2, 'included'],
    ]);
    const older = await history.page({
      address: a!.address,
      limit: 2,
      seqNum: newest.next,
      ascending: false,
      irreversibleOnly: false,
    });
    expect(older.records.map((r) => [r.transactionId, r.status])).toEqual([[sent1, 'included']]);
    const oldest = await history.page({ address: a!.address, limit: 10, ascending: true, irreversibleOnly: false });
    expect(oldest.records.map((r) => r.transactionId)).toEqual([sent1, sent2, back]);

    // One still in the mempool stays listed, first, decoded as the transfer it is.
    const sent4 = await send(a!.address, b!.address, '4');
    const live = await s.history.page({ address: a!.address, limit: 2, ascending: false, irreversibleOnly: false });
    expect(live.records.map((r) => [r.transactionId, r.status])).toEqual([
      [sent4, 'pending'],
      [back, 'included'],
      [sent2, 'included'],
    ]);
    expect(live.records[0]!.entries).toEqual([
      expect.objectContaining({ kind: 'sent', amount: String(4n * KOIN), counterparty: b!.address }),
    ]);
  });
});

describe('DashboardService', () => {
  it('shows balances, mana with its maximum, the mana held by pending transactions, and the head', async () => {
    const devnet = await testDevnet({ blockTimeMs: 60_000 });
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const before = await s.dashboard.get({ address: a!.address, accountId: 'acc-a' });
    expect(before.accountId).toBe('acc-a');
    expect(before.networkName).toBe('Local (devnet)');
    expect(before.head.chainId).toBe(devnet.chainId);
    expect(before.balances.map((x) => x.token.symbol)).toEqual(['KOIN', 'VHP']);
    expect(before.balances[0]!.balance).toBe(before.mana.max);
    expect(before.mana.current).toBe(before.mana.max);
    expect(before.mana.fullInMs).toBe('0');
    expect(before.mana.pending).toBe('0');

    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '10' });
    const receipt = await s.send.confirm(review.reviewId);
    const during = await s.dashboard.get({ address: a!.address });
    // Held: the rc_limit the transaction was signed with (sized under the review's cap after approval).
    expect(during.mana.pending).toBe(receipt.rcLimit);
    expect(BigInt(receipt.rcLimit)).toBeLessThanOrEqual(BigInt(review.rcLimit));
    await devnet.node.produceBlock();
    const head = await s.networks.head();
    expect(BigInt(head.height)).toBeGreaterThan(BigInt(before.head.height));
    expect(head.stale).toBe(false);
  });

  it('does not call a chain with no block yet stuck: its genesis has no time', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const fresh = await s.networks.head();
    expect([fresh.height, fresh.time, fresh.lagMs, fresh.stale]).toEqual(['0', '0', '0', false]);
    await devnet.node.produceBlock();
    const first = await s.networks.head();
    expect(first.height).toBe('1');
    expect(BigInt(first.time)).toBeGreaterThan(0n);
  });

  it('computes the time until mana is full from the 5-day regeneration', () => {
    expect(msUntilFullMana(0n, 100n * KOIN)).toBe(MANA_REGEN_MS);
    expect(msUntilFullMana(50n * KOIN, 100n * KOIN)).toBe(MANA_REGEN_MS / 2n);
    expect(msUntilFullMana(100n, 100n)).toBe(0n);
    expect(msUntilFullMana(0n, 0n)).toBe(0n);
    expect(msUntilFullMana(99n, 100n)).toBe((MANA_REGEN_MS + 99n) / 100n);
  });

  it('says when mana is full again in words, and that none grows back without KOIN', () => {
    expect(manaRefillText(0n, 100n * KOIN)).toBe('full again in about 5 d');
    expect(manaRefillText(98n * KOIN, 100n * KOIN)).toBe('full again in about 2 h'); // 2 % of 5 days: 2.4 h
    expect(manaRefillText(9_999n, 10_000n)).toBe('full again in about 1 min'); // 43.2 s, rounded up
    expect(manaRefillText(100n, 100n)).toBe('mana is full');
    expect(manaRefillText(0n, 0n)).toBe('no mana grows back without KOIN');
  });
});
