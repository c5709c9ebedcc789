// End to end: offline signing. An unsigned transfer is exported while the node runs, signed while it is down (no
// node needed), and submitted once it is back; the receipt follows it into a block. The review shows every address in
// full (grouped, copied plain), and a co-signer's upload over the payer's own account with its risk flags.
import { afterEach, describe, expect, it } from 'vitest';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { transactionFromBase64, transactionToBase64 } from '../../src-main/koinos/transaction.ts';
import { startTestDevnet, type TestDevnet } from './devnetProcess.ts';
import {
  addCustomNetwork,
  chromiumMissing,
  exportUnsigned,
  go,
  selectAccount,
  signOffline,
  useE2eWallet,
  submitSigned,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('offline signing in the browser', () => {
  let e2e: E2eWallet | undefined;
  let node: TestDevnet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    await node?.dispose();
    e2e = node = undefined;
  });

  it('exports an unsigned transfer, signs it with the node down, and submits it when the node is back', async () => {
    node = await startTestDevnet();
    const ready = await useE2eWallet({ name: 'offline', devAccounts: [0] });
    e2e = ready;
    const { page, shots } = ready;
    const payer = ready.dev[0]!;
    await selectAccount(page, 'Devnet account 0');
    await addCustomNetwork(page, 'Test node', node.jsonRpcUrl);

    const unsigned = await exportUnsigned(page, 'Account 1', '2');
    expect(unsigned).toMatch(/^[A-Za-z0-9_-]+=*$/);
    const exported = page.getByRole('region', { name: 'Unsigned transfer' });
    // rc_limit reads as the cap it is, and no expected cost beside it: none was measured on this network yet.
    expect(((await exported.getByTestId('mana-limit').textContent()) ?? '').replace(/\s+/g, ' ').trim()).toMatch(
      /^at most [\d,.]+ mana \(a cap, not what it costs\)$/,
    );
    await exported.getByRole('button', { name: 'Show QR code' }).click();
    await exported.getByRole('img', { name: 'QR code of the transaction' }).waitFor();
    await shots.take(page, 'offline-exported-qr');

    // Every address of the review in full: the payer and the recipient, whose text (what a copy gives) has no spaces.
    const shown = await exported
      .locator('[data-address]')
      .evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-address'), n.textContent]));
    expect(shown.length).toBeGreaterThanOrEqual(3); // sender and recipient in the summary, the KOIN contract, the payer
    for (const [address, text] of shown) expect(text).toBe(address);
    expect(shown.map(([address]) => address)).toContain(payer);
    // The recipient (the summary's last address) has its first and last four characters marked, no one else.
    const summary = exported.getByTestId('operation-summary');
    const recipient = (await summary.locator('[data-address]').last().getAttribute('data-address')) ?? '';
    expect((await summary.locator('strong').allTextContents()).join('')).toBe(
      `${recipient.slice(0, 4)}${recipient.slice(-4)}`,
    );

    await node.stop();
    // A decoded transaction whose text is then changed is no longer shown, nor offered for signing: Sign would sign
    // the text decoded, which the field no longer holds.
    await go(page, 'Offline signing');
    await page.getByRole('button', { name: '2. Sign' }).click();
    const field = page.getByLabel('Unsigned transaction (base64 or JSON)');
    await field.fill(unsigned);
    await page.getByRole('button', { name: 'Decode' }).click();
    const decoded = page.getByRole('region', { name: 'What you are about to sign' });
    await decoded.waitFor({ timeout: 30_000 });
    await field.fill(`${unsigned.slice(0, -4)}AAAA`);
    await page.getByText('The transaction changed since it was decoded').waitFor();
    await shots.take(page, 'offline-decode-stale');
    expect(await decoded.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign', exact: true }).count()).toBe(0);

    const signed = await signOffline(page, unsigned, shots);
    expect(signed).not.toBe(unsigned);
    const signedView = page.getByRole('region', { name: 'Signed transaction' });
    expect(await signedView.getByText('nobody yet (unsigned)').count()).toBe(0);
    await shots.take(page, 'offline-signed-node-down');

    await node.start();
    await submitSigned(page, signed);
    const status = page.getByTestId('tx-status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/Included in block|Irreversible/);
    await shots.take(page, 'offline-submitted-included');

    // A co-signer's file that uploads contract code over the payer's own account: flagged before anything is signed.
    const upload = transactionFromBase64(unsigned);
    upload.id = new Uint8Array(0);
    upload.header!.operation_merkle_root = new Uint8Array(0);
    const bytecode = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    upload.operations = [
      {
        upload_contract: {
          contract_id: addressFromString(payer),
          bytecode,
          abi: '',
          authorizes_call_contract: true,
          authorizes_transaction_application: true,
          authorizes_upload_contract: true,
        },
      },
    ];
    await page.getByRole('button', { name: '2. Sign' }).click();
    await page.getByLabel('Unsigned transaction (base64 or JSON)').fill(transactionToBase64(upload));
    await page.getByRole('button', { name: 'Decode' }).click();
    const risks = page.getByRole('region', { name: 'What you are about to sign' }).getByTestId('risks');
    await risks.waitFor({ timeout: 30_000 });
    expect(await risks.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-risk')))).toEqual([
      'replaces-account',
      'upload-contract',
    ]);
    expect(await risks.textContent()).toContain('this replaces this account with contract code');
    await shots.take(page, 'offline-upload-risks');
  });
});
