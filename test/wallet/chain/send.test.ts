// Sending KOIN through the Send service against a real devnet over HTTP: review, confirm, receipt, inclusion;
// validation of recipient and amount; two sends in a row; a chain ID that changed between review and confirm.
import { describe, expect, it } from 'vitest';
import { startDevnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { formatAmount } from '../../../src-main/koinos/amounts.ts';
import { KoinosNode } from '../../../src-main/wallet/chain/koinosNode.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { tokenBalance } from '../../../src-main/wallet/chain/tokens.ts';
import { revertReason } from '../../../src-main/wallet/chain/transactionFollower.ts';
import { PendingTransactions } from '../../../src-main/wallet/chain/pendingTransactions.ts';
import { cutBalanceUnderWaiting, holdingProxy, onCleanup, recordingProxy, tempDir, testDevnet } from './helpers.ts';
import { testServices } from './services.ts';
import type { TxUpdate } from '../../../src-main/wallet/chain/types.ts';
import { until } from '../../helpers/until.ts';
import { KOIN } from '../../helpers/constants.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

/** `promise`, and whether it has settled yet. */
function settledFlag(promise: Promise<unknown>): { promise: Promise<unknown>; settled: boolean } {
  const flag = { promise, settled: false };
  flag.promise = promise.finally(() => (flag.settled = true));
  return flag;
}

describe('SendService', () => {
  it('prepares a review of exactly what will be signed, then signs, submits and follows it into an irreversible block', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({
      from: a!.address,
      to: b!.address,
      token: 'koin',
      amount: '1.5',
      memo: 'invoice 42',
    });
    expect(review.networkId).toBe('local');
    expect(review.chainId).toBe(devnet.chainId);
    expect(review.payer).toBe(a!.address);
    expect(review.nonce).toBe('1');
    expect(BigInt(review.rcEstimate)).toBeGreaterThan(0n);
    expect(review.estimateSource).toBe('default');
    // rc_limit in the review is a cap: all the mana the 1.5 KOIN sent leave (KOIN is the mana).
    expect(BigInt(review.rcLimit)).toBe(BigInt(review.availableMana) - 150_000_000n);
    expect(review.operations).toHaveLength(1);
    expect(review.operations[0]!.entryPoint).toBe('transfer');
    expect(review.operations[0]!.summary).toBe(
      `Transfer 1.5 KOIN from ${a!.address} to ${b!.address}, with the memo “invoice 42”`,
    );
    expect(review.operations[0]!.args).toMatchObject({ memo: 'invoice 42' });

    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    const koin = await s.tokens.resolve('local', 'koin');
    const before = await tokenBalance(node, koin, addressFromString(b!.address));
    const receipt = await s.send.confirm(review.reviewId);
    expect(receipt.broadcast).toBe(true);
    expect(receipt.reverted).toBe(false);
    // Sized after the approval by a dry run (the mana it used plus 10 %): far under the cap, and enough.
    expect(BigInt(receipt.rcLimit)).toBeLessThan(BigInt(review.rcLimit) / 1000n);
    expect(BigInt(receipt.rcUsed)).toBeLessThanOrEqual(BigInt(receipt.rcLimit));
    expect(BigInt(receipt.rcLimit)).toBeLessThanOrEqual((BigInt(receipt.rcUsed) * 12n) / 10n);
    expect(receipt.events.some((e) => e.name.endsWith('transfer_event'))).toBe(true);
    const included = await s.follower.waitFor(receipt.transactionId, ['included'], 10_000);
    expect(included.status).toBe('included');
    const height = BigInt(included.blockHeight!);
    await devnet.node.produceBlock();
    await devnet.node.produceBlock(); // irreversibleDepth 2: the block is now irreversible
    const update = await s.follower.waitFor(receipt.transactionId, ['irreversible'], 10_000);
    expect(update.status).toBe('irreversible');
    expect(BigInt(update.blockHeight!)).toBe(height);
    expect(s.pending.all()).toEqual([]);
    expect(await tokenBalance(node, koin, addressFromString(b!.address))).toBe(before + 150_000_000n);

    // A review is confirmed once only.
    expect((await expectWalletError(s.send.confirm(review.reviewId))).code).toBe('NOT_FOUND');
  });

  it('keeps a review the approval queue turned away while another waited, and says when one was confirmed already', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b, c] = devnet.accounts;
    const first = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const second = await s.send.prepare({ from: c!.address, to: b!.address, token: 'koin', amount: '2' });
    // Confirmed at once (two windows, a double click across two reviews): the second meets the first's approval.
    const [one, two] = await Promise.allSettled([s.send.confirm(first.reviewId), s.send.confirm(second.reviewId)]);
    expect(one.status).toBe('fulfilled');
    expect(two).toMatchObject({ status: 'rejected', reason: { code: 'APPROVAL_PENDING' } });
    // Nothing of it was signed or sent: it is still there to confirm.
    const sent = await s.send.confirm(second.reviewId);
    expect(sent.reverted).toBe(false);
    const again = await expectWalletError(s.send.confirm(first.reviewId), 'NOT_FOUND');
    expect(again.shortMessage).toBe(
      'This transfer was confirmed already: look for it in History before you prepare it again.',
    );
    const unknown = await expectWalletError(s.send.confirm('no-such-review'), 'NOT_FOUND');
    expect(unknown.shortMessage).toMatch(/^This review is unknown or older than 10 minutes; nothing was sent\./);
  });

  it('two sends in a row from one account both succeed (nonces 1 and 2)', async () => {
    const devnet = await testDevnet({ blockTimeMs: 60_000 }); // nothing is included in between
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const r1 = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const c1 = await s.send.confirm(r1.reviewId);
    const r2 = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '2' });
    expect(r2.nonce).toBe('2');
    const c2 = await s.send.confirm(r2.reviewId);
    expect(c1.transactionId).not.toBe(c2.transactionId);
    expect(s.pending.waiting('local', a!.address).map((p) => p.nonce)).toEqual([1n, 2n]);
    await devnet.node.produceBlock();
    await s.follower.waitFor(c2.transactionId, ['included', 'irreversible'], 20_000);
  });

  it('stops once the look at the node under way is done, keeping what that look learned', async () => {
    const devnet = await testDevnet({ blockTimeMs: 60_000 }); // blocks only when the test makes them
    const proxy = await holdingProxy(devnet.url, (body) => body.includes('"transaction_store.get_transactions_by_id"'));
    const s = testServices({ localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) });
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const { transactionId } = await s.send.confirm(review.reviewId);
    // A poll is under way, its lookup held; the transfer's block comes meanwhile.
    const release = await proxy.held();
    await devnet.node.produceBlock();
    const stopping = settledFlag(s.follower.stop());
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopping.settled).toBe(false);
    // The lookup answers (the transfer is in a block): the poll finishes, and stop() returns once it has.
    release();
    await stopping.promise;
    expect(s.pending.get(transactionId)?.status).toBe('included');
  });

  it('waits, stopping, for a broadcast under way and records it; once stopped it sends nothing', async () => {
    const devnet = await testDevnet({ blockTimeMs: 60_000 });
    const proxy = await holdingProxy(devnet.url, (body) => body.includes('"broadcast":true'));
    const s = testServices({ localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) });
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    // Approved and signed, the transfer is on its way to the node (held there) as the wallet closes.
    const confirming = s.send.confirm(review.reviewId);
    const release = await proxy.held();
    const stopping = settledFlag(s.follower.stop());
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopping.settled).toBe(false);
    release();
    const { transactionId } = await confirming;
    await stopping.promise;
    expect(s.pending.get(transactionId)?.status).toBe('pending');
    // Stopped: the next transfer is refused before it reaches the node.
    const next = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '2' });
    const refused = await expectWalletError(s.send.confirm(next.reviewId), 'NODE_UNREACHABLE');
    expect(refused.message).toBe('The wallet is closing: it sends nothing more.');
    expect(proxy.requests.filter((r) => r.includes('"broadcast":true'))).toHaveLength(1);
  });

  it('reports a transfer the chain included but reverted (its balance cut before its block) as failed there, with why and the mana', async () => {
    const devnet = await testDevnet({ manual: true }); // irreversibleDepth 2
    const s = testServices(devnet);
    const updates: TxUpdate[] = [];
    s.follower.on((u) => updates.push(u));
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const { transactionId: id } = await s.send.confirm(review.reviewId);
    await cutBalanceUnderWaiting(devnet, a!.address);

    const update = await s.follower.waitFor(id, ['included', 'irreversible'], 20_000);
    expect(update.status).toBe('failed');
    const reverted = `Included in block ${update.blockHeight}, but the chain reverted it: account 'from' has insufficient balance. Nothing was changed but the mana it used.`;
    expect(update.message).toBe(`${reverted} It becomes final once the block is irreversible.`);
    expect(BigInt(update.rcUsed!)).toBeGreaterThan(0n);
    expect(updates.map((u) => u.status)).toEqual(['pending', 'failed']);
    // In the block, reverted, as the history says; its nonce is used, and no mana is held for it.
    const page = await s.history.page({ address: a!.address, limit: 1, ascending: false, irreversibleOnly: false });
    expect(page.records[0]).toMatchObject({ transactionId: id, blockHeight: update.blockHeight, reverted: true });
    expect(page.records[0]!.rcUsed).toBe(update.rcUsed);
    expect(s.pending.waiting('local', a!.address)).toEqual([]);
    const next = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '0.1' });
    expect(next.nonce).toBe('2');

    // Followed until its block is irreversible (a fork could still put it where it goes through): then the last word,
    // and the wallet follows it no more.
    expect(s.pending.get(id)).toMatchObject({ status: 'failed', blockHeight: BigInt(update.blockHeight!) });
    // A restart follows it on: the data folder's file keeps it as it is.
    const dir = await tempDir();
    const kept = await PendingTransactions.open(dir);
    kept.add(s.pending.get(id)!);
    await kept.flush();
    expect((await PendingTransactions.open(dir)).get(id)).toEqual(s.pending.get(id));
    await devnet.node.produceBlocks(2);
    const final = await until('the final update', () => (updates.length > 2 ? updates[2] : undefined), 20_000);
    expect(final).toEqual({ ...update, message: reverted });
    expect(s.pending.get(id)).toBeUndefined();
  });

  it('reads the receipt of a block once for two followed transfers the chain reverted in it', async () => {
    const devnet = await testDevnet({ manual: true });
    const proxy = await recordingProxy(devnet.url);
    const s = testServices({ localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) });
    const [a, b] = devnet.accounts;
    const ids: string[] = [];
    for (const amount of ['1', '2']) {
      const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount });
      ids.push((await s.send.confirm(review.reviewId)).transactionId);
    }
    const calls = () =>
      proxy.requests
        .filter((body) => body.startsWith('{')) // JSON-RPC calls, not the GETs
        .map(
          (body) =>
            JSON.parse(body) as {
              method: string;
              params: { block_ids: string[]; return_receipt?: boolean; transaction_ids?: string[] };
            },
        );
    const receiptReads = () =>
      calls()
        .filter((r) => r.method === 'block_store.get_blocks_by_id' && r.params.return_receipt)
        .map((r) => r.params.block_ids.length);
    // The block comes once a poll asks for both: a poll that began before the second was followed asks for the first
    // only, and would see the block and read its receipt for it alone (the next poll reads it for the second; CI saw
    // [1, 1]). Polls take turns, so every poll after this one asks for both.
    await until('a poll for both transfers', () =>
      calls().some(
        (r) => r.method === 'transaction_store.get_transactions_by_id' && r.params.transaction_ids?.length === 2,
      )
        ? true
        : undefined,
    );
    // Counted when the poll that found both reverted reports the second: a later poll (the block final, on a machine
    // that ran this test late) reads the receipt once more, as it should.
    const failed = new Set<string>();
    let readsUntilBoth: number[] | undefined;
    s.follower.on((update) => {
      if (update.status === 'failed') failed.add(update.transactionId);
      if (failed.size === 2) readsUntilBoth ??= receiptReads();
    });
    await cutBalanceUnderWaiting(devnet, a!.address);

    const updates = await Promise.all(ids.map((id) => s.follower.waitFor(id, ['included', 'irreversible'], 20_000)));
    expect(updates.map((u) => u.status)).toEqual(['failed', 'failed']);
    expect(updates[1]!.blockHeight).toBe(updates[0]!.blockHeight);
    expect(readsUntilBoth).toEqual([1]);
  });

  it("reads the chain's reason from a reverted receipt's logs, on one line and at most 200 characters (the node is not trusted)", () => {
    expect(revertReason(['something else', "transaction reverted: account 'from' has insufficient balance"])).toBe(
      "account 'from' has insufficient balance",
    );
    expect(revertReason(['transaction reverted: two\nlines\u0007 and\ttabs'])).toBe('two lines and tabs');
    const long = revertReason([`transaction reverted: ${'x'.repeat(5000)}`]);
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
    expect(revertReason([])).toBe('its receipt gives no reason');
    expect(revertReason(['transaction reverted: '])).toBe('no reason given');
  });

  it('refuses a bad recipient, the sender itself, bad amounts and more than the balance, before anything is signed', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const bad = b!.address.slice(0, -1) + (b!.address.endsWith('2') ? '3' : '2');
    expect(
      (await expectWalletError(s.send.prepare({ from: a!.address, to: bad, token: 'koin', amount: '1' }))).code,
    ).toBe('INVALID_ADDRESS');
    expect(
      (await expectWalletError(s.send.prepare({ from: a!.address, to: a!.address, token: 'koin', amount: '1' })))
        .shortMessage,
    ).toContain('sending account itself');
    // A token contract is no account: KOIN sent to KOIN's own contract, or to VHP's, could never be taken out.
    for (const token of await s.tokens.list('local')) {
      const refused = await expectWalletError(
        s.send.prepare({ from: a!.address, to: token.contract, token: 'koin', amount: '1' }),
        'INVALID_ADDRESS',
      );
      expect(refused.shortMessage).toBe(
        `The recipient is the ${token.symbol} contract, not an account: what is sent there cannot be taken out again. Choose another recipient.`,
      );
    }
    expect(
      (await expectWalletError(s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '0' }))).code,
    ).toBe('INVALID_AMOUNT');
    const memo = await expectWalletError(
      s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1', memo: 'two\nlines' }),
      'INVALID_ARGUMENT',
    );
    expect(memo.shortMessage).toBe(
      'expected a memo on one line without invisible or control characters, got one with U+000A',
    );
    expect(
      (await expectWalletError(s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '-1' }))).code,
    ).toBe('INVALID_AMOUNT');
    expect(
      (
        await expectWalletError(
          s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '0.000000001' }),
        )
      ).code,
    ).toBe('INVALID_AMOUNT');
    const tooMuch = await expectWalletError(
      s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '2000000' }),
    );
    expect(tooMuch.code).toBe('INSUFFICIENT_BALANCE');
    const all = await expectWalletError(
      s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1000000' }),
    );
    expect(all.code, all.message).toBe('NOT_ENOUGH_MANA');
    // The figures: the whole balance plus the transfer's cost needed, the mana there is, and it is full already.
    expect(all.metaMessages).toEqual([
      expect.stringMatching(/^1,?000,?000\.\d+ mana needed, 1000000 available, mana is full\.$/),
    ]);
    const max = await s.send.maxAmount(undefined, a!.address, 'koin');
    expect(max.decimals).toBe(8);
    expect(max.amount).toBeLessThan(1_000_000n * KOIN);
    // Max keeps the expected cost, which it tells (nothing measured yet on this network: the reserve).
    expect(max.estimateSource).toBe('default');
    expect(max.amount + max.rcEstimate).toBe(1_000_000n * KOIN);
    // Another account pays the cost: the whole balance (KOIN still leaves with as much of the sender's mana).
    expect(
      (await s.send.maxAmount(undefined, a!.address, 'koin', { kind: 'account', address: b!.address })).amount,
    ).toBe(1_000_000n * KOIN);
    const review = await s.send.prepare({
      from: a!.address,
      to: b!.address,
      token: 'koin',
      amount: formatAmount(max.amount - 10n * KOIN),
    });
    expect(BigInt(review.rcLimit)).toBeGreaterThan(0n);
    // A mana limit set by hand too low: the review cannot know (nothing is signed before approval); the dry run after
    // the approval finds it, and nothing is sent.
    const low = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1', rcLimit: '1' });
    const refused = await expectWalletError(s.send.confirm(low.reviewId));
    expect(refused.code).toBe('NOT_ENOUGH_MANA');
    expect(refused.shortMessage).toContain('Nothing was sent');
    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    expect(await node.nonce(addressFromString(a!.address))).toBe(0n);
  });

  it('counts what its transfers waiting for a block take: the max is what is left, and more is refused before signing', async () => {
    const devnet = await testDevnet({ manual: true }); // the first transfer waits in the mempool
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const koin = await s.tokens.resolve('local', 'koin');
    const balance = await s.tokens.balanceOf('local', koin, a!.address);
    const first = await s.send.prepare({
      from: a!.address,
      to: b!.address,
      token: 'koin',
      amount: formatAmount(balance / 2n),
    });
    const { transactionId: firstId } = await s.send.confirm(first.reviewId);

    // Half the KOIN leaves with the first transfer, with its mana; its mana limit is held meanwhile.
    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    const outgoing = async () =>
      s.pending.outgoing('local', a!.address, koin.contract, await node.nonce(addressFromString(a!.address)));
    expect(await outgoing()).toBe(balance / 2n);
    const max = await s.send.maxAmount(undefined, a!.address, 'koin');
    const held = s.pending.heldMana('local', a!.address);
    expect(held).toBeGreaterThan(0n);
    expect(max.amount).toBe(balance - balance / 2n - held - max.rcEstimate);
    const paid = await s.send.maxAmount(undefined, a!.address, 'koin', { kind: 'freeMana' });
    expect(paid.amount).toBe(balance - balance / 2n - held);
    // The chain's balance alone would allow more: refused before anything is signed.
    const tooMuch = await expectWalletError(
      s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: formatAmount(balance / 2n + KOIN) }),
    );
    expect(tooMuch.code).toBe('INSUFFICIENT_BALANCE');
    expect(tooMuch.shortMessage).toMatch(/once the account's transfers waiting for a block \(\S+ KOIN\) are in\./);
    expect(s.person.seen).toHaveLength(1);

    // The max goes through once both are in a block.
    const second = await s.send.prepare({
      from: a!.address,
      to: b!.address,
      token: 'koin',
      amount: formatAmount(max.amount),
    });
    const { transactionId: secondId } = await s.send.confirm(second.reviewId);
    await devnet.node.produceBlock();
    // In a block, whether the follower has looked yet or not: the balance counts them now, and they are not counted twice.
    expect(await outgoing()).toBe(0n);
    for (const id of [firstId, secondId])
      expect((await s.follower.waitFor(id, ['included', 'irreversible'], 20_000)).status).not.toBe('failed');
  });

  it('counts the mana that leaves with KOIN still waiting for a block: more than the unused rest is refused', async () => {
    const devnet = await testDevnet({ manual: true });
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    // A first transfer in a block uses some mana: the account's mana is now below its balance.
    const used = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const { transactionId: usedId } = await s.send.confirm(used.reviewId);
    await devnet.node.produceBlock();
    await s.follower.waitFor(usedId, ['included', 'irreversible'], 20_000);
    const koin = await s.tokens.resolve('local', 'koin');
    const balance = await s.tokens.balanceOf('local', koin, a!.address);
    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    const mana = await node.rc(addressFromString(a!.address));
    expect(mana).toBeLessThan(balance);
    // Half the balance waits for a block; the other half passes the balance check, but not its mana.
    const half = balance / 2n;
    const first = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: formatAmount(half) });
    await s.send.confirm(first.reviewId);
    const rest = formatAmount(balance - half);
    const refused = await expectWalletError(
      s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: rest }),
    );
    expect(refused.code).toBe('NOT_ENOUGH_MANA');
    expect(refused.shortMessage).toBe(
      `Only KOIN whose mana is unused can be sent: the account has ${formatAmount(mana)} mana, of which ${formatAmount(half)} leaves with its transfers waiting for a block: ${formatAmount(mana - half)} for ${rest} KOIN. Send less, or wait for mana to regenerate.`,
    );
  });

  it('refuses to sign when the chain ID changed between review and confirm (a reset devnet), and sends nothing', async () => {
    const dir = await tempDir();
    let devnet = await startDevnet({
      port: 0,
      dataDir: dir,
      blockTimeMs: 0,
      accounts: 3,
      signatureThreads: 0,
      log: () => {},
    });
    onCleanup(() => devnet.stop());
    const port = Number(new URL(devnet.url).port);
    const url = devnet.url;
    const s = testServices({ localUrl: async () => url, wifs: devnet.accounts.map((x) => x.wif) });
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const oldChain = devnet.chainId;
    await devnet.stop();
    devnet = await startDevnet({
      port,
      dataDir: dir,
      reset: true,
      blockTimeMs: 0,
      accounts: 3,
      signatureThreads: 0,
      log: () => {},
    });
    expect(devnet.chainId).not.toBe(oldChain);
    const error = await expectWalletError(s.send.confirm(review.reviewId));
    expect(error.code).toBe('CHAIN_ID_MISMATCH');
    expect(error.shortMessage).toContain('Nothing was signed or sent');
    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    expect(await node.nonce(addressFromString(a!.address))).toBe(0n);
    const head = await s.networks.head('local');
    expect(head.chainIdChanged).toEqual({ previous: oldChain, current: devnet.chainId });
  });
});
