// End to end: a send whose mana another account of the wallet pays. The form's "Mana paid by" picks it (and Max then
// keeps no cost of the sender's); the review says who pays and lists both signers (Back from it finds the form as it
// was, the payer included); one approval, whose dialog names the co-signer, covers both signatures; the transfer is
// included.
import { afterEach, describe, expect, it } from 'vitest';
import {
  approve,
  chromiumMissing,
  go,
  selectAccount,
  selectOptionNamed,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('a send paid by another account', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('reviews who pays and who signs, asks one approval for both signatures, and is included', async () => {
    const ready = await useE2eWallet({ name: 'send-payer', devAccounts: [0, 1] });
    e2e = ready;
    const { page, shots } = ready;
    const [payer, sender] = ready.dev as [string, string];
    const accounts = page.getByRole('combobox', { name: 'Account', exact: true }).getByRole('option');
    await expect
      .poll(async () => (await accounts.allTextContents()).some((o) => o.startsWith('Devnet account 1')))
      .toBe(true);
    await selectAccount(page, 'Devnet account 1');
    await go(page, 'Send');
    await selectOptionNamed(page.getByLabel('Mana paid by'), 'Devnet account 0 — ');
    await selectOptionNamed(page.getByLabel('Pick one of your accounts'), 'Account 1 — ');
    // Max keeps no cost of the sender's when another account pays: the whole balance.
    const hint = page.getByText(/^Balance: [\d,.]+ KOIN\. The payer pays the mana of this transfer\.$/);
    const whole = /Balance: ([\d,.]+) KOIN/.exec((await hint.textContent()) ?? '')![1]!.replace(/,/g, '');
    await page.getByRole('button', { name: /^Max/ }).click();
    await expect.poll(() => page.getByLabel(/^Amount/).inputValue()).toBe(whole);
    await page.getByLabel(/^Amount/).fill('2');
    await shots.take(page, 'send-payer-form');
    const form = async () =>
      Promise.all([
        page.getByLabel('Mana paid by').inputValue(),
        page.getByLabel('Recipient address').inputValue(),
        page.getByLabel(/^Amount/).inputValue(),
      ]);
    const filled = await form();
    expect(filled[0]).not.toBe('self');
    // Back from the review finds the form as it was, the payer included.
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await form()).toEqual(filled);
    await page.getByRole('button', { name: 'Review' }).click();

    const review = page.getByRole('region', { name: 'Review what will be signed' });
    await review.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => review.getByTestId('review-paid-by').textContent())
      .toContain('another account of this wallet, which signs too');
    const signers = await review
      .getByTestId('review-signed-by')
      .locator('[data-address]')
      .evaluateAll((n) => n.map((x) => x.getAttribute('data-address')));
    expect(signers).toEqual([sender, payer]);
    await shots.take(page, 'send-payer-review');

    await page.getByRole('button', { name: 'Sign and send' }).click();
    const dialog = page.getByRole('dialog', { name: /^Approve/ });
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.getByTestId('approval-co-signers').locator('[data-address]').getAttribute('data-address')).toBe(
      payer,
    );
    await approve(page, { shots, shot: 'send-payer-approval' });
    const status = page.getByTestId('tx-status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/Included in block|Irreversible/);
    await shots.take(page, 'send-payer-included');
  });
});
