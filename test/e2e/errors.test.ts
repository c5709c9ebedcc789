// End to end: mistakes and failures appear as messages that say what to do, and the wallet stays usable: an
// invalid address (a stray character, and a wrong checksum, both caught as typed), an amount above the balance or
// above what the mana allows (caught as typed, with the figures; Max fills what can be sent), a node that is down; a
// damaged address book, network settings or dApp connections file, and where the wallet kept it as it was.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestDevnet } from './devnetProcess.ts';
import {
  addCustomNetwork,
  alertText,
  chromiumMissing,
  go,
  selectAccount,
  useE2eWallet,
  optionLabel,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('error messages in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('explains an invalid address, an amount above the mana and a node that is down, and keeps working', async () => {
    const ready = await useE2eWallet({ name: 'errors', devAccounts: [0] });
    e2e = ready;
    const { page, shots } = ready;
    const devAddress = ready.dev[0]!;
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'Dashboard');
    await page.getByTestId('balance-KOIN').waitFor({ timeout: 20_000 });
    const balance = ((await page.getByTestId('balance-KOIN').textContent()) ?? '').replace(/[^0-9.]/g, '');

    // An address with a character base58 does not have: the field says so as it is typed.
    await go(page, 'Send');
    const recipient = page.getByLabel('Recipient address');
    await recipient.fill(`${devAddress.slice(0, -1)}0`);
    await expect.poll(() => page.getByText(/base58 letters only/).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);
    await shots.take(page, 'invalid-address-typed');

    // A well-formed address whose checksum is wrong: caught as it is typed, before anything is asked of main.
    const last = devAddress.at(-1) === 'a' ? 'b' : 'a';
    await recipient.fill(`${devAddress.slice(0, -1)}${last}`);
    await page.getByLabel(/^Amount/).fill('1');
    await expect.poll(() => page.getByText(/checksum does not match/).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);
    await shots.take(page, 'invalid-address-checksum');

    // Above the balance, and the whole balance (the transfer's own mana would not be left): both said as typed, with
    // amounts grouped as everywhere else, and Review stays off until Max fills what can be sent.
    const own = page.getByLabel('Pick one of your accounts');
    await own.selectOption({ label: await optionLabel(own, 'Account 1 — ') });
    const amount = page.getByLabel(/^Amount/);
    const review = page.getByRole('button', { name: 'Review' });
    await amount.fill(`${balance}1`);
    const grouped = Number(balance).toLocaleString('en-US');
    await expect
      .poll(() => page.getByText(`This is more than the balance of ${grouped} KOIN: send at most the balance.`).count())
      .toBe(1);
    expect(await review.isDisabled()).toBe(true);
    await amount.fill(balance);
    const manaMessage = page.getByText(/leaves too little mana for the transfer's own cost/);
    await expect.poll(() => manaMessage.count()).toBe(1);
    // With the figures: what the transfer needs, what there is, and when mana is full again (it is full now).
    expect(await manaMessage.textContent()).toMatch(
      new RegExp(
        `send at most [\\d,.]+ KOIN \\(Max\\)\\. ${grouped}\\.\\d+ mana needed, ${grouped} available, mana is full\\.`,
      ),
    );
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await review.isDisabled()).toBe(true);
    await shots.take(page, 'amount-above-mana');
    await page.getByRole('button', { name: 'Max', exact: false }).click();
    await expect.poll(() => amount.inputValue()).not.toBe(balance);
    expect(Number(await amount.inputValue())).toBeLessThan(Number(balance));
    await expect.poll(() => review.isDisabled()).toBe(false);
    await shots.take(page, 'amount-max');

    // A node that is down: the dashboard says so; switching back to Local works.
    const down = await startTestDevnet();
    const url = down.jsonRpcUrl;
    await down.dispose();
    await addCustomNetwork(page, 'Stopped node', url);
    await go(page, 'Dashboard');
    const nodeMessage = await alertText(page, /node|reach|answer/i);
    expect(nodeMessage).not.toContain('Something went wrong');
    await shots.take(page, 'node-down');

    await page.getByRole('combobox', { name: 'Network', exact: true }).selectOption({ label: 'Local (devnet)' });
    await expect.poll(() => page.getByTestId('balance-KOIN').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    await shots.take(page, 'usable-again');
  });

  it('says which data files it could not read whole, and where each is kept as it was', async () => {
    const book = '{ "version": 1, "contacts": [{ "id": "c1", "label": "Bob", "addr';
    const settings = JSON.stringify({ version: 1, customNetworks: [{ id: 'custom-1', name: 'Without an address' }] });
    const dapps = '{ "version": 1, "revision": 4, "grants": [{ "origin": "https://app.exa';
    // A dApp connections file that is not JSON stopped the wallet from starting before.
    e2e = await useE2eWallet({
      name: 'kept-aside',
      files: { 'address-book.json': book, 'chain-settings.json': settings, 'dapps.json': dapps },
    });
    const { page, shots } = e2e;

    for (const { screen, says, file, content, empty } of [
      { screen: 'Networks', says: 'Some of the network settings', file: 'chain-settings.json', content: settings },
      {
        screen: 'Settings',
        says: 'Some of the address book could not be read',
        file: 'address-book.json',
        content: book,
        empty: /No contacts on .* yet/,
      },
      {
        screen: 'dApps',
        says: 'Some of the dApp connections',
        file: 'dapps.json',
        content: dapps,
        empty: 'No dApp is connected.',
      },
    ]) {
      await go(page, screen);
      const notice = page.getByRole('status').filter({ hasText: says });
      await notice.waitFor();
      const copy = (await notice.locator('code').textContent()) ?? '';
      expect(copy).toMatch(new RegExp(`/${file.replace('.', '\\.')}\\.damaged-[0-9a-f]{12}$`));
      expect(await readFile(copy, 'utf8')).toBe(content);
      if (empty) expect(await page.getByText(empty).count()).toBe(1);
      await notice.scrollIntoViewIfNeeded();
      await shots.take(page, `${file}-kept-aside`);
    }
  });
});
