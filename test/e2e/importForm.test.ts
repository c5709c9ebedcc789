// End to end: the Accounts screen's import form keeps a private key in its masked field. A key typed there does not
// appear in the recovery phrase's plain text area when the person switches to "Recovery phrase"; switching back finds
// it still typed, and it imports.
import { afterEach, describe, expect, it } from 'vitest';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { chromiumMissing, go, useE2eWallet, type E2eWallet } from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('the import form in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('never shows a typed private key in the phrase field, and imports it', async () => {
    e2e = await useE2eWallet({ name: 'import-form' });
    const { page, shots } = e2e;
    const { wif, address } = devKey(1);
    await go(page, 'Accounts');
    await page.getByRole('button', { name: 'Import or watch' }).click();
    await page.getByLabel('Private key (WIF or hex)').check();
    await page.getByLabel('Private key', { exact: true }).fill(wif);

    await page.getByLabel('Recovery phrase').check();
    const phrase = page.getByRole('textbox', { name: 'Recovery phrase' });
    expect(await phrase.inputValue()).toBe('');
    expect(await page.content()).not.toContain(wif);
    await shots.take(page, 'phrase-after-key');

    await page.getByLabel('Private key (WIF or hex)').check();
    expect(await page.getByLabel('Private key', { exact: true }).inputValue()).toBe(wif);
    await page.getByRole('button', { name: 'Import account' }).click();
    await expect.poll(() => page.getByText(address).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await shots.take(page, 'imported');
  });
});
