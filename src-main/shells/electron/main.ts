// Electron entry: starts the embedded local devnet, opens the one sandboxed wallet window, and answers the
// renderer's calls on the IPC contract. Thin on purpose: the work lives in devnet/ and wallet/.
import { app, BrowserWindow, ipcMain, session, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_PORT, startDevnet } from '../../devnet/startDevnet.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import {
  IPC_CHANNELS,
  type DevnetStatus,
  type IpcArgs,
  type IpcChannel,
  type IpcError,
  type IpcResult,
  type IpcValue,
} from '../../ipc/contract.ts';

type Devnet = Awaited<ReturnType<typeof startDevnet>>;

// The dev server is only trusted in an unpackaged build; a packaged app always loads its own files.
const DEV_SERVER_URL = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const RENDERER_FILE_URL = pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).href;
const PRELOAD_PATH = join(import.meta.dirname, '../preload/index.cjs');
const RPC_TIMEOUT_MS = 5_000;

// Mirrors the <meta> policy in src-renderer/index.html, which is what covers file:// pages (they have no response
// headers); the header adds frame-ancestors, which a <meta> policy ignores. Vite's dev server injects component
// styles as <style> elements, so inline styles are allowed in development only.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  DEV_SERVER_URL ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

let devnet: Promise<Devnet> | undefined;

/** True when `raw` is the wallet's own page: the dev server's origin, or the built index.html. */
function isAppUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (DEV_SERVER_URL) return url.origin === new URL(DEV_SERVER_URL).origin;
  return url.protocol === 'file:' && url.pathname === new URL(RENDERER_FILE_URL).pathname;
}

/** Denies navigation, new windows, webviews and permissions for every web contents the app ever creates. */
function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (event.url !== contents.getURL()) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    title: 'Koinos Wallet',
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload: PRELOAD_PATH,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(DEV_SERVER_URL ?? RENDERER_FILE_URL);
}

// ---- IPC: every channel of the contract, answered with an envelope -------------------------------------------

interface Handler<C extends IpcChannel> {
  /** Checks the renderer's arguments (untrusted input) and returns them typed, or throws a WalletError. */
  parse(args: unknown[]): IpcArgs<C>;
  run(...args: IpcArgs<C>): Promise<IpcValue<C>>;
}

// Transitional: the wallet core issue registers every channel through src-main/ipc; until then only this one.
const HANDLERS: { [C in IpcChannel]?: Handler<C> } = {
  'devnet:status': { parse: noArguments, run: devnetStatus },
};

function noArguments(args: unknown[]): [] {
  if (args.length !== 0) {
    throw new WalletError('INVALID_ARGUMENT', `expected no arguments, got ${describe(args)}`);
  }
  return [];
}

function registerIpc(): void {
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, (event, ...args: unknown[]) => answer(channel, event, args));
  }
}

async function answer<C extends IpcChannel>(
  channel: C,
  event: IpcMainInvokeEvent,
  args: unknown[],
): Promise<IpcResult<IpcValue<C>>> {
  try {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null || !isAppUrl(frame.url)) {
      throw new WalletError('INVALID_ARGUMENT', 'The request was refused because it did not come from the wallet.', {
        details: `${channel} from ${frame ? frame.url : 'a closed frame'}`,
      });
    }
    const handler = HANDLERS[channel] as Handler<C> | undefined;
    if (!handler) throw new WalletError('INTERNAL', `${channel} is not available in this build of the wallet.`);
    return { ok: true, value: await handler.run(...handler.parse(args)) };
  } catch (error) {
    return { ok: false, error: toIpcError(channel, error) };
  }
}

/** Expected errors cross as they are; anything else is logged here and shown as a generic notice. */
function toIpcError(channel: IpcChannel, error: unknown): IpcError {
  if (error instanceof WalletError) {
    return { code: error.code, shortMessage: error.shortMessage, ...(error.details ? { details: error.details } : {}) };
  }
  console.error(`[ipc] ${channel} failed:`, error);
  return { code: 'INTERNAL', shortMessage: 'Something went wrong inside the wallet. The details are in its log.' };
}

// ---- The embedded devnet -------------------------------------------------------------------------------------

/**
 * The wallet's default network: a devnet kept in the user's data folder, so that its chain, balances and history
 * survive a restart. It listens on loopback, on the usual port when free (other tools find it there), else on any.
 */
async function startEmbeddedDevnet(): Promise<Devnet> {
  const options = { host: '127.0.0.1', dataDir: join(app.getPath('userData'), 'devnet') };
  try {
    return await startDevnet({ ...options, port: DEFAULT_PORT });
  } catch (error) {
    console.warn(`[devnet] port ${DEFAULT_PORT} is not free, using another:`, error instanceof Error ? error.message : error);
    return startDevnet({ ...options, port: 0 });
  }
}

async function devnetStatus(): Promise<DevnetStatus> {
  if (!devnet) throw new WalletError('NODE_ERROR', 'The local devnet has not started yet. Try again in a moment.');
  let node: Devnet;
  try {
    node = await devnet;
  } catch (cause) {
    if (cause instanceof WalletError) throw cause;
    throw new WalletError('NODE_ERROR', 'The local devnet did not start. Restart the wallet to try again.', {
      details: String(cause),
      cause,
    });
  }
  const head = await jsonRpc(node.url, 'chain.get_head_info');
  const topology = isRecord(head) && isRecord(head['head_topology']) ? head['head_topology'] : {};
  // The node omits a zero height, as protobuf JSON omits default values.
  const height = topology['height'] ?? '0';
  if (typeof height !== 'string' || !/^\d+$/.test(height)) {
    throw new WalletError('NODE_ERROR', 'The local devnet reported a head height that is not a number.', {
      details: `head_topology.height is ${describe(height)}`,
    });
  }
  return { running: true, url: node.url, chainId: node.chainId, headHeight: height, accounts: [] };
}

/** One JSON-RPC 2.0 call to the node; node errors keep their wire code and text in `details`. */
async function jsonRpc(baseUrl: string, method: string, params: object = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl.replace(/\/+$/, '')}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new WalletError('NODE_ERROR', 'The local devnet did not answer. Restart the wallet to start it again.', {
      details: `${method}: ${String(cause)}`,
      cause,
    });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!isRecord(body)) {
    throw new WalletError('NODE_ERROR', 'The local devnet sent an answer that is not JSON-RPC.', {
      details: `${method}: HTTP ${response.status}`,
    });
  }
  const error = body['error'];
  if (isRecord(error)) {
    throw new WalletError('NODE_ERROR', 'The local devnet refused the request.', {
      details: `${method}: ${String(error['code'])} ${String(error['message'])}`,
    });
  }
  return body['result'];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- App lifecycle ---------------------------------------------------------------------------------------------

app.enableSandbox();
app.on('web-contents-created', (_event, contents) => lockDown(contents));

void app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });

  const starting = startEmbeddedDevnet();
  // Status calls report a failed start; this makes sure it is also in the log.
  starting.catch((error: unknown) => console.error('[devnet] failed to start:', error));
  devnet = starting;

  registerIpc();
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Quitting waits once for the devnet to stop so that its store is closed cleanly.
let devnetStopped = false;
app.on('will-quit', (event) => {
  if (!devnet || devnetStopped) return;
  event.preventDefault();
  devnetStopped = true;
  devnet
    .then(
      (node) => node.stop(),
      () => undefined, // it never started; the failure was logged then
    )
    .catch((error: unknown) => console.error('[devnet] failed to stop:', error))
    .finally(() => app.quit());
});
