// End to end in the browser shell: a dApp (a SignClient in the test, on a relay on 127.0.0.1) shows a wc: URI; the
// person pastes it on the dApps screen, approves the connection with the account it grants, approves the dApp's
// KOIN transfer in the approval panel, and sees it in the history; approves the allowance it asks for, disconnects the
// dApp, and takes the allowance back on the same screen. And a wallet started on
// a folder whose WalletConnect file it cannot open: the copy is named, the dApp's grant ended.
import { readFile } from 'node:fs/promises';
import { Contract, Signer, utils as koilibUtils } from 'koilib';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { closeDapp, dappClient, proposeSession, SDK_METHODS, type DappClient } from '../wallet/dapps/dappClient.ts';
import { startTestRelay, type TestRelay } from '../wallet/dapps/relay.ts';
import { STORED_GRANT } from '../helpers/dappGrant.ts';
import {
  approve,
  chromiumMissing,
  confirmEffects,
  createWallet,
  go,
  importDevAccount,
  selectAccount,
  startE2eWallet,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('a dApp over WalletConnect in the browser', () => {
  let e2e: E2eWallet | undefined;
  let relay: TestRelay | undefined;
  let dapp: DappClient | undefined;
  afterEach(async () => {
    if (dapp) await closeDapp(dapp);
    await e2e?.stop();
    await relay?.stop();
    e2e = undefined;
    relay = undefined;
    dapp = undefined;
  });

  it("pairs from a pasted URI, grants an account, signs and sends the dApp's transfer, and shows it in the history", async () => {
    relay = await startTestRelay();
    const trace = relay.trace;
    onTestFailed(() => console.error(`The relay's trace:\n${trace.join('\n')}`));
    e2e = await startE2eWallet({
      name: 'dapp-connect',
      env: { KOINOS_WALLET_WC_RELAY_URL: relay.url, KOINOS_WALLET_WC_PROJECT_ID: 'test-project' },
    });
    const { page, shots, wallet } = e2e;
    await createWallet(page);
    const ownAddress = (await page.getByRole('main').getByRole('code').first().textContent())?.trim() ?? '';
    const sender = await importDevAccount(page, 0);
    await selectAccount(page, 'Devnet account 0');
    const { chainId } = await wallet.handlers['devnet:status']();
    const chain = `koinos:${chainId!.slice(0, 32)}`;
    const koin = (await wallet.handlers['tokens:list']({})).find((t) => t.system === 'koin')!.contract;

    dapp = await dappClient(relay.url);
    const { uri, session: settled } = await proposeSession(dapp, {
      requiredNamespaces: { koinos: { chains: [chain], methods: SDK_METHODS, events: [] } },
    });
    await go(page, 'dApps');
    await page.getByLabel('WalletConnect URI').fill(uri);
    await shots.take(page, 'dapps-uri');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();

    // The connection request: the selected account is proposed; the person grants it with the password.
    const request = page.getByRole('dialog', { name: 'Approve: connect Test dApp' });
    await request.waitFor({ timeout: 30_000 });
    const accounts = request.getByTestId('approval-accounts');
    await expect.poll(() => accounts.getByRole('checkbox', { checked: true }).count()).toBe(1);
    expect(await request.textContent()).toContain('https://dapp.example');
    await approve(page, { shots, shot: 'connect-approval' });
    const session = await settled;
    expect(session.namespaces['koinos']!.accounts).toEqual([`${chain}:${sender}`]);
    const grant = page.getByTestId('dapp-grant');
    await expect.poll(() => grant.textContent(), { timeout: 20_000 }).toContain('https://dapp.example');
    await shots.take(page, 'dapps-connected');

    // The dApp's transfer, as it builds it with koilib: reviewed and approved in the wallet's panel.
    const contract = new Contract({ id: koin, abi: koilibUtils.tokenAbi });
    const operation = await contract.encodeOperation({
      name: 'transfer',
      args: { from: sender, to: ownAddress, value: '150000000' },
    });
    const sent = dapp.request<{ transaction: { id: string } }>({
      topic: session.topic,
      chainId: chain,
      request: {
        method: 'koinos_signAndSendTransaction',
        params: { address: sender, transaction: { operations: [operation] }, options: {} },
      },
    });
    const text = await approve(page, { shots, shot: 'transfer-approval' });
    expect(text).toContain('Requested by https://dapp.example');
    expect(text).toContain(`Transfer 1.5 KOIN from ${sender} to ${ownAddress}`);
    const effects = await confirmEffects(page, { shots, shot: 'transfer-effects' });
    expect(effects).toMatch(
      new RegExp(
        `What its dry run did\\s*Its dry run ran on the node with a copy signed after your first approval: a node you do not trust could still\\s+send that copy\\.\\s*Transfer 1\\.5 KOIN from ${sender} to ${ownAddress}`,
      ),
    );
    const { transaction } = await sent;
    expect(transaction.id).toMatch(/^0x1220[0-9a-f]{64}$/);

    await go(page, 'History');
    await expect
      .poll(
        () =>
          page
            .getByRole('listitem')
            .filter({ hasText: /Sent 1\.5 KOIN/ })
            .count(),
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    await shots.take(page, 'history');

    // An allowance the dApp asks for (its router may then take up to 2 KOIN): flagged, confirmed and approved.
    const router = Signer.fromSeed('test dApp router').getAddress();
    const allowance = await contract.encodeOperation({
      name: 'approve',
      args: { owner: sender, spender: router, value: '200000000' },
    });
    const approved = dapp.request<{ transaction: { id: string } }>({
      topic: session.topic,
      chainId: chain,
      request: {
        method: 'koinos_signAndSendTransaction',
        params: { address: sender, transaction: { operations: [allowance] }, options: {} },
      },
    });
    expect(await approve(page, { confirmWarnings: true })).toContain(`Allow ${router} to spend up to 2 KOIN`);
    await confirmEffects(page);
    await approved;

    // Disconnected from the wallet: the dApp's session ends too.
    await go(page, 'dApps');
    await page.getByRole('button', { name: 'Disconnect Test dApp' }).click();
    await page.getByText('No dApp is connected.').waitFor({ timeout: 20_000 });
    await expect.poll(() => dapp!.session.getAll().length, { timeout: 20_000 }).toBe(0);

    // The allowance outlives the connection: listed under Allowances, and taken back through a review and approval.
    const listed = page.getByTestId('allowance');
    await expect.poll(() => listed.textContent(), { timeout: 20_000 }).toMatch(/An address may spend up to 2 KOIN/);
    expect(await listed.locator('[data-address]').getAttribute('data-address')).toBe(router);
    await shots.take(page, 'dapps-disconnected');
    await page.getByRole('button', { name: /^Take back: / }).click();
    const review = page.getByTestId('transaction-review');
    await review.waitFor();
    expect(await review.textContent()).toContain(
      `Set the allowance of ${router} to 0 KOIN: it may spend nothing more from ${sender}`,
    );
    await shots.take(page, 'allowance-review');
    await page.getByRole('button', { name: 'Sign and send' }).click();
    expect(await approve(page)).toContain(`Set the allowance of ${router} to 0 KOIN`);
    await page.getByRole('button', { name: 'Back to the allowances' }).click();
    await page.getByTestId('no-allowances').waitFor({ timeout: 20_000 });
    await shots.take(page, 'allowances-none');
  });

  it('starts without the sessions of a walletconnect.json it cannot open, and names the copy on the dApps screen', async () => {
    relay = await startTestRelay();
    // A data folder copied from another machine: its WalletConnect file is sealed with a key this one does not hold.
    const sessions = `v1.${Buffer.alloc(12, 1).toString('base64')}.${Buffer.alloc(48, 2).toString('base64')}`;
    const grant = { ...STORED_GRANT, sessions: ['a-session-it-cannot-read'] };
    const dapps = { version: 1, revision: 1, grants: [grant], walletConnect: { relayUrl: '', projectId: '' } };
    e2e = await useE2eWallet({
      name: 'walletconnect-kept-aside',
      env: { KOINOS_WALLET_WC_RELAY_URL: relay.url, KOINOS_WALLET_WC_PROJECT_ID: 'test-project' },
      files: { 'dapps.json': JSON.stringify(dapps), 'walletconnect.json': sessions },
    });
    const { page, shots } = e2e;
    await go(page, 'dApps');
    const notice = page.getByRole('status').filter({
      hasText:
        'The WalletConnect sessions could not be read, so the wallet started without them: connect your dApps again.',
    });
    await notice.waitFor();
    const copy = (await notice.locator('code').textContent()) ?? '';
    expect(copy).toMatch(/\/walletconnect\.json\.damaged-[0-9a-f]{12}$/);
    expect(await readFile(copy, 'utf8')).toBe(sessions);
    // The grant of a session the wallet no longer has is ended.
    await page.getByText('No dApp is connected.').waitFor();
    await shots.take(page, 'walletconnect-kept-aside');
  });
});
