// Benchmark of the renderer in the system Chromium, against the browser shell and real services: the JavaScript's
// gzipped size, the time from opening the shell's URL to a dashboard balance, from clicking Approve to the painted
// receipt (devnet with block time 0; timed in the page), and a history page's render and a scroll through the account's
// records. The History open is timed in the page from the click event (not from Playwright's click call, whose
// actionability checks come first) to the frame that paints the first page's rows, split into the screen asking, the
// history:page request (the browser shell's HTTP hop, the node and the history service) and the screen rendering the
// answer. Opened from the Dashboard, History paints the page fetched ahead there and asks for the first page again
// (timed too); opened from Accounts by a click event alone (no pointer on the History button, which fetches it too), it
// waits for its own request.
// BENCH_HISTORY_RECORDS sets how many records the history account has (default 30,000, the count issue 19's goal is
// stated for); BENCH_RENDERER_PROFILE=<file> writes the page's CPU profile of the History opens there;
// BENCH_RENDERER_SENDS how many sends are timed (default 7); BENCH_HISTORY_SCROLL=0 skips the page-in and scroll
// through all of them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { koinOperation } from '../../src-main/koinos/koin.ts';
import { removeKeychainService } from '../helpers/keychain.ts';
import { nonceToBytes, signTransaction } from '../../src-main/koinos/transaction.ts';
import type { Transaction } from '../../src-main/koinos/types.ts';
import { startBrowserShell } from '../../src-main/shells/browser/browserShell.ts';
import { createWalletApp } from '../../src-main/wallet/walletApp.ts';
import { FIRST_HISTORY_PAGE } from '../../src-renderer/lib/historyPages.ts';
import { buildAppIfStale } from '../helpers/builtApp.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../shells/chromium.ts';

/** The bench wallet's password (the approval panel asks for it before each signature). */
const PASSWORD = 'bench password 123';

const ROOT = resolve(import.meta.dirname, '../..');
const HISTORY_RECORDS = Number(process.env.BENCH_HISTORY_RECORDS ?? 30_000);
const HISTORY_SCROLL = process.env.BENCH_HISTORY_SCROLL !== '0';
/** How many times the History screen is opened from the Dashboard: the first is cold, the rest give a median. */
const HISTORY_OPENS = 7;
/** Then History opened from a screen that fetches no first page ahead (Accounts), the pointer never on its button. */
const UNAIDED_OPENS = 5;
/** Sign and send -> receipt runs (BENCH_RENDERER_SENDS=0 skips them). */
const SENDS = Number(process.env.BENCH_RENDERER_SENDS ?? 7);

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function ok(value: number, goal: number): string {
  return value <= goal ? 'OK' : 'ABOVE GOAL';
}

/** Gzipped bytes of every script the page loads (out/renderer/assets/*.js). */
function gzippedScriptBytes(): number {
  const dir = join(ROOT, 'out/renderer/assets');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .reduce((sum, name) => sum + gzipSync(readFileSync(join(dir, name)), { level: 9 }).length, 0);
}

/** Blocks until nothing is pending: a block holds a few hundred transfers under mainnet's per-block compute limit. */
async function includeAll(devnet: Devnet): Promise<void> {
  for (;;) {
    await devnet.node.produceBlock();
    const { pending_transactions } = (await devnet.node.call('mempool.get_pending_transactions', { limit: 1n })) as {
      pending_transactions?: unknown[];
    };
    if (!pending_transactions?.length) return;
  }
}

/** A devnet whose development account 0 has `count` incoming transfers from account 1. */
export async function devnetWithHistory(
  count: number,
): Promise<{ url: string; stop: () => Promise<void>; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'koinos-bench-history-'));
  const devnet = await startDevnet({
    port: 0,
    dataDir: dir,
    manual: true,
    accounts: 2,
    pendingTransactionLimit: 1000,
    log: () => {},
  });
  const from = devKey(1);
  const to = devKey(0);
  const koin = addressFromString(devnet.koinAddress);
  for (let i = 0; i < count; i++) {
    let tx: Transaction = {
      id: new Uint8Array(),
      header: {
        chain_id: devnet.node.chainId,
        rc_limit: 100_000_000n,
        nonce: nonceToBytes(BigInt(i + 1)),
        operation_merkle_root: new Uint8Array(),
        payer: from.addressBytes,
        payee: new Uint8Array(),
      },
      operations: [
        koinOperation(koin, 'transfer', { from: from.addressBytes, to: to.addressBytes, value: 1000n + BigInt(i) }),
      ],
      signatures: [],
    };
    tx = signTransaction(tx, from.privateKey);
    await devnet.node.call('chain.submit_transaction', { transaction: tx, broadcast: true });
    if (i % 300 === 299) await includeAll(devnet);
  }
  await includeAll(devnet);
  return { url: devnet.url, stop: () => devnet.stop(), dir };
}

