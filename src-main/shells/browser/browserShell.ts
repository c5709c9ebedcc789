// The browser shell: the wallet (the same facade as the Electron shell) behind a loopback HTTP server that serves
// the built renderer and carries the IPC contract - 127.0.0.1 only, a random token per launch, the Origin and Host
// checked, and everything else refused.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WalletError } from '../../koinos/errors.ts';
import { IPC_EVENTS, isIpcChannel, type IpcError, type IpcEvent, type IpcResult } from '../../ipc/contract.ts';
import { createIpcDispatcher } from '../../ipc/dispatcher.ts';
import { forwardEvents } from '../../ipc/eventHub.ts';
import { createWalletApp, type WalletApp, type WalletAppOptions } from '../../wallet/walletApp.ts';
import { acquireDataFolderLock, type DataFolderLock } from '../../wallet/dataFolderLock.ts';
import { BRIDGE_PATH, EVENTS_PATH, IPC_PATH, TOKEN_FRAGMENT, TOKEN_HEADER, bridgeScript } from './bridgeScript.ts';
import { SECURITY_HEADERS, defaultRendererDir, readRendererFile } from './rendererFiles.ts';

/** The shell listens on loopback only: other machines (and other interfaces) cannot reach the wallet. */
const BROWSER_SHELL_HOST = '127.0.0.1';
/** Largest request body: a backup or a pasted transaction with room for JSON escaping; larger ones get HTTP 413. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Event streams open at once (a few tabs); more get HTTP 429 so a loop in a page cannot exhaust the process. */
const MAX_EVENT_STREAMS = 16;
/** A comment line on idle event streams, so that proxies and the browser keep them open. */
const KEEPALIVE_MS = 15_000;
/**
 * Push events kept for a page whose stream opens or reopens after they were sent (replayed after the last one the page
 * saw). A page reconnects within 10 s of a drop; the wallet sends a few events a block (every 3 s on Koinos).
 */
export const REPLAYED_EVENTS = 256;

export interface BrowserShellOptions extends Omit<WalletAppOptions, 'dataDir'> {
  /** The wallet's data folder (required unless `wallet` is given). */
  dataDir?: string;
  /** TCP port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** The built renderer (default out/renderer). */
  rendererDir?: string;
  /** A wallet already made (tests); otherwise one is created from `dataDir` and closed by stop(). */
  wallet?: WalletApp;
}

export interface BrowserShell {
  /** The URL to open, with the launch token in its fragment: `http://127.0.0.1:PORT/#koinos-token=...`. */
  url: string;
  /** `http://127.0.0.1:PORT`: the only Origin accepted. */
  origin: string;
  /** The launch token (the `x-koinos-token` header of every call). */
  token: string;
  wallet: WalletApp;
  /** The wallet's data folder, when the shell created the wallet. */
  dataDir?: string;
  /**
   * Closes the event streams and the server, then the wallet and the data folder's lock (when the shell created the
   * wallet). Safe to call twice.
   */
  stop(): Promise<void>;
}

/** A refusal with its HTTP status; its body is an IPC envelope so that the bridge can pass it on unchanged. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly error: IpcError,
  ) {
    super(error.shortMessage);
  }
}

const refuse = (status: number, shortMessage: string): Refusal =>
  new Refusal(status, { code: 'INVALID_ARGUMENT', shortMessage });

/**
 * Starts the wallet and serves it to a browser on loopback.
 * @throws WalletError STORAGE_FAILED when another process uses the data folder; INTERNAL when the port cannot be
 *   bound; or the wallet's own error when it cannot start.
 * @example
 * const shell = await startBrowserShell({ dataDir: '/tmp/w', port: 0 });
 * console.log(`Open ${shell.url}`);
 * await shell.stop();
 */
