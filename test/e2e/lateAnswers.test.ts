// End to end: answers that come late, as from a slow node, never put older data on screen.
// - The head block on the Dashboard never steps back. The page hears of the head from two sources: main's push of every
//   new head (`head:new`), and the head that comes with each dashboard answer. An answer read before a newer head was
//   pushed arrives after it when the dashboard takes longer than a block; its older head must not come back on screen.
// - History loses no record when the first page, asked again at a new head, lands while the next page is on its way.
// - A network the user has left puts no late answer (balances, a stopped node's failure) on the screens of the one
//   chosen since.
// - The network list and the waiting signing requests, read as the page loads the unlocked wallet and answered after a
//   change was pushed, do not take the change away; nor does the vault's status, read as the page starts, unlock on
//   screen a wallet that locked meanwhile.
// Main's answers are held with the harness's holdNext: the real answer, given late.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcChannel } from '../../src-main/ipc/contract.ts';
import type { WalletApp } from '../../src-main/wallet/walletApp.ts';
import { KOIN, key, submit, transferTx } from '../devnet/helpers.ts';
import { testDevnet } from '../wallet/chain/helpers.ts';
import {
  addCustomNetwork,
  alertText,
  chooseNetwork,
  chromiumMissing,
  go,
  holdNext,
  optionLabel,
  PASSWORD,
  pageRoundTrip,
  releaseToPage,
  selectAccount,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

/**
 * Runs in the page: records every text the head height shows, in order, in `window.shownHeights`. A string (the tests'
 * TypeScript has no DOM types); the observer reads the element at each change of the page.
 */
const RECORD_HEIGHTS = `(() => {
  const shown = [];
  window.shownHeights = shown;
  const note = () => {
    const text = document.querySelector('[data-testid="head-height"]')?.textContent?.trim();
    if (text && text !== shown[shown.length - 1]) shown.push(text);
  };
  note();
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** Runs in the page: records the text of every alert shown from now on, in `window.shownAlerts`. */
const RECORD_ALERTS = `(() => {
  const shown = [];
  window.shownAlerts = shown;
  new MutationObserver(() => {
    for (const alert of document.querySelectorAll('[role="alert"]')) {
      const text = alert.textContent.trim();
      if (text && !shown.includes(text)) shown.push(text);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/**
 * Locks the wallet (in main) and unlocks it again on the page, holding the page's next call of `channel` (made as it
 * loads the unlocked wallet): `whileHeld` runs once main has read that call's answer, and must release it.
 */
async function unlockHolding<C extends IpcChannel>(
  page: Page,
  wallet: WalletApp,
  channel: C,
  whileHeld: (held: { release: () => void }) => Promise<void>,
): Promise<void> {
  await wallet.handlers['vault:lock']();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  // The calls the page made while it was unlocked have all reached main (they were sent before this one).
  await pageRoundTrip(page);
  const held = holdNext(wallet.handlers, channel);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await held.answered;
  await whileHeld(held);
}

describe.skipIf(missing !== undefined)('answers that come late', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('keep a newer pushed head on the Dashboard when a dashboard answer read before it comes later', async () => {
    e2e = await useE2eWallet({ name: 'head-order' });
    const { page, wallet } = e2e;
    const height = page.getByTestId('head-height');
    await height.waitFor({ timeout: 20_000 });
    await page.evaluate(RECORD_HEIGHTS);

    // A block a second, a push a second: the next dashboard answer is read, then held until a later head is pushed.
    const held = holdNext(wallet.handlers, 'dashboard:get');
    const read = BigInt((await held.answered).head.height);
    await expect
      .poll(async () => BigInt((await height.textContent())?.trim() ?? '0'), { timeout: 20_000 })
      .toBeGreaterThan(read);
    // The page asks again (the push asked for a refresh while the held one ran) only once the held answer is shown.
    const after = holdNext(wallet.handlers, 'dashboard:get');
    after.release();
    held.release();
    await after.answered;

    const shown = (await page.evaluate('window.shownHeights')) as string[];
    const heights = shown.map(BigInt);
    expect(heights.some((h) => h > read)).toBe(true);
    for (let i = 1; i < heights.length; i++)
      expect(heights[i]! >= heights[i - 1]!, `heights shown, in order: ${shown.join(', ')}`).toBe(true);
  });
  it("lose no History record when a new head's first page lands while the next page is on its way", async () => {
    // Devnet account 0 with more records than History's first page (40): a block per transaction.
    const devnet = await testDevnet();
    for (let i = 0; i < 44; i++) await submit(devnet.node, await transferTx(devnet.node, key(1), key(0), KOIN));
    e2e = await useE2eWallet({ name: 'late-history-page', devAccounts: [0] });
    const { page, wallet } = e2e;
    await addCustomNetwork(page, 'Busy devnet', `${devnet.url}/jsonrpc`);
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'History');
    const count = page.locator('.count[role="status"]');
    await expect.poll(() => count.textContent(), { timeout: 20_000 }).toBe('40+ records');

    // A new record makes a new head: the screen asks for the first page again, and that answer is held.
    const first = holdNext(wallet.handlers, 'history:page', (query) => query.seqNum === undefined);
    await submit(devnet.node, await transferTx(devnet.node, key(1), key(0), KOIN));
    await first.answered;
    // Meanwhile the user scrolls to the end: the next page is asked for, and held too.
    const next = holdNext(wallet.handlers, 'history:page', (query) => query.seqNum !== undefined);
    await page.getByLabel('Transaction history').evaluate((list) => (list.scrollTop = list.scrollHeight));
    await next.answered;
    // The first page lands first, then the next one.
    await releaseToPage(page, first, 'history:page');
    next.release();

    // Every record of the account, none missing: as many as the node has.
    const { values } = (await devnet.node.call('account_history.get_account_history', {
      address: key(0).addressBytes,
      limit: 1n,
      ascending: false,
    })) as { values: { seq_num?: bigint }[] };
    const total = (values[0]!.seq_num ?? 0n) + 1n;
    await expect.poll(() => count.textContent(), { timeout: 20_000 }).toMatch(/^\d+ records$/);
    expect(await count.textContent()).toBe(`${total} records`);
  });
  it('keep a network pushed while the page loads its networks on its picker, when the list read before comes later', async () => {
    e2e = await useE2eWallet({ name: 'late-network-list' });
    const { page, wallet } = e2e;
    const picker = page.getByRole('combobox', { name: 'Network', exact: true });
    await optionLabel(picker, 'Local (devnet)');
    // The wallet locks and is unlocked again: the network list the page then asks for is read and held while a network
    // is added (as by another window) and pushed to the page.
    await unlockHolding(page, wallet, 'networks:list', async (held) => {
      const { url } = await wallet.handlers['devnet:status']();
      await wallet.handlers['networks:add']({ name: 'Spare node', jsonRpcUrl: `${url!}/jsonrpc` });
      await optionLabel(picker, 'Spare node');
      // The list read before the push comes now: the picker keeps the network.
      await releaseToPage(page, held, 'networks:list');
    });
    const options = (await picker.getByRole('option').allTextContents()).map((o) => o.trim());
    expect(options).toContain('Spare node');
  });
  it('keep a signing request pushed while the page loads the waiting ones on screen, when the list read before comes later', async () => {
    const ready = await useE2eWallet({ name: 'late-approvals', devAccounts: [0] });
    e2e = ready;
    const { page, wallet, own, dev } = ready;
    const fromAccountId = (await wallet.handlers['accounts:list']()).find((a) => a.address === dev[0])!.id;
    const dialog = page.getByRole('dialog', { name: /^Approve/ });
    let confirming: Promise<unknown> | undefined;
    // The wallet locks and is unlocked again: the list of waiting requests the page then asks for is read (none) and
    // held while a transfer asks to be signed.
    await unlockHolding(page, wallet, 'approvals:list', async (held) => {
      const review = await wallet.handlers['send:prepare']({ fromAccountId, to: own, token: 'koin', amount: '1' });
      confirming = wallet.handlers['send:confirm']({ reviewId: review.reviewId }).catch((error: unknown) => error);
      await dialog.waitFor();
      // The list read before the request comes now: the request stays on screen, and is rejected from there.
      await releaseToPage(page, held, 'approvals:list');
    });
    expect(await dialog.count()).toBe(1);
    await dialog.getByRole('button', { name: /^Reject/ }).click();
    expect(await confirming).toMatchObject({ code: 'REJECTED' });
  });
  it('keep a wallet that locked while the page loaded locked on screen, when the status read before comes later', async () => {
    e2e = await useE2eWallet({ name: 'late-lock' });
    const { page, wallet } = e2e;
    // The page loads again; the vault's status it asks for is read (unlocked) and held while the wallet locks.
    const held = holdNext(wallet.handlers, 'vault:status');
    await page.reload();
    expect((await held.answered).unlocked).toBe(true);
    await wallet.handlers['vault:lock']();
    const unlock = page.getByRole('button', { name: 'Unlock' });
    await unlock.waitFor();
    // The status read before the lock comes now: the page stays locked.
    await releaseToPage(page, held, 'vault:status');
    expect(await unlock.count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Screens' }).count()).toBe(0);
  });
  it("keep a left network's late answers off the screens of the network chosen since", async () => {
    // Another devnet, where Devnet account 0 has sent 1 KOIN: its balance there differs from Local's.
    const other = await testDevnet();
    await submit(other.node, await transferTx(other.node, key(0), key(1), KOIN));
    e2e = await useE2eWallet({ name: 'late-network-answers', devAccounts: [0] });
    const { page, wallet } = e2e;
    const balance = page.getByRole('listitem', { name: 'Devnet account 0' }).locator('.balance');
    await go(page, 'Accounts');
    await expect.poll(() => balance.textContent(), { timeout: 20_000 }).toMatch(/KOIN$/);
    const onLocal = await balance.textContent();
    await addCustomNetwork(page, 'Other devnet', `${other.url}/jsonrpc`);
    await go(page, 'Accounts');
    await expect.poll(() => balance.textContent(), { timeout: 20_000 }).not.toMatch(new RegExp(`^(…|${onLocal})$`));
    const onOther = await balance.textContent();

    // The accounts' balances on the other devnet come late, once the user has chosen Local again.
    await go(page, 'Dashboard');
    const balances = holdNext(wallet.handlers, 'accounts:koinBalances');
    await go(page, 'Accounts');
    await balances.answered;
    await chooseNetwork(e2e, 'Local (devnet)');
    // From now on, with Local chosen: every figure the row shows.
    await page.evaluate(`(() => {
      const cell = document.querySelector('[aria-label="Devnet account 0"] .balance');
      const shown = [];
      window.shownBalances = shown;
      new MutationObserver(() => shown.push(cell.textContent)).observe(cell, { subtree: true, childList: true, characterData: true });
    })()`);
    await releaseToPage(page, balances, 'accounts:koinBalances');
    await expect.poll(() => balance.textContent(), { timeout: 20_000 }).toBe(onLocal);
    const shown = (await page.evaluate('window.shownBalances')) as string[];
    expect(shown).not.toContain(onOther);

    // A stopped node's dashboard, asked when the user picks another account there, fails late.
    const stopped = await testDevnet();
    const url = `${stopped.url}/jsonrpc`;
    await stopped.stop();
    await addCustomNetwork(page, 'Stopped node', url);
    await go(page, 'Dashboard');
    // Every failure of the stopped node names its address.
    const port = new URL(url).port;
    expect(await alertText(page, /node|reach|answer/i)).toContain(port);
    const dashboard = holdNext(wallet.handlers, 'dashboard:get');
    await selectAccount(page, 'Devnet account 0');
    await dashboard.settled;
    // The page asks for Local's dashboard once the late failure has come (one dashboard call at a time).
    const localDashboard = holdNext(wallet.handlers, 'dashboard:get');
    localDashboard.release();
    await chooseNetwork(e2e, 'Local (devnet)');
    // Local chosen: the stopped node's problem, shown until now, is gone.
    await expect.poll(() => page.getByRole('alert').count(), { timeout: 20_000 }).toBe(0);
    await page.evaluate(RECORD_ALERTS);
    dashboard.release();
    await localDashboard.answered;
    await expect.poll(() => page.getByTestId('balance-KOIN').count(), { timeout: 20_000 }).toBe(1);
    const alerts = (await page.evaluate('window.shownAlerts')) as string[];
    expect(alerts.filter((text) => text.includes(port))).toEqual([]);
  });
});