/** What one History open took, in ms from the click event in the page (performance.now() in a capturing listener). */
interface HistoryOpenTiming {
  /** The first page's rows in the DOM (a MutationObserver saw them). */
  rows: number;
  /**
   * The rows were the page the Dashboard fetched ahead (lib/historyAhead.ts): no answer came before them, and the
   * request timed is the screen's ask for the first page again, made as it shows them.
   */
  ahead: boolean;
  /** The frame with those rows painted: the task after the next animation frame. */
  painted: number;
  /** The click to the history:page request's start (the screen mounting and asking). */
  toRequest: number;
  /** The history:page request, start to response end (the browser shell's HTTP hop, the node and the service). */
  ipc: number;
  /** Of that, the request sent to the first byte of the answer (the shell, the node and the service at work). */
  answering: number;
  /** The response's end to the rows painted (JSON, the screen's render, layout and paint). */
  afterIpc: number;
}

/**
 * Evaluated in the page before each click on History (as text: tsx's transform would add helpers that do not exist in
 * the page). It sets window.__benchHistoryOpen to a promise of a HistoryOpenTiming: the time of the click event (a
 * capturing listener on the window, so before the app's own handler), a MutationObserver for the first rows of the
 * list, then a requestAnimationFrame and a message-channel task after it (the frame has been painted by then), and the
 * resource timing of the history:page request made after the click.
 */
const WATCH_HISTORY_OPEN = `(() => {
  performance.setResourceTimingBufferSize(100000);
  performance.clearResourceTimings();
  window.__benchHistoryOpen = new Promise((resolve) => {
    let clickedAt;
    let rowsAt;
    const rowsShown = () => document.querySelector('[aria-label="Transaction history"] [role="listitem"]') !== null;
    const request = () =>
      performance
        .getEntriesByType('resource')
        .find((e) => e.name.includes('/ipc/history%3Apage') && e.startTime >= clickedAt);
    const finish = () => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const painted = performance.now();
        const ipc = request();
        const timing = (ipc, ahead) => ({
          rows: rowsAt - clickedAt,
          painted: painted - clickedAt,
          ahead,
          toRequest: ipc ? ipc.startTime - clickedAt : NaN,
          ipc: ipc ? ipc.responseEnd - ipc.startTime : NaN,
          answering: ipc ? ipc.responseStart - ipc.requestStart : NaN,
          afterIpc: ipc && !ahead ? painted - ipc.responseEnd : NaN,
        });
        if (ipc && ipc.responseEnd <= rowsAt) return resolve(timing(ipc, false));
        // Rows before any answer: the page the Dashboard fetched ahead. The screen asks for the first page again at
        // once: wait for that request's end, and time it.
        const observer = new PerformanceObserver(() => {
          const fresh = request();
          if (!fresh) return;
          observer.disconnect();
          resolve(timing(fresh, true));
        });
        observer.observe({ type: 'resource' });
        const fresh = request();
        if (fresh) {
          observer.disconnect();
          resolve(timing(fresh, true));
        }
      };
      requestAnimationFrame(() => channel.port2.postMessage(0));
    };
    const observer = new MutationObserver(() => {
      if (!rowsShown()) return;
      rowsAt = performance.now();
      observer.disconnect();
      finish();
    });
    window.addEventListener(
      'click',
      () => {
        clickedAt = performance.now();
        observer.observe(document.body, { childList: true, subtree: true });
      },
      { capture: true, once: true },
    );
  });
})()`;

/**
 * Page-side source of a function `(selector, done)`: calls done(performance.now()) in the task after the frame that
 * paints the first element matching `selector` (a MutationObserver, then a requestAnimationFrame and a message-channel
 * task after it). The figures it gives are timed in the page: Playwright's waitFor polls at growing intervals (up to
 * 500 ms apart) and would add up to that much to any wait longer than about a quarter of a second.
 */
