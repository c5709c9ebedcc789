// End to end: the Networks and Accounts screens keep the person where they were. Removing a custom network asks first
// and says which network is in use after it; the keyboard focus lands somewhere after a button that vanishes or turns
// disabled (Use, Select, remove, Save name, a wrong password, a form, a prompt or a question closed, a secret revealed
// or hidden, an account removed); the toggles say whether they are open; and the top bar's network picker follows
// the networks another window adds and removes, and shows the network in use again after a switch main refused, with
// why until the network in use changes.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addCustomNetwork,
  alertText,
  chromiumMissing,
  go,
  optionLabel,
  PASSWORD,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();
/** How long a poll waits for the page to move the focus (the machine may be busy with another run). */
const SOON = { timeout: 10_000 };

/**
 * The element that has the keyboard focus, read from document.activeElement: its tag, its text, its aria-label and the
 * text of the elements its aria-describedby names.
 */
async function focused(page: Page): Promise<{ tag: string; text: string; label: string; described: string }> {
  // A string: the tests' TypeScript has no DOM types.
  return page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el) return { tag: '', text: '', label: '', described: '' };
    const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    return {
      tag: el.tagName,
      text: el.textContent.trim(),
      label: el.getAttribute('aria-label') || '',
      described: ids.map((id) => (document.getElementById(id) || { textContent: '' }).textContent.trim()).join(' '),
    };
  })()`);
}

describe.skipIf(missing !== undefined)('the Networks and Accounts screens in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('asks before removing a network, and says which one is in use after it', async () => {
    e2e = await useE2eWallet({ name: 'networks-remove' });
    const { page, shots } = e2e;
    // A second address of this wallet's own node: a custom network that answers, with an API key stored.
    const { url } = await e2e.wallet.handlers['devnet:status']();
    expect(url).toBeDefined();
    await addCustomNetwork(page, 'Second node', `${url!}/jsonrpc`, 'a-key');
    // Its Use button went away when it came into use: the focus is on the row's title, which says so.
    await expect
      .poll(() => focused(page), SOON)
      .toMatchObject({ text: expect.stringMatching(/^Second node\s+custom\s+in use/) });

    // The Edit toggle says whether its form is open; Cancel gives the focus back to it.
    const edit = page.getByRole('button', { name: 'Edit Second node' });
    await edit.click();
    expect(await edit.getAttribute('aria-expanded')).toBe('true');
    await shots.take(page, 'edit-open');
    const form = page.locator(`[id="${(await edit.getAttribute('aria-controls')) ?? 'none'}"]`);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => focused(page), SOON).toMatchObject({ label: 'Edit Second node' });
    expect(await edit.getAttribute('aria-expanded')).toBe('false');

    // The local chain's reset asks first, with the focus on Cancel, which gives it back to the button.
    await page.getByRole('button', { name: 'Reset to a new chain' }).click();
    await expect.poll(() => focused(page), SOON).toMatchObject({ tag: 'BUTTON', text: 'Cancel' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => focused(page), SOON).toMatchObject({ text: 'Reset to a new chain' });

    const ask = page.getByRole('button', { name: 'Remove Second node' });
    await ask.click();
    const question = page.getByText('Remove Second node? Its API key and token list are deleted.');
    await question.waitFor();
    expect(await ask.getAttribute('aria-expanded')).toBe('true');
    // The safe answer has the focus, not the one that deletes.
    expect(await focused(page)).toMatchObject({ tag: 'BUTTON', text: 'Keep' });
    await shots.take(page, 'remove-question');

    await page.getByRole('button', { name: 'Keep', exact: true }).click();
    await question.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ label: 'Remove Second node' });
    expect(await page.getByRole('listitem').filter({ hasText: 'Second node' }).getByText('in use').count()).toBe(1);

    await ask.click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    const status = page.getByRole('status').filter({ hasText: 'was removed' });
    await status.waitFor();
    expect(await status.textContent()).toBe('Second node was removed. Local (devnet) is now in use.');
    expect(await page.getByRole('listitem').filter({ hasText: 'Second node' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Network', exact: true }).inputValue()).toBe('local');
    await expect.poll(() => focused(page), SOON).toMatchObject({ tag: 'H1', text: 'Networks' });
    await shots.take(page, 'removed');
  });

  it('keeps the focus on the Accounts screen after Select, Save name and a wrong password; its toggles say when open', async () => {
    e2e = await useE2eWallet({ name: 'accounts-focus', devAccounts: [0] });
    const { page, shots } = e2e;
    await go(page, 'Accounts');

    // The account not selected yet: its Select button goes away once it is.
    const selectButton = page.getByRole('button', { name: /^Select / });
    const name = ((await selectButton.getAttribute('aria-label')) ?? '').replace(/^Select /, '');
    expect(['Account 1', 'Devnet account 0']).toContain(name);
    await selectButton.click();
    await expect
      .poll(() => focused(page), SOON)
      .toMatchObject({ text: expect.stringMatching(new RegExp(`^${name}\\s+selected`)) });

    // The Rename toggle says whether its form is open, and which element that is.
    const renameToggle = page.getByRole('button', { name: 'Rename Account 1' });
    expect(await renameToggle.getAttribute('aria-expanded')).toBe('false');
    await renameToggle.click();
    expect(await renameToggle.getAttribute('aria-expanded')).toBe('true');
    const form = page.locator(`[id="${(await renameToggle.getAttribute('aria-controls')) ?? 'none'}"]`);
    expect(await form.getByLabel('New name').count()).toBe(1);
    await page.getByLabel('New name').fill('Savings');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: 'Rename Savings' }).waitFor();
    await expect.poll(() => focused(page), SOON).toMatchObject({ tag: 'BUTTON', label: 'Rename Savings' });
    expect(await page.getByRole('button', { name: 'Rename Savings' }).getAttribute('aria-expanded')).toBe('false');
    await shots.take(page, 'renamed');

    // So does the QR toggle, for its code.
    const qrToggle = page.getByRole('button', { name: 'Address QR code of Savings' });
    expect(await qrToggle.getAttribute('aria-expanded')).toBe('false');
    await qrToggle.click();
    expect(await qrToggle.getAttribute('aria-expanded')).toBe('true');
    const qr = page.locator(`[id="${(await qrToggle.getAttribute('aria-controls')) ?? 'none'}"]`);
    expect(await qr.getByRole('img', { name: 'QR code of the address of Savings' }).count()).toBe(1);
    await shots.take(page, 'qr-open');
    await qrToggle.click();
    expect(await qrToggle.getAttribute('aria-expanded')).toBe('false');

    // A wrong password empties the field and disables the button that had the focus: the focus is back in the field,
    // which is described by the error.
    await page.getByRole('button', { name: 'Reveal the secret of Savings' }).click();
    const field = page.getByLabel('Wallet password');
    await field.fill('not the password');
    await page.getByRole('button', { name: 'Reveal', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: "not this wallet's password" }).waitFor();
    await expect
      .poll(() => focused(page), SOON)
      .toMatchObject({
        tag: 'INPUT',
        described: expect.stringContaining("That is not this wallet's password."),
      });
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').count()).toBe(1);
    await shots.take(page, 'wrong-password');

    // Cancel gives the focus back to the toggle; the right password moves it to the secret, Hide back to the toggle.
    const revealToggle = page.getByRole('button', { name: 'Reveal the secret of Savings' });
    expect(await revealToggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => focused(page), SOON).toMatchObject({ label: 'Reveal the secret of Savings' });
    expect(await revealToggle.getAttribute('aria-expanded')).toBe('false');
    await revealToggle.click();
    await field.fill(PASSWORD);
    await page.getByRole('button', { name: 'Reveal', exact: true }).click();
    await expect.poll(() => focused(page), SOON).toMatchObject({ tag: 'DIV', label: 'Revealed secret' });
    await page.getByRole('button', { name: 'Hide' }).click();
    await expect.poll(() => focused(page), SOON).toMatchObject({ label: 'Reveal the secret of Savings' });

    // So does Rename's Cancel.
    await page.getByRole('button', { name: 'Rename Savings' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => focused(page), SOON).toMatchObject({ label: 'Rename Savings' });

    // The backup toggles say whether their forms are open, and no button of an open form has a toggle's name.
    const backupRegion = page.getByRole('region', { name: 'Encrypted backup' });
    for (const name of ['Export backup', 'Import backup']) {
      const toggle = backupRegion.getByRole('button', { name, exact: true });
      await toggle.click();
      expect(await toggle.count(), name).toBe(1);
      expect(await toggle.getAttribute('aria-expanded'), name).toBe('true');
      expect(await page.locator(`[id="${(await toggle.getAttribute('aria-controls')) ?? 'none'}"]`).count()).toBe(1);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded'), name).toBe('false');
    }

    // A removed account's row goes with the focus it had: the focus goes to the screen's heading.
    const other = 'Devnet account 0';
    const removeToggle = page.getByRole('button', { name: `Remove ${other}` });
    await removeToggle.click();
    expect(await removeToggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByLabel('Wallet password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Remove account' }).click();
    await page.getByRole('listitem', { name: other }).waitFor({ state: 'detached' });
    await expect.poll(() => focused(page), SOON).toMatchObject({ tag: 'H1', text: 'Accounts' });
  });

  it('follows the networks another window changes, and shows the network in use again after a switch main refused', async () => {
    e2e = await useE2eWallet({ name: 'network-picker' });
    const { page, shots } = e2e;
    const handlers = e2e.wallet.handlers;
    const { url } = await handlers['devnet:status']();
    const picker = page.getByRole('combobox', { name: 'Network', exact: true });
    // Networks added in main (as by another window) reach this window's top bar without a reload (networks:changed).
    const gone = await handlers['networks:add']({ name: 'Gone node', jsonRpcUrl: `${url!}/jsonrpc` });
    await handlers['networks:add']({ name: 'Other node', jsonRpcUrl: `${url!}/jsonrpc` });
    await handlers['networks:add']({ name: 'Spare node', jsonRpcUrl: `${url!}/jsonrpc` });
    await optionLabel(picker, 'Spare node');

    // A second window of the same wallet removes one; this window's top bar drops it too.
    const other = await e2e.context.newPage();
    await other.goto(e2e.shell.url);
    await go(other, 'Networks');
    await other.getByRole('button', { name: 'Remove Spare node' }).click();
    await other.getByRole('button', { name: 'Remove', exact: true }).click();
    await other.getByRole('status').filter({ hasText: 'Spare node was removed.' }).waitFor();
    await other.close();
    await expect.poll(() => picker.getByRole('option', { name: 'Spare node' }).count(), SOON).toBe(0);

    // The race the push leaves: this window picks a network while another removes it. The pick reaches main only once
    // the removal is done (held here), and main refuses it.
    const select = handlers['networks:select'];
    let reached!: () => void;
    const pickReached = new Promise<void>((resolve) => (reached = resolve));
    let letThrough!: () => void;
    const gate = new Promise<void>((resolve) => (letThrough = resolve));
    handlers['networks:select'] = async (args) => {
      reached();
      await gate;
      return select(args);
    };
    try {
      await picker.selectOption({ label: 'Gone node' });
      await pickReached;
      await handlers['networks:remove']({ id: gone.id });
      letThrough();
    } finally {
      handlers['networks:select'] = select;
    }
    const message = await alertText(page, /network/i);
    expect(message).toContain('That network is no longer in the wallet');
    expect(await picker.inputValue()).toBe('local');
    expect(await picker.locator('option:checked').textContent()).toBe('Local (devnet)');
    await expect.poll(() => picker.getByRole('option', { name: 'Gone node' }).count(), SOON).toBe(0);
    await shots.take(page, 'switch-refused');

    // Once the network in use changes (here on the Networks screen), the top bar's reason goes.
    await go(page, 'Networks');
    await page.getByRole('button', { name: 'Use Other node' }).click();
    await expect.poll(() => picker.inputValue(), SOON).not.toBe('local');
    await expect.poll(() => page.getByText('That network is no longer in the wallet').count(), SOON).toBe(0);
  });
});
