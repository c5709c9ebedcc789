// The e2e files' Chromium: one system Chromium per test worker (the e2e files share one worker and its modules), launched
// by the first wallet that needs it. Each e2e wallet opens a fresh browser context of it (its own cookies, storage
// and permissions, as a new profile has), instead of starting a Chromium of its own: a start costs about a second of a
// 2-core machine per file. The browser ends with the worker: it leaves when its pipe to playwright-core closes.
import type { Browser } from 'playwright-core';
import { chromiumMissing as systemChromiumMissing, launchChromium } from '../shells/chromium.ts';

/** Why the browser tests cannot run here, said on the console; always undefined in CI, where they must run. */
export function chromiumMissing(): string | undefined {
  const reason = systemChromiumMissing();
  if (reason !== undefined) console.warn(reason);
  return reason;
}

let launched: Promise<Browser> | undefined;

/** The worker's Chromium, launched once; a browser that went away is launched again. */
export function sharedChromium(): Promise<Browser> {
  launched ??= launchChromium().then((browser) => {
    browser.on('disconnected', () => (launched = undefined));
    return browser;
  });
  return launched;
}
