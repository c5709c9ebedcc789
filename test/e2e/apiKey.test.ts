// End to end: a custom network whose node wants an API key. A wrong key gives a message that says what to do; with
// the right key the dashboard shows the account's balance.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestDevnet, type TestDevnet } from './devnetProcess.ts';
import { addCustomNetwork, alertText, chromiumMissing, go, useE2eWallet, type E2eWallet } from './harness.ts';

const missing = chromiumMissing();
const RIGHT_KEY = 'e2e-right-api-key';

describe.skipIf(missing !== undefined)('a custom network with an API key in the browser', () => {
  let e2e: E2eWallet | undefined;
  let node: TestDevnet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    await node?.dispose();
    e2e = node = undefined;
  });

  it('explains a wrong key and works with the right one', async () => {
    node = await startTestDevnet({ apiKey: RIGHT_KEY });
    e2e = await useE2eWallet({ name: 'api-key' });
    const { page, shots } = e2e;
    await addCustomNetwork(page, 'Keyed node', node.jsonRpcUrl, 'a-wrong-key');
    await shots.take(page, 'network-added');

    await go(page, 'Dashboard');
    const message = await alertText(page, /key/i);
    expect(message).not.toContain('a-wrong-key');
    expect(message).not.toContain(RIGHT_KEY);
    await shots.take(page, 'wrong-key-message');

    await go(page, 'Networks');
    await page.getByRole('button', { name: 'Edit Keyed node' }).click();
    await page.getByLabel('API key (optional)').fill(RIGHT_KEY);
    await page.getByRole('button', { name: 'Save network' }).click();
    await go(page, 'Dashboard');
    await expect.poll(() => page.getByTestId('balance-KOIN').textContent(), { timeout: 20_000 }).toBe('0 KOIN');
    expect(await page.getByRole('alert').count()).toBe(0);
    await shots.take(page, 'right-key-dashboard');
    expect(await page.content()).not.toContain(RIGHT_KEY);
  });
});
