// The browser shell's bridge in a real Chromium: under the renderer's strict CSP the page gets the same
// window.koinos ({ call, on }) as the Electron preload, calls reach the wallet, push events arrive, and the token
// leaves the address bar but survives a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { KoinosBridge } from '../../src-main/ipc/contract.ts';
import { createEventHub } from '../../src-main/ipc/eventHub.ts';
import { browserShells, headEvent, txEvent } from './browserShellHelpers.ts';
import { chromiumMissing, launchChromium } from './chromium.ts';

// The bodies given to page.evaluate run in the page; the Node tsconfig has no DOM, so declare what they touch.
declare const window: { readonly koinos: KoinosBridge };
declare const document: { getElementById(id: string): { textContent: string | null } | null };

const missing = chromiumMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== undefined)('browser shell bridge in Chromium', () => {
  const start = browserShells();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens the shell's URL and collects the page's CSP violations and errors. */
  async function open(url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(url);
    await page.waitForFunction(() => document.getElementById('app')?.textContent === 'fixture app loaded');
    return { page, problems };
  }

  it('gives the page window.koinos with call() reaching the wallet, under the strict CSP', async () => {
    const shell = await start();
    const { page, problems } = await open(shell.url);
    const result = await page.evaluate(() => window.koinos.call('networks:head', { id: 'local' }));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).toMatchObject({ networkId: 'local', chainId: expect.any(String) });
    expect(await page.evaluate(() => Object.keys(window.koinos).sort())).toEqual(['call', 'on']);
    // The same local refusal as the preload for a name outside the contract.
    const refused = await page.evaluate(() => (window.koinos.call as (c: string) => Promise<unknown>)('vault:dump'));
    expect(refused).toEqual({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', shortMessage: 'expected a wallet IPC channel, got "vault:dump"' },
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('takes the token out of the address bar and keeps working after a reload', async () => {
    const shell = await start();
    const { page } = await open(shell.url);
    expect(page.url()).toBe(`${shell.origin}/`);
    await page.reload();
    await page.waitForFunction(() => document.getElementById('app')?.textContent === 'fixture app loaded');
    const result = await page.evaluate(() => window.koinos.call('devnet:status'));
    expect(result.ok).toBe(true);
    await page.close();
  });

  it('refuses the page when opened without the token', async () => {
    const shell = await start();
    const { page } = await open(`${shell.origin}/`);
    const result = await page.evaluate(() => window.koinos.call('devnet:status'));
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        shortMessage: 'The request was refused: open the wallet with the address the browser shell printed.',
      },
    });
    await page.close();
  });

  it('delivers push events to on() listeners until they unsubscribe, from the page load on', async () => {
    // A hub the test drives stands in for the wallet's event source; the transport under test is the shell's.
    const hub = createEventHub(() => {});
    const base = await start();
    const shell = await start({ wallet: { ...base.wallet, events: hub } });
    const { page } = await open(shell.url);
    // Sent after the page loaded, before it listens (its stream opens on the first on()): it still reaches the page,
    // as it would over Electron's IPC, where the page's state is read after its listeners exist.
    hub.emit('tx:update', txEvent(1));
    await page.evaluate(() => {
      const w = window as unknown as { txs: string[]; heads: string[]; off: () => void };
      w.txs = [];
      w.heads = [];
      window.koinos.on('tx:update', (update) => w.txs.push(update.transactionId));
      w.off = window.koinos.on('head:new', (head) => w.heads.push(head.height));
    });
    await page.waitForFunction(() => (window as unknown as { txs: string[] }).txs.length === 1);
    expect(await page.evaluate(() => (window as unknown as { txs: string[] }).txs)).toEqual(['tx-1']);
    hub.emit('head:new', headEvent(2));
    await page.waitForFunction(() => (window as unknown as { heads: string[] }).heads.length === 1);
    expect(await page.evaluate(() => (window as unknown as { heads: string[] }).heads)).toEqual(['2']);
    await page.evaluate(() => {
      const w = window as unknown as { off: () => void; sawFour: Promise<void> };
      w.off();
      w.sawFour = new Promise<void>((resolve) => window.koinos.on('head:new', (h) => h.height === '4' && resolve()));
    });
    hub.emit('head:new', headEvent(3));
    hub.emit('head:new', headEvent(4));
    // Events arrive in order on one stream: once another listener has seen 4, the unsubscribed one would have seen 3.
    await page.evaluate(() => (window as unknown as { sawFour: Promise<void> }).sawFour);
    expect(await page.evaluate(() => (window as unknown as { heads: string[] }).heads)).toEqual(['2']);
    await page.close();
  });
});
