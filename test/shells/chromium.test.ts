// The browser tests' Chromium, launched with CHROMIUM_ARGS (here as a playwright-core browser server, whose process shows
// the command line playwright-core gave it): our --disable-features switch, which replaces playwright's (Chromium keeps
// the last), still turns off every feature playwright's did, and a new browser context opens no omnibox popup of
// Chromium's own.
import { chromium, type BrowserServer } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing } from './chromium.ts';

const missing = chromiumMissing();
if (missing) console.warn(missing);

/** The feature names of each --disable-features switch in `args`, in order. */
function disabledFeatureSwitches(args: readonly string[]): string[][] {
  return args.filter((arg) => arg.startsWith('--disable-features=')).map((arg) => arg.split('=')[1]!.split(','));
}

describe.skipIf(missing !== undefined)("the browser tests' Chromium", () => {
  let server: BrowserServer;
  beforeAll(async () => {
    server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('turns off every feature playwright-core does, in the one switch Chromium reads (the last)', () => {
    const switches = disabledFeatureSwitches(server.process().spawnargs);
    // playwright-core's own, then CHROMIUM_ARGS'.
    expect(switches.length).toBeGreaterThanOrEqual(2);
    const last = new Set(switches.at(-1));
    const dropped = switches
      .slice(0, -1)
      .flat()
      .filter((feature) => !last.has(feature));
    expect(dropped, 'features that playwright-core turns off and CHROMIUM_ARGS drops: add them to its list').toEqual(
      [],
    );
  });

  it('opens a browser context without the omnibox popups of a window', async () => {
    const browser = await chromium.connect(server.wsEndpoint());
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto('data:text/html,<p>page</p>');
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
      const urls = targetInfos.map((target) => target.url);
      // The page itself is listed: the list is the browser's, not empty by mistake.
      expect(urls).toContain('data:text/html,<p>page</p>');
      expect(urls.filter((url) => url.startsWith('chrome://omnibox-popup'))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
