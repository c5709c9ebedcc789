// End to end: names and contacts on a Local network shaped like mainnet (the nicknames contract and the KAP stand-in
// at mainnet's addresses). Send to @name and to name.koin with the address shown in full before the review and a
// first-payment warning in it; a contact added from the receipt and reused from the recipient field (no warning the
// second time), and an address made to look like hers named as not hers; names that do not resolve said under the
// field; the names beside addresses in the history, a poisoner's transfer marked as a look-alike of a contact, and a
// contact added from a history entry; the contacts removed in Settings; an allowance's spender named by her nickname.
import { Contract, Provider, Signer, utils } from 'koilib';
import { afterEach, describe, expect, it } from 'vitest';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { rpc } from '../devnet/httpHelpers.ts';
import { included } from '../devnet/koilibContract.ts';
import { lookalikeAddress } from '../helpers/lookalike.ts';
import {
  approve,
  chromiumMissing,
  go,
  notification,
  recordNotifications,
  selectAccount,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';
import type { Locator, Page } from 'playwright-core';

const missing = chromiumMissing();
const NICKNAMES_MAINNET = '1KD9Es7LBBjA1FY3ViCgQJ7e6WH1ipKbhz';
const KAP_MAINNET = '13tmzDmfqCsbYT26C4CmKxq86d33senqH3';

/** Registers a name on the devnet as its holder would, with koilib: the holder signs, the block is awaited. */
async function register(
  url: string,
  contractId: string,
  index: number,
  entryPoint: string,
  args: (address: string) => Record<string, unknown>,
): Promise<string> {
  const provider = new Provider([`${url}/jsonrpc`]);
  const key = devKey(index);
  const contract = new Contract({
    id: contractId,
    provider,
    signer: Object.assign(Signer.fromWif(key.wif), { provider }),
  });
  await contract.fetchAbi();
  const { transaction } = await contract.functions[entryPoint]!(args(key.address));
  await included(provider, transaction, 30_000);
  return key.address;
}

/** Fills the recipient and waits until the field shows where the name points. */
async function typeName(page: Page, text: string, address: string): Promise<void> {
  await page.getByLabel('Recipient address').fill(text);
  await expect
    .poll(() => page.getByTestId('resolved-address').locator('code').getAttribute('data-address'), { timeout: 20_000 })
    .toBe(address);
}

/** Amount, Review, Sign and send, approval; returns the review's text. */
async function sendOne(page: Page, amount: string): Promise<string> {
  await page.getByLabel(/^Amount/).fill(amount);
  await page.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('region', { name: 'Review what will be signed' });
  await review.waitFor({ timeout: 20_000 });
  await review.getByTestId('review-recipient').waitFor();
  return (await review.textContent()) ?? '';
}

async function signAndWait(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign and send' }).click();
  await approve(page);
  await page.getByTestId('tx-status').waitFor({ timeout: 20_000 });
}

/** Whether a click at the middle of `control` reaches it (nothing covers it, and no ancestor cuts it off). */
function receivesClicks(control: Locator): Promise<boolean> {
  return control.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return element.contains(element.ownerDocument.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  });
}

