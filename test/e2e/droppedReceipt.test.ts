// End to end: a transfer whose block loses its fork, on a custom network whose node keeps what a real node's stores
// keep (forkKeepingProxy). The receipt goes from included to dropped with the follower's reason, and no longer shows
// the mana and events of the node's answer at submission as what happened, nor sends the user to a history without it.
// "Send it again" opens the form as it was (so does Back from a review), and the new transfer takes the freed nonce.
// And a transfer the chain includes but reverts (its balance cut while it waited): the receipt says so and why, with
// the mana its block charged, and its events as ones that never happened; so does its notification, which opens it in
// the history, marked reverted.
import type { Locator } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { cutBalanceUnderWaiting, forkKeepingProxy, testDevnet } from '../wallet/chain/helpers.ts';
import {
  addCustomNetwork,
  approve,
  chromiumMissing,
  clickNotification,
  notification,
  recordNotifications,
  selectAccount,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

/** The nonce a review shows. */
async function nonceOf(review: Locator): Promise<string> {
  return (
    (await review.getByText('Nonce', { exact: true }).locator('xpath=following-sibling::dd[1]').textContent()) ?? ''
  ).trim();
}

describe.skipIf(missing !== undefined)('a transfer the chain did not apply, in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('says the transfer was dropped and why, that its mana and events never happened, and sends it again', async () => {
    // A devnet of its own that makes a block per transaction: the test decides when the chain forks.
    const devnet = await testDevnet();
    const proxy = await forkKeepingProxy(devnet.url);
    // Development account 0 is the same key on every devnet.
    e2e = await useE2eWallet({ name: 'dropped-receipt', devAccounts: [0] });
    const { page, shots } = e2e;
    await addCustomNetwork(page, 'Forking node', `${proxy.url}/jsonrpc`);
    await selectAccount(page, 'Devnet account 0');
    const fork = await devnet.node.snapshot();

    const recipient = page.getByLabel('Recipient address');
    const amount = page.getByLabel(/^Amount/);
    const review = page.getByRole('region', { name: 'Review what will be signed' });
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Send', exact: true }).click();
    await recipient.fill(devnet.accounts[1]!.address);
    await amount.fill('1');
    await page.getByRole('button', { name: 'Review' }).click();
    await review.waitFor({ timeout: 20_000 });
    const nonce = await nonceOf(review);
    expect(nonce).toMatch(/^[1-9]\d*$/);
    // Back from the review: the form as it was.
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await recipient.inputValue()).toBe(devnet.accounts[1]!.address);
    expect(await amount.inputValue()).toBe('1');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page);

    const status = page.getByTestId('tx-status');
    const mana = page.getByTestId('tx-mana');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Included in block \d+\./);
    expect(await mana.textContent()).toMatch(/of at most/);
    await expect.poll(() => page.getByRole('heading', { name: 'Events', exact: true }).count()).toBe(1);
    const toHistory = page.getByRole('button', { name: 'See it in the history' });
    expect(await toHistory.count()).toBe(1);
    await shots.take(page, 'receipt-included');

    // The fork: back before the transfer (a revert empties the mempool), and the chain grows past its block.
    await devnet.node.revert(fork);
    await devnet.node.produceBlocks(3);

    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toMatch(/^Its block lost a fork, and the node no longer has the transaction\. Nothing was changed/);
    expect(await mana.textContent()).toMatch(/^\s*None: the transaction was not applied\.\s+When the node took it/);
    expect(await page.getByRole('heading', { name: 'Events it would have emitted' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Events', exact: true }).count()).toBe(0);
    expect(await page.getByText('None of them happened: the chain did not apply the transaction.').count()).toBe(1);
    // The history will not list it: no way there from this receipt; the way to send it again instead.
    expect(await toHistory.count()).toBe(0);
    await shots.take(page, 'receipt-dropped');

    // Sent again: the same fields in the form, a new review with the nonce the dropped one had freed, a new approval.
    await page.getByRole('button', { name: 'Send it again' }).click();
    expect(await recipient.inputValue()).toBe(devnet.accounts[1]!.address);
    expect(await amount.inputValue()).toBe('1');
    await shots.take(page, 'form-sent-again');
    await page.getByRole('button', { name: 'Review' }).click();
    await review.waitFor({ timeout: 20_000 });
    expect(await nonceOf(review)).toBe(nonce);
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page);
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Included in block \d+\./);
    expect(await mana.textContent()).toMatch(/of at most/);
  });

  it('says the chain reverted the transfer in its block, and why, with the mana charged and no event happened', async () => {
    // A devnet that makes blocks only when told: the transfer waits in its mempool while its balance is cut.
    const devnet = await testDevnet({ manual: true });
    e2e = await useE2eWallet({ name: 'reverted-receipt', devAccounts: [0] });
    const { page, shots } = e2e;
    await recordNotifications(e2e);
    await addCustomNetwork(page, 'Manual devnet', `${devnet.url}/jsonrpc`);
    await selectAccount(page, 'Devnet account 0');
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByLabel('Recipient address').fill(devnet.accounts[1]!.address);
    await page.getByLabel(/^Amount/).fill('1');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page);
    const status = page.getByTestId('tx-status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Sent\. Waiting/);

    await cutBalanceUnderWaiting(devnet, devnet.accounts[0]!.address);
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toMatch(
        /^Included in block \d+, but the chain reverted it: account 'from' has insufficient balance\. Nothing was changed but the mana it used\. It becomes final once the block is irreversible\.$/,
      );
    expect(await page.getByTestId('tx-mana').textContent()).toMatch(
      /^\s*0\.0\d+\s+charged for the reverted transaction, of at most /,
    );
    expect(await page.getByRole('heading', { name: 'Events it would have emitted' }).count()).toBe(1);
    expect(await page.getByText('None of them happened: the chain reverted the transaction.').count()).toBe(1);
    // The history lists it, reverted: the way there stays.
    expect(await page.getByRole('button', { name: 'See it in the history' }).count()).toBe(1);
    await shots.take(page, 'receipt-reverted');

    // The notification says it failed and why; a click opens it in the history, marked reverted.
    const failed = await notification(page, 'Transaction failed');
    expect(failed.body).toMatch(
      /^Sending 1 KOIN to 1\w+…\w{4} failed\. Included in block \d+, but the chain reverted it: account 'from' has insufficient balance\./,
    );
    await clickNotification(page, 'Transaction failed');
    const focused = page.getByRole('region', { name: 'The notified transaction' });
    await expect.poll(() => focused.textContent(), { timeout: 20_000 }).toMatch(/reverted/);
    expect(await focused.locator('.badge.danger').textContent()).toBe('reverted');
    await shots.take(page, 'history-reverted');
  });
});
