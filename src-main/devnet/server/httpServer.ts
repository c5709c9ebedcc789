// The devnet's HTTP server (node:http): routing to JSON-RPC (POST /jsonrpc and /) and REST (/v1), CORS, the optional
// API key, the 1 MiB body limit, and a last-resort error answer, so that no request can crash the process. It reaches
// the node only through an HttpBackend (backend.ts), in its own thread or, from httpWorker.ts, across threads: this
// module imports nothing of the chain, so that a worker serving HTTP loads only this.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { describeInternalError } from './wireError.ts';

/** Largest request body accepted; larger ones get HTTP 413 before they are read to the end. */
const MAX_BODY_BYTES = 1024 * 1024;
/** How much of an oversized body is read and dropped after its 413 (see discardRest); beyond, the connection closes. */
const DISCARD_BYTES = 16 * MAX_BODY_BYTES;

/** Options of {@link createHttpServer}. */
export interface HttpServerOptions {
  /** When set, every request must carry this key (REST: `X-API-KEY`; JSON-RPC: `apikey` header or `?apikey=`). */
  apiKey?: string;
  /** Where unexpected errors are reported (one entry per error, with its stack; never sent to clients). */
  log?: (line: string) => void;
}

/** An answer of the node's side: an HTTP status, the JSON body as text, and extra headers (`Allow` on a 405). */
export interface BackendAnswer {
  status: number;
  text: string;
  headers?: Record<string, string>;
}

/**
 * What the HTTP layer asks of the node: the answer to a JSON-RPC body (always HTTP 200, errors in the envelope) and to
 * a REST request (`path` starts with `/v1`, `query` is the URL's search string, "" or "?a=1").
 */
export interface HttpBackend {
  jsonRpc(body: string): Promise<BackendAnswer>;
  rest(method: string, path: string, query: string, body: string): Promise<BackendAnswer>;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, apikey, X-API-KEY',
  'Access-Control-Max-Age': '600',
};

function send(res: ServerResponse, status: number, body: object, extraHeaders: Record<string, string> = {}): void {
  sendText(res, status, JSON.stringify(body), extraHeaders);
}

function sendText(res: ServerResponse, status: number, text: string, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    ...CORS_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...extraHeaders,
  });
  res.end(text);
}

type Body = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'aborted' };

/** Reads the body up to `limit` bytes; stops early (without buffering the rest) once it is known to be too large. */
function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: Body) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
    req.on('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}

/**
 * After a 413: reads and drops the rest of the body, so that a client still sending it reads the answer and may go on
 * on the same connection. Closing the connection under a client's upload instead made it lose the answer (fetch
 * failed: EPIPE) whenever it was still writing when the connection closed. A body larger than DISCARD_BYTES, declared
 * or sent, closes the connection once answered: `close` says whether it must now.
 */
function discardRest(req: IncomingMessage): { close: boolean } {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DISCARD_BYTES) return { close: true };
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_BYTES) req.socket.destroy();
  });
  return { close: false };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The server plus a way to wait for the requests it is still answering (so that the chain closes after them). */
export interface DevnetHttpServer {
  server: Server;
  /** Resolves when every request being handled now has been answered. */
  drain(): Promise<void>;
}

/**
 * An HTTP server for the node behind `backend` (not yet listening). JSON-RPC answers HTTP 200 with a JSON-RPC
 * envelope, errors included; REST answers 200, 400 `{"error": message}`, 404 for unknown routes, 500
 * `{"error": "unknown error"}`.
 * Bodies over {@link MAX_BODY_BYTES} get 413, a missing or wrong API key 401, both before anything runs.
 * @example
 * const { server } = createHttpServer(nodeBackend(node, log), { apiKey: 'secret' });
 * server.listen(8080, '127.0.0.1');
 */
