// End to end: the head block on the Dashboard never steps back. The page hears of the head from two sources: main's
// push of every new head (`head:new`), and the head that comes with each dashboard answer. An answer read before a newer
// head was pushed arrives after it when the dashboard takes longer than a block; its older head must not come back on
// screen.
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcHandlers } from '../../src-main/ipc/dispatcher.ts';
import type { Dashboard } from '../../src-main/ipc/contract.ts';
import { chromiumMissing, useE2eWallet, type E2eWallet } from './harness.ts';

const missing = chromiumMissing();

/**
 * Makes the wallet's next `dashboard:get` answer wait for `release` once it is read (resolving `read` with it); the
 * calls after it are answered at once. `answered` resolves when the call after the held one has been answered.
 */
function holdNextDashboard(handlers: IpcHandlers): {
  read: Promise<Dashboard>;
  release: () => void;
  answered: Promise<void>;
} {
  const real = handlers['dashboard:get'];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let answeredNext!: () => void;
  const answered = new Promise<void>((resolve) => (answeredNext = resolve));
  const read = new Promise<Dashboard>((resolveRead) => {
    handlers['dashboard:get'] = async (...args) => {
      handlers['dashboard:get'] = async (...nextArgs) => {
        handlers['dashboard:get'] = real;
        const answer = await real(...nextArgs);
        answeredNext();
        return answer;
      };
      const answer = await real(...args);
      resolveRead(answer);
      await released;
      return answer;
    };
  });
  return { read, release, answered };
}

/**
 * Runs in the page: records every text the head height shows, in order, in `window.shownHeights`. A string (the tests'
 * TypeScript has no DOM types); the observer reads the element at each change of the page.
 */
const RECORD_HEIGHTS = `(() => {
  const shown = [];
  window.shownHeights = shown;
  const note = () => {
    const text = document.querySelector('[data-testid="head-height"]')?.textContent?.trim();
    if (text && text !== shown[shown.length - 1]) shown.push(text);
  };
  note();
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

describe.skipIf(missing !== undefined)('the head block on the Dashboard', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('keeps a newer pushed head when a dashboard answer read before it comes later', async () => {
    e2e = await useE2eWallet({ name: 'head-order' });
    const { page, wallet } = e2e;
    const height = page.getByTestId('head-height');
    await height.waitFor({ timeout: 20_000 });
    await page.evaluate(RECORD_HEIGHTS);

    // A block a second, a push a second: the next dashboard answer is read, then held until a later head is pushed.
    const held = holdNextDashboard(wallet.handlers);
    const read = BigInt((await held.read).head.height);
    await expect
      .poll(async () => BigInt((await height.textContent())?.trim() ?? '0'), { timeout: 20_000 })
      .toBeGreaterThan(read);
    held.release();
    // The page asks again (the push asked for a refresh while the held one ran) only once the held answer is shown.
    await held.answered;

    const shown = (await page.evaluate('window.shownHeights')) as string[];
    const heights = shown.map(BigInt);
    expect(heights.some((h) => h > read)).toBe(true);
    for (let i = 1; i < heights.length; i++)
      expect(heights[i]! >= heights[i - 1]!, `heights shown, in order: ${shown.join(', ')}`).toBe(true);
  });
});
