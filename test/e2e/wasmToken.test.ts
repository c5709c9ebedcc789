// End to end: a KCS-4 token uploaded to the embedded devnet as real WebAssembly (@koinosbox/contracts, with koilib) is
// added by its contract address on the dashboard (after the refusals for a mistyped address and an address without a
// contract), its balance shown, sent to a second account through the review (a late Max for KOIN does not fill its
// amount), decoded in both histories, shown as gone once the network restarts (a form that had it chosen says so
// instead of sending KOIN), and removed.
import { afterEach, describe, expect, it } from 'vitest';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { uploadKoinosbox } from '../wallet/chain/wasmToken.ts';
import {
  alertText,
  amountText,
  approve,
  chromiumMissing,
  go,
  holdNext,
  optionLabel,
  releaseToPage,
  selectAccount,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();
const TKN = 100_000_000n;

describe.skipIf(missing !== undefined)('an uploaded KCS-4 token in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('adds the token by address, shows its balance, sends it, shows both histories decoded, shows it gone after a reset and removes it', async () => {
    const ready = await useE2eWallet({ name: 'wasm-token', devAccounts: [0] });
    e2e = ready;
    const { page, shots, wallet } = ready;
    const ownAddress = ready.own;
    const devAddress = ready.dev[0]!;
    await selectAccount(page, 'Devnet account 0');

    // A contract developer uploads the token and mints to development account 0 (funded by account 2, not in the wallet).
    const devnet = await wallet.handlers['devnet:status']();
    const koin = (await wallet.handlers['tokens:list']({ networkId: 'local' })).find((t) => t.system === 'koin')!;
    const token = await uploadKoinosbox(`${devnet.url}/jsonrpc`, koin.contract, devKey(2), 'e2e wasm token');
    await token.mint(devAddress, 1000n * TKN);

    await go(page, 'Dashboard');
    await expect
      .poll(async () => amountText(await page.getByTestId('balance-KOIN').textContent()), { timeout: 20_000 })
      .toMatch(/^[1-9]/);
    await page.getByRole('button', { name: 'Add a token' }).click();
    const field = page.getByLabel('Token contract address');
    await field.fill(`${token.address.slice(0, -1)}${token.address.endsWith('z') ? 'y' : 'z'}`);
    await expect.poll(() => page.getByText(/The checksum does not match/).count()).toBe(1);
    await expect(page.getByRole('button', { name: 'Look up' }).isDisabled()).resolves.toBe(true);

    await field.fill(ownAddress); // a valid address, but no contract lives there
    await page.getByRole('button', { name: 'Look up' }).click();
    expect(await alertText(page, /There is no contract at/)).toContain(
      `There is no contract at ${ownAddress} on this network`,
    );
    await shots.take(page, 'add-token-no-contract');

    await field.fill(token.address);
    await page.getByRole('button', { name: 'Look up' }).click();
    const found = page.getByRole('region', { name: 'Token found' });
    await found.waitFor({ timeout: 30_000 });
    expect((await found.textContent())?.replace(/\s+/g, ' ')).toContain(
      `Name My Token Symbol TKN Decimals 8 Contract ${token.address} Network Local (devnet)`,
    );
    await shots.take(page, 'add-token-found');
    await page.getByRole('button', { name: 'Add TKN' }).click();
    const balance = page.getByTestId('balance-TKN');
    await expect.poll(() => balance.textContent(), { timeout: 20_000 }).toBe('1,000 TKN');
    await shots.take(page, 'dashboard-with-token');

    await page.getByRole('main').getByRole('button', { name: 'Send', exact: true }).click();
    const tokenSelect = page.getByLabel('Token', { exact: true });
    const option = await optionLabel(tokenSelect, 'TKN');
    expect(option).toBe('TKN — 1,000 available');
    const amount = page.getByLabel(/^Amount/);
    // Max asked for KOIN, answered once TKN is chosen: KOIN's figure is not TKN's amount.
    await page.getByText('A transfer is expected to use about').waitFor({ timeout: 20_000 }); // the form's own ask
    const lateMax = holdNext(wallet.handlers, 'send:maxAmount', (asked) => asked.token === 'koin');
    await page.getByRole('button', { name: /^Max/ }).click();
    expect(BigInt((await lateMax.answered).amount)).toBeGreaterThan(0n);
    await tokenSelect.selectOption({ label: option });
    await releaseToPage(page, lateMax, 'send:maxAmount');
    expect(await amount.inputValue()).toBe('');
    await page.getByLabel('Recipient address').fill(ownAddress);
    await amount.fill('12.5');
    await page.getByRole('button', { name: 'Review' }).click();
    const review = page.getByRole('region', { name: 'Review what will be signed' });
    await review.waitFor({ timeout: 30_000 });
    await expect.poll(() => review.textContent()).toContain('Transfer 12.5 TKN');
    await shots.take(page, 'review-token');
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page, { shots, shot: 'approval' });
    await expect
      .poll(() => page.getByTestId('tx-status').textContent(), { timeout: 30_000 })
      .toMatch(/Included in block|Irreversible/);

    await go(page, 'History');
    await expect
      .poll(
        () =>
          page
            .getByRole('listitem')
            .filter({ hasText: /Sent 12\.5 TKN to/ })
            .count(),
        { timeout: 20_000 },
      )
      .toBe(1);
    await expect
      .poll(
        () =>
          page
            .getByRole('listitem')
            .filter({ hasText: /Minted 1,000 TKN/ })
            .count(),
        { timeout: 20_000 },
      )
      .toBe(1);
    await shots.take(page, 'history-sender');

    await go(page, 'Dashboard');
    await expect.poll(() => balance.textContent(), { timeout: 20_000 }).toBe('987.5 TKN');

    await selectAccount(page, 'Account 1');
    await expect.poll(() => balance.textContent(), { timeout: 20_000 }).toBe('12.5 TKN'); // the token list is the network's
    expect(await page.getByTestId('mana-state').textContent()).toMatch(
      /^No mana: mana grows from the KOIN balance, and this account has no KOIN\./,
    );
    await go(page, 'History');
    await expect
      .poll(
        () =>
          page
            .getByRole('listitem')
            .filter({ hasText: /Received 12\.5 TKN from/ })
            .count(),
        { timeout: 20_000 },
      )
      .toBe(1);
    await shots.take(page, 'history-recipient');

    // The local network restarts from genesis: the token's contract is gone. A form with TKN chosen says so and sends
    // nothing (it used to fall back to KOIN with the amount typed), and the dashboard says so in its row.
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'Send');
    await tokenSelect.selectOption({ label: await optionLabel(tokenSelect, 'TKN') });
    await page.getByLabel('Recipient address').fill(ownAddress);
    await amount.fill('5');
    await wallet.handlers['devnet:reset']();
    const gone = page.getByRole('alert').filter({ hasText: 'TKN cannot be sent now' });
    await gone.waitFor({ timeout: 30_000 });
    expect(await gone.textContent()).toContain('its balance could not be read on this network. Choose a token.');
    expect(await tokenSelect.evaluate((select) => (select as unknown as { value: string }).value)).toBe(token.address);
    expect(await page.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);
    expect(await page.getByLabel(/^Amount \(TKN\)/).inputValue()).toBe('5'); // still TKN's amount, not KOIN's
    await shots.take(page, 'send-token-gone');
    await selectAccount(page, 'Account 1');
    await go(page, 'Dashboard');
    await expect.poll(() => balance.textContent(), { timeout: 30_000 }).toBe('no balance');
    expect(await page.getByTestId('problem-TKN').textContent()).toBe(
      `No contract answers at ${token.address} on this network any more (a restart of a test network removes its contracts). Remove TKN, or add it again at its new address.`,
    );
    await shots.take(page, 'token-contract-gone');
    await page.getByRole('button', { name: 'Remove TKN' }).click();
    const confirm = page.getByRole('group', { name: 'Remove TKN?' });
    await confirm.waitFor();
    await shots.take(page, 'remove-token-confirm');
    await confirm.getByRole('button', { name: 'Remove TKN' }).click();
    await expect.poll(() => balance.count(), { timeout: 20_000 }).toBe(0);
    await page.getByRole('status').filter({ hasText: 'TKN was removed' }).waitFor();
    await shots.take(page, 'token-removed');
    expect((await wallet.handlers['tokens:list']({ networkId: 'local' })).map((t) => t.symbol)).toEqual([
      'KOIN',
      'VHP',
    ]);

    // The theme: one dark palette serves both the forced choice and the system's (followed through matchMedia).
    const html = page.locator('html');
    await go(page, 'Settings');
    await page.getByLabel('Dark', { exact: true }).check();
    await expect.poll(() => html.getAttribute('data-theme')).toBe('dark'); // the system is light
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await html.getAttribute('data-theme')).toBe('dark');
    await page.getByLabel('Same as the system').check();
    await expect.poll(() => html.getAttribute('data-theme')).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => html.getAttribute('data-theme')).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