describe.skipIf(missing !== undefined)('names and contacts in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('sends to @name and name.koin, warns of a first payment, adds a contact from the receipt and reuses it', async () => {
    e2e = await useE2eWallet({ name: 'names', devnet: { shape: { like: 'mainnet' } }, devAccounts: [0] });
    const { page, shots, wallet } = e2e;
    await selectAccount(page, 'Devnet account 0');
    const { url, accounts } = await wallet.handlers['devnet:status']();
    const carol = await register(url!, NICKNAMES_MAINNET, 2, 'mint', (to) => ({
      to,
      token_id: `0x${Buffer.from('carol').toString('hex')}`,
    }));
    const bob = await register(url!, KAP_MAINNET, 1, 'mint', (owner) => ({
      name: 'bob.koin',
      duration_increments: 1,
      owner,
    }));
    expect([bob, carol]).toEqual([accounts[1]!.address, accounts[2]!.address]);

    // @carol: resolved on the selected network, the address in full, and Kondor's warning about a movable nickname.
    await go(page, 'Send');
    await page
      .getByTestId('balance-KOIN')
      .or(page.getByLabel('Recipient address'))
      .first()
      .waitFor({ timeout: 20_000 });
    await typeName(page, '@carol', carol);
    await expect.poll(() => page.getByText('Whoever holds @carol can point it to another address').count()).toBe(1);
    await shots.take(page, 'send-nickname');
    const first = await sendOne(page, '1');
    expect(first).toContain('You have never sent to this address');
    expect(await page.getByTestId('review-recipient').textContent()).toContain('@carol');
    await shots.take(page, 'review-first-payment');
    await signAndWait(page);
    expect(await page.getByTestId('receipt-recipient').textContent()).toContain('@carol');

    // The receipt's "Add to contacts", with the typed name offered as the label.
    await page.getByRole('button', { name: /^Add to contacts/ }).click();
    const labelField = page.getByLabel(/^Label for /);
    expect(await labelField.inputValue()).toBe('@carol');
    await labelField.fill('Carol');
    await page.getByRole('button', { name: 'Save contact' }).click();
    await page.getByText('In your contacts as').waitFor();
    // The form and its button are gone: the focus is on what says the contact is saved, not lost.
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('In your contacts as Carol');
    await shots.take(page, 'receipt-contact-added');

    // bob.koin through KAP.
    await page.getByRole('button', { name: 'New transfer' }).click();
    await typeName(page, 'bob.koin', bob);
    await shots.take(page, 'send-kap-name');
    const kapReview = await sendOne(page, '2');
    expect(kapReview).toContain('bob.koin');
    expect(kapReview).toContain('You have never sent to this address');
    await signAndWait(page);

    // The contact, searched from the recipient field: no first-payment warning now, its label in the review.
    await page.getByRole('button', { name: 'New transfer' }).click();
    await page.getByLabel('Recipient address').fill('car');
    const suggestions = page.getByRole('list', { name: 'Matching contacts and recent recipients' });
    await suggestions.getByRole('button', { name: /^Carol/ }).click();
    expect(await page.getByLabel('Recipient address').inputValue()).toBe(carol);
    await page.getByText('In your contacts as').waitFor();
    const again = await sendOne(page, '0.5');
    expect(again).not.toContain('You have never sent to this address');
    expect(again).toContain('Carol');
    await shots.take(page, 'review-contact');
    await page.getByRole('button', { name: 'Back' }).click();

    // An address made to look like Carol's (her first characters and last two): a risk of the review (to confirm in the
    // approval, as every risk), saying whose address it is not.
    await page.getByLabel('Recipient address').fill(lookalikeAddress(carol));
    const poisoned = await sendOne(page, '0.5');
    expect(poisoned).toContain('You have never sent to this address');
    const lookalike = page.getByTestId('risks').locator('[data-risk="lookalike-recipient"]');
    expect(await lookalike.textContent()).toContain(', not your contact Carol (');
    const named = lookalike.locator('[data-address]');
    expect(await named.evaluateAll((codes) => codes.map((c) => c.getAttribute('data-address')))).toEqual([
      lookalikeAddress(carol),
      carol,
    ]);
    await shots.take(page, 'review-lookalike');
    await page.getByRole('button', { name: 'Back' }).click();

    // Names that do not resolve: a clear line under the field, and nothing to review.
    await page.getByLabel('Recipient address').fill('@nobody');
    await page.getByText('Nobody holds the name @nobody').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);
    await page.getByLabel('Recipient address').fill('nobody.koin');
    await page.getByText('Nobody holds the name nobody.koin').waitFor({ timeout: 20_000 });
    await shots.take(page, 'send-name-not-found');

    // An address poisoner sends a hair of KOIN to the account. (The test cannot make a key whose address looks like a
    // contact's, so the contact, Dana, is saved at an address made to look like the poisoner's: the same pair.)
    const poisoner = devKey(7).address;
    await recordNotifications(e2e);
    await rpc(url!, 'devnet.set_balance', { account: poisoner, value: '100000000' });
    await wallet.handlers['contacts:add']({ label: 'Dana', address: lookalikeAddress(poisoner) });
    const provider = new Provider([`${url}/jsonrpc`]);
    const koin = new Contract({
      id: (await wallet.handlers['tokens:list']({})).find((t) => t.system === 'koin')!.contract,
      abi: utils.tokenAbi,
      provider,
      signer: Object.assign(Signer.fromWif(devKey(7).wif), { provider }),
    });
    const { transaction } = await koin.functions['transfer']!({ from: poisoner, to: accounts[0]!.address, value: '1' });
    await included(provider, transaction, 30_000);
    // Another stranger's transfer, with a memo that points somewhere.
    const lurer = devKey(8);
    await rpc(url!, 'devnet.set_balance', { account: lurer.address, value: '100000000' });
    const lure = 'Claim your KOIN airdrop at koin-drop.example/claim';
    const fromLurer = new Contract({
      id: koin.getId(),
      abi: utils.tokenAbi,
      provider,
      signer: Object.assign(Signer.fromWif(lurer.wif), { provider }),
    });
    const lured = await fromLurer.functions['transfer']!({
      from: lurer.address,
      to: accounts[0]!.address,
      value: '2',
      memo: lure,
    });
    await included(provider, lured.transaction, 30_000);
    // Its notification says it comes from a look-alike instead of giving the short form, which is the contact's too.
    expect((await notification(page, 'Received 0.00000001 KOIN')).body).toMatch(
      /^To Devnet account 0, in block \d+, from a look-alike of your contact Dana: do not copy its address or send to it\.$/,
    );

    // The history names the other side: the contact's label, then the KAP name.
    await go(page, 'History');
    await expect
      .poll(
        () =>
          page
            .getByRole('listitem')
            .filter({ hasText: /Sent 1 KOIN to Carol \(/ })
            .count(),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await expect
      .poll(
        () =>
          page
            .getByRole('listitem')
            .filter({ hasText: /Sent 2 KOIN to bob\.koin \(/ })
            .count(),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await shots.take(page, 'history-names');
    // The poisoner's transfer: flagged as a look-alike of the contact's address, not to be copied nor saved.
    const poisonRow = page.getByRole('listitem').filter({ has: page.getByTestId('lookalike-counterparty') });
    await expect.poll(() => poisonRow.count(), { timeout: 20_000 }).toBe(1);
    expect(await poisonRow.textContent()).toContain('look-alike of your contact “Dana”: do not copy this address');
    expect(await poisonRow.textContent()).toMatch(/Received 0\.00000001 KOIN from 1/);
    expect(await poisonRow.getByRole('button', { name: /^Add to contacts/ }).count()).toBe(0);
    // The stranger's memo is shown as text (no link), after a warning about its link.
    const lureRow = page.getByRole('listitem').filter({ has: page.getByTestId('memo-link') });
    await expect.poll(() => lureRow.count(), { timeout: 20_000 }).toBe(1);
    expect(await lureRow.textContent()).toMatch(/Received 0\.00000002 KOIN from 1/);
    expect(await lureRow.textContent()).toContain(`a link from an unknown address: do not open it Memo: “${lure}”`);
    expect(await lureRow.getByRole('link').count()).toBe(0);
    await shots.take(page, 'history-lookalike');
    // Copied from there into an offline export, the poisoner's address is flagged in the export's review.
    await go(page, 'Offline signing');
    await page.getByRole('button', { name: '1. Export unsigned' }).click();
    await page.getByLabel('Recipient address').fill(poisoner);
    await page.getByLabel(/^Amount/).fill('1');
    await page.getByRole('button', { name: 'Export unsigned transfer' }).click();
    const flagged = page.getByTestId('risks').locator('[data-risk="lookalike-recipient"]');
    await flagged.waitFor({ timeout: 30_000 });
    expect(await flagged.textContent()).toContain(`It transfers to ${poisoner}, not your contact Dana (`);
    await shots.take(page, 'offline-export-lookalike');
    await go(page, 'History');

    // An entry's "Add to contacts": the label field opens above the list (a row is two lines high), focused, with the
    // name offered as the label; Cancel goes back to the button, and a saved contact names the entry.
    const bobRow = page.getByRole('listitem').filter({ hasText: /Sent 2 KOIN to bob\.koin \(/ });
    const addBob = bobRow.getByRole('button', { name: /^Add to contacts/ });
    await addBob.click();
    const adding = page.getByRole('region', { name: 'Add to contacts' });
    const bobLabel = adding.getByLabel(/^Label for /);
    await expect.poll(() => bobLabel.evaluate((field) => field === field.ownerDocument.activeElement)).toBe(true);
    expect(await bobLabel.inputValue()).toBe('bob.koin');
    for (const control of [bobLabel, adding.getByRole('button', { name: 'Cancel' })]) {
      expect(await receivesClicks(control)).toBe(true);
    }
    await shots.take(page, 'history-add-contact');
    await adding.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => adding.count()).toBe(0);
    await expect.poll(() => addBob.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);
    // Another account: the field goes, its entry is not on that account's list.
    await addBob.click();
    await selectAccount(page, 'Account 1');
    await expect.poll(() => adding.count()).toBe(0);
    await selectAccount(page, 'Devnet account 0');
    await addBob.click();
    await bobLabel.fill('Bob');
    await adding.getByRole('button', { name: 'Save contact' }).click();
    const bobContact = page.getByRole('listitem').filter({ hasText: /Sent 2 KOIN to Bob \(/ });
    await expect.poll(() => bobContact.textContent()).toContain('In your contacts as Bob');
    await expect.poll(() => adding.count()).toBe(0);
    const list = page.getByRole('list', { name: 'Transaction history' });
    await expect.poll(() => list.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);

    // The contacts in Settings, removed from there.
    await go(page, 'Settings');
    const contacts = page.getByRole('list', { name: 'Contacts on Local (devnet)' });
    await expect
      .poll(async () => (await contacts.getByRole('listitem').allTextContents()).sort())
      .toEqual([expect.stringContaining('Bob'), expect.stringContaining('Carol'), expect.stringContaining('Dana')]);
    await shots.take(page, 'settings-contacts');
    for (const name of ['Bob', 'Carol', 'Dana']) await contacts.getByRole('button', { name: `Remove ${name}` }).click();
    await page.getByText('No contacts on Local (devnet) yet.').waitFor();

    // An allowance the account gave @carol outside the wallet: the Allowances list names the spender by her nickname.
    await register(url!, koin.getId(), 0, 'approve', (owner) => ({ owner, spender: carol, value: '100000000' }));
    await go(page, 'dApps');
    await expect
      .poll(() => page.getByTestId('allowance').textContent(), { timeout: 20_000 })
      .toMatch(/^\s*@carol may spend up to 1 KOIN/);
    await shots.take(page, 'allowance-named');
  }, 240_000);
});
