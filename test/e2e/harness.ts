// The e2e harness: the real wallet (vault on the real keychain, chain services, embedded devnet on port 0) behind the
// real browser shell, a fresh context (a new profile's state) of the run's one system Chromium driven by playwright-core
// (test/e2e/sharedChromium.ts), and screenshots of each step in the light and the dark theme under test-results/e2e/.
// Pages are driven by role and accessible name.
import type { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';
import { expect, onTestFailed } from 'vitest';
import type { IpcArgs, IpcChannel, IpcValue } from '../../src-main/ipc/contract.ts';
import type { IpcHandlers } from '../../src-main/ipc/dispatcher.ts';
import { startBrowserShell, type BrowserShell } from '../../src-main/shells/browser/browserShell.ts';
import type { Clock } from '../../src-main/wallet/vault/idleTimer.ts';
import { loadKeytar } from '../../src-main/wallet/vault/secretStore.ts';
import { createWalletApp, type WalletApp, type WalletAppOptions } from '../../src-main/wallet/walletApp.ts';
import { TEST_SCRYPT } from '../helpers/constants.ts';
import { removeKeychainService } from '../helpers/keychain.ts';
import { sharedChromium } from './sharedChromium.ts';

export { chromiumMissing } from './sharedChromium.ts';

const RESULTS = resolve(import.meta.dirname, '../../test-results/e2e');

/** A wallet behind the browser shell, and a browser context of its own on it. */
export interface E2eWallet {
  shell: BrowserShell;
  wallet: WalletApp;
  /** The run's shared Chromium: close the context, never the browser. */
  browser: Browser;
  /**
   * The page's context. A test that reads it (to grant a permission, add a script, open a page) keeps the page from
   * being reused by the next wallet (releasePage).
   */
  readonly context: BrowserContext;
  page: Page;
  shots: Shots;
  /**
   * Closes the browser context (or keeps its page for the next wallet), stops the shell and the wallet, and removes the
   * data folder and keychain entries.
   */
  stop(): Promise<void>;
}

export interface E2eOptions {
  /** Screenshot folder name under test-results/e2e/. */
  name: string;
  /** Devnet options of the embedded Local network (default: a block every second, three accounts). */
  devnet?: NonNullable<WalletAppOptions['devnet']>['devnet'];
  /** NFT media fetch options (a test whose media server is on 127.0.0.1 allows loopback). */
  nftMedia?: WalletAppOptions['nftMedia'];
  /** The wallet's environment overrides (KOINOS_WALLET_WC_RELAY_URL, KOINOS_WALLET_WC_PROJECT_ID). */
  env?: Record<string, string>;
  /** The vault's clock (default: the system's); a hand-driven one lets a test reach the idle lock without waiting. */
  clock?: Clock;
  /** Files written in the new data folder before the wallet starts, by name (a damaged settings file). */
  files?: Record<string, string>;
}

/** The size every e2e page has (a test that resizes its page has it reset before the page is reused). */
const VIEWPORT = { width: 1200, height: 860 };

/**
 * A page whose wallet stopped, kept for the next wallet of the worker: a new browser context and its page cost about a
 * quarter of a CPU-second of this 2-core machine (a window, a renderer process; 2.9 CPU-seconds more for 12 loads of
 * the app than one page loading it 12 times), and the files start 32 wallets. Each wallet has an origin of its own
 * (its shell's port), so nothing the page stored is seen again.
 */
let sparePage: { context: BrowserContext; page: Page } | undefined;

/** The spare page of the worker if there is one (and its browser is this one), else a new context's first page. */
async function takePage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const spare = sparePage;
  sparePage = undefined;
  if (spare && spare.context.browser() === browser && !spare.page.isClosed()) return spare;
  await spare?.context.close().catch(() => {});
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' });
  const page = await context.newPage();
  ownListeners.set(page, listeners(page));
  return { context, page };
}

/**
 * The page's listeners by event, as text: playwright-core's own are there from the start (ownListeners). Its Page is an
 * EventEmitter at run time; its types name only the methods that add and remove listeners.
 */
function listeners(page: Page): string {
  const emitter = page as unknown as Pick<EventEmitter, 'eventNames' | 'listenerCount'>;
  return emitter
    .eventNames()
    .map((event) => `${String(event)} ${emitter.listenerCount(event)}`)
    .join(', ');
}
const ownListeners = new WeakMap<Page, string>();

