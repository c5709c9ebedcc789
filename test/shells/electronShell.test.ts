// The Electron shell's policy and wiring, without launching Electron: the window's hardened options, which URLs and
// frames count as the wallet's own, and the registration of every channel on an ipcMain-like object.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IPC_CHANNELS, type IpcResult } from '../../src-main/ipc/contract.ts';
import { REFUSED_SENDER, type IpcMainLike } from '../../src-main/ipc/registerIpcHandlers.ts';
import {
  registerWalletIpc,
  sendWalletEvents,
  type InvokeEventLike,
} from '../../src-main/shells/electron/electronIpc.ts';
import { APP_ENTRY_URL } from '../../src-main/shells/electron/appProtocol.ts';
import {
  contentSecurityPolicy,
  isAppOrigin,
  isAppUrl,
  isNavigationAllowed,
  isPermissionAllowed,
  isTrustedSenderFrame,
  walletWindowOptions,
  type AppPage,
} from '../../src-main/shells/electron/windowPolicy.ts';
import { createWalletApp, type WalletApp } from '../../src-main/wallet/walletApp.ts';
import { KEYTAR, TEST_SCRYPT, removeService, uniqueService } from '../wallet/vault/helpers.ts';

const PAGE: AppPage = { appUrl: APP_ENTRY_URL };
const DEV_PAGE: AppPage = { ...PAGE, devServerUrl: 'http://localhost:5173' };

/** An ipcMain stand-in that keeps the registered listeners so that a test can invoke them as Electron would. */
class FakeIpcMain implements IpcMainLike<InvokeEventLike> {
  readonly listeners = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>>();
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void {
    if (this.listeners.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.listeners.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.listeners.delete(channel);
  }
  invoke(channel: string, frame: InvokeEventLike['senderFrame'], ...args: unknown[]): Promise<IpcResult<unknown>> {
    const listener = this.listeners.get(channel);
    if (!listener) throw new Error(`No handler registered for '${channel}'`);
    return listener({ senderFrame: frame }, ...args) as Promise<IpcResult<unknown>>;
  }
}

describe('wallet window options', () => {
  it('sandboxes the renderer with context isolation, no Node and no webviews, the preload as the only bridge', () => {
    const options = walletWindowOptions('/app/out/preload/index.cjs', { isPackaged: true });
    expect(options.webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      devTools: false,
    });
    expect(options.show).toBe(false);
  });

  it('has DevTools in an unpackaged build only', () => {
    expect(walletWindowOptions('/p.cjs', { isPackaged: true }).webPreferences?.devTools).toBe(false);
    expect(walletWindowOptions('/p.cjs', { isPackaged: false }).webPreferences?.devTools).toBe(true);
  });

  it('sends a CSP that allows only its own scripts and connections, and no framing; inline styles in development only', () => {
    const production = contentSecurityPolicy(false);
    expect(production.split('; ')).toEqual(
      expect.arrayContaining([
        "script-src 'self'",
        "connect-src 'self'",
        "style-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "frame-src 'none'",
        "worker-src 'none'",
      ]),
    );
    expect(production).not.toContain('unsafe');
    expect(contentSecurityPolicy(true)).toContain("style-src 'self' 'unsafe-inline'");
    expect(contentSecurityPolicy(true)).not.toContain("script-src 'self' 'unsafe");
  });
});

describe('the app page and its frames', () => {
  it('recognises the built index.html on the app scheme only', () => {
    expect(PAGE.appUrl).toBe('app://wallet/index.html');
    expect(isAppUrl(PAGE.appUrl, PAGE)).toBe(true);
    expect(isAppUrl(`${PAGE.appUrl}#/send`, PAGE)).toBe(true);
    expect(isAppUrl('app://wallet/other.html', PAGE)).toBe(false);
    expect(isAppUrl('app://other/index.html', PAGE)).toBe(false);
    expect(isAppUrl('app://user@wallet/index.html', PAGE)).toBe(false);
    expect(isAppUrl('file:///opt/Koinos%20Wallet/resources/app.asar/out/renderer/index.html', PAGE)).toBe(false);
    expect(isAppUrl('file:///tmp/index.html', PAGE)).toBe(false);
    expect(isAppUrl('https://evil.example/index.html', PAGE)).toBe(false);
    expect(isAppUrl('not a url', PAGE)).toBe(false);
  });

  it('knows the app origin as Electron gives it to permission checks', () => {
    expect(isAppOrigin('app://wallet', PAGE)).toBe(true);
    expect(isAppOrigin('app://wallet/index.html', PAGE)).toBe(true);
    expect(isAppOrigin('app://wallet:8080', PAGE)).toBe(false);
    expect(isAppOrigin('file://', PAGE)).toBe(false);
    expect(isAppOrigin('http://localhost:5173', PAGE)).toBe(false);
    expect(isAppOrigin('http://localhost:5173', DEV_PAGE)).toBe(true);
    expect(isAppOrigin('app://wallet', DEV_PAGE)).toBe(false);
  });

  it('trusts the dev server origin only when one is configured', () => {
    expect(isAppUrl('http://localhost:5173/', DEV_PAGE)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', DEV_PAGE)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', PAGE)).toBe(false);
  });

  it('trusts only the top frame of the app page', () => {
    expect(isTrustedSenderFrame({ url: PAGE.appUrl, parent: null }, PAGE)).toBe(true);
    expect(isTrustedSenderFrame({ url: PAGE.appUrl, parent: {} }, PAGE)).toBe(false);
    expect(isTrustedSenderFrame({ url: 'https://evil.example/', parent: null }, PAGE)).toBe(false);
    expect(isTrustedSenderFrame(null, PAGE)).toBe(false);
  });
});

