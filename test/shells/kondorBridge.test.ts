// kondor-js pages in headless Chromium against a real wallet (createWalletApp on a devnet, approvals answered with the
// password): the page-side bridge injected as the dApp window's preload runs it, a binding standing in for the IPC
// whose origin is the calling frame's as Playwright reports it (as main reads event.senderFrame), never the page's.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountInfo, ApprovalRequest } from '../../src-main/ipc/contract.ts';
import { answerKondor } from '../../src-main/wallet/dapps/kondorRequests.ts';
import { createWalletApp, type WalletApp } from '../../src-main/wallet/walletApp.ts';
import { KEYTAR, NO_KEYCHAIN, PASSWORD, TEST_SCRYPT, removeService, uniqueService } from '../wallet/vault/helpers.ts';
import { chromiumMissing, launchChromium } from './chromium.ts';
import { until } from '../helpers/until.ts';

// The bodies given to page.evaluate run in the page; the Node tsconfig has no DOM, so declare what they touch.
interface KondorGlobal {
  getAccounts(): Promise<{ name: string; address: string; signers: unknown[] }[]>;
  getSigner(
    address: string,
    options?: { provider?: unknown },
  ): {
    signMessage(message: string): Promise<Uint8Array>;
    sendTransaction(tx: unknown): Promise<{
      transaction: {
        id: string;
        wait(type?: string, timeout?: number): Promise<{ blockId: string; blockNumber: number }>;
      };
      receipt: { id: string };
    }>;
  };
  provider: { getHeadInfo(): Promise<unknown> };
}
interface KoilibGlobal {
  Contract: new (c: { id: string; abi: unknown; provider?: unknown; signer?: unknown }) => {
    encodeOperation(op: { name: string; args: unknown }): Promise<unknown>;
  };
  utils: { tokenAbi: unknown };
}
declare const window: {
  kondor: KondorGlobal;
  Contract: KoilibGlobal['Contract'];
  utils: KoilibGlobal['utils'];
  parent: { postMessage(m: unknown, o: string): void };
  __kondorWallet: (c: string, a: unknown) => Promise<unknown>;
};

const missing = chromiumMissing();
if (missing) console.warn(missing);

const ROOT = join(import.meta.dirname, '../..');

/** The bridge as the dApp preload runs it, bundled for a page: its transport is the binding the test exposes. */
async function bridgeScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents:
        "import { startKondorBridge } from './src-main/shells/dappBridge/kondorBridge.ts';\nstartKondorBridge(window, (command, args) => window.__kondorWallet(command, args));",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
    platform: 'browser',
  });
  return result.outputFiles[0]!.text;
}

