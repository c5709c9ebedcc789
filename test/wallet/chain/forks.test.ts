// A sent transaction whose block loses its fork, against a devnet behind a proxy whose transaction and block stores keep
// what a real node's keep (forkKeepingProxy): the store goes on listing the abandoned block. The follower and the
// history give the block the chain has. The follower never calls irreversible a transaction the chain dropped: it
// drops it at once (its nonce is free again), or follows it again when the node has it back in its mempool, and a
// notification announces its new block. One the chain reverted in its block is followed on too, until that block is
// irreversible. A node that lists the transaction nowhere may only be late: the follower keeps its status then, except
// on the Local devnet, a single node, where it drops it at once.
import { describe, expect, it } from 'vitest';
import type { Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import type { Transaction } from '../../../src-main/koinos/types.ts';
import type { TxUpdate } from '../../../src-main/wallet/chain/types.ts';
import type { AccountInfo, WalletNotification } from '../../../src-main/ipc/contract.ts';
import { Notifier } from '../../../src-main/wallet/notifications/notifier.ts';
import {
  cutBalanceUnderWaiting,
  forkKeepingProxy,
  onCleanup,
  recordingProxy,
  tempDir,
  testDevnet,
  type TestServer,
} from './helpers.ts';
import { until } from '../../helpers/until.ts';
import { KOIN } from '../../helpers/constants.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { tokenBalance } from '../../../src-main/wallet/chain/tokens.ts';
import { testServices, type TestServices } from './services.ts';

/**
 * A devnet (irreversibleDepth 2) seen through a proxy (a forkKeepingProxy unless told), with every follower update
 * kept, and a snapshot taken just before 1 KOIN is sent from its first development account to its second: the
 * transfer's id and height once included. `manual`: the devnet makes blocks only when told (one is made for the
 * transfer), so that a transaction can wait in its mempool. `stop`: the follower stops as soon as it says included
 * (the look that said it asks the node nothing more), so that it does not look while a test rewrites the chain.
 * `watch`: runs before the transfer is sent.
 */
async function sentAfterSnapshot(
  options: {
    proxy?: (target: string) => Promise<TestServer>;
    manual?: boolean;
    stop?: boolean;
    /** Sent on a custom network at the proxy's address rather than on the Local network (a single node). */
    custom?: boolean;
    /** Called with the services before the transfer is sent (to listen from the start). */
    watch?: (s: TestServices, devnet: Devnet) => Promise<void>;
  } = {},
): Promise<{
  devnet: Devnet;
  proxy: TestServer;
  s: TestServices;
  updates: TxUpdate[];
  fork: bigint;
  id: string;
  height: bigint;
}> {
  const devnet = await testDevnet({ irreversibleDepth: 2, ...(options.manual ? { manual: true } : {}) });
  const proxy = await (options.proxy ?? forkKeepingProxy)(devnet.url);
  const s = testServices({ localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) });
  const updates: TxUpdate[] = [];
  s.follower.on((u) => updates.push(u));
  if (options.custom) {
    const network = await s.networks.add({ name: 'Behind a proxy', jsonRpcUrl: `${proxy.url}/jsonrpc` });
    await s.networks.select(network.id);
  }
  await options.watch?.(s, devnet);
  const fork = await devnet.node.snapshot();
  const [a, b] = devnet.accounts;
  const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
  const { transactionId: id } = await s.send.confirm(review.reviewId);
  if (options.manual) await devnet.node.produceBlock();
  const included = await s.follower.waitFor(id, ['included'], 10_000);
  if (options.stop) await s.follower.stop();
  return { devnet, proxy, s, updates, fork, id, height: BigInt(included.blockHeight!) };
}

/** The signed transaction `id` as the devnet holds it (taken before a revert removes it). */
async function signed(devnet: Devnet, id: string): Promise<Transaction> {
  const { transactions } = (await devnet.node.call('transaction_store.get_transactions_by_id', {
    transaction_ids: [Buffer.from(id.slice(2), 'hex')],
  })) as { transactions: { transaction: Transaction }[] };
  return transactions[0]!.transaction;
}

