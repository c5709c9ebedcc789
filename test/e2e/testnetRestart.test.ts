// End to end: a testnet restart. The Local network is reset to a new chain ID while the wallet is open; the wallet
// says so, and refuses a transaction that was signed for the old chain ID.
import { afterEach, describe, expect, it } from 'vitest';
import {
  alertText,
  chromiumMissing,
  exportUnsigned,
  go,
  selectAccount,
  signOffline,
  useE2eWallet,
  submitSigned,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('a testnet restart in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('warns that the chain ID changed and refuses a transaction signed for the old one', async () => {
    e2e = await useE2eWallet({ name: 'testnet-restart', devAccounts: [0] });
    const { page, shots } = e2e;
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'Dashboard');
    const chainId = page.getByTestId('chain-id');
    await chainId.waitFor({ timeout: 20_000 });
    const oldChainId = (await chainId.textContent())?.trim();

    const signed = await signOffline(page, await exportUnsigned(page, 'Account 1', '1'));

    await go(page, 'Networks');
    await page.getByRole('button', { name: 'Reset to a new chain' }).click();
    await shots.take(page, 'reset-confirm');
    await page.getByRole('button', { name: 'Yes, reset it' }).click();

    await go(page, 'Dashboard');
    const warning = await alertText(page, /was restarted/);
    expect(warning).toContain(oldChainId);
    await expect.poll(async () => (await chainId.textContent())?.trim()).not.toBe(oldChainId);
    await shots.take(page, 'dashboard-chain-id-changed');

    await submitSigned(page, signed);
    const refusal = await alertText(page, /chain/i);
    expect(refusal).toMatch(/chain ID/i);
    expect(await page.getByTestId('tx-status').count()).toBe(0);
    await shots.take(page, 'old-transaction-refused');

    // Still usable: the Dashboard answers.
    await go(page, 'Dashboard');
    await expect.poll(() => page.getByTestId('balance-KOIN').count(), { timeout: 20_000 }).toBe(1);
  });
});