/**
 * Keeps a stopped wallet's page for the next one when `reusable` (its test never read the context) and nothing else was
 * left on it: no other page, no listener of the test's own (its wallet's were removed), no route. The page is then
 * reset to what a new context's page has: about:blank, the light scheme, the viewport. Anything else closes the context.
 */
async function releasePage(used: { context: BrowserContext; page: Page }, reusable: boolean): Promise<void> {
  const { context, page } = used;
  const untouched =
    reusable &&
    !sparePage &&
    !page.isClosed() &&
    context.pages().length === 1 &&
    listeners(page) === ownListeners.get(page);
  if (untouched) {
    try {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.goto('about:blank');
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: null, forcedColors: null, media: null });
      await page.setViewportSize(VIEWPORT);
      sparePage = used;
      return;
    } catch {
      // Not reset: closed below.
    }
  }
  await context.close().catch(() => {});
}

/**
 * Starts the wallet and the browser shell, takes a page of the run's Chromium (a new context's, or the one the last
 * stopped wallet left: takePage), and loads the printed URL (unless `load` is false: the caller loads it when the
 * wallet is ready, and the app is not loaded twice).
 */
export async function startE2eWallet(options: E2eOptions, load = true): Promise<E2eWallet> {
  const dataDir = await mkdtemp(join(tmpdir(), 'koinos-e2e-'));
  for (const [name, content] of Object.entries(options.files ?? {})) await writeFile(join(dataDir, name), content);
  const keychainService = `koinos-wallet-e2e-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const keychain = await loadKeytar();
  const logs: string[] = [];
  const wallet = await createWalletApp({
    dataDir,
    keychain,
    // The test scrypt cost: every unlock and every approval derives the key, and at the real cost (~250 ms each) the
    // browser suite spent a good part of its CPU in scrypt.
    vault: { keychainService, scryptCost: TEST_SCRYPT, ...(options.clock ? { clock: options.clock } : {}) },
    // A block and a head every 250 ms (the app's defaults are 3 s), transactions followed every 150 ms: the browser
    // files wait on blocks and heads more than they compute. Alone on this 2-core machine they took 99-101 s with a
    // block and a head every second and 77-78 s with 250 ms, in the same CPU (50-53 s); 500 ms took 89 s, and 100 ms
    // no less time than 250 ms with more CPU.
    devnet: { port: 0, devnet: { blockTimeMs: 250, accounts: 3, log: () => {}, ...options.devnet } },
    polling: { headMs: 250, transactionsMs: 150 },
    log: (line) => logs.push(line),
    ...(options.nftMedia ? { nftMedia: options.nftMedia } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  const shell = await startBrowserShell({ wallet, port: 0, log: (line) => logs.push(line) });
  const browser = await sharedChromium();
  const { context, page } = await takePage(browser);
  // Reading the context marks the page as changed beyond what releasePage resets.
  let contextRead = false;
  const pageErrors: string[] = [];
  const onPageError = (error: Error) => pageErrors.push(error.message);
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) pageErrors.push(message.text());
  };
  page.on('pageerror', onPageError);
  page.on('console', onConsole);
  if (load) await page.goto(shell.url);
  const shots = new Shots(join(RESULTS, options.name));
  await shots.ready();
  // A failed test prints what the page showed as the wallet stopped, and the wallet's log: CI keeps no screenshot, and
  // a failure there is otherwise only a locator's timeout.
  let lastSeen = 'nothing (the wallet was not stopped)';
  try {
    onTestFailed(() =>
      console.error(`What the page showed at the end: ${lastSeen}\nThe wallet's log:\n${logs.join('\n')}`),
    );
  } catch {
    // Started outside a test (a beforeAll): there is no test to report a failure of.
  }

  let stopped = false;
  return {
    shell,
    wallet,
    browser,
    get context() {
      contextRead = true;
      return context;
    },
    page,
    shots,
    async stop() {
      if (stopped) return;
      stopped = true;
      lastSeen = await page.evaluate(PAGE_SUMMARY).then(String, (error: Error) => `unreadable (${error.message})`);
      // The last state of the page, whatever happened: the first thing to look at when a test failed. Not where no
      // screenshot is taken (CI keeps no file of the run): a full-page capture is a tenth of a second of the browser.
      if (SHOT_THEMES.length > 0)
        await page.screenshot({ path: join(RESULTS, options.name, 'zz-last.png'), fullPage: true }).catch(() => {});
      page.off('pageerror', onPageError);
      page.off('console', onConsole);
      await releasePage({ context, page }, !contextRead);
      await shell.stop();
      await wallet.close();
      await removeKeychainService(keychainService);
      await rm(dataDir, { recursive: true, force: true });
      // CSP violations, uncaught errors: the page must run clean.
      expect(pageErrors, `page errors; wallet log:\n${logs.join('\n')}`).toEqual([]);
    },
  };
}

