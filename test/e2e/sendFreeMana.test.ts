// End to end: a send paid by the free mana sharer from an account with no mana. The Local network is shaped like
// mainnet (the @koinosbox sharer at its mainnet address); a new account receives VHP and no KOIN, picks the sharer on
// Send, sees who pays and who signs, approves once, and the transfer is included while its KOIN and mana stay 0.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FREE_MANA_SHARERS } from '../../src-main/wallet/chain/payer.ts';
import {
  approve,
  chromiumMissing,
  createWallet,
  go,
  importDevAccount,
  selectAccount,
  selectOptionNamed,
  startE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();
const SHARER = FREE_MANA_SHARERS.mainnet!;

/** Fills the Send form: the token by its symbol, the recipient among the wallet's accounts, the amount. */
async function fillSend(
  page: Page,
  symbol: string,
  available: string,
  toAccount: string,
  amount: string,
): Promise<void> {
  const token = page.getByLabel('Token', { exact: true });
  const label = `${symbol} — ${available} available`;
  await expect.poll(async () => token.getByRole('option').allTextContents(), { timeout: 20_000 }).toContain(label);
  await token.selectOption({ label });
  await selectOptionNamed(page.getByLabel('Pick one of your accounts'), `${toAccount} — `);
  await page.getByLabel(/^Amount/).fill(amount);
}

/** One JSON-RPC call to the embedded devnet (its developer methods have no screen). */
async function devnetRpc(url: string, method: string, params: Record<string, string>): Promise<unknown> {
  const answer = (await (
    await fetch(`${url}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
  ).json()) as {
    result?: unknown;
    error?: { message: string };
  };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

describe.skipIf(missing !== undefined)('a send paid by the free mana sharer', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('sends VHP from an account with no KOIN and no mana: the review names the sharer as payer and the sender as the only signer', async () => {
    e2e = await startE2eWallet({ name: 'send-free-mana' });
    const { page, shots, wallet } = e2e;
    await createWallet(page);
    const fresh = (await wallet.handlers['accounts:list']()).find((a) => a.name === 'Account 1')!;

    // A Local chain shaped like mainnet: the sharer runs at its mainnet address.
    await go(page, 'Networks');
    const shape = page.getByTestId('local-shape');
    await expect.poll(() => shape.textContent(), { timeout: 20_000 }).toBe("The devnet's own addresses");
    await page.getByLabel('Shape of a new chain').selectOption({ label: "Mainnet's addresses" });
    await page.getByRole('button', { name: 'Start a new chain shaped like this' }).click();
    await expect.poll(() => shape.textContent(), { timeout: 30_000 }).toBe("Mainnet's addresses");

    // A development account gives the new account some VHP, and nothing else. The mainnet-shaped genesis mints no VHP,
    // so the devnet's developer method gives the development account 10 VHP first.
    const vhp = (await wallet.handlers['tokens:list']({})).find((t) => t.system === 'vhp')!;
    expect(vhp.contract).toBe('12Y5vW6gk8GceH53YfRkRre2Rrcsgw7Naq'); // mainnet's VHP
    const dev = await importDevAccount(page, 0);
    await devnetRpc((await wallet.handlers['devnet:status']()).url!, 'devnet.set_balance', {
      contract_id: vhp.contract,
      account: dev,
      value: '1000000000',
    });
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'Send');
    // The wallet says the Local network was restarted (a new chain ID), and flags what is signed, until the user takes note.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await fillSend(page, 'VHP', '10', 'Account 1', '5');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('region', { name: 'Review what will be signed' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page);
    await expect
      .poll(() => page.getByTestId('tx-status').textContent(), { timeout: 30_000 })
      .toMatch(/Included in block|Irreversible/);

    const before = await wallet.handlers['dashboard:get']({ accountId: fresh.id });
    const balance = (d: typeof before, system: string) => d.balances.find((b) => b.token.system === system)?.balance;
    expect([balance(before, 'koin'), balance(before, 'vhp'), before.mana.current]).toEqual(['0', '500000000', '0']);

    // The new account sends 1 VHP back, its mana paid by the sharer.
    await page.getByRole('button', { name: 'New transfer' }).click();
    await selectAccount(page, 'Account 1');
    await go(page, 'Send');
    const paidBy = page.getByLabel('Mana paid by');
    await paidBy.selectOption({ label: "The network's free mana sharer" });
    await fillSend(page, 'VHP', '5', 'Devnet account 0', '1');
    await shots.take(page, 'send-free-mana-form');
    await page.getByRole('button', { name: 'Review' }).click();

    const review = page.getByRole('region', { name: 'Review what will be signed' });
    await review.waitFor({ timeout: 30_000 });
    expect(await review.getByTestId('review-paid-by').textContent()).toContain(
      "the network's free mana sharer (a contract: it approves by itself, no signature)",
    );
    expect((await review.textContent())?.replace(/\s+/g, ' ')).toContain(SHARER);
    const signers = await review
      .getByTestId('review-signed-by')
      .locator('[data-address]')
      .evaluateAll((n) => n.map((x) => x.getAttribute('data-address')));
    expect(signers).toEqual([fresh.address]);
    await shots.take(page, 'send-free-mana-review');

    await page.getByRole('button', { name: 'Sign and send' }).click();
    const dialog = await approve(page, { shots, shot: 'send-free-mana-approval' });
    expect(dialog.replace(/\s+/g, ' ')).toContain(SHARER);
    await expect
      .poll(() => page.getByTestId('tx-status').textContent(), { timeout: 30_000 })
      .toMatch(/Included in block|Irreversible/);
    await shots.take(page, 'send-free-mana-included');
    // One approval was enough: no second request waits.
    expect(await page.getByRole('dialog', { name: /^Approve/ }).count()).toBe(0);

    const after = await wallet.handlers['dashboard:get']({ accountId: fresh.id });
    expect([balance(after, 'koin'), balance(after, 'vhp'), after.mana.current]).toEqual(['0', '400000000', '0']);
    // The chain says who paid: the history record of the transfer names the sharer as its payer.
    const [record] = (
      await wallet.handlers['history:page']({
        accountId: fresh.id,
        limit: 1,
        ascending: false,
        irreversibleOnly: false,
      })
    ).records;
    expect(record?.payer).toBe(SHARER);
  });
});