describe('navigation and permissions', () => {
  it('lets the main frame reload its own page only, and no subframe navigate', () => {
    const current = `${PAGE.appUrl}#/send`;
    expect(isNavigationAllowed({ url: current, isMainFrame: true }, current)).toBe(true);
    expect(isNavigationAllowed({ url: 'app://wallet/other.html', isMainFrame: true }, current)).toBe(false);
    expect(isNavigationAllowed({ url: 'https://evil.example/', isMainFrame: true }, current)).toBe(false);
    // will-frame-navigate: a subframe is refused even to the app's own page.
    expect(isNavigationAllowed({ url: current, isMainFrame: false }, current)).toBe(false);
    expect(isNavigationAllowed({ url: 'https://evil.example/', isMainFrame: false }, current)).toBe(false);
  });

  it('grants the Copy buttons clipboard writes on the app origin, and nothing else to anyone', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'app://wallet', PAGE)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', PAGE.appUrl, PAGE)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example', PAGE)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'file:///tmp/x.html', PAGE)).toBe(false);
    for (const permission of [
      'clipboard-read',
      'notifications',
      'media',
      'geolocation',
      'openExternal',
      'fileSystem',
      'hid',
      'serial',
      'usb',
    ]) {
      expect(isPermissionAllowed(permission, 'app://wallet', PAGE), permission).toBe(false);
    }
  });
});

describe('registerWalletIpc', () => {
  let wallet: WalletApp | undefined;
  let dataDir: string | undefined;
  const keychainService = uniqueService();
  afterEach(async () => {
    await wallet?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await removeService(keychainService).catch(() => undefined);
    wallet = undefined;
    dataDir = undefined;
  });

  async function startWallet(): Promise<WalletApp> {
    dataDir = await mkdtemp(join(tmpdir(), 'koinos-electron-ipc-'));
    wallet = await createWalletApp({
      dataDir,
      keychain: KEYTAR,
      vault: { keychainService, scryptCost: TEST_SCRYPT },
      devnet: { port: 0 },
      log: () => {},
    });
    return wallet;
  }

  it('registers exactly the contract channels, and unregisters them all', async () => {
    const ipcMain = new FakeIpcMain();
    const unregister = registerWalletIpc(ipcMain, await startWallet(), PAGE, () => {});
    expect([...ipcMain.listeners.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
    unregister();
    expect(ipcMain.listeners.size).toBe(0);
  });

  it('answers a call from the wallet page through the wallet, with the envelope', async () => {
    const ipcMain = new FakeIpcMain();
    registerWalletIpc(ipcMain, await startWallet(), PAGE, () => {});
    const answer = await ipcMain.invoke('devnet:status', { url: PAGE.appUrl, parent: null });
    expect(answer).toEqual({ ok: true, value: { running: false, accounts: [] } });
    const settings = await ipcMain.invoke('settings:get', { url: PAGE.appUrl, parent: null });
    expect(settings).toEqual({ ok: true, value: { autoLockMinutes: 5, theme: 'system', selectedNetworkId: 'local' } });
    expect(await ipcMain.invoke('devnet:status', { url: PAGE.appUrl, parent: null }, 'extra')).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', shortMessage: 'devnet:status: expected no arguments, got 1' },
    });
  });

  it('refuses calls from an iframe, another page or a closed frame, and logs them', async () => {
    const ipcMain = new FakeIpcMain();
    const lines: string[] = [];
    registerWalletIpc(ipcMain, await startWallet(), PAGE, (line) => lines.push(line));
    expect(await ipcMain.invoke('devnet:status', { url: PAGE.appUrl, parent: {} })).toEqual(REFUSED_SENDER);
    expect(await ipcMain.invoke('devnet:status', { url: 'https://evil.example/', parent: null })).toEqual(
      REFUSED_SENDER,
    );
    expect(await ipcMain.invoke('devnet:status', null)).toEqual(REFUSED_SENDER);
    expect(lines).toEqual(Array(3).fill("[ipc] refused devnet:status: the sender is not the wallet's page"));
  });

  it('sends push events to the window until it is destroyed', async () => {
    const app = await startWallet();
    const ipcMain = new FakeIpcMain();
    registerWalletIpc(ipcMain, app, PAGE, () => {});
    const sent: { event: string; payload: unknown }[] = [];
    let destroyed = false;
    sendWalletEvents(app, { send: (event, payload) => sent.push({ event, payload }), isDestroyed: () => destroyed });
    const top = { url: PAGE.appUrl, parent: null };
    await ipcMain.invoke('vault:create', top, { password: 'a long enough password' });
    await ipcMain.invoke('vault:lock', top);
    // head:new comes too (the head is polled while a window listens); the lock changes are what this test drives.
    const locks = () => sent.filter((s) => s.event === 'vault:lockState');
    expect(sent.every((s) => s.event === 'vault:lockState' || s.event === 'head:new')).toBe(true);
    expect(locks()).toEqual([
      { event: 'vault:lockState', payload: expect.objectContaining({ exists: true, unlocked: true }) },
      { event: 'vault:lockState', payload: expect.objectContaining({ exists: true, unlocked: false }) },
    ]);
    destroyed = true;
    const before = sent.length;
    await ipcMain.invoke('vault:unlock', top, { password: 'a long enough password' });
    expect(sent).toHaveLength(before);
  });
});
