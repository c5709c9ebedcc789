// End to end: a new wallet imports a development account, sees its balance and mana, sends KOIN to its own second
// account through the review, sees the receipt, the transfer in both histories, and balances and mana change.
import { afterEach, describe, expect, it } from 'vitest';
import {
  amountText,
  approve,
  chromiumMissing,
  createWallet,
  go,
  importDevAccount,
  selectAccount,
  startE2eWallet,
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
    await shots.take(page, 'send-form');
    await page.getByRole('button', { name: 'Review' }).click();

    const review = page.getByRole('region', { name: 'Review what will be signed' });
    await review.waitFor({ timeout: 20_000 });
    await expect.poll(() => review.textContent()).toContain('transfer');
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

    await go(page, 'History');
    const sentRow = page.getByRole('listitem').filter({ hasText: /Sent 1\.5 KOIN/ });
    await expect.poll(() => sentRow.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await shots.take(page, 'history-sender');

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
});
