// End to end in the browser shell: a sent transaction's inclusion shows a notification through the page's Notification
// API (headless Chromium displays none: harness.ts recordNotifications); clicking it opens the entry in History, on the
// network it was sent on though the user has chosen another since; the setting is in Settings; History exports a CSV
// that is saved as a download.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { testDevnet } from '../wallet/chain/helpers.ts';
import {
  addCustomNetwork,
  approve,
  chromiumMissing,
  clickNotification,
  go,
  notification,
  recordNotifications,
  selectAccount,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('notifications and export in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('notifies an inclusion through the Notification API, opens its entry on click, and exports the history as CSV', async () => {
    e2e = await useE2eWallet({ name: 'notify-and-export', devAccounts: [0] });
    const { page, wallet, shots } = e2e;
    await recordNotifications(e2e);
    const own = (await wallet.handlers['accounts:list']())[0]!;
    await selectAccount(page, 'Devnet account 0');

    await go(page, 'Settings');
    const toggle = page.getByRole('checkbox', { name: /Show a desktop notification/ });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await page.getByRole('status').filter({ hasText: 'Desktop notifications are off.' }).waitFor();
    await toggle.check();
    await page.getByRole('status').filter({ hasText: 'Desktop notifications are on.' }).waitFor();
    expect(await wallet.handlers['notifications:get']()).toEqual({ enabled: true, presenter: 'page' });
    await shots.take(page, 'settings-notifications');

    // A transfer from the development account to the wallet's own account, approved in the page.
    const from = (await wallet.handlers['accounts:list']()).find((a) => a.name === 'Devnet account 0')!;
    const review = await wallet.handlers['send:prepare']({
      fromAccountId: from.id,
      to: own.address,
      token: 'koin',
      amount: '2.5',
    });
    const confirmed = wallet.handlers['send:confirm']({ reviewId: review.reviewId });
    await approve(page);
    const { transactionId } = await confirmed;

    const included = await notification(page, 'Transaction included');
    expect(included.body).toMatch(/^Sending 2\.5 KOIN to 1\w+…\w{4} is in block \d+\./);

    // The user has gone on to another network since: the click comes back to the one the transfer was sent on.
    const other = await testDevnet();
    await addCustomNetwork(page, 'Other devnet', `${other.url}/jsonrpc`);
    await go(page, 'Dashboard');
    await clickNotification(page, 'Transaction included');
    await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
    const network = page.getByRole('combobox', { name: 'Network', exact: true });
    await expect.poll(() => network.inputValue()).toBe('local');
    const focused = page.getByRole('region', { name: 'The notified transaction' });
    await expect.poll(() => focused.getByTestId('focused-transaction').textContent()).toBe(transactionId);
    await expect.poll(() => focused.textContent(), { timeout: 20_000 }).toMatch(/Sent 2\.5 KOIN/);
    // The list below it is that network's: it holds the transfer too.
    const rows = page.getByLabel('Transaction history').getByRole('listitem');
    await expect.poll(() => rows.filter({ hasText: 'Sent 2.5 KOIN' }).count(), { timeout: 20_000 }).toBe(1);

    await page.getByText('Export history', { exact: true }).click();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const ready = page.getByRole('status').filter({ hasText: /rows? ready/ });
    await ready.waitFor({ timeout: 20_000 });
    await shots.take(page, 'history-focus-export');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Save koinos-history-/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^koinos-history-local-${from.address}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const csv = await readFile(await download.path(), 'utf8');
    const row = csv.split('\r\n').find((line) => line.includes(transactionId));
    expect(row).toMatch(
      new RegExp(
        `,"${transactionId}","sent","KOIN","\\w+","2\\.5","${own.address}","${own.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}",`,
      ),
    );
  }, 180_000);
});