const WHEN_PAINTED = `(selector, done) => {
  const painted = () =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      channel.port2.postMessage(0);
    });
  if (document.querySelector(selector)) return painted();
  const observer = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    observer.disconnect();
    painted();
  });
  observer.observe(document, { childList: true, subtree: true });
}`;

/** Evaluated before a click: window.__benchClickTo is a promise of the ms from that click event to `selector` painted. */
function watchClickTo(selector: string): string {
  // void: evaluate would wait for the promise itself.
  return `void (window.__benchClickTo = new Promise((resolve) =>
    window.addEventListener(
      'click',
      () => {
        const clickedAt = performance.now();
        (${WHEN_PAINTED})(${JSON.stringify(selector)}, (at) => resolve(at - clickedAt));
      },
      { capture: true, once: true },
    )));`;
}

/** Added before the page loads: window.__benchBalance is a promise of the ms from its navigation to a painted balance. */
const WATCH_BALANCE = `window.__benchBalance = new Promise((resolve) =>
  (${WHEN_PAINTED})('[data-testid="balance-KOIN"]', resolve));`;

async function visibleBalance(page: Page): Promise<void> {
  await page.getByTestId('balance-KOIN').waitFor({ timeout: 60_000 });
}

/** Prints the renderer's figures. */
export async function benchRenderer(): Promise<void> {
  buildAppIfStale();
  const kb = gzippedScriptBytes() / 1024;
  console.log(`renderer JavaScript, gzipped: ${kb.toFixed(1)} KB (goal < 150 KB) ${ok(kb, 150)}`);

  const dataDir = await mkdtemp(join(tmpdir(), 'koinos-bench-renderer-'));
  const profile = await mkdtemp(join(tmpdir(), 'koinos-bench-chromium-'));
  const keychainService = `koinos-wallet-bench-${process.pid}`;
  const wallet = await createWalletApp({
    dataDir,
    vault: { keychainService },
    devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 3, log: () => {} } },
    polling: { headMs: 250, transactionsMs: 50 },
    log: () => {},
  });
  const shell = await startBrowserShell({ wallet, port: 0, log: () => {} });
  const history = await devnetWithHistory(HISTORY_RECORDS);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 860 },
  });
  try {
    const h = wallet.handlers;
    await h['vault:create']({ password: PASSWORD });
    const dev0 = await h['devnet:importAccount']({ index: 0, watchOnly: false });
    await h['settings:update']({ selectedAccountId: dev0.id });
    const recipient = (await h['devnet:status']()).accounts[1]!.address;

    // Opening the shell's URL to a balance on the dashboard (the first load of a fresh profile).
    const page = context.pages()[0] ?? (await context.newPage());
    // From the navigation's start (the page's time origin), to the frame that paints the balance.
    await page.addInitScript(WATCH_BALANCE);
    await page.goto(shell.url);
    const toDashboard = (await page.evaluate('window.__benchBalance')) as number;
    console.log(
      `open the browser shell -> dashboard balance: ${toDashboard.toFixed(0)} ms (goal < 1000 ms) ${ok(toDashboard, 1000)}`,
    );

    // Sign and send -> receipt, block time 0.
    const sends: number[] = [];
    for (let i = 0; i < SENDS; i++) {
      await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('button', { name: 'Send', exact: true })
        .click();
      await page.getByLabel('Recipient address').fill(recipient);
      await page.getByLabel(/^Amount/).fill('0.001');
      await page.getByRole('button', { name: 'Review' }).click();
      await page.getByRole('button', { name: 'Sign and send' }).click();
      // The approval panel (the browser shell approves with the wallet password; the app, in a native dialog).
      const approval = page.getByRole('dialog', { name: /^Approve/ });
      await approval.getByLabel('Wallet password, to approve').fill(PASSWORD);
      await page.evaluate(watchClickTo('[data-testid="tx-id"]'));
      await approval.getByRole('button', { name: /^Approve/ }).click();
      sends.push((await page.evaluate('window.__benchClickTo')) as number);
      await page.getByRole('button', { name: 'New transfer' }).click();
    }
    const send = median(sends);
    // The scrypt cost the wallet chose for this machine when it was created (about 250 ms, rounded to a power of two).
    const { kdf } = (
      JSON.parse(readFileSync(join(dataDir, 'wallet.json'), 'utf8')) as { vault: { kdf: { N: number } } }
    ).vault;
    if (SENDS > 0)
      console.log(
        `click Approve -> receipt (block time 0; the password is checked first, scrypt N=2^${Math.log2(kdf.N)}): p50 ${send.toFixed(0)} ms of ${SENDS} (goal < 600 ms) ${ok(send, 600)}`,
      );

    // History: the first page, then every page down to the 10,000th record, then a scroll through all of them.
    const network = await h['networks:add']({ name: 'History node', jsonRpcUrl: `${history.url}/jsonrpc` });
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Networks', exact: true })
      .click();
    await page.getByRole('button', { name: `Use ${network.name}` }).click();
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Dashboard', exact: true })
      .click();
    await visibleBalance(page);
    const nav = page.getByRole('navigation', { name: 'Screens' });
    const profiler = process.env.BENCH_RENDERER_PROFILE ? await context.newCDPSession(page) : undefined;
    // With the profile: every IPC request of the last open, from the click (what the screen waits on).
    const requests: { url: string; sent: number; done?: number }[] = [];
    let clickedAt = 0;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.start');
      await profiler.send('Network.enable');
      const byId = new Map<string, { url: string; sent: number; done?: number }>();
      profiler.on('Network.requestWillBeSent', (e) => {
        const r = { url: e.request.url.replace(/^https?:\/\/[^/]+/, ''), sent: performance.now() - clickedAt };
        byId.set(e.requestId, r);
        requests.push(r);
      });
      profiler.on('Network.loadingFinished', (e) => {
        const r = byId.get(e.requestId);
        if (r) r.done = performance.now() - clickedAt;
      });
    }
    const timings: HistoryOpenTiming[] = [];
    for (let i = 0; i < HISTORY_OPENS; i++) {
      if (i > 0) {
        await nav.getByRole('button', { name: 'Dashboard', exact: true }).click();
        await visibleBalance(page);
      }
      await page.evaluate(WATCH_HISTORY_OPEN);
      clickedAt = performance.now();
      requests.length = 0;
      await nav.getByRole('button', { name: 'History', exact: true }).click();
      timings.push((await page.evaluate('window.__benchHistoryOpen')) as HistoryOpenTiming);
    }
    const opens = timings.map((t) => t.painted);
    // The same opens from the Accounts screen, which fetches no page ahead, by a click event alone (no pointer over the
    // History button, which would fetch it): the screen waits for its own request.
    const unaided: HistoryOpenTiming[] = [];
    for (let i = 0; i < UNAIDED_OPENS; i++) {
      await nav.getByRole('button', { name: 'Accounts', exact: true }).click();
      await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
      await page.evaluate(WATCH_HISTORY_OPEN);
      await nav.getByRole('button', { name: 'History', exact: true }).dispatchEvent('click');
      unaided.push((await page.evaluate('window.__benchHistoryOpen')) as HistoryOpenTiming);
    }
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      writeFileSync(process.env.BENCH_RENDERER_PROFILE!, JSON.stringify(profile));
      console.log(
        `requests of the last open, ms from Playwright's click call (the list painted ${opens.at(-1)!.toFixed(0)} ms after the click event):`,
      );
      for (const r of requests) console.log(`  ${r.sent.toFixed(0)} -> ${r.done?.toFixed(0) ?? '?'} ${r.url}`);
    }
    const services: number[] = [];
    // CPU time of this process (the wallet's main process and the history node live here): steadier than wall time
    // on a shared machine.
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < HISTORY_OPENS; i++) {
      const serviceStart = performance.now();
      // The History screen's first page: what the click waits for.
      await h['history:page']({
        accountId: dev0.id,
        limit: FIRST_HISTORY_PAGE,
        ascending: false,
        irreversibleOnly: false,
      });
      services.push(performance.now() - serviceStart);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const serviceCpu = (cpu.user + cpu.system) / 1000 / HISTORY_OPENS;
    const later = timings.slice(1);
    const cold = timings[0]!;
    const firstPage = median(later.map((t) => t.painted));
    type Split = Pick<HistoryOpenTiming, 'rows' | 'toRequest' | 'ipc' | 'answering' | 'afterIpc'>;
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    const split = (t: Split, ahead: boolean) =>
      ahead
        ? `rows in the DOM at ${ms(t.rows)}, the page fetched ahead on the Dashboard; the fresh first page asked at ` +
          `${ms(t.toRequest)} and in at ${ms(t.toRequest + t.ipc)} (request sent -> first byte of the answer ${ms(t.answering)})`
        : `click -> IPC request ${ms(t.toRequest)}, IPC (HTTP hop + node + history service) ${ms(t.ipc)} ` +
          `(request sent -> first byte of the answer ${ms(t.answering)}), answer -> rows painted ${ms(t.afterIpc)}; ` +
          `rows in the DOM at ${ms(t.rows)}`;
    /** The median of each figure over `opens`. */
    const medianSplit = (opens: HistoryOpenTiming[]): Split => {
      const m = (pick: (t: HistoryOpenTiming) => number) => median(opens.map(pick));
      return {
        rows: m((t) => t.rows),
        toRequest: m((t) => t.toRequest),
        ipc: m((t) => t.ipc),
        answering: m((t) => t.answering),
        afterIpc: m((t) => t.afterIpc),
      };
    };
    console.log(
      `history (${HISTORY_RECORDS.toLocaleString('en-US')} records): first page painted ${firstPage.toFixed(0)} ms after the click event ` +
        `(median of ${later.length}) (goal < 50 ms) ${ok(firstPage, 50)}; cold (first open): ${cold.painted.toFixed(0)} ms ${ok(cold.painted, 50)}`,
    );
    for (const ahead of [true, false]) {
      const of = later.filter((t) => t.ahead === ahead);
      if (of.length > 0) console.log(`  median of ${of.length}: ${split(medianSplit(of), ahead)}`);
    }
    console.log(`  cold:   ${split(cold, cold.ahead)}`);
    const unaidedPainted = median(unaided.map((t) => t.painted));
    console.log(
      `  opened from Accounts (no page fetched ahead; median of ${unaided.length}): first page painted ${ms(unaidedPainted)} ` +
        `(goal < 50 ms) ${ok(unaidedPainted, 50)}; ${split(medianSplit(unaided), false)}${unaided.some((t) => t.ahead) ? ' (SOME OPENS HAD A PAGE FETCHED AHEAD)' : ''}`,
    );
    console.log(
      `  history:page of ${FIRST_HISTORY_PAGE} records called in main directly (node + history service, no HTTP hop): ${median(services).toFixed(0)} ms (median of ${services.length}; CPU ${serviceCpu.toFixed(1)} ms a page)`,
    );
    if (!HISTORY_SCROLL) return;

    // Evaluated as text: tsx's transform would add helpers (__name) that do not exist in the page.
    const figures = (await page.evaluate(`(async (total) => {
      const list = document.querySelector('[aria-label="Transaction history"]');
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const setSize = () => Number(list.querySelector('[aria-setsize]')?.getAttribute('aria-setsize') ?? 0);
      const loadStart = performance.now();
      while (setSize() < total && performance.now() - loadStart < 300000) {
        list.scrollTop = list.scrollHeight;
        await frame();
      }
      const loadMs = performance.now() - loadStart;
      list.scrollTop = 0;
      await frame();
      const frames = [];
      let last = await frame();
      const step = list.clientHeight;
      while (list.scrollTop + list.clientHeight < list.scrollHeight - 1) {
        list.scrollTop += step;
        const now = await frame();
        frames.push(now - last);
        last = now;
      }
      frames.sort((a, b) => a - b);
      return {
        loaded: setSize(),
        loadMs,
        rows: list.querySelectorAll('[role="listitem"]').length,
        steps: frames.length,
        p50: frames[Math.floor(frames.length / 2)] ?? 0,
        max: frames[frames.length - 1] ?? 0,
      };
    })(${HISTORY_RECORDS})`)) as {
      loaded: number;
      loadMs: number;
      rows: number;
      steps: number;
      p50: number;
      max: number;
    };
    console.log(
      `history: ${figures.loaded.toLocaleString('en-US')} records paged in over ${(figures.loadMs / 1000).toFixed(1)} s (100 per page: ` +
        `${(figures.loadMs / Math.max(1, figures.loaded / 100)).toFixed(0)} ms a page, node included)`,
    );
    console.log(
      `history: scrolling all of them one screen at a time: ${figures.steps} frames, p50 ${figures.p50.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms; ` +
        `${figures.rows} rows in the page at the end (goal: a page under 50 ms) ${ok(figures.max, 50)}`,
    );
  } finally {
    await context.close();
    await shell.stop();
    await wallet.close();
    await history.stop();
    await removeKeychainService(keychainService);
    for (const dir of [dataDir, profile, history.dir]) await rm(dir, { recursive: true, force: true });
  }
}
