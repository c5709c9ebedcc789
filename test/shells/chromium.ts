// The system Chromium for browser tests (playwright-core, no download): launched headless, or a reason to skip
// outside CI when it is missing. In CI (CI=true) a missing Chromium fails the test instead of skipping it.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Headless, no sandbox (root in CI), and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Why browser tests cannot run here, or undefined when they can (always undefined in CI: there they must run). */
export function chromiumMissing(): string | undefined {
  if (process.env['CI'] === 'true' || existsSync(CHROMIUM_PATH)) return undefined;
  return `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH); skipping the browser tests`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
