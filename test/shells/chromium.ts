// The system Chromium for browser tests (playwright-core, no download): launched headless, or a reason to skip
// outside CI when it is missing. In CI (CI=true) a missing Chromium fails the test instead of skipping it.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * The features playwright-core turns off (its chromiumSwitches.ts), repeated here because Chromium keeps only the last
 * --disable-features switch: one of ours after playwright's would replace its list. chromium.test.ts reads the switches
 * off the running browser and fails when playwright turns off a feature that is missing here.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium's own omnibox popups: every browser context opens a window, and each window of Chromium 156 loads two WebUI
 * popups (chrome://omnibox-popup.top-chrome) in a renderer process of its own, though headless never shows them. About
 * 0.7 CPU-seconds per context with the browser process's share: a test run opens 39 contexts, and this was a tenth of
 * its CPU.
 */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Headless, no sandbox (root in CI), nothing that reaches the network on its own, and no omnibox popups. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];

/** Why browser tests cannot run here, or undefined when they can (always undefined in CI: there they must run). */
export function chromiumMissing(): string | undefined {
  if (process.env['CI'] === 'true' || existsSync(CHROMIUM_PATH)) return undefined;
  return `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH); skipping the browser tests`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
