// Notifications decided from real events of a devnet: the follower's updates of a sent transaction (included,
// irreversible, dropped) in words with the target entry, tokens arriving in a watched account, and the setting that
// turns them off and is kept for the next run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AccountInfo, IpcEvents, WalletNotification } from '../../../src-main/ipc/contract.ts';
import { transactionFromBase64 } from '../../../src-main/koinos/transaction.ts';
import {
  expectedTokenEvents,
  transactionEntries,
  type HistoryService,
} from '../../../src-main/wallet/chain/history.ts';
import { PendingTransactions } from '../../../src-main/wallet/chain/pendingTransactions.ts';
import { TransactionFollower } from '../../../src-main/wallet/chain/transactionFollower.ts';
import {
  incomingNotifications,
  shortId,
  txUpdateNotification,
} from '../../../src-main/wallet/notifications/notificationText.ts';
import {
  NOTIFICATION_SETTINGS_FILE,
  Notifier,
  type NotifierOptions,
} from '../../../src-main/wallet/notifications/notifier.ts';
import { onCleanup, tempDir, testDevnet } from '../chain/helpers.ts';
import { sendPaidBy, testServices, type TestServices } from '../chain/services.ts';
import { until } from '../../helpers/until.ts';
import { lookalikeAddress } from '../../helpers/lookalike.ts';

type TxUpdate = IpcEvents['tx:update'];

/** A notifier of `s`'s services watching `accounts` (`more` replaces options), and the notifications it showed. */
async function watching(s: TestServices, accounts: AccountInfo[], more: Partial<NotifierOptions> = {}) {
  const shown: WalletNotification[] = [];
  const notifier = await Notifier.open({
    dataDir: await tempDir(),
    ...s,
    accounts: () => accounts,
    emit: (n) => shown.push(n),
    presenter: 'page',
    ...more,
  });
  return { notifier, shown };
}

async function transfer(s: TestServices, from: string, to: string, amount: string): Promise<string> {
  const review = await s.send.prepare({ from, to, token: 'koin', amount });
  const { transactionId } = await s.send.confirm(review.reviewId);
  await s.follower.waitFor(transactionId, ['included', 'irreversible'], 10_000);
  return transactionId;
}

describe('incomingNotifications', () => {
  it('names a token the wallet does not list by its address beside the symbol it claims', () => {
    const fake = '1AGNa15ZQXAZUgFiqJ2i7Z2DPU2J6hW62i';
    const from = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
    const token = { contract: fake, name: 'Koin', symbol: 'KOIN', decimals: 8 };
    const record = (unlisted: boolean) => ({
      seqNum: '1',
      status: 'included' as const,
      transactionId: '0x1220aa',
      blockHeight: '5',
      entries: [
        {
          kind: 'received' as const,
          token: unlisted ? { ...token, unlisted: true as const } : token,
          amount: '100000000000',
          counterparty: from,
        },
      ],
    });
    const bob = { accountId: 'acc-b', name: 'Bob' };
    expect(incomingNotifications([record(true)], 'local', bob)[0]!.title).toBe(
      `Received 1000 KOIN (unlisted token ${shortId(fake)})`,
    );
    expect(incomingNotifications([record(false)], 'local', bob)[0]!.title).toBe('Received 1000 KOIN');
  });

  it('names an NFT received or minted by its token id and collection, with its sender', () => {
    const collection = '1AGNa15ZQXAZUgFiqJ2i7Z2DPU2J6hW62i';
    const from = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
    const longId = `0x${'ab'.repeat(32)}`;
    const shown = incomingNotifications(
      [
        {
          seqNum: '3',
          status: 'included',
          transactionId: '0x1220bb',
          blockHeight: '9',
          entries: [
            { kind: 'received', contract: collection, tokenId: '0x01', counterparty: from },
            { kind: 'minted', contract: collection, tokenId: longId },
          ],
        },
      ],
      'local',
      { accountId: 'acc-b', name: 'Bob' },
    );
    expect(shown.map((n) => [n.title, n.body])).toEqual([
      [`Received NFT 0x01 of ${shortId(collection)}`, `From ${shortId(from)} to Bob, in block 9.`],
      [`Received NFT ${shortId(longId)} of ${shortId(collection)}`, 'To Bob, in block 9.'],
    ]);
  });
});

