// End to end: the wallet locks itself after the idle time set on the Settings screen, asks for the password, and leaves
// nothing secret on the page (no phrase, no revealed key, no password), then unlocks again. The vault's clock is driven
// by hand, so that the minute passes at once; the browser and the pushes to it are real.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../wallet/vault/helpers.ts';
import {
  chromiumMissing,
  createWallet,
  go,
  importDevAccount,
  PASSWORD,
  startE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('the idle lock in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('locks after the idle time and keeps no secret on the page', async () => {
    const clock = new ManualClock();
    e2e = await startE2eWallet({ name: 'idle-lock', clock });
    const { page, shots } = e2e;
    const words = await createWallet(page);
    await importDevAccount(page, 0);

    await go(page, 'Accounts');
    await page.getByRole('button', { name: 'Reveal the secret of Devnet account 0' }).click();
    await page.getByLabel('Wallet password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Reveal', exact: true }).click();
    const secret = page.getByLabel('Revealed secret').getByRole('code');
    await secret.waitFor();
    const wif = ((await secret.textContent()) ?? '').trim();
    expect(wif).toMatch(/^[5KL][1-9A-HJ-NP-Za-km-z]{50,51}$/);
    await shots.take(page, 'secret-revealed');

    await go(page, 'Settings');
    await page.getByLabel('Lock after this many minutes without use').fill('1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'locks after 1 minute without use' }).waitFor();

    // One second short of the minute the wallet is still open; at the minute it locks and the page shows it.
    clock.advance(59_000);
    expect((await e2e.wallet.handlers['vault:status']()).unlocked).toBe(true);
    await expect(page.getByRole('navigation', { name: 'Screens' }).isVisible()).resolves.toBe(true);
    clock.advance(1_000);
    expect((await e2e.wallet.handlers['vault:status']()).unlocked).toBe(false);
    await page.getByRole('heading', { name: 'Wallet locked' }).waitFor();
    await shots.take(page, 'locked');

    const html = await page.content();
    const values = await page
      .locator('input, textarea')
      .evaluateAll((fields) => fields.map((f) => (f as unknown as { value: string }).value));
    const everything = `${html}\n${values.join('\n')}`;
    expect(everything).not.toContain(wif);
    expect(everything).not.toContain(PASSWORD);
    for (let i = 0; i + 3 <= words.length; i++) expect(everything).not.toContain(words.slice(i, i + 3).join(' '));
    expect(everything).not.toContain('Devnet account 0');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await shots.take(page, 'unlocked-again');
  });
});
