// Global setup of the e2e project: one system Chromium for the whole run, launched as a playwright-core browser server.
// Each e2e wallet connects to it and opens a fresh browser context (its own cookies, storage and permissions, as a new
// profile has), instead of starting a Chromium of its own: a start costs about a second of a 2-core machine per file.
import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing as systemChromiumMissing } from '../shells/chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket endpoint of the run's Chromium (empty when there is none and the browser tests skip). */
    chromiumEndpoint: string;
  }
}

/** Why the browser tests cannot run here, said on the console; always undefined in CI, where they must run. */
export function chromiumMissing(): string | undefined {
  const reason = systemChromiumMissing();
  if (reason !== undefined) console.warn(reason);
  return reason;
}

/** Vitest global setup: launches the browser server and hands its endpoint to the test files; returns its teardown. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (chromiumMissing() !== undefined) {
    project.provide('chromiumEndpoint', '');
    return async () => {};
  }
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}

let connected: Promise<Browser> | undefined;

/**
 * The run's Chromium, connected once per test worker (the e2e files share one worker and its modules). A connection
 * the browser dropped is made again.
 * @throws Error when the e2e project's global setup launched no browser.
 */
export function sharedChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint)
    throw new Error('expected the Chromium of the e2e global setup (test/e2e/sharedChromium.ts), found none');
  connected ??= chromium.connect(endpoint).then((browser) => {
    browser.on('disconnected', () => (connected = undefined));
    return browser;
  });
  return connected;
}
