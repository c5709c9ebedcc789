// End to end: an offline transfer whose mana another account pays, signed on two "machines" - two wallets, each with
// its own browser and data folder and one of the two keys. The sender's wallet exports it with "Mana paid by" set to a
// watched account; the payer's wallet signs first, the sender's second; each step shows the signatures still needed;
// the sender's wallet submits it and follows it into a block.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestDevnet, type TestDevnet } from './devnetProcess.ts';
import {
  addCustomNetwork,
  chromiumMissing,
  go,
  selectAccount,
  signOffline,
  useE2eWallet,
  submitSigned,
  transactionText,
  optionLabel,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

/** The addresses listed as still needed in the transaction region named `title` ([] when it says none). */
async function stillNeeded(page: Page, title: string): Promise<string[]> {
  const cell = page.getByRole('region', { name: title }).getByTestId('signatures-needed');
  return cell.locator('[data-address]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-address') ?? ''));
}

describe.skipIf(missing !== undefined)('an offline transfer with a separate payer', () => {
  const wallets: E2eWallet[] = [];
  let node: TestDevnet | undefined;
  afterEach(async () => {
    for (const w of wallets.splice(0)) await w.stop();
    await node?.dispose();
    node = undefined;
  });

  it('is exported with a payer, signed by the payer and the sender on two machines, and included once submitted', async () => {
    node = await startTestDevnet();
    const senderMachine = await useE2eWallet({ name: 'offline-payer-sender', devAccounts: [1] });
    wallets.push(senderMachine);
    const page = senderMachine.page;
    const sender = senderMachine.dev[0]!;
    await go(page, 'Networks');
    await page.getByRole('button', { name: 'Watch development account 0' }).click();
    await page.getByRole('status').filter({ hasText: 'Devnet account 0' }).waitFor();
    await selectAccount(page, 'Devnet account 1');
    await addCustomNetwork(page, 'Test node', node.jsonRpcUrl);

    await go(page, 'Offline signing');
    await page.getByRole('button', { name: '1. Export unsigned' }).click();
    const paidBy = page.getByLabel('Mana paid by');
    const payerLabel = await optionLabel(paidBy, 'Devnet account 0 — ');
    await paidBy.selectOption({ label: payerLabel });
    const payer = payerLabel.split(' — ')[1]!.trim();
    const own = page.getByLabel('Pick one of your accounts');
    await own.selectOption({ label: await optionLabel(own, 'Account 1 — ') });
    await page.getByLabel(/^Amount/).fill('3');
    await page.getByRole('button', { name: 'Export unsigned transfer' }).click();
    const unsigned = await transactionText(page, 'Unsigned transfer');
    expect(await stillNeeded(page, 'Unsigned transfer')).toEqual([payer, sender]);
    await senderMachine.shots.take(page, 'offline-payer-exported');

    // The payer's machine: its own wallet with only the payer's key, no network needed to sign.
    const payerMachine = await useE2eWallet({ name: 'offline-payer-payer', devAccounts: [0] });
    wallets.push(payerMachine);
    expect(payerMachine.dev[0]).toBe(payer);
    const byPayer = await signOffline(payerMachine.page, unsigned, payerMachine.shots);
    expect(await stillNeeded(payerMachine.page, 'Signed transaction')).toEqual([sender]);
    await payerMachine.shots.take(payerMachine.page, 'offline-payer-signed-by-payer');

    // Back on the sender's machine: the sender signs second (it is picked as the one still needed), then submits.
    const byBoth = await signOffline(page, byPayer);
    expect(await stillNeeded(page, 'Signed transaction')).toEqual([]);
    await expect
      .poll(() =>
        page.getByRole('region', { name: 'Signed transaction' }).getByTestId('signatures-needed').textContent(),
      )
      .toContain('ready to submit');
    await senderMachine.shots.take(page, 'offline-payer-signed-by-both');
    await submitSigned(page, byBoth);
    const status = page.getByTestId('tx-status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/Included in block|Irreversible/);
    await senderMachine.shots.take(page, 'offline-payer-included');
  });
});