describe('notifications', () => {
  it('words each update of a sent transaction, with the entry it opens', async () => {
    const devnet = await testDevnet({ irreversibleDepth: 2 });
    const s = testServices(devnet);
    const [a, b, c] = devnet.accounts.map((x) => x.address) as [string, string, string];
    const updates: TxUpdate[] = [];
    s.follower.on((u) => updates.push(u));

    const id = await transfer(s, a, b, '1.5');
    const entry = s.pending.get(id)!;
    const tokens = await s.tokens.known('local');
    const context = {
      entries: transactionEntries(entry.transaction, expectedTokenEvents(entry.transaction, tokens), a, tokens),
      accountId: 'acc-a',
    };
    // Two more blocks make it irreversible.
    await transfer(s, c, b, '1');
    await transfer(s, c, b, '1');
    await until(
      'irreversible',
      () => updates.find((u) => u.transactionId === id && u.status === 'irreversible'),
      10_000,
    );

    const mine = updates.filter((u) => u.transactionId === id);
    expect(mine.map((u) => u.status)).toEqual(['pending', 'included', 'irreversible']);
    const [pending, included, irreversible] = mine.map((u) => txUpdateNotification(u, context));
    expect(pending).toBeUndefined();
    expect(included).toEqual({
      id: `tx:${id}:included`,
      title: 'Transaction included',
      body: `Sending 1.5 KOIN to ${shortId(b)} is in block ${mine[1]!.blockHeight}. It becomes final once the block is irreversible.`,
      target: { networkId: 'local', transactionId: id, accountId: 'acc-a' },
    });
    expect(irreversible).toMatchObject({
      title: 'Transaction final',
      body: `Sending 1.5 KOIN to ${shortId(b)} is irreversible (block ${mine[2]!.blockHeight}).`,
    });

    // A transaction the node never saw: the follower finds it nowhere and reports it dropped.
    const unsent = transactionFromBase64(
      (await s.offline.exportUnsigned({ from: a, to: c, token: 'koin', amount: '3' })).base64,
    );
    const lost = new TransactionFollower({
      networks: s.networks,
      pending: new PendingTransactions(),
      intervalMs: 20,
      expireAfterMs: 0,
    });
    onCleanup(async () => lost.stop());
    const lostId = `0x${Buffer.from(unsent.id).toString('hex')}`;
    lost.track({
      networkId: 'local',
      id: lostId,
      payer: a,
      nonce: 99n,
      rcLimit: 1n,
      transaction: unsent,
      submittedAt: Date.now(),
      status: 'pending',
    });
    const dropped = await lost.waitFor(lostId, ['expired'], 10_000);
    const droppedEntries = transactionEntries(unsent, expectedTokenEvents(unsent, tokens), a, tokens);
    expect(txUpdateNotification(dropped, { entries: droppedEntries })).toMatchObject({
      title: 'Transaction dropped',
      body: expect.stringMatching(
        new RegExp(
          `^Sending 3 KOIN to ${shortId(c)} was dropped\\. The transaction left the node without being included`,
        ),
      ),
      target: { networkId: 'local', transactionId: lostId },
    });
  });

  it('says so when a transaction is final in another block than the one it was announced in (a fork moved it)', () => {
    const update: TxUpdate = {
      transactionId: '0x1220ab',
      networkId: 'local',
      status: 'irreversible',
      blockHeight: '13',
    };
    const to = '1AbCdEfGhJkLmNoPqRsTuVwXyZ';
    const entries = [{ kind: 'sent' as const, amount: '2', counterparty: to }];
    expect(txUpdateNotification(update, { entries, includedIn: '12' })).toMatchObject({
      id: 'tx:0x1220ab:irreversible',
      title: 'Transaction final',
      body: `Sending 2 base units to ${shortId(to)} is irreversible (block 13). Block 12, which had it first, lost a fork.`,
    });
    // Announced in that same block: nothing more to say.
    expect(txUpdateNotification(update, { entries, includedIn: '13' })?.body).toBe(
      `Sending 2 base units to ${shortId(to)} is irreversible (block 13).`,
    );
  });

  it("says a transaction the chain reverted in its block failed, with the follower's why", () => {
    const message =
      "Included in block 7, but the chain reverted it: account 'from' has insufficient balance. Nothing was changed but the mana it used.";
    const update: TxUpdate = {
      transactionId: '0x1220cd',
      networkId: 'local',
      status: 'failed',
      blockHeight: '7',
      rcUsed: '2228304',
      message,
    };
    const to = '1AbCdEfGhJkLmNoPqRsTuVwXyZ';
    expect(
      txUpdateNotification(update, { entries: [{ kind: 'sent' as const, amount: '2', counterparty: to }] }),
    ).toMatchObject({
      id: 'tx:0x1220cd:failed',
      title: 'Transaction failed',
      body: `Sending 2 base units to ${shortId(to)} failed. ${message}`,
    });
  });

  it("words a transfer another account paid for as its sender's, and opens the sender's account", async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b, c] = devnet.accounts.map((x) => x.address) as [string, string, string];
    const { notifier, shown } = await watching(s, [
      { id: 'acc-a', name: 'Alice', address: a, kind: 'key' },
      { id: 'acc-c', name: 'Carol', address: c, kind: 'key' },
    ]);
    notifier.start();
    onCleanup(async () => notifier.stop());
    const transactionId = await sendPaidBy(s, { from: a, to: b, amount: '1.5', payer: c });
    const included = await until('the inclusion notice', () =>
      shown.find((n) => n.id === `tx:${transactionId}:included`),
    );
    expect(included.body).toMatch(new RegExp(`^Sending 1\\.5 KOIN to ${shortId(b)} `));
    expect(included.target).toMatchObject({ accountId: 'acc-a' });
  });

  it('notifies what arrives on a chain that replaced the one it last looked at (a devnet reset)', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts.map((x) => x.address) as [string, string];
    const { notifier, shown } = await watching(s, [{ id: 'acc-a', name: 'Alice', address: a, kind: 'watch' }]);
    await notifier.checkIncoming(); // the first look
    for (const amount of ['1', '2', '3']) await transfer(s, b, a, amount);
    await notifier.checkIncoming();
    expect(shown.map((n) => n.title)).toEqual(['Received 1 KOIN', 'Received 2 KOIN', 'Received 3 KOIN']);

    // The new chain's history is shorter than the old one's: what it holds is news.
    await devnet.node.reset();
    s.tokens.forgetSystemTokens('local');
    await transfer(s, b, a, '5');
    await notifier.checkIncoming();
    expect(shown.map((n) => n.title).slice(3)).toEqual(['Received 5 KOIN']);
    await transfer(s, b, a, '6');
    await notifier.checkIncoming();
    expect(shown.map((n) => n.title).slice(3)).toEqual(['Received 5 KOIN', 'Received 6 KOIN']);
  });

  it('says tokens came from an address made to look like a known one instead of giving its short form', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, poisoner, c] = devnet.accounts.map((x) => x.address) as [string, string, string];
    // The contact Dana is at an address like the poisoner's (a key for an address like a given one cannot be made).
    const dana = lookalikeAddress(poisoner);
    const { notifier, shown } = await watching(s, [{ id: 'acc-a', name: 'Alice', address: a, kind: 'watch' }], {
      knownAddresses: async () => [{ address: dana, label: 'your contact Dana' }],
    });
    await notifier.checkIncoming(); // the first look
    await transfer(s, poisoner, a, '0.00000001');
    await transfer(s, c, a, '2');
    await notifier.checkIncoming();
    expect(shown.map((n) => [n.title, n.body])).toEqual([
      [
        'Received 0.00000001 KOIN',
        expect.stringMatching(
          /^To Alice, in block \d+, from a look-alike of your contact Dana: do not copy its address or send to it\.$/,
        ),
      ],
      ['Received 2 KOIN', expect.stringMatching(new RegExp(`^From ${shortId(c)} to Alice, in block \\d+\\.$`))],
    ]);
  });

  it('notifies tokens arriving in an account and its own sends, until turned off; the setting outlives a restart', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const dataDir = await tempDir();
    const [a, b] = devnet.accounts.map((x) => x.address) as [string, string];
    const accounts: AccountInfo[] = [
      { id: 'acc-a', name: 'Alice', address: a, kind: 'key' },
      { id: 'acc-b', name: 'Bob', address: b, kind: 'watch' },
    ];
    const shown: WalletNotification[] = [];
    const options = {
      dataDir,
      ...s,
      accounts: () => accounts,
      emit: (n: WalletNotification) => shown.push(n),
      presenter: 'page' as const,
      intervalMs: 20,
    };
    const notifier = await Notifier.open(options);
    expect(notifier.settings()).toEqual({ enabled: true, presenter: 'page' });
    notifier.start();
    onCleanup(async () => notifier.stop());
    await notifier.checkIncoming(); // the first look: what is already there is not news

    const id = await transfer(s, a, b, '1.5');
    const received = await until(
      'an incoming notification',
      () => shown.find((n) => n.title.startsWith('Received')),
      10_000,
    );
    expect(received).toEqual({
      id: `in:local:${id}:acc-b:0`,
      title: 'Received 1.5 KOIN',
      body: expect.stringMatching(/^From Alice to Bob, in block \d+\.$/),
      target: { networkId: 'local', transactionId: id, accountId: 'acc-b' },
    });
    expect(shown.find((n) => n.id === `tx:${id}:included`)).toMatchObject({
      body: expect.stringMatching(/^Sending 1\.5 KOIN to /),
      target: { accountId: 'acc-a' },
    });
    expect(shown.filter((n) => n.title.startsWith('Received'))).toHaveLength(1);

    expect(await notifier.update({ enabled: false })).toEqual({ enabled: false, presenter: 'page' });
    expect(JSON.parse(await readFile(join(dataDir, NOTIFICATION_SETTINGS_FILE), 'utf8'))).toMatchObject({
      enabled: false,
    });
    const before = shown.length;
    await transfer(s, a, b, '2');
    await notifier.checkIncoming();
    expect(shown).toHaveLength(before);

    notifier.stop();
    expect((await Notifier.open(options)).settings().enabled).toBe(false);
  });

  it('reads a page of history only when a look finds a record newer than the last it saw', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts.map((x) => x.address) as [string, string];
    // The real history service, counted: each page is three requests to the node and the decoding of its records.
    let pages = 0;
    const history = {
      page: (request: Parameters<HistoryService['page']>[0]) => {
        pages++;
        return s.history.page(request);
      },
    } as HistoryService;
    const { notifier, shown } = await watching(s, [{ id: 'acc-b', name: 'Bob', address: b, kind: 'watch' }], {
      history,
    });
    await notifier.checkIncoming(); // the first look only notes the newest record
    await notifier.checkIncoming();
    expect(pages).toBe(0);

    const id = await transfer(s, a, b, '0.5');
    await notifier.checkIncoming();
    expect(pages).toBe(1);
    expect(shown.map((n) => n.id)).toEqual([`in:local:${id}:acc-b:0`]);
    await notifier.checkIncoming();
    expect(pages).toBe(1);
  });
});
