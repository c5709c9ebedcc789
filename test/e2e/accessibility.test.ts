// End to end: axe-core audits every screen of the wallet in the light and the dark theme (first run, dashboard, send
// with nothing to send and with an amount error, the review, the approval dialog open, the receipt, history, the three
// offline steps, accounts, networks, dApps, settings, unlock with a wrong password) and finds no serious or critical
// violation; it prints any it finds. Also the keyboard path from the dashboard: the skip link first, then Send.
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  Shots,
  approve,
  chromiumMissing,
  createWallet,
  exportUnsigned,
  go,
  importDevAccount,
  selectAccount,
  startE2eWallet,
  optionLabel,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();
const AXE = resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');
const RESULTS = resolve(import.meta.dirname, '../../test-results/e2e/accessibility');

interface Finding {
  step: string;
  theme: 'light' | 'dark';
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The serious and critical violations axe finds on the page as it is now. */
async function axeViolations(page: Page): Promise<Omit<Finding, 'step' | 'theme'>[]> {
  // axe came in through an init script (the page's CSP allows no inline script tag); evaluate() is not the page's eval.
  return page.evaluate(async () => {
    // The test's TypeScript has no DOM library: the page's globals are reached through globalThis.
    const { axe, document } = globalThis as unknown as {
      axe: {
        run(
          context: unknown,
          options: object,
        ): Promise<{
          violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }[];
        }>;
      };
      document: unknown;
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
  });
}

/** Shows the page in `scheme` and waits until it is drawn so (the wallet follows the system's theme). */
async function theme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  const html = page.locator('html');
  await expect
    .poll(
      async () =>
        (await html.getAttribute('data-theme-source')) !== 'system' ||
        (await html.getAttribute('data-theme')) === scheme,
    )
    .toBe(true);
}

/** Screenshots of each step, as the harness takes them, and an axe audit of it in both themes. */
class AuditedShots extends Shots {
  readonly findings: Finding[] = [];
  readonly steps: string[] = [];

  override async take(page: Page, step: string): Promise<void> {
    await super.take(page, step);
    this.steps.push(step);
    for (const scheme of ['light', 'dark'] as const) {
      await theme(page, scheme);
      for (const v of await axeViolations(page)) this.findings.push({ step, theme: scheme, ...v });
    }
    await theme(page, 'light');
  }
}

/** The element that has the keyboard focus, as `tag:text`. */
async function focused(page: Page): Promise<string> {
  return page.locator(':focus').evaluate((el) => `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim()}`);
}

describe.skipIf(missing !== undefined)('accessibility of every screen', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('has no serious or critical axe violation on any screen, in either theme', { timeout: 480_000 }, async () => {
    e2e = await startE2eWallet({ name: 'accessibility' }, false);
    const { page, context } = e2e;
    await context.addInitScript({ path: AXE });
    await page.goto(e2e.shell.url);
    const shots = new AuditedShots(RESULTS);

    await page.getByRole('button', { name: 'Create a new wallet' }).waitFor();
    // The audit can fail: the very button issue 17 found (a name that does not contain the visible word) is caught.
    await page.locator('body').evaluate((body) => {
      const bad = body.ownerDocument.createElement('button');
      bad.id = 'axe-self-check';
      bad.setAttribute('aria-label', 'Maximum KOIN amount');
      bad.textContent = 'Max';
      body.append(bad);
    });
    expect((await axeViolations(page)).map((v) => `${v.impact} ${v.id} ${v.targets.join(' ')}`)).toEqual([
      'serious label-content-name-mismatch #axe-self-check',
    ]);
    await page.locator('#axe-self-check').evaluate((el) => el.remove());
    await shots.take(page, 'first-run');
    await createWallet(page, shots); // audits the password and the phrase steps
    await shots.take(page, 'dashboard-new-account');
    // Max of an account with no KOIN says why nothing can be sent, rather than filling a 0 the field would refuse.
    await go(page, 'Send');
    await page.getByRole('button', { name: 'Max' }).click();
    await page.getByRole('alert').getByText('Nothing can be sent: the balance is 0 KOIN.').waitFor();
    expect(await page.getByLabel(/^Amount/).inputValue()).toBe('');
    await shots.take(page, 'send-nothing-to-send');

    await importDevAccount(page, 0);
    await shots.take(page, 'networks');
    await selectAccount(page, 'Devnet account 0');
    await go(page, 'Dashboard');
    await page.getByTestId('balance-KOIN').waitFor({ timeout: 20_000 });
    await shots.take(page, 'dashboard');

    // From the top of the dashboard as it opens: the skip link is the first stop, and once used, Send is the next one.
    await page.reload();
    await page.getByTestId('balance-KOIN').waitFor({ timeout: 20_000 });
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a:Skip to the screen');
    await shots.take(page, 'skip-link');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button:Send');

    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Send' }).waitFor();
    const own = page.getByLabel('Pick one of your accounts');
    await own.selectOption({ label: await optionLabel(own, 'Account 1 — ') });
    await page.getByLabel(/^Amount/).fill('99999999');
    await expect.poll(() => page.getByText(/more than the balance/).count()).toBe(1);
    await shots.take(page, 'send-amount-error');
    await page.getByLabel(/^Amount/).fill('1.5');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('region', { name: 'Review what will be signed' }).waitFor({ timeout: 20_000 });
    await shots.take(page, 'review');
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page, { shots, shot: 'approval-dialog' });
    await page.getByTestId('tx-status').waitFor({ timeout: 20_000 });
    await shots.take(page, 'receipt');

    await go(page, 'History');
    await expect
      .poll(
        () =>
          page
            .getByRole('listitem')
            .filter({ hasText: /Sent 1\.5 KOIN/ })
            .count(),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await shots.take(page, 'history');

    // The transfer above was measured: the export shows its cost beside the mana limit, which reads as a cap.
    await exportUnsigned(page, 'Account 1', '2');
    const limit = page.getByRole('region', { name: 'Unsigned transfer' }).getByTestId('mana-limit');
    await expect
      .poll(async () => ((await limit.textContent()) ?? '').replace(/\s+/g, ' ').trim())
      .toMatch(/^at most [\d,.]+ mana \(a cap, not what it costs\) · about [\d.]+ expected$/);
    await shots.take(page, 'offline-export');
    await page.getByRole('button', { name: '2. Sign' }).click();
    await shots.take(page, 'offline-sign');
    await page.getByRole('button', { name: '3. Submit signed' }).click();
    await shots.take(page, 'offline-submit');

    await go(page, 'Accounts');
    await expect.poll(() => page.getByText(/^[\d,.]+ KOIN$/).count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Import or watch' }).click();
    await shots.take(page, 'accounts');
    await go(page, 'dApps');
    await shots.take(page, 'dapps');
    await go(page, 'Settings');
    await shots.take(page, 'settings');

    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    await page.getByLabel('Password', { exact: true }).waitFor();
    await shots.take(page, 'unlock');
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('alert').getByText("That is not this wallet's password.").waitFor({ timeout: 30_000 });
    // Back in the emptied field for the next try.
    await expect
      .poll(() => page.getByLabel('Password', { exact: true }).evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    await shots.take(page, 'unlock-wrong-password');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();

    expect(shots.steps).toHaveLength(21);
    for (const f of shots.findings)
      console.log(`[axe] ${f.step} (${f.theme}): ${f.impact} ${f.id} — ${f.help}\n  ${f.targets.join('\n  ')}`);
    expect(shots.findings.map((f) => `${f.step} (${f.theme}): ${f.id}`)).toEqual([]);
  });
});
