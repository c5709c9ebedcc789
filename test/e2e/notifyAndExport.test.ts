// End to end in the browser shell: a sent transaction's inclusion shows a notification through the page's Notification
// API (headless Chromium displays none, so an init script records each one constructed); clicking it opens the entry
// in History; the setting is in Settings; History exports a CSV that is saved as a download.
import { text } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { approve, chromiumMissing, go, selectAccount, useE2eWallet, type E2eWallet } from './harness.ts';

const missing = chromiumMissing();

/**
 * Runs in the page before its scripts: every Notification constructed is recorded, and kept to be clicked. A string
 * (the tests' TypeScript has no DOM types); init scripts are injected by the browser, not evaluated under the CSP.
 */
const RECORD_NOTIFICATIONS = `(() => {
  const Original = window.Notification;
  const notified = [];
  const shown = [];
  class Recorded extends Original {
    constructor(title, options) {
      super(title, options);
      notified.push({ title, body: (options && options.body) || '' });
      shown.push(this);
    }
  }
  Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true, writable: true });
  window.notified = notified;
  window.shown = shown;
})();`;

interface Recorded {
  notified: { title: string; body: string }[];
  shown: { title: string; onclick: ((event: unknown) => void) | null }[];
}

describe.skipIf(missing !== undefined)('notifications and export in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('notifies an inclusion through the Notification API, opens its entry on click, and exports the history as CSV', async () => {
    e2e = await useE2eWallet({ name: 'notify-and-export', devAccounts: [0] });
    const { page, context, shell, wallet, shots } = e2e;
    await context.grantPermissions(['notifications'], { origin: new URL(shell.url).origin });
    await context.addInitScript({ content: RECORD_NOTIFICATIONS });
    await page.reload();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
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

    const notified = () => page.evaluate(() => (globalThis as unknown as Recorded).notified);
    const included = await expect
      .poll(async () => (await notified()).find((n) => n.title === 'Transaction included'), { timeout: 30_000 })
      .toBeDefined()
      .then(async () => (await notified()).find((n) => n.title === 'Transaction included')!);
    expect(included.body).toMatch(/^Sending 2\.5 KOIN to 1\w+…\w{4} is in block \d+\./);

    await go(page, 'Dashboard');
    await page.evaluate(() =>
      (globalThis as unknown as Recorded).shown.find((n) => n.title === 'Transaction included')?.onclick?.({}),
    );
    await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
    const focused = page.getByRole('region', { name: 'The notified transaction' });
    await expect.poll(() => focused.getByTestId('focused-transaction').textContent()).toBe(transactionId);
    await expect.poll(() => focused.textContent(), { timeout: 20_000 }).toMatch(/Sent 2\.5 KOIN/);

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
      new RegExp(`^koinos-history-${from.address}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    // Streamed from the browser: the run's Chromium is a browser server, whose download has no local path.
    const csv = await text(await download.createReadStream());
    const row = csv.split('\r\n').find((line) => line.includes(transactionId));
    expect(row).toMatch(
      new RegExp(
        `,${transactionId},sent,KOIN,\\w+,2\\.5,${own.address},${own.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},`,
      ),
    );
  }, 180_000);
});
