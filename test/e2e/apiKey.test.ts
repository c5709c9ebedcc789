// End to end: a custom network whose node wants an API key. A wrong key gives a message that says what to do; with
// the right key the dashboard shows the account's balance. A refused save keeps the typed key in its field, and an
// emptied REST URL is removed.
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

    // A save the wallet refuses (a second, different key in the address) keeps the form open with the typed key in
    // its field: fixing the address and saving again saves the key typed.
    await go(page, 'Networks');
    await page.getByRole('button', { name: 'Edit Keyed node' }).click();
    const rpcField = page.getByLabel('JSON-RPC URL');
    await rpcField.fill(`${node.jsonRpcUrl}?apikey=another-key`);
    await page.getByLabel('API key (optional)').fill(RIGHT_KEY);
    await page.getByRole('button', { name: 'Save network' }).click();
    expect(await alertText(page, /one API key/)).toMatch(/one API key, got 2 different ones/i);
    expect(await page.getByLabel('API key (optional)').inputValue()).toBe(RIGHT_KEY);
    await rpcField.fill(node.jsonRpcUrl);
    await page.getByRole('button', { name: 'Save network' }).click();
    await go(page, 'Dashboard');
    await expect.poll(() => page.getByTestId('balance-KOIN').textContent(), { timeout: 20_000 }).toBe('0 KOIN');
    expect(await page.getByRole('alert').count()).toBe(0);
    await shots.take(page, 'right-key-dashboard');
    expect(await page.content()).not.toContain(RIGHT_KEY);

    // A REST URL given and then emptied is removed: the next edit starts without it.
    const restUrl = `${new URL(node.jsonRpcUrl).origin}/`;
    const restField = page.getByLabel('REST URL (optional)');
    for (const value of [restUrl, '']) {
      await go(page, 'Networks');
      await page.getByRole('button', { name: 'Edit Keyed node' }).click();
      await restField.fill(value);
      await page.getByRole('button', { name: 'Save network' }).click();
      await restField.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Edit Keyed node' }).click();
      expect(await restField.inputValue()).toBe(value);
      await page.getByRole('button', { name: 'Cancel' }).click();
    }
  });
});