/** What the page shows, in one line: its address, heading, messages and dialogs (a string: no DOM types here). */
const PAGE_SUMMARY = `(() => {
  const text = (element) => (element.textContent ?? '').replace(/\\s+/g, ' ').trim().slice(0, 300);
  const shown = [...document.querySelectorAll('h1, [role="alert"], [role="status"], [role="dialog"] h2')];
  return [location.hash || location.pathname, ...shown.map(text).filter(Boolean)].join(' | ');
})()`;

/**
 * Runs in the page before its scripts: every Notification constructed is recorded, and kept to be clicked (headless
 * Chromium displays none). A string (the tests' TypeScript has no DOM types); init scripts are injected by the browser,
 * not evaluated under the CSP.
 */
const RECORD_NOTIFICATIONS = `(() => {
  const Original = window.Notification;
  const notified = [];
  const shown = [];
  class Recorded extends Original {
    constructor(title, options) {
      super(title, options);
      notified.push({ title, body: (options && options.body) || '' });
      shown.push(this);
    }
  }
  Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true, writable: true });
  window.notified = notified;
  window.shown = shown;
})();`;

/** What RECORD_NOTIFICATIONS keeps on the page. */
interface Recorded {
  notified: { title: string; body: string }[];
  shown: { title: string; onclick: ((event: unknown) => void) | null }[];
}

/** Lets the wallet's page show notifications and records each one it shows (RECORD_NOTIFICATIONS); reloads the page. */
export async function recordNotifications(e2e: E2eWallet): Promise<void> {
  await e2e.context.grantPermissions(['notifications'], { origin: new URL(e2e.shell.url).origin });
  await e2e.context.addInitScript({ content: RECORD_NOTIFICATIONS });
  await e2e.page.reload();
  await e2e.page.getByRole('navigation', { name: 'Screens' }).waitFor();
}

/** The first notification titled `title` the page showed, once it has shown one (recordNotifications first). */
export async function notification(page: Page, title: string): Promise<{ title: string; body: string }> {
  const find = async () =>
    (await page.evaluate(() => (globalThis as unknown as Recorded).notified)).find((n) => n.title === title);
  await expect.poll(find, { timeout: 30_000 }).toBeDefined();
  return (await find())!;
}

/** Clicks the first notification titled `title` the page showed, as the user would on the desktop. */
export async function clickNotification(page: Page, title: string): Promise<void> {
  await page.evaluate(
    (wanted) => (globalThis as unknown as Recorded).shown.find((n) => n.title === wanted)?.onclick?.({}),
    title,
  );
}

/** A wallet of {@link useE2eWallet}: its first account and the development accounts it signs with. */
export interface E2eWalletReady extends E2eWallet {
  /** The address of "Account 1", the first account of a new phrase. */
  own: string;
  /** The addresses of the development accounts imported to sign ("Devnet account N"), in the order asked for. */
  dev: string[];
}

/**
 * The wallet most e2e tests start from, made through the wallet's own handlers instead of the screens (the first run
 * through the screens is the subject of sendAndHistory.test.ts and idleLock.test.ts): created with PASSWORD, "Account 1"
 * from a new 12-word phrase, development accounts `devAccounts` imported to sign; then the page is loaded on it.
 * @example
 * e2e = await useE2eWallet({ name: 'errors', devAccounts: [0] });
 * await selectAccount(e2e.page, 'Devnet account 0');
 */
export async function useE2eWallet(options: E2eOptions & { devAccounts?: number[] }): Promise<E2eWalletReady> {
  const e2e = await startE2eWallet(options, false);
  try {
    const call = e2e.wallet.handlers;
    await call['vault:create']({ password: PASSWORD });
    const phrase = await call['accounts:newPhrase']({ words: 12 });
    const checks = phrase.checkPositions.map((position) => ({ position, word: phrase.words[position - 1]! }));
    const own = (await call['accounts:confirmPhrase']({ draftId: phrase.draftId, name: 'Account 1', checks })).address;
    const dev: string[] = [];
    for (const index of options.devAccounts ?? [])
      dev.push((await call['devnet:importAccount']({ index, watchOnly: false })).address);
    await e2e.page.goto(e2e.shell.url);
    await e2e.page.getByRole('navigation', { name: 'Screens' }).waitFor();
    return Object.assign(e2e, { own, dev });
  } catch (error) {
    await e2e.stop().catch(() => {});
    throw error;
  }
}