export function createHttpServer(backend: HttpBackend, options: HttpServerOptions = {}): DevnetHttpServer {
  const log = options.log ?? ((line: string) => console.error(line));
  // Keys are compared as sha256 digests so that timingSafeEqual sees equal lengths and the key length does not leak.
  const expectedKey = options.apiKey === undefined ? undefined : digest(options.apiKey);
  const keyMatches = (candidate: string | undefined | null) =>
    expectedKey !== undefined && typeof candidate === 'string' && timingSafeEqual(digest(candidate), expectedKey);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    let url: URL;
    try {
      // Concatenated rather than resolved, so that a path starting with "//" is not read as a host name.
      const target = req.url ?? '/';
      url = new URL(target.startsWith('/') ? `http://devnet.invalid${target}` : target);
    } catch {
      req.resume();
      send(res, 400, { error: 'invalid request target' });
      return;
    }
    const path = url.pathname;
    const isJsonRpc = path === '/jsonrpc' || path === '/';
    const isRest = path === '/v1' || path.startsWith('/v1/');

    if (method === 'OPTIONS') {
      // CORS preflight: browsers send it without custom headers, so it cannot carry the key; it runs nothing.
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }

    if (expectedKey !== undefined) {
      const restKey = firstHeader(req.headers['x-api-key']);
      const rpcKey = firstHeader(req.headers['apikey']) ?? url.searchParams.get('apikey');
      const ok = isRest
        ? keyMatches(restKey)
        : isJsonRpc
          ? keyMatches(rpcKey)
          : keyMatches(restKey) || keyMatches(rpcKey);
      if (!ok) {
        req.resume(); // discard the body; nothing runs
        if (isJsonRpc && method === 'POST') {
          // -32000..-32099 are the implementation-defined server errors of JSON-RPC 2.0.
          send(res, 401, {
            jsonrpc: '2.0',
            error: {
              code: -32000,
              message: 'Unauthorized',
              data: 'a valid API key is required: header "apikey" or query parameter "apikey"',
            },
            id: null,
          });
        } else {
          send(res, 401, {
            error: `a valid API key is required: header "${isRest ? 'X-API-KEY' : 'X-API-KEY" or "apikey'}"`,
          });
        }
        return;
      }
    }

    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body.ok) {
      if (body.reason === 'too_large') {
        // Answered at once; the rest of the body is dropped as it comes, not kept.
        const { close } = discardRest(req);
        send(
          res,
          413,
          { error: `request body too large: at most ${MAX_BODY_BYTES} bytes` },
          close ? { Connection: 'close' } : {},
        );
      }
      return;
    }

    if (isJsonRpc) {
      if (method !== 'POST') {
        send(res, 405, { error: 'JSON-RPC requests must be sent with POST' }, { Allow: 'POST, OPTIONS' });
        return;
      }
      const answer = await backend.jsonRpc(body.text);
      sendText(res, answer.status, answer.text, answer.headers);
      return;
    }
    if (isRest) {
      const answer = await backend.rest(method, path, url.search, body.text);
      sendText(res, answer.status, answer.text, answer.headers);
      return;
    }
    send(res, 404, { error: 'not found' });
  }

  const inflight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const done = handle(req, res)
      .catch((e: unknown) => {
        log(`http ${req.method} ${req.url?.split('?')[0]} failed: ${describeInternalError(e)}`);
        send(res, 500, { error: 'unknown error' });
      })
      .finally(() => inflight.delete(done));
    inflight.add(done);
  });
  // Malformed HTTP (bad request line, oversized headers): answer if the socket still can, never throw.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  return {
    server,
    async drain() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
  };
}

/** The HTTP layer as startDevnet drives it: in this thread (httpFront) or in a worker of its own (httpThread.ts). */
export interface HttpFront {
  /** Listens on `port` (0: any free one) of `host`; resolves the bound port, rejects with the system's error. */
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting, lets the requests being answered finish for up to `graceMs`, then closes every connection. */
  stop(graceMs: number): Promise<void>;
}

/** The HTTP layer of `backend` in this thread. */
export function httpFront(backend: HttpBackend, options: HttpServerOptions = {}): HttpFront {
  const { server, drain } = createHttpServer(backend, options);
  return {
    listen: (port, host) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      }),
    async stop(graceMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.race([drain(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      server.closeAllConnections();
      await closed;
      await drain();
    },
  };
}

/**
 * A sender that posts what it is given in batches: under load many requests and answers cross between the HTTP worker
 * and the node's thread, and a message costs the sender tens of microseconds whatever it carries. `schedule` says when
 * a batch goes: by default at the end of this turn of the event loop (setImmediate), once the turn has read all its
 * input; with `process.nextTick`, as soon as the promise jobs now queued have run, before the event loop goes on.
 */
export function batchedPost<T>(
  post: (items: T[]) => void,
  schedule: (flush: () => void) => void = setImmediate,
): (item: T) => void {
  let queue: T[] = [];
  const flush = () => {
    const items = queue;
    queue = [];
    post(items);
  };
  return (item) => {
    if (queue.push(item) === 1) schedule(flush);
  };
}