export async function startBrowserShell(options: BrowserShellOptions): Promise<BrowserShell> {
  const log = options.log ?? ((line: string) => console.error(line));
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const ownsWallet = options.wallet === undefined;
  let wallet: WalletApp;
  // The shell that creates the wallet owns its folder: a second process on it would delete keys (review 3, M4).
  let lock: DataFolderLock | undefined;
  if (options.wallet) {
    wallet = options.wallet;
  } else {
    if (!options.dataDir)
      throw new WalletError('INVALID_ARGUMENT', 'expected a data folder for the wallet, got nothing');
    const { port: _port, rendererDir: _rendererDir, wallet: _wallet, ...walletOptions } = options;
    lock = await acquireDataFolderLock(options.dataDir, { holder: 'browser' });
    try {
      wallet = await createWalletApp({ ...walletOptions, dataDir: options.dataDir, log });
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  const token = randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const dispatch = createIpcDispatcher({ handlers: wallet.handlers, onCall: () => wallet.touch(), log });
  const streams = new Set<ServerResponse>();
  // Each push event gets the next number and is written once as an SSE record with it as its id. The page's calls and
  // its event stream are separate requests: its first calls may be answered before its stream is open, and a stream
  // that drops reopens after a pause. So that no event is lost in between (as none is over Electron's IPC, where
  // listeners exist before the first call), the bridge script carries the number of the last event sent before the page
  // loaded, the bridge sends the last number it has seen when it opens the stream, and the stream begins with the
  // events after it that are still kept. head:new is asked for only while a page listens, as in Electron: the wallet
  // polls the node for heads only then.
  const recentEvents: { id: number; record: string }[] = [];
  let lastEventId = 0;
  const sendEvent = (event: IpcEvent, payload: unknown): void => {
    const id = ++lastEventId;
    const record = `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    recentEvents.push({ id, record });
    if (recentEvents.length > REPLAYED_EVENTS) recentEvents.shift();
    for (const stream of streams) writeEvent(stream, record);
  };
  let stopEvents = (): void => {};
  let stopHeads = (): void => {};
  let origin = '';
  let host = '';

  function checkCaller(request: IncomingMessage): void {
    if (request.method !== 'POST')
      throw refuse(405, `expected a POST request, got ${String(request.method).slice(0, 10)}`);
    if (request.headers.origin !== origin)
      throw refuse(403, 'The request was refused because it did not come from the wallet page.');
    const given = request.headers[TOKEN_HEADER];
    const presented = Buffer.from(typeof given === 'string' ? given : '');
    if (presented.length !== tokenBytes.length || !timingSafeEqual(presented, tokenBytes)) {
      throw refuse(403, 'The request was refused: open the wallet with the address the browser shell printed.');
    }
  }

  async function answerCall(request: IncomingMessage, response: ServerResponse, channel: string): Promise<void> {
    checkCaller(request);
    if (!isIpcChannel(channel)) throw refuse(404, `expected a wallet IPC channel, got "${channel.slice(0, 60)}"`);
    if (!String(request.headers['content-type']).startsWith('application/json')) {
      throw refuse(415, 'expected a JSON request (content-type application/json)');
    }
    const body = await readBody(request);
    let args: unknown;
    try {
      args = JSON.parse(body);
    } catch {
      throw refuse(400, 'expected the arguments as a JSON array, got text that is not JSON');
    }
    sendJson(response, 200, await dispatch(channel, args));
  }

  function openEventStream(request: IncomingMessage, response: ServerResponse): void {
    checkCaller(request);
    if (streams.size >= MAX_EVENT_STREAMS) throw refuse(429, 'Too many wallet pages are open; close one and reload.');
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    response.write(': connected\n\n');
    const seen = lastSeenEvent(request.headers['last-event-id']);
    if (seen !== undefined) {
      for (const { id, record } of recentEvents) if (id > seen) response.write(record);
    }
    streams.add(response);
    if (streams.size === 1) stopHeads = forwardEvents(wallet.events, sendEvent, ['head:new']);
    const keepalive = setInterval(() => writeEvent(response, ': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    response.on('close', () => {
      clearInterval(keepalive);
      streams.delete(response);
      if (streams.size === 0) stopHeads();
    });
  }

  async function serveFile(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw refuse(405, `expected a GET request, got ${String(request.method).slice(0, 10)}`);
    if (path === BRIDGE_PATH) {
      sendBody(response, request, 'text/javascript; charset=utf-8', Buffer.from(bridgeScript(lastEventId)));
      return;
    }
    const file = await readRendererFile(rendererDir, path);
    if (file) {
      sendBody(response, request, file.contentType, file.body);
    } else if (path === '/favicon.ico') {
      // Browsers ask for it unprompted; the renderer sets its icon itself when it has one.
      response.writeHead(204, SECURITY_HEADERS);
      response.end();
    } else if (path === '/') {
      throw new Refusal(503, {
        code: 'INTERNAL',
        shortMessage: `The wallet's pages are not built: run "npm run build" first (looked in ${rendererDir}).`,
      });
    } else {
      throw refuse(404, 'Not found.');
    }
  }

  const server = createServer((request, response) => {
    void (async () => {
      try {
        // DNS rebinding: a page on another name that resolves to 127.0.0.1 sends that name as Host.
        if (request.headers.host !== host)
          throw refuse(403, 'The request was refused: expected the wallet at 127.0.0.1.');
        const path = (request.url ?? '/').split('?')[0]!;
        if (path.startsWith(`${IPC_PATH}/`)) {
          let channel: string;
          try {
            channel = decodeURIComponent(path.slice(IPC_PATH.length + 1));
          } catch {
            throw refuse(404, 'expected a wallet IPC channel, got a malformed name');
          }
          await answerCall(request, response, channel);
        } else if (path === EVENTS_PATH) {
          openEventStream(request, response);
        } else {
          await serveFile(request, response, path);
        }
      } catch (error) {
        if (error instanceof Refusal) {
          if (error.status === 413) {
            // The rest of the body is not read: answer, then close the connection it would have come on.
            response.setHeader('connection', 'close');
            response.on('finish', () => request.socket.destroy());
          }
          sendJson(response, error.status, { ok: false, error: error.error });
        } else {
          log(
            `[browser shell] ${request.method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
          sendJson(response, 500, {
            ok: false,
            error: {
              code: 'INTERNAL',
              shortMessage: 'Something went wrong inside the wallet. The details are in its log.',
            },
          });
        }
      }
    })();
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, BROWSER_SHELL_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (cause) {
    if (ownsWallet) await wallet.close().catch(() => {});
    lock?.release();
    const code = (cause as NodeJS.ErrnoException).code;
    throw new WalletError(
      'INTERNAL',
      code === 'EADDRINUSE'
        ? `port ${options.port} on ${BROWSER_SHELL_HOST} is already in use; choose another (--port), or 0 for any free one`
        : `cannot listen on ${BROWSER_SHELL_HOST} port ${options.port}`,
      { details: code ?? String(cause), cause },
    );
  }
  const port = (server.address() as AddressInfo).port;
  host = `${BROWSER_SHELL_HOST}:${port}`;
  origin = `http://${host}`;
  stopEvents = forwardEvents(
    wallet.events,
    sendEvent,
    IPC_EVENTS.filter((event) => event !== 'head:new'),
  );

  let stopping: Promise<void> | undefined;
  return {
    url: `${origin}/#${TOKEN_FRAGMENT}=${token}`,
    origin,
    token,
    wallet,
    ...(ownsWallet ? { dataDir: options.dataDir } : {}),
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        stopEvents();
        stopHeads();
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        await closed;
        try {
          if (ownsWallet) await wallet.close();
        } finally {
          lock?.release();
        }
      })();
      return stopping;
    },
  };
}

/**
 * Writes to an event stream unless it has ended: between a stream's end (the page went, or the shell is stopping) and
 * its 'close', events may still come, and a write then would be an error nobody hears.
 */
function writeEvent(stream: ServerResponse, text: string): void {
  if (!stream.writableEnded && !stream.destroyed) stream.write(text);
}

/** The number of the last event a page saw, from its stream's Last-Event-ID; undefined when it names none. */
function lastSeenEvent(header: string | string[] | undefined): number | undefined {
  return typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
}

/** Reads a request body of at most MAX_BODY_BYTES; refuses a larger one (413) without reading it all. */
function readBody(request: IncomingMessage): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES)
    return Promise.reject(refuse(413, `expected a request of at most ${MAX_BODY_BYTES} bytes, got ${declared}`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(refuse(413, `expected a request of at most ${MAX_BODY_BYTES} bytes, got more`));
        request.pause();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: IpcResult<unknown>): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function sendBody(response: ServerResponse, request: IncomingMessage, contentType: string, body: Buffer): void {
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': contentType, 'content-length': body.length });
  response.end(request.method === 'HEAD' ? undefined : body);
}