/**
 * Which themes a screenshot is taken in: both on a developer's machine (to look at), none in CI, where nobody looks
 * (the ~100 captures of a run in one theme and a second load of each app, both dropped at once, were a tenth of the
 * browser suite's CPU). accessibility.test.ts audits both themes itself, and the last state of every page is still
 * captured on stop. `E2E_SHOTS=both|light|none` decides.
 */
const SHOT_THEMES: readonly ('light' | 'dark')[] = (() => {
  const choice = process.env['E2E_SHOTS'] ?? (process.env['CI'] ? 'none' : 'both');
  if (choice === 'both') return ['light', 'dark'];
  if (choice === 'light') return ['light'];
  if (choice === 'none') return [];
  throw new Error(`expected E2E_SHOTS to be both, light or none, got ${JSON.stringify(choice)}`);
})();

/** Numbered screenshots of a test's steps, in the light and the dark theme (see SHOT_THEMES). */
export class Shots {
  #dir: string;
  #n = 0;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async ready(): Promise<void> {
    await rm(this.#dir, { recursive: true, force: true });
    await mkdir(this.#dir, { recursive: true });
  }

  /** Saves `NN-step-light.png` and `NN-step-dark.png` (the page follows the system theme). */
  async take(page: Page, step: string): Promise<void> {
    const base = join(this.#dir, `${String(++this.#n).padStart(2, '0')}-${step}`);
    for (const theme of SHOT_THEMES) {
      await systemTheme(page, theme);
      await page.screenshot({ path: `${base}-${theme}.png`, fullPage: true });
    }
    await systemTheme(page, 'light');
  }
}

/** Sets the system's colour scheme and waits until the page shows it (unless the user forced a theme in Settings). */
async function systemTheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  // Read through attributes, not page.waitForFunction: the page's CSP forbids the eval a string would need.
  const html = page.locator('html');
  const shown = async () =>
    (await html.getAttribute('data-theme-source')) !== 'system' || (await html.getAttribute('data-theme')) === scheme;
  await expect.poll(shown, { timeout: 5_000 }).toBe(true);
}

/** The wallet password the tests use. */
export const PASSWORD = 'correct horse battery staple';

/**
 * First run through the screens: a password, a new 12-word phrase, the words checked back. Returns the words, so a
 * test can assert that none of them is left on the page later.
 */
export async function createWallet(page: Page, shots?: Shots): Promise<string[]> {
  await page.getByRole('button', { name: 'Create a new wallet' }).click();
  await page.getByLabel('Wallet password').fill(PASSWORD);
  await page.getByLabel('Confirm the password').fill(PASSWORD);
  if (shots) await shots.take(page, 'password');
  await page.getByRole('button', { name: 'Create wallet' }).click();
  await page.getByRole('button', { name: 'Create recovery phrase' }).click();
  const items = page.getByRole('list', { name: 'Recovery phrase' }).getByRole('listitem');
  await items.first().waitFor();
  const words = (await items.allTextContents()).map((text) => text.trim().split(/\s+/).pop() ?? '');
  expect(words).toHaveLength(12);
  if (shots) await shots.take(page, 'phrase');
  await page.getByRole('button', { name: 'I have written them down' }).click();
  for (const label of await page.getByLabel(/^Word \d+$/).all()) {
    const id = await label.getAttribute('id');
    const position = Number(id?.replace('check-', ''));
    await label.fill(words[position - 1]!);
  }
  await page.getByRole('button', { name: 'Confirm and create the account' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return words;
}

/**
 * Approves the signing request the wallet shows (the browser shell asks for the wallet password in its approval
 * dialog; a flagged request also needs each warning confirmed). Returns the dialog's text.
 */
export async function approve(
  page: Page,
  options: { shots?: Shots; shot?: string; confirmWarnings?: boolean } = {},
): Promise<string> {
  const dialog = page.getByRole('dialog', { name: /^Approve/ });
  await dialog.waitFor({ timeout: 30_000 });
  const text = (await dialog.textContent()) ?? '';
  if (options.confirmWarnings) for (const box of await dialog.getByRole('checkbox').all()) await box.check();
  await dialog.getByLabel('Wallet password, to approve').fill(PASSWORD);
  if (options.shots) await options.shots.take(page, options.shot ?? 'approval');
  await dialog.getByRole('button', { name: /^Approve/ }).click();
  await dialog.waitFor({ state: 'detached', timeout: 30_000 });
  return text;
}

/**
 * Confirms the second step of a dApp's transaction: the effects its signed dry run showed (no password: the first
 * step approved the signature). Returns the dialog's text.
 */
export async function confirmEffects(page: Page, options: { shots?: Shots; shot?: string } = {}): Promise<string> {
  const dialog = page.getByRole('dialog', { name: /^Confirm:/ });
  await dialog.getByTestId('approval-effects').waitFor({ timeout: 30_000 });
  const text = (await dialog.textContent()) ?? '';
  if (options.shots) await options.shots.take(page, options.shot ?? 'effects');
  await dialog.getByRole('button', { name: /^Confirm:/ }).click();
  await dialog.waitFor({ state: 'detached', timeout: 30_000 });
  return text;
}

/** Opens a screen from the navigation. */
export async function go(page: Page, screen: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: screen, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

/** Imports development account `index` of the Local network as a signing account and selects it. */
export async function importDevAccount(page: Page, index: number): Promise<string> {
  await go(page, 'Networks');
  const button = page.getByRole('button', { name: `Import development account ${index} to sign` });
  await button.click();
  await page.getByRole('status').filter({ hasText: 'was added' }).waitFor();
  const address = (await page.getByRole('row').filter({ has: button }).getByRole('code').textContent()) ?? '';
  return address.trim();
}

/**
 * The label of the first option of `select` that is `name` or starts with it (or matches it), once the list has one:
 * the lists fill as main answers, so a read at once can find them empty.
 */
export async function optionLabel(select: Locator, name: string | RegExp): Promise<string> {
  const matches = (o: string) => (typeof name === 'string' ? o === name || o.startsWith(name) : name.test(o));
  let options: string[] = [];
  await expect
    .poll(
      async () => (options = (await select.getByRole('option').allTextContents()).map((o) => o.trim())).some(matches),
      {
        message: `an option ${String(name)}`,
        timeout: 30_000,
      },
    )
    .toBe(true);
  return options.find(matches)!;
}

/**
 * Selects the option of `select` that optionLabel finds, once the list has it. Reading the options at once and selecting
 * what was found is a race: before the list fills the read finds nothing, and a selectOption given no label picks the
 * first option without a word (sendPayer.test.ts once reviewed a send paid by its own sender that way).
 */
export async function selectOptionNamed(select: Locator, name: string | RegExp): Promise<void> {
  await select.selectOption({ label: await optionLabel(select, name) });
}

/** Selects an account by its name in the top bar. */
export async function selectAccount(page: Page, name: string | RegExp): Promise<void> {
  await selectOptionNamed(page.getByRole('combobox', { name: 'Account', exact: true }), name);
}

/** The base-unit-free text of a balance cell, e.g. "50,000,000 KOIN" -> "50000000". */
export function amountText(text: string | null): string {
  return (text ?? '').replace(/[^0-9.]/g, '');
}

/** Adds a custom network on the Networks screen and starts using it. */
export async function addCustomNetwork(page: Page, name: string, jsonRpcUrl: string, apiKey?: string): Promise<void> {
  await go(page, 'Networks');
  await page.getByRole('button', { name: 'Add a custom network' }).click();
  const form = page.getByRole('region', { name: 'New network' });
  await form.getByLabel('Network name').fill(name);
  await form.getByLabel('JSON-RPC URL').fill(jsonRpcUrl);
  if (apiKey !== undefined) await form.getByLabel('API key (optional)').fill(apiKey);
  await form.getByRole('button', { name: 'Add network' }).click();
  await page.getByRole('button', { name: `Use ${name}` }).click();
  await expect.poll(() => page.getByRole('listitem').filter({ hasText: name }).getByText('in use').count()).toBe(1);
}

/** The base64 text of the transaction shown in the region named `title`. */
export async function transactionText(page: Page, title: string): Promise<string> {
  const region = page.getByRole('region', { name: title });
  await region.waitFor({ timeout: 30_000 });
  return (await region.getByLabel('Transaction (base64)').inputValue()).trim();
}

/** Offline step 1: exports an unsigned transfer of `amount` KOIN to the wallet's own account `to`. */
export async function exportUnsigned(page: Page, to: string, amount: string): Promise<string> {
  await go(page, 'Offline signing');
  await page.getByRole('button', { name: '1. Export unsigned' }).click();
  const own = page.getByLabel('Pick one of your accounts');
  await own.selectOption({ label: await optionLabel(own, `${to} — `) });
  await page.getByLabel(/^Amount/).fill(amount);
  await page.getByRole('button', { name: 'Export unsigned transfer' }).click();
  return transactionText(page, 'Unsigned transfer');
}

/** Offline step 2: decodes and signs `unsigned` with the account that pays it; returns the signed base64. */
export async function signOffline(page: Page, unsigned: string, shots?: Shots): Promise<string> {
  await go(page, 'Offline signing');
  await page.getByRole('button', { name: '2. Sign' }).click();
  await page.getByLabel('Unsigned transaction (base64 or JSON)').fill(unsigned);
  await page.getByRole('button', { name: 'Decode' }).click();
  await page.getByRole('region', { name: 'What you are about to sign' }).waitFor({ timeout: 30_000 });
  if (shots) await shots.take(page, 'offline-decoded');
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await approve(page, shots ? { shots, shot: 'offline-approval' } : {});
  return transactionText(page, 'Signed transaction');
}

/** Offline step 3: submits a signed transaction (or only checks it). */
export async function submitSigned(page: Page, signed: string, dryRun = false): Promise<void> {
  await go(page, 'Offline signing');
  await page.getByRole('button', { name: '3. Submit signed' }).click();
  await page.getByLabel('Signed transaction (base64 or JSON)').fill(signed);
  if (dryRun) await page.getByLabel(/Trial run only/).check();
  await page.getByRole('button', { name: dryRun ? 'Check' : 'Submit', exact: true }).click();
}

/** The text of the first error message on the page (role alert), once there is one. */
export async function alertText(page: Page, pattern: RegExp, timeout = 30_000): Promise<string> {
  const alert = page.getByRole('alert').filter({ hasText: pattern });
  await alert.first().waitFor({ timeout });
  return (await alert.first().textContent()) ?? '';
}

/**
 * Makes the wallet's next call of `channel` (the next one `when` picks) wait, once main has answered it, until `release`
 * is called: the page gets that answer late, as from a slow node. `answered` resolves with main's answer as soon as it
 * is made, `settled` as soon as main has answered or failed (a failure is held and given late too). Every other call is
 * answered at once, and holds of the same channel stack (each takes its own next call).
 * @example
 * const held = holdNext(e2e.wallet.handlers, 'dashboard:get');
 * const read = await held.answered; // what the page will get...
 * held.release(); // ...now
 */
export function holdNext<C extends IpcChannel>(
  handlers: IpcHandlers,
  channel: C,
  when: (...args: IpcArgs<C>) => boolean = () => true,
): { answered: Promise<IpcValue<C>>; settled: Promise<void>; release: () => void } {
  type Handler = (...args: IpcArgs<C>) => Promise<IpcValue<C>>;
  const previous = handlers[channel] as Handler;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let resolveAnswered!: (value: IpcValue<C>) => void;
  const answered = new Promise<IpcValue<C>>((resolve) => (resolveAnswered = resolve));
  let resolveSettled!: () => void;
  const settled = new Promise<void>((resolve) => (resolveSettled = resolve));
  let armed = true;
  (handlers[channel] as Handler) = async (...args) => {
    if (!armed || !when(...args)) return previous(...args);
    armed = false;
    const outcome = await previous(...args).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    if ('value' in outcome) resolveAnswered(outcome.value);
    resolveSettled();
    await released;
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  };
  return { answered, settled, release };
}

/**
 * Releases an answer held with holdNext, and returns once the page has read it: its response has come in whole, and a
 * call the page makes after it has come back.
 */
export async function releaseToPage(page: Page, held: { release: () => void }, channel: IpcChannel): Promise<void> {
  const landed = page.waitForResponse((response) => response.url().includes(`/ipc/${encodeURIComponent(channel)}`));
  held.release();
  await (await landed).finished();
  await pageRoundTrip(page);
}

/** A call from the page after everything it has received so far: the page has read those answers when it returns. */
export async function pageRoundTrip(page: Page): Promise<void> {
  await page.evaluate('window.koinos.call("settings:get")');
}

/** Chooses a network in the top bar, and returns once the page has taken main's answer (the screens follow it). */
export async function chooseNetwork(e2e: E2eWallet, name: string): Promise<void> {
  const selected = holdNext(e2e.wallet.handlers, 'networks:select');
  selected.release();
  await selectOptionNamed(e2e.page.getByRole('combobox', { name: 'Network', exact: true }), name);
  await selected.answered;
  await pageRoundTrip(e2e.page);
}
