// Helpers of the chain services' tests: real devnets over HTTP on port 0 (stopped after each test), and tiny real HTTP
// servers of our own that misbehave on purpose (stall, fail, answer garbage, drop the connection), counting requests.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { startDevnet, type Devnet, type StartDevnetOptions } from '../../../src-main/devnet/server/startDevnet.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  const all = cleanups.splice(0).reverse();
  for (const c of all) await c().catch(() => {});
});

/** Runs `fn` after the current test (in reverse order of registration). */
export function onCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

/** A devnet on port 0 that makes one block per transaction, with three quiet development accounts. */
export async function testDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const devnet = await startDevnet({
    port: 0,
    blockTimeMs: 0,
    accounts: 3,
    signatureThreads: 0,
    irreversibleDepth: 2,
    log: () => {},
    ...options,
  });
  onCleanup(() => devnet.stop());
  return devnet;
}

/** A fresh folder removed after the test. */
export { tempDir } from '../../helpers/tempDir.ts';

export interface TestServer {
  url: string;
  /** Requests received so far (bodies as text). */
  requests: string[];
  /** The headers of each request, in the same order. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A real HTTP server answering with `handler`; it records every request body. */
export async function testServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string, index: number) => void,
): Promise<TestServer> {
  const requests: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    headers.push(req.headers);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push(body);
      handler(req, res, body, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onCleanup(close);
  return { url, requests, headers, close };
}

/**
 * A real HTTP server on its own port (so another origin) that forwards every request to `target`, with a leading
 * `/via` taken off the path (a second address on the same origin), and records what it received.
 */
export async function recordingProxy(target: string): Promise<TestServer> {
  return testServer((req, res, body) => {
    const forwarded: Record<string, string> = {};
    for (const name of ['content-type', 'accept', 'apikey', 'x-api-key']) {
      const value = req.headers[name];
      if (typeof value === 'string') forwarded[name] = value;
    }
    const path = (req.url ?? '/').replace(/^\/via(?=\/|$)/, '') || '/';
    fetch(`${target}${path}`, { method: req.method, headers: forwarded, ...(req.method === 'POST' ? { body } : {}) })
      .then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(await answer.text());
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
}

/** A URL on which nothing listens (a port that was free a moment ago). */
export async function deadUrl(): Promise<string> {
  const server = await testServer(() => {});
  await server.close();
  return server.url;
}
