// End to end: offline signing. An unsigned transfer is exported while the node runs, signed while it is down (no
// node needed), and submitted once it is back; the receipt follows it into a block.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestDevnet, type TestDevnet } from './devnetProcess.ts';
import {
  addCustomNetwork,
  chromiumMissing,
  createWallet,
  exportUnsigned,
  importDevAccount,
  selectAccount,
  signOffline,
  startE2eWallet,
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
    e2e = await startE2eWallet({ name: 'offline' });
    const { page, shots } = e2e;
    await createWallet(page);
    await importDevAccount(page, 0);
    await selectAccount(page, 'Devnet account 0');
    await addCustomNetwork(page, 'Test node', node.jsonRpcUrl);

    const unsigned = await exportUnsigned(page, 'Account 1', '2');
    expect(unsigned).toMatch(/^[A-Za-z0-9_-]+=*$/);
    const exported = page.getByRole('region', { name: 'Unsigned transfer' });
    await exported.getByRole('button', { name: 'Show QR code' }).click();
    await exported.getByRole('img', { name: 'QR code of the transaction' }).waitFor();
    await shots.take(page, 'offline-exported-qr');

    await node.stop();
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
  });
});
