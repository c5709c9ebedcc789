// End to end: the Local network's shape, chosen on the Networks screen. A new chain shaped like mainnet is started
// from there, the screen says which shape runs, and the dashboard's KOIN is then mainnet's KOIN contract. Before, the
// panel's head block follows the blocks of the selected Local network without a status request each block.
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumMissing, go, useE2eWallet, type E2eWallet } from './harness.ts';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('the Local network shape in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('starts a new local chain shaped like mainnet from the Networks screen', async () => {
    e2e = await useE2eWallet({ name: 'local-shape' });
    const { page, shots, wallet } = e2e;
    await go(page, 'Networks');
    const shape = page.getByTestId('local-shape');
    await expect.poll(() => shape.textContent(), { timeout: 20_000 }).toBe("The devnet's own addresses");
    // Local is the selected network: the panel's head block follows the blocks without asking main for the status.
    // Once the window has a head of its own (the page may open before its first, and the panel reads the status once
    // more when the chain becomes known), the panel moves on with no status request.
    const head = page.locator('dt:text-is("Head block") + dd');
    const opened = Number(await head.textContent());
    await expect.poll(async () => Number(await head.textContent()), { timeout: 20_000 }).toBeGreaterThan(opened);
    const statusAsked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/ipc/devnet%3Astatus')) statusAsked.push(request.url());
    });
    const first = Number(await head.textContent());
    await expect.poll(async () => Number(await head.textContent()), { timeout: 20_000 }).toBeGreaterThan(first + 2);
    expect(statusAsked).toEqual([]);
    const before = (await wallet.handlers['devnet:status']()).chainId;
    await page.getByLabel('Shape of a new chain').selectOption({ label: "Mainnet's addresses" });
    await page.getByRole('button', { name: 'Start a new chain shaped like this' }).click();
    await expect.poll(() => shape.textContent(), { timeout: 30_000 }).toBe("Mainnet's addresses");
    expect((await wallet.handlers['devnet:status']()).chainId).not.toBe(before);
    await shots.take(page, 'networks-mainnet-shape');
    const koin = (await wallet.handlers['tokens:list']({})).find((t) => t.system === 'koin');
    expect(koin?.contract).toBe('19GYjDBVXU7keLbYvMLazsGQn3GTWHjHkK');
  });
});
