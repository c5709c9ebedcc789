// End to end: the approval in the browser shell. The wallet uses a node that records everything it is sent (as a
// malicious node would): a review abandoned with Back, one left by choosing another account, and one rejected in the
// approval dialog (modal: it holds the focus) leave it no signed transaction; an approved send takes one review and one
// approval; one whose answer the node loses is said to be maybe sent, and shows in History; a flagged offline
// signature needs every warning confirmed before Approve is even enabled.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { nonceToBytes, transactionToBase64 } from '../../src-main/koinos/transaction.ts';
import {
  PASSWORD,
  addCustomNetwork,
  approve,
  chromiumMissing,
  createWallet,
  go,
  importDevAccount,
  selectAccount,
  startE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

/**
 * A JSON-RPC node in front of `target` that forwards every call and keeps its body; with `loseBroadcasts` set, it
 * forwards a broadcast submission and cuts the connection instead of answering.
 */
async function recordingNode(
  target: string,
): Promise<{ url: string; bodies: string[]; loseBroadcasts: boolean; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const node = { loseBroadcasts: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      const lose = node.loseBroadcasts && body.includes('"broadcast":true');
      void fetch(`${target}${req.url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => {
          if (lose) return res.socket?.destroy();
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        })
        .catch(() => res.socket?.destroy()); // the node stopped at the end of the test: the client sees a closed connection
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(node, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The signed transactions a node was sent. */
const signedSubmits = (bodies: string[]) =>
  bodies
    .map(
      (b) =>
        JSON.parse(b) as { method: string; params?: { transaction?: { signatures?: string[] }; broadcast?: boolean } },
    )
    .filter((c) => c.method === 'chain.submit_transaction' && (c.params?.transaction?.signatures?.length ?? 0) > 0);

describe.skipIf(missing !== undefined)('approving signatures in the browser', () => {
  let e2e: E2eWallet | undefined;
  let proxy: Awaited<ReturnType<typeof recordingNode>> | undefined;
  afterEach(async () => {
    await e2e?.stop();
    await proxy?.close();
    e2e = proxy = undefined;
  });

  it('sends nothing signed for a review left with Back, another account or a rejection; one approval sends it', async () => {
    e2e = await startE2eWallet({ name: 'approvals' });
    const { page, shots, wallet } = e2e;
    await createWallet(page);
    const own = (await wallet.handlers['accounts:list']())[0]!.address;
    await importDevAccount(page, 0);
    const { url } = await wallet.handlers['devnet:status']();
    proxy = await recordingNode(url!);
    await addCustomNetwork(page, 'Recorded node', `${proxy.url}/jsonrpc`);
    await selectAccount(page, 'Devnet account 0');

    const review = async () => {
      await go(page, 'Send');
      await page.getByLabel('Recipient address').fill(own);
      await page.getByLabel(/^Amount/).fill('2');
      await page.getByRole('button', { name: 'Review' }).click();
      await page.getByRole('region', { name: 'Review what will be signed' }).waitFor({ timeout: 20_000 });
    };
    await review();
    expect(await page.getByTestId('review-mana').textContent()).toMatch(/a cap, not what it costs.*an estimate/s);
    await shots.take(page, 'review');
    await page.getByRole('button', { name: 'Back' }).click();
    expect(signedSubmits(proxy.bodies)).toEqual([]);

    // A review is of one account: choosing another at the top takes it off the screen, fields and all.
    await review();
    await selectAccount(page, 'Account 1');
    await page.getByText(`From Account 1 ${own}`).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('region', { name: 'Review what will be signed' }).count()).toBe(0);
    expect(await page.getByLabel('Recipient address').inputValue()).toBe('');
    await selectAccount(page, 'Devnet account 0');

    await review();
    await page.getByRole('button', { name: 'Sign and send' }).click();
    const dialog = page.getByRole('dialog', { name: /^Approve/ });
    await dialog.waitFor({ timeout: 20_000 });
    expect(await dialog.textContent()).toContain('Requested by This wallet');
    // Modal: the focus is on its title, and nothing behind it takes a click or a Tab.
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('approval-title');
    expect(await page.locator('.shell').getAttribute('inert')).not.toBeNull();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('!!document.activeElement.closest("[role=dialog]")')).toBe(true);
    const approveButton = dialog.getByRole('button', { name: /^Approve/ });
    expect(await approveButton.isDisabled()).toBe(true); // no password typed yet
    await shots.take(page, 'approval-dialog');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('rejected');
    expect(signedSubmits(proxy.bodies)).toEqual([]);
    // The focus is back on the screen (its Sign and send is gone), which takes clicks again.
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Send');
    expect(await page.locator('.shell').getAttribute('inert')).toBeNull();
    // The rejected review is spent: no Sign and send that main would refuse, only the way back to the fields.
    expect(await page.getByRole('alert').textContent()).toContain('Nothing was sent.');
    expect(await page.getByRole('button', { name: 'Sign and send' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Back to the form' }).click();
    expect(await page.getByLabel('Recipient address').inputValue()).toBe(own);
    await review();
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page);
    await page.getByTestId('tx-status').waitFor({ timeout: 30_000 });
    // After the approval: the dry run that sizes rc_limit, then the transaction itself, once.
    expect(signedSubmits(proxy.bodies).map((c) => c.params?.broadcast ?? false)).toEqual([false, true]);
    await shots.take(page, 'receipt');

    // The node takes the next one and its answer is lost: not "nothing was sent", and History shows the transfer.
    proxy.loseBroadcasts = true;
    await page.getByRole('button', { name: 'New transfer' }).click();
    await page.getByLabel('Recipient address').fill(own);
    await page.getByLabel(/^Amount/).fill('3');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toContain('It may have been sent.');
    expect(await alert.textContent()).toContain('Check History before sending it again');
    expect(await page.getByRole('button', { name: 'Sign and send' }).count()).toBe(0);
    await shots.take(page, 'maybe-sent');
    await page.getByRole('button', { name: 'See it in the history' }).click();
    const row = page.getByRole('listitem').filter({ hasText: /Sent 3 KOIN/ });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(signedSubmits(proxy.bodies).filter((c) => c.params?.broadcast)).toHaveLength(2);
  });

  it('asks for every warning of a flagged offline signature to be confirmed before it can be approved', async () => {
    e2e = await startE2eWallet({ name: 'approvals-flagged' });
    const { page, shots, wallet } = e2e;
    await createWallet(page);
    const dev = await importDevAccount(page, 0);
    await selectAccount(page, 'Devnet account 0');
    const { chainId } = await wallet.handlers['networks:head']({});
    const upload = transactionToBase64({
      id: new Uint8Array(),
      header: {
        chain_id: Buffer.from(chainId, 'base64url'),
        rc_limit: 10_000_000n,
        nonce: nonceToBytes(1n),
        operation_merkle_root: new Uint8Array(),
        payer: addressFromString(dev),
        payee: new Uint8Array(),
      },
      operations: [
        {
          upload_contract: {
            contract_id: addressFromString(dev),
            bytecode: Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0]),
            abi: '',
            authorizes_call_contract: true,
            authorizes_transaction_application: true,
            authorizes_upload_contract: true,
          },
        },
      ],
      signatures: [],
    });
    await go(page, 'Offline signing');
    await page.getByRole('button', { name: '2. Sign' }).click();
    await page.getByLabel('Unsigned transaction (base64 or JSON)').fill(upload);
    await page.getByRole('button', { name: 'Decode' }).click();
    await page.getByRole('region', { name: 'What you are about to sign' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: /^Approve/ });
    await dialog.waitFor({ timeout: 20_000 });
    const boxes = dialog.getByRole('checkbox');
    expect(await boxes.count()).toBe(2);
    expect(await dialog.textContent()).toContain('replaces this account with contract code');
    await dialog.getByLabel('Wallet password, to approve').fill(PASSWORD);
    const approveButton = dialog.getByRole('button', { name: /^Approve/ });
    expect(await approveButton.isDisabled()).toBe(true);
    await boxes.first().check();
    expect(await approveButton.isDisabled()).toBe(true); // one warning confirmed is not enough
    await boxes.nth(1).check();
    expect(await approveButton.isDisabled()).toBe(false);
    await shots.take(page, 'flagged-approval');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('rejected');
    expect(await page.getByRole('region', { name: 'Signed transaction' }).count()).toBe(0);
  });
});
