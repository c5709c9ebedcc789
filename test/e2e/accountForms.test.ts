// End to end: the Accounts screen's forms to add an account. The import form keeps a private key in its masked field: a
// key typed there does not appear in the recovery phrase's plain text area when the person switches to "Recovery
// phrase"; switching back finds it still typed, and it imports. The next account of a phrase comes from the phrase the
// list shows, chosen from the start. An imported phrase brings the accounts it was used with on the selected network,
// and on the first run on the network the person says they used it on.
import { afterEach, describe, expect, it } from 'vitest';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { deriveAccount } from '../../src-main/wallet/vault/secretPayload.ts';
import { rpc } from '../devnet/httpHelpers.ts';
import { PASSWORD, chromiumMissing, go, startE2eWallet, useE2eWallet, type E2eWallet } from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)("the Accounts screen's forms in the browser", () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('never shows a typed private key in the phrase field, and imports it', async () => {
    e2e = await useE2eWallet({ name: 'account-forms' });
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

  it('shows the phrase the next account comes from, chosen from the start', async () => {
    e2e = await useE2eWallet({ name: 'account-forms-derive' });
    const { page, shots } = e2e;
    await go(page, 'Accounts');
    await page.getByRole('button', { name: 'Next account of a phrase' }).click();
    const phrase = page.getByLabel('Phrase', { exact: true });
    expect(await phrase.evaluate((el) => (el as unknown as { selectedIndex: number }).selectedIndex)).toBe(0);
    expect(await phrase.locator('option:checked').textContent()).toBe('Account 1');
    await shots.take(page, 'derive-form');
    await page.getByRole('button', { name: 'Add next account' }).click();
    await expect
      .poll(() => page.getByText('Account 2', { exact: true }).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await page.getByText('phrase #1').count()).toBe(1);
  });

  it('imports a phrase with the accounts it was used with on the selected network, and looks again on request', async () => {
    e2e = await useE2eWallet({ name: 'account-forms-discover' });
    const { page, shots, wallet } = e2e;
    const phrase = `${'abandon '.repeat(11)}about`;
    const { url } = await wallet.handlers['devnet:status']();
    const used = deriveAccount(phrase, 2);
    used.privateKey.fill(0);
    await rpc(url!, 'devnet.set_balance', { account: used.address, value: '100000000' });

    await go(page, 'Accounts');
    await page.getByRole('button', { name: 'Import or watch' }).click();
    await page.getByRole('textbox', { name: 'Recovery phrase' }).fill(phrase);
    await page.getByLabel('Account name').fill('Imported');
    await page.getByRole('button', { name: 'Import account' }).click();
    const status = page.getByRole('status').filter({ hasText: /Added|No other account/ });
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toBe(
        'Added Account 3 and Account 4, the accounts of this phrase up to the last one used on Local (devnet) (indexes 1 to 7 looked at).',
      );
    await expect.poll(() => page.getByText(used.address).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await shots.take(page, 'phrase-discovered');

    // The wallet's own phrase, looked at from the form of its next account: nothing of it was used here.
    await page.getByRole('button', { name: 'Next account of a phrase' }).click();
    await page.getByLabel('Phrase', { exact: true }).selectOption({ label: 'Account 1' });
    await page.getByRole('button', { name: 'Find used accounts' }).click();
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toMatch(/^No other account of this phrase was used on Local \(devnet\) \(indexes 1 to 5 looked at\)\./);
    await shots.take(page, 'phrase-none-used');
  });

  it('looks for a phrase imported on the first run on the network chosen there, and opens the wallet on it', async () => {
    e2e = await startE2eWallet({ name: 'account-forms-first-run' });
    const { page, shots, wallet } = e2e;
    const phrase = `${'abandon '.repeat(11)}about`;
    // The Local devnet, and a custom network on the same node: the person used the phrase "there".
    await wallet.handlers['networks:head']({ id: 'local' });
    const { url } = await wallet.handlers['devnet:status']();
    const used = deriveAccount(phrase, 1);
    used.privateKey.fill(0);
    await rpc(url!, 'devnet.set_balance', { account: used.address, value: '100000000' });
    await wallet.handlers['networks:add']({ name: 'My node', jsonRpcUrl: `${url}/jsonrpc` });

    await page.getByRole('button', { name: 'Import an existing account' }).click();
    await page.getByLabel('Wallet password').fill(PASSWORD);
    await page.getByLabel('Confirm the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create wallet' }).click();
    await page.getByRole('textbox', { name: 'Recovery phrase' }).fill(phrase);
    await page.getByRole('button', { name: 'Import account' }).click();
    const network = page.getByLabel('Network you used this phrase on');
    // Mainnet first: where a phrase holds real KOIN.
    await expect.poll(() => network.locator('option:checked').textContent()).toBe('Mainnet');
    await shots.take(page, 'first-run-discover');
    await network.selectOption({ label: 'My node' });
    await page.getByRole('button', { name: 'Look for accounts' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent(), { timeout: 30_000 })
      .toBe(
        'Added Account 2, the account of this phrase up to the last one used on My node (indexes 1 to 6 looked at).',
      );
    await shots.take(page, 'first-run-discovered');
    await page.getByRole('button', { name: 'Open the wallet' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    expect((await wallet.handlers['networks:list']()).networks.find((n) => n.name === 'My node')?.id).toBe(
      (await wallet.handlers['settings:get']()).selectedNetworkId,
    );
    expect((await wallet.handlers['accounts:list']()).map((a) => [a.name, a.address])).toEqual([
      ['Account 1', deriveAccount(phrase, 0).address],
      ['Account 2', used.address],
    ]);
  });
});
