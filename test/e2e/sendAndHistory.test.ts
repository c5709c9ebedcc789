// End to end: a new wallet imports a development account, sees its balance and mana, sends KOIN to its own second
// account through the review, sees the receipt, the transfer in both histories, and balances and mana change. Then
// History's first page fetched ahead on the Dashboard (or under the pointer on its button): painted at once, the fresh
// page after it (one request however many blocks come while it waits), and never a page from before the window's own
// send. The Dashboard's figures asked for at a new head only on the screens that show them.
import { Contract, Provider, Signer, utils } from 'koilib';
import type { Page, Request, Route } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { included } from '../devnet/koilibContract.ts';
import {
  amountText,
  approve,
  chromiumMissing,
  createWallet,
  go,
  importDevAccount,
  selectAccount,
  startE2eWallet,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('sending KOIN in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('creates a wallet, sends to a second account after the review, and shows the transfer on both sides', async () => {
    e2e = await startE2eWallet({ name: 'send-and-history' });
    const { page, shots } = e2e;
    await shots.take(page, 'welcome');
    await createWallet(page, shots);
    const ownAddress = (await page.getByRole('main').getByRole('code').first().textContent())?.trim() ?? '';
    expect(ownAddress).toMatch(/^1[1-9A-HJ-NP-Za-km-z]{25,34}$/);

    await importDevAccount(page, 0);
    await shots.take(page, 'networks-dev-accounts');
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'Dashboard');
    const koin = page.getByTestId('balance-KOIN');
    await expect.poll(async () => amountText(await koin.textContent()), { timeout: 20_000 }).toMatch(/^[1-9]/);
    const balanceBefore = Number(amountText(await koin.textContent()));
    const manaBefore = Number(amountText(await page.getByTestId('mana-amount').locator('strong').textContent()));
    expect(manaBefore).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('img', { name: /^Mana \d/ }).count()).toBe(1);
    await shots.take(page, 'dashboard-dev-account');

    await page.getByRole('main').getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByLabel('Recipient address').fill(ownAddress);
    await expect.poll(() => page.getByText('Valid address (checksum matches).').count()).toBe(1);
    await page.getByLabel(/^Amount/).fill('1.5');
    // A memo with a character that turns the text around is refused as typed (a paste may bring one); plain text is
    // taken. (A text field drops line breaks itself.)
    const memo = page.getByLabel(/^Memo/);
    await memo.fill('rent \u202eMarch');
    await page
      .getByText('Expected a memo on one line without invisible or control characters, got one with U+202E.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);
    await memo.fill('rent, March');
    await shots.take(page, 'send-form');
    await page.getByRole('button', { name: 'Review' }).click();

    const review = page.getByRole('region', { name: 'Review what will be signed' });
    await review.waitFor({ timeout: 20_000 });
    await expect.poll(() => review.textContent()).toContain('transfer');
    expect(await review.textContent()).toContain(', with the memo “rent, March”');
    await expect.poll(() => review.getByText('Nonce', { exact: true }).count()).toBe(1);
    await shots.take(page, 'review');

    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page, { shots, shot: 'approval' });
    const status = page.getByTestId('tx-status');
    await status.waitFor({ timeout: 20_000 });
    const txId = (await page.getByTestId('tx-id').textContent())?.trim() ?? '';
    expect(txId).toMatch(/^0x1220[0-9a-f]{64}$/);
    await shots.take(page, 'receipt');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/Included in block|Irreversible/);
    await shots.take(page, 'receipt-included');
    // Its event in words, with the token's decimals.
    expect(await page.getByRole('region', { name: 'Receipt' }).textContent()).toMatch(
      /Transfer 1\.5 KOIN from 1\w{25,34} to 1\w{25,34}/,
    );

    await go(page, 'History');
    const sentRow = page.getByRole('listitem').filter({ hasText: /Sent 1\.5 KOIN/ });
    await expect.poll(() => sentRow.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await sentRow.first().textContent()).toContain('Memo: “rent, March”');
    await shots.take(page, 'history-sender');
    // The person's own note on the entry: written above the list, then on the entry, the focus back on its button.
    await sentRow
      .first()
      .getByRole('button', { name: /^Add note/ })
      .click();
    const noting = page.getByRole('region', { name: 'Note on a transaction' });
    await noting.getByLabel(/^Note on /).fill('paid from savings');
    await shots.take(page, 'history-note-editor');
    await noting.getByRole('button', { name: 'Save note' }).click();
    await expect.poll(() => sentRow.first().textContent()).toContain('Note: paid from savings');
    const editNote = sentRow.first().getByRole('button', { name: /^Edit note/ });
    await expect.poll(() => editNote.evaluate((b) => b === b.ownerDocument.activeElement)).toBe(true);
    await shots.take(page, 'history-note');

    await go(page, 'Dashboard');
    await expect
      .poll(async () => Number(amountText(await koin.textContent())), { timeout: 20_000 })
      .toBeCloseTo(balanceBefore - 1.5, 6);
    const manaAfter = Number(amountText(await page.getByTestId('mana-amount').locator('strong').textContent()));
    expect(manaAfter).toBeLessThan(manaBefore);
    await shots.take(page, 'dashboard-after-send');

    await selectAccount(page, 'Account 1');
    await expect.poll(async () => amountText(await koin.textContent()), { timeout: 20_000 }).toBe('1.5');
    await go(page, 'History');
    await expect
      .poll(
        () =>
          page
            .getByRole('listitem')
            .filter({ hasText: /Received 1\.5 KOIN/ })
            .count(),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await shots.take(page, 'history-recipient');
  });

  it('opens History on the page fetched ahead, then the fresh one; after a send, only a fresh one', async () => {
    const ready = await useE2eWallet({ name: 'history-ahead', devAccounts: [0] });
    e2e = ready;
    const { page } = ready;
    const dev0 = ready.dev[0]!;
    const dev0Id = (await ready.wallet.handlers['accounts:list']()).find((a) => a.address === dev0)!.id;
    const history = page.getByLabel('Transaction history');
    const rows = (text: RegExp) => history.getByRole('listitem').filter({ hasText: text });
    await transferOutside(ready, 1, dev0, '100000000');

    // The Dashboard of development account 0 fetches History's first page once it has its figures.
    let fetchedAhead = aheadAnswer(page, dev0Id);
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'Dashboard');
    await fetchedAhead;
    // A transfer in after that page, from outside the window: no news of it reaches the page.
    await transferOutside(ready, 1, dev0, '200000000');

    // History paints the page fetched ahead while its own ask for the first page is held, then the fresh page.
    let held = await holdHistoryRequests(page);
    await go(page, 'History');
    await expect.poll(() => held.asked, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => rows(/Received 1 KOIN/).count(), { timeout: 20_000 }).toBe(1);
    expect(await rows(/Received 2 KOIN/).count()).toBe(0);
    // Blocks that come while that request waits make no more requests (one more once it is answered).
    const headOf = async () => BigInt((await ready.wallet.handlers['networks:head']({})).height);
    const heldAt = await headOf();
    await expect.poll(headOf, { timeout: 20_000 }).toBeGreaterThan(heldAt + 4n);
    expect(held.asked).toBe(1);
    await held.release();
    await expect.poll(() => rows(/Received 2 KOIN/).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => rows(/Received 1 KOIN/).count()).toBe(1);

    // From another screen, the pointer on the History button fetches the page before the click. (Before the window's
    // send below: that send's news from main, down to its irreversible block 60 blocks later, drops a page fetched
    // ahead, and could come between the hover and the click.)
    await go(page, 'Accounts');
    fetchedAhead = aheadAnswer(page, dev0Id);
    const historyButton = page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'History' });
    await historyButton.hover();
    await fetchedAhead;
    held = await holdHistoryRequests(page);
    await historyButton.click();
    await expect.poll(() => held.asked, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => rows(/Received 2 KOIN/).count(), { timeout: 20_000 }).toBe(1);
    await held.release();

    // A page fetched before the window's own send is not shown after it: History waits for the fresh page.
    fetchedAhead = aheadAnswer(page, dev0Id);
    await go(page, 'Dashboard');
    await fetchedAhead;
    await page.getByRole('main').getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByLabel('Recipient address').fill(ready.own);
    await page.getByLabel(/^Amount/).fill('0.5');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page);
    await page.getByTestId('tx-status').waitFor({ timeout: 20_000 });
    held = await holdHistoryRequests(page);
    await page.getByRole('button', { name: 'See it in the history' }).click();
    await expect.poll(() => held.asked, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await history.getByRole('listitem').count()).toBe(0);
    await held.release();
    await expect.poll(() => rows(/Sent 0\.5 KOIN/).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => rows(/Received 2 KOIN/).count()).toBe(1);
  });

  it("asks for the Dashboard's figures at a new head only while a screen shows them, and once as one opens after heads", async () => {
    // A devnet that makes a block only when asked: each head is one this test makes, and nothing is asked meanwhile.
    const ready = await useE2eWallet({ name: 'figures-on-screen', devAccounts: [0], devnet: { manual: true } });
    e2e = ready;
    const { page, wallet } = ready;
    const { url } = await wallet.handlers['devnet:status']();
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'Dashboard');
    const koin = page.getByTestId('balance-KOIN');
    await expect.poll(async () => amountText(await koin.textContent()), { timeout: 20_000 }).toMatch(/^[1-9]/);
    const asked = new Set<Request>();
    let answered = 0;
    page.on('request', (r) => void (r.url().includes('/ipc/dashboard%3Aget') && asked.add(r)));
    page.on('requestfinished', (r) => void (asked.has(r) && answered++));
    await page.evaluate(COUNT_HEADS);
    const heard = async () => Number(await page.evaluate('window.headsHeard'));
    /** Makes a block, and returns once the page has heard of it and has every dashboard answer it asked for since. */
    const nextHead = async () => {
      const before = await heard();
      const made = await fetch(`${url}/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devnet.produce_block', params: {} }),
      });
      expect(await made.json()).toHaveProperty('result.block_height');
      await expect.poll(heard, { timeout: 20_000 }).toBeGreaterThan(before);
      await expect.poll(() => answered, { timeout: 20_000 }).toBe(asked.size);
    };
    // The first head after the wallet's start (which asked for the figures as it loaded), then one at a time.
    await nextHead();
    const start = asked.size;

    // On the Dashboard and on Send (their figures), each head asks once.
    await nextHead();
    expect(asked.size - start).toBe(1);
    await go(page, 'Send');
    await nextHead();
    expect(asked.size - start).toBe(2);
    // On screens without them, heads ask nothing...
    await go(page, 'Accounts');
    await nextHead();
    await nextHead();
    await go(page, 'History');
    await nextHead();
    expect(asked.size - start).toBe(2);
    // ...and the Dashboard, opened again, asks once at once (no head needed), and shows them.
    await go(page, 'Dashboard');
    await expect.poll(() => answered - start, { timeout: 20_000 }).toBe(3);
    await expect.poll(async () => amountText(await koin.textContent()), { timeout: 20_000 }).toMatch(/^[1-9]/);
    // With no head since, another screen and back ask nothing more.
    await go(page, 'Accounts');
    await go(page, 'Dashboard');
    await koin.waitFor();
    expect(asked.size - start).toBe(3);
  });
});

/** Runs in the page: counts the heads main pushes to it from now on, in `window.headsHeard`. */
const COUNT_HEADS = `(() => {
  window.headsHeard = 0;
  window.koinos.on('head:new', () => { window.headsHeard += 1; });
})()`;

/** The answer to the Dashboard's history:page request for account `accountId` (the page fetched ahead). */
async function aheadAnswer(page: Page, accountId: string): Promise<void> {
  await page.waitForResponse(
    (r) => r.url().includes('/ipc/history%3Apage') && (r.request().postData() ?? '').includes(accountId),
    { timeout: 20_000 },
  );
}

/**
 * Holds the page's history:page requests (the real requests, sent on when released) and counts them; release() sends
 * the held ones on, lets later ones through, and stops holding.
 */
async function holdHistoryRequests(page: Page): Promise<{ asked: number; release: () => Promise<void> }> {
  const pattern = '**/ipc/history%3Apage';
  const waiting: Route[] = [];
  let released = false;
  const state = {
    asked: 0,
    release: async () => {
      released = true;
      await Promise.all(waiting.map((route) => route.continue()));
      await page.unroute(pattern);
    },
  };
  await page.route(pattern, async (route) => {
    state.asked++;
    if (released) await route.continue();
    else waiting.push(route);
  });
  return state;
}

/** KOIN from development account `from` to `to`, sent with koilib straight to the devnet and awaited in a block. */
async function transferOutside(e2e: E2eWallet, from: number, to: string, value: string): Promise<void> {
  const { url } = await e2e.wallet.handlers['devnet:status']();
  const koin = (await e2e.wallet.handlers['tokens:list']({})).find((t) => t.system === 'koin')!;
  const provider = new Provider([`${url}/jsonrpc`]);
  const key = devKey(from);
  const contract = new Contract({
    id: koin.contract,
    abi: utils.tokenAbi,
    provider,
    signer: Object.assign(Signer.fromWif(key.wif), { provider }),
  });
  const { transaction } = await contract.functions.transfer!({ from: key.address, to, value });
  await included(provider, transaction, 30_000);
}