/** Starts a notifier over `s` for the devnet's first account ("Alice"); what it shows is pushed to `shown`. */
async function notifyInto(s: TestServices, devnet: Devnet, shown: WalletNotification[]): Promise<void> {
  const accounts: AccountInfo[] = [{ id: 'acc-a', name: 'Alice', address: devnet.accounts[0]!.address, kind: 'key' }];
  const notifier = await Notifier.open({
    dataDir: await tempDir(),
    ...s,
    accounts: () => accounts,
    emit: (n: WalletNotification) => shown.push(n),
    presenter: 'page',
    intervalMs: 20,
  });
  notifier.start();
  onCleanup(async () => notifier.stop());
}

describe('a transaction in a block that lost its fork', () => {
  it('is followed into the block the chain has, and the history shows that block, not the first one listed', async () => {
    // The follower looks no more while the chain is rewritten: between the revert and the transfer's new block, a look
    // would find it in no block of the chain and in no mempool, and drop it (as a test below shows).
    const { devnet, s, updates, fork, id, height: lostHeight } = await sentAfterSnapshot({ stop: true });
    const transaction = await signed(devnet, id);

    // The fork: back before the transfer, an empty block at its height, then the same signed transfer one block higher.
    await devnet.node.revert(fork);
    await devnet.node.produceBlock();
    await devnet.node.call('chain.submit_transaction', { transaction, broadcast: true });
    // Two more blocks: the transfer's new block is irreversible (irreversibleDepth 2).
    await devnet.node.produceBlocks(2);
    s.follower.resume();

    const final = await s.follower.waitFor(id, ['irreversible'], 20_000);
    expect(final.blockHeight).toBe(String(lostHeight + 1n));
    expect(updates.filter((u) => u.transactionId === id && u.status === 'irreversible')).toHaveLength(1);

    const { node } = await s.networks.node();
    const head = await node.head();
    const [onChain] = (await node.chainBlockIds(head.id, [lostHeight + 1n])).values();
    const page = await s.history.page({
      address: devnet.accounts[0]!.address,
      limit: 5,
      ascending: false,
      irreversibleOnly: false,
    });
    const record = page.records.find((r) => r.transactionId === id)!;
    expect(record.blockHeight).toBe(String(lostHeight + 1n));
    expect(record.blockId).toBe(`0x${Buffer.from(onChain!).toString('hex')}`);
    expect(record.status).toBe('irreversible');
    // The proxy does list the lost block first, as the real store would.
    const [listed] = await node.transactionsById([Buffer.from(id.slice(2), 'hex')]);
    expect(listed!.containing_blocks).toHaveLength(2);
  });

  it('is announced again when a fork moves it: the notification names its new block and the one that lost', async () => {
    const shown: WalletNotification[] = [];
    const {
      devnet,
      s,
      fork,
      id,
      height: lostHeight,
    } = await sentAfterSnapshot({
      stop: true,
      watch: (s, devnet) => notifyInto(s, devnet, shown),
    });
    const transaction = await signed(devnet, id);
    await until('the first "included" notification', () => shown.find((n) => n.id === `tx:${id}:included`), 10_000);

    // The same fork as above (the follower stopped meanwhile): the transfer lands one block higher, in a block of its
    // own (this devnet makes one per transaction), and is final two blocks later.
    await devnet.node.revert(fork);
    await devnet.node.produceBlock();
    await devnet.node.call('chain.submit_transaction', { transaction, broadcast: true });
    s.follower.resume();
    await until(
      'the "moved" notification',
      () => shown.find((n) => n.id === `tx:${id}:included:${lostHeight + 1n}`),
      10_000,
    );
    await devnet.node.produceBlocks(2);

    const final = await until('"Transaction final"', () => shown.find((n) => n.id === `tx:${id}:irreversible`), 20_000);
    expect(final.body).toMatch(new RegExp(`is irreversible \\(block ${lostHeight + 1n}\\)\\.$`));
    const mine = shown.filter((n) => n.target.transactionId === id);
    expect(mine.map((n) => n.title)).toEqual([
      'Transaction included',
      'Transaction moved to another block',
      'Transaction final',
    ]);
    expect(mine[0]!.body).toMatch(new RegExp(`^Sending 1 KOIN to \\S+ is in block ${lostHeight}\\.`));
    expect(mine[1]).toEqual({
      id: `tx:${id}:included:${lostHeight + 1n}`,
      title: 'Transaction moved to another block',
      body: expect.stringMatching(
        new RegExp(
          `^Sending 1 KOIN to \\S+ is now in block ${lostHeight + 1n}: block ${lostHeight}, which had it, lost a fork\\. It becomes final`,
        ),
      ),
      target: { networkId: 'local', transactionId: id, accountId: 'acc-a' },
    });
  });

  it('is followed on after the chain reverted it in its block, and told included when a fork puts it where it goes through', async () => {
    const devnet = await testDevnet({ manual: true }); // irreversibleDepth 2
    const proxy = await forkKeepingProxy(devnet.url);
    const s = testServices({ localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) });
    const updates: TxUpdate[] = [];
    s.follower.on((u) => updates.push(u));
    const shown: WalletNotification[] = [];
    await notifyInto(s, devnet, shown);
    const fork = await devnet.node.snapshot();
    const [a, b] = devnet.accounts;
    const before = await tokenBalance(
      (await s.networks.node()).node,
      await s.tokens.resolve('local', 'koin'),
      addressFromString(b!.address),
    );
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const { transactionId: id } = await s.send.confirm(review.reviewId);
    await cutBalanceUnderWaiting(devnet, a!.address);
    const failed = await until('failed', () => updates.find((u) => u.status === 'failed'), 10_000);
    expect(failed.message).toMatch(
      /reverted it: account 'from' has insufficient balance\..* It becomes final once the block is irreversible\.$/,
    );
    // Not final yet: still followed (the follower looks no more while the chain is rewritten).
    expect(s.pending.get(id)).toMatchObject({ status: 'failed', blockHeight: BigInt(failed.blockHeight!) });
    await s.follower.stop();
    const transaction = await signed(devnet, id);

    // The fork: back before the transfer and the cut, an empty block at its height, then the same signed transfer one
    // block higher, where the balance is whole.
    await devnet.node.revert(fork);
    await devnet.node.produceBlock();
    await devnet.node.call('chain.submit_transaction', { transaction, broadcast: true });
    await devnet.node.produceBlock();
    s.follower.resume();
    const included = await until('included', () => updates.find((u) => u.status === 'included'), 10_000);
    expect(included.blockHeight).toBe(String(BigInt(failed.blockHeight!) + 1n));
    await devnet.node.produceBlocks(2);
    expect((await s.follower.waitFor(id, ['irreversible'], 20_000)).blockHeight).toBe(included.blockHeight);
    expect(updates.filter((u) => u.transactionId === id).map((u) => u.status)).toEqual([
      'pending',
      'failed',
      'included',
      'irreversible',
    ]);
    expect(s.pending.get(id)).toBeUndefined();
    // It went through: the second account holds the KOIN it had at the fork and the one sent.
    const { node } = await s.networks.node();
    const koin = await s.tokens.resolve('local', 'koin');
    expect(await tokenBalance(node, koin, addressFromString(b!.address))).toBe(before + KOIN);

    await until('"Transaction final"', () => shown.find((n) => n.id === `tx:${id}:irreversible`), 10_000);
    const mine = shown.filter((n) => n.target.transactionId === id);
    expect(mine.map((n) => n.title)).toEqual([
      'Transaction failed',
      'Transaction moved to another block',
      'Transaction final',
    ]);
    expect(mine[1]!.body).toMatch(
      new RegExp(
        `^Sending 1 KOIN to \\S+ is now in block ${included.blockHeight}: block ${failed.blockHeight}, which had it, lost a fork\\.`,
      ),
    );
  });

  // A fork most often puts another block at the same height: the follower tells the blocks apart by id.
  it.each([
    { first: 'reverted', then: 'goes through', statuses: ['pending', 'failed', 'included', 'irreversible'] },
    { first: 'goes through', then: 'reverted', statuses: ['pending', 'included', 'failed'] },
  ])(
    'is followed into another block at the same height: first $first, then $then there',
    async ({ first, statuses }) => {
      const devnet = await testDevnet({ manual: true }); // irreversibleDepth 2
      const proxy = await forkKeepingProxy(devnet.url);
      const s = testServices({ localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) });
      const updates: TxUpdate[] = [];
      s.follower.on((u) => updates.push(u));
      const fork = await devnet.node.snapshot();
      const [a, b] = devnet.accounts;
      const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
      const { transactionId: id } = await s.send.confirm(review.reviewId);
      // In block A: reverted (its balance cut in that block) or through.
      if (first === 'reverted') await cutBalanceUnderWaiting(devnet, a!.address);
      else await devnet.node.produceBlock();
      const seen = await until('in block A', () => updates.find((u) => u.blockHeight !== undefined), 10_000);
      await s.follower.stop();
      const transaction = await signed(devnet, id);

      // The fork: block B at the same height holds the same signed transfer, with the balance whole or cut.
      await devnet.node.revert(fork);
      await devnet.node.call('chain.submit_transaction', { transaction, broadcast: true });
      if (first === 'reverted') await devnet.node.produceBlock();
      else await cutBalanceUnderWaiting(devnet, a!.address);
      s.follower.resume();
      const last = statuses.at(-1)!;
      await until('its update for block B', () =>
        updates.filter((u) => u.transactionId === id).length >= statuses.length - (last === 'irreversible' ? 1 : 0)
          ? true
          : undefined,
      );
      if (last === 'irreversible') {
        await devnet.node.produceBlocks(2);
        await s.follower.waitFor(id, ['irreversible'], 20_000);
      }
      const mine = updates.filter((u) => u.transactionId === id);
      expect(mine.map((u) => u.status)).toEqual(statuses);
      expect(mine.slice(1).every((u) => u.blockHeight === seen.blockHeight)).toBe(true);
      // What the history says of it: its block B.
      const page = await s.history.page({ address: a!.address, limit: 3, ascending: false, irreversibleOnly: false });
      expect(page.records.find((r) => r.transactionId === id)).toMatchObject({
        blockHeight: seen.blockHeight,
        reverted: first !== 'reverted',
      });
    },
  );

  it('is dropped once the chain has moved past its block without it, never called irreversible, and frees its nonce', async () => {
    const { devnet, s, updates, fork, id, height } = await sentAfterSnapshot();

    // The fork drops the transfer (a revert empties the mempool); the chain grows past its old block's height until
    // that height is irreversible.
    await devnet.node.revert(fork);
    await devnet.node.produceBlocks(3);
    const { node } = await s.networks.node();
    expect((await node.head()).lastIrreversible).toBeGreaterThanOrEqual(height);

    const update = await s.follower.waitFor(id, ['expired'], 20_000);
    expect(update.status).toBe('expired');
    expect(update.message).toMatch(/^Its block lost a fork, and the node no longer has the transaction\./);
    expect(updates.filter((u) => u.transactionId === id).map((u) => u.status)).toEqual([
      'pending',
      'included',
      'expired',
    ]);
    expect(s.pending.get(id)).toBeUndefined();

    // The next transfer takes the dropped one's nonce and goes through.
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '2' });
    expect(review.nonce).toBe('1');
    const { transactionId } = await s.send.confirm(review.reviewId);
    expect((await s.follower.waitFor(transactionId, ['included', 'irreversible'], 10_000)).status).not.toBe('expired');
  });

  it('is pending again when its block lost a fork and the node has it in its mempool once more', async () => {
    // The follower looks no more while the chain is rewritten (a revert empties the mempool for a moment).
    const { devnet, s, updates, fork, id, height } = await sentAfterSnapshot({ manual: true, stop: true });
    const { node } = await s.networks.node();
    const transaction = await signed(devnet, id);

    // Two forks at that height: the transfer in another block there, then in none and back in the mempool.
    await devnet.node.revert(fork);
    const again = await devnet.node.snapshot();
    await devnet.node.call('chain.submit_transaction', { transaction, broadcast: true });
    await devnet.node.produceBlock();
    const [listed] = await node.transactionsById([Buffer.from(id.slice(2), 'hex')]);
    expect(listed!.containing_blocks).toHaveLength(2);
    await devnet.node.revert(again);
    await devnet.node.call('chain.submit_transaction', { transaction, broadcast: true });

    s.follower.resume();
    expect((await s.follower.waitFor(id, ['pending'], 20_000)).status).toBe('pending');
    expect(s.pending.get(id)).toMatchObject({ status: 'pending', blockHeight: undefined });
    // Included once more, and followed to the end.
    await devnet.node.produceBlocks(3);
    const final = await s.follower.waitFor(id, ['irreversible'], 20_000);
    expect(final.blockHeight).toBe(String(height));
    // Whether a look fell between that block and the last two, to say 'included' first, depends on timing.
    const statuses = updates.filter((u) => u.transactionId === id).map((u) => u.status);
    expect(statuses.slice(0, 3)).toEqual(['pending', 'included', 'pending']);
    expect(statuses.slice(3).filter((status) => status !== 'included')).toEqual(['irreversible']);
  });

  it('stays included, neither pending nor dropped, while a node lists the transaction nowhere (it may only be late)', async () => {
    // No fork-keeping store here: after the revert the devnet knows nothing of the transfer, as a node behind the
    // others would not yet. Only a store that still lists its block shows the block lost a fork. A custom network:
    // the Local network is a single node, which is never late (next test).
    const { devnet, proxy, s, updates, fork, id, height } = await sentAfterSnapshot({
      proxy: recordingProxy,
      custom: true,
    });

    await devnet.node.revert(fork);
    await devnet.node.produceBlocks(3);
    // Two more looks of the follower, both made after the chain changed (a look asks the transaction store first).
    const looks = () => proxy.requests.filter((r) => r.includes('transaction_store.get_transactions_by_id')).length;
    const seen = looks();
    await until('two more looks of the follower', () => (looks() >= seen + 2 ? true : undefined));

    expect(s.pending.get(id)).toMatchObject({ status: 'included', blockHeight: height });
    expect(updates.filter((u) => u.transactionId === id).map((u) => u.status)).toEqual(['pending', 'included']);
  });

  it('is dropped at once on the Local devnet, a single node, once the devnet lists it nowhere, and frees its nonce', async () => {
    // The devnet's own revert: it forgets the blocks it removes, so nothing lists the transfer any more.
    const { devnet, s, updates, fork, id } = await sentAfterSnapshot({ proxy: recordingProxy });
    await devnet.node.revert(fork);
    await devnet.node.produceBlocks(3);

    const update = await s.follower.waitFor(id, ['expired'], 10_000);
    expect(update.message).toMatch(/^The devnet no longer has the transaction or its block: its chain was reverted/);
    expect(updates.filter((u) => u.transactionId === id).map((u) => u.status)).toEqual([
      'pending',
      'included',
      'expired',
    ]);
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '2' });
    expect(review.nonce).toBe('1');
  });
});