/** Serves `pages` (path -> html) and the two libraries on 127.0.0.1 at a port of its own. */
async function serve(pages: Record<string, string>): Promise<{ origin: string; server: Server }> {
  const kondor = await readFile(join(ROOT, 'node_modules/kondor-js/dist/kondor.min.js'));
  const koilib = await readFile(join(ROOT, 'node_modules/koilib/dist/koinos.min.js'));
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/kondor.min.js' || path === '/koinos.min.js') {
      res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' })
        .end(path === '/kondor.min.js' ? kondor : koilib);
    } else if (pages[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[path]);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${address.port}`, server };
}

const LIBS = '<script src="/kondor.min.js"></script><script src="/koinos.min.js"></script>';

describe.skipIf(missing !== undefined || NO_KEYCHAIN !== undefined)(
  'kondor-js pages answered by the wallet through the page bridge (Chromium)',
  () => {
    const service = uniqueService();
    let browser: Browser;
    let wallet: WalletApp;
    let dataDir: string;
    let signer: AccountInfo;
    let koin: string;
    let script: string;
    const servers: Server[] = [];
    let dapp: string;
    let other: string;
    /** Every command the wallet was handed, with the origin read from the calling frame. */
    const calls: { origin: string; command: string }[] = [];

    const pendingRequest = (kind?: ApprovalRequest['review']['kind']) =>
      until('an approval request', async () =>
        (await wallet.handlers['approvals:list']()).pending.find((r) => kind === undefined || r.review.kind === kind),
      );
    const approve = async (kind?: ApprovalRequest['review']['kind']) => {
      const request = await pendingRequest(kind);
      await wallet.handlers['approvals:answer']({
        requestId: request.id,
        approve: true,
        password: PASSWORD,
        acknowledgedRisks: request.review.risks.map((r) => r.code),
      });
      return request;
    };
    const reject = async (kind?: ApprovalRequest['review']['kind']) => {
      const request = await pendingRequest(kind);
      await wallet.handlers['approvals:answer']({ requestId: request.id, approve: false });
      return request;
    };

    /** A page of `origin` with the bridge injected and the binding wired to the wallet, as a dApp window has them. */
    async function openPage(url: string): Promise<Page> {
      const context = await browser.newContext();
      await context.addInitScript({ content: script });
      await context.exposeBinding(
        '__kondorWallet',
        async (source: { frame: Frame; page: Page }, command: unknown, args: unknown) => {
          // main's check: the top frame of the window only, and its origin as the browser has it.
          if (source.frame !== source.page.mainFrame()) return { error: 'Only the page itself may ask the wallet.' };
          const origin = new URL(source.frame.url()).origin;
          calls.push({ origin, command: String(command) });
          return answerKondor(wallet.dapps, { origin, command, args });
        },
      );
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => typeof window.kondor === 'object' && typeof window.Contract === 'function');
      return page;
    }

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'koinos-kondor-'));
      wallet = await createWalletApp({
        dataDir,
        keychain: KEYTAR,
        vault: { keychainService: service, scryptCost: TEST_SCRYPT },
        devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 2 } },
        polling: { headMs: 50, transactionsMs: 50 },
        log: () => {},
      });
      await wallet.handlers['vault:create']({ password: PASSWORD });
      signer = await wallet.handlers['devnet:importAccount']({ index: 0, watchOnly: false });
      await wallet.handlers['devnet:importAccount']({ index: 1, watchOnly: true });
      await wallet.handlers['networks:select']({ id: 'local' });
      koin = (await wallet.handlers['tokens:list']({})).find((t) => t.system === 'koin')!.contract;
      script = await bridgeScript();
      const second = await serve({ '/frame.html': `<!doctype html>${LIBS}<p>frame</p>` });
      other = second.origin;
      const first = await serve({
        '/': `<!doctype html><title>dApp</title>${LIBS}<p>dApp</p>`,
        '/framed.html': `<!doctype html>${LIBS}<iframe src="${other}/frame.html"></iframe>`,
      });
      dapp = first.origin;
      servers.push(first.server, second.server);
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      for (const server of servers) await new Promise((resolve) => server.close(resolve));
      await wallet?.close();
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
      await removeService(service).catch(() => undefined);
    });

    it('asks an origin without a grant for one first, then answers getAccounts with the granted accounts', async () => {
      const page = await openPage(`${dapp}/`);
      const accounts = page.evaluate(() => window.kondor.getAccounts());
      const request = await approve('connect');
      expect(request.review.origin).toBe(dapp);
      expect(request.review.connection).toMatchObject({ transport: 'window', accounts: [signer.address] });
      expect(await accounts).toEqual([{ name: signer.name, address: signer.address, signers: [] }]);
      // The grant is kept: asked again, it answers without asking.
      expect(await page.evaluate(() => window.kondor.getAccounts())).toEqual([
        { name: signer.name, address: signer.address, signers: [] },
      ]);
      expect((await wallet.handlers['dapps:list']()).grants).toMatchObject([
        { origin: dapp, transport: 'window', accounts: [signer.address] },
      ]);
      expect(await page.evaluate(() => window.kondor.provider.getHeadInfo())).toHaveProperty('head_topology');
      await page.context().close();
    });

    it("signs a message once approved; koilib in the page recovers the signer from kondor-js's decoding", async () => {
      const page = await openPage(`${dapp}/`);
      const signed = page.evaluate(async (address) => {
        const signature = await window.kondor.getSigner(address).signMessage('hello from the page');
        const w = window as unknown as { Signer: { recoverAddress(hash: Uint8Array, sig: Uint8Array): string } };
        const hash = new Uint8Array(
          await crypto.subtle.digest('SHA-256', new TextEncoder().encode('hello from the page')),
        );
        return { length: signature.length, recovered: w.Signer.recoverAddress(hash, signature) };
      }, signer.address);
      const request = await approve('message');
      expect(request.review).toMatchObject({ origin: dapp, message: 'hello from the page', signer: signer.address });
      expect(await signed).toEqual({ length: 65, recovered: signer.address });
      await page.context().close();
    });

    it('signs and sends a transfer the page built with koilib; it is included on the devnet', async () => {
      const page = await openPage(`${dapp}/`);
      const sent = page.evaluate(
        async ({ address, koin: id }) => {
          const contract = new window.Contract({ id, abi: window.utils.tokenAbi });
          const operation = await contract.encodeOperation({
            name: 'transfer',
            args: { from: address, to: '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs', value: '100000' },
          });
          const kondorSigner = window.kondor.getSigner(address, { provider: window.kondor.provider });
          const { transaction, receipt } = await kondorSigner.sendTransaction({ operations: [operation] });
          const included = await transaction.wait('byBlock', 15_000);
          return { id: transaction.id, receiptId: receipt.id, included };
        },
        { address: signer.address, koin },
      );
      const request = await approve('send');
      expect(request.review.operations[0]!.summary).toBe(
        `Transfer 0.001 KOIN from ${signer.address} to 1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs`,
      );
      // The second step: the dry run's Transfer event, confirmed before the transaction is sent.
      const effects = await until('the effects step', async () =>
        (await wallet.handlers['approvals:list']()).pending.find((r) => r.review.effects !== undefined),
      );
      expect(effects.review.effects!.events.map((e) => e.summary)).toContain(
        `Transfer 0.001 KOIN from ${signer.address} to 1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs`,
      );
      await wallet.handlers['approvals:answer']({ requestId: effects.id, approve: true });
      const { id, receiptId, included } = await sent;
      expect(id).toBe(effects.review.effects!.transactionId);
      expect(receiptId).toBe(id);
      expect(included.blockId).toMatch(/^0x1220/);
      const found = (await wallet.dapps.handle({
        origin: dapp,
        transport: 'window',
        chain: (await wallet.dapps.grant(dapp))!.chains[0]!,
        method: 'koinos_getTransactionsById',
        params: { transactionIds: [id] },
      })) as {
        transactions: { containing_blocks: string[] }[];
      };
      expect(found.transactions[0]!.containing_blocks).toContain(included.blockId);
      await page.context().close();
    });

    it("answers a cancelled request with kondor-js's error, and nothing is signed", async () => {
      const page = await openPage(`${dapp}/`);
      const nonce = await page.evaluate(
        (address) => (window.kondor.provider as unknown as { getNonce(a: string): Promise<number> }).getNonce(address),
        signer.address,
      );
      const answer = page.evaluate(
        (address) =>
          window.kondor
            .getSigner(address)
            .signMessage('no')
            .then(
              () => 'signed',
              (e: Error) => e.message,
            ),
        signer.address,
      );
      await reject('message');
      expect(await answer).toMatch(/reject/i);
      expect(
        await page.evaluate(
          (address) =>
            (window.kondor.provider as unknown as { getNonce(a: string): Promise<number> }).getNonce(address),
          signer.address,
        ),
      ).toBe(nonce);
      await page.context().close();
    });

    it('does not answer a frame of another origin: its kondor-js request and one posted to the top window go unheard', async () => {
      const page = await openPage(`${dapp}/framed.html`);
      const frame = await until('the frame', () =>
        page.frames().find((f) => f.url().startsWith(other) && f.url().endsWith('/frame.html')),
      );
      await frame.waitForFunction(() => typeof window.kondor === 'object');
      calls.length = 0;
      // kondor-js in the frame: its bridge did not start (not the top window), and nobody else answers.
      const unanswered = frame.evaluate(() =>
        Promise.race([
          window.kondor.getAccounts().then(
            () => 'answered',
            () => 'refused',
          ),
          new Promise((r) => setTimeout(() => r('silence'), 1500)),
        ]),
      );
      // A request the frame posts to the top window: another source than the top window itself.
      await frame.evaluate(() =>
        window.parent.postMessage({ id: 'from-frame', command: 'getAccounts', args: {} }, '*'),
      );
      // The binding called directly from the frame: refused, as main refuses a sender frame that is not the top one.
      expect(await frame.evaluate(() => window.__kondorWallet('getAccounts', {}))).toEqual({
        error: 'Only the page itself may ask the wallet.',
      });
      // The top page's own request, posted after the frame's, is answered: the frame's were handled (ignored) first.
      expect(await page.evaluate(() => window.kondor.getAccounts())).toHaveLength(1);
      expect(calls).toEqual([{ origin: dapp, command: 'getAccounts' }]);
      expect(await unanswered).toBe('silence');
      await page.context().close();
    });

    it('asks another origin for its own grant before answering, and refuses its reads until it has one', async () => {
      const page = await openPage(`${other}/frame.html`);
      const read = await page.evaluate(() =>
        window.kondor.provider.getHeadInfo().then(
          () => 'answered',
          (e: Error) => e.message,
        ),
      );
      expect(read).toMatch(/not connected/);
      const signed = page.evaluate(
        (address) =>
          window.kondor
            .getSigner(address)
            .signMessage('second origin')
            .then(
              () => 'signed',
              (e: Error) => e.message,
            ),
        signer.address,
      );
      const connect = await reject('connect');
      expect(connect.review.origin).toBe(other);
      expect(await signed).toMatch(/reject/i);
      expect((await wallet.handlers['dapps:list']()).grants.map((g) => g.origin)).toEqual([dapp]);
      await page.context().close();
    });

    it('asks a page again once the chain it was granted on is gone (the Local chain replaced), and answers on the new', async () => {
      const [before] = (await wallet.handlers['dapps:list']()).grants;
      await wallet.handlers['devnet:setShape']({ like: 'harbinger' });
      const page = await openPage(`${dapp}/`);
      const accounts = page.evaluate(() => window.kondor.getAccounts());
      const request = await approve('connect');
      expect(request.review.origin).toBe(dapp);
      expect(await accounts).toEqual([{ name: signer.name, address: signer.address, signers: [] }]);
      const [after] = (await wallet.handlers['dapps:list']()).grants;
      expect(after!.chains).not.toEqual(before!.chains);
      expect(await page.evaluate(() => window.kondor.provider.getHeadInfo())).toHaveProperty('head_topology');
      await page.context().close();
    });
  },
);
