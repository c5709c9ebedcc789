// Helpers of the chain services' tests: real devnets over HTTP on port 0 (stopped after each test), and tiny real HTTP
// servers of our own that misbehave on purpose (stall, fail, answer garbage, drop the connection), counting requests.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { startDevnet, type Devnet, type StartDevnetOptions } from '../../../src-main/devnet/server/startDevnet.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { KOIN } from '../../helpers/constants.ts';
import { until } from '../../helpers/until.ts';

/**
 * Runs `fn` when the current test has finished, after its afterEach hooks (newest first; a failure is ignored). Hooked to
 * the test itself: the unit and e2e files share their worker's module graph (isolate: false), so an afterEach at this
 * module's top level ran for the first file that loaded it only, and every later file's devnets and servers were left
 * running until the worker ended.
 */
export function onCleanup(fn: () => Promise<void>): void {
  onTestFinished(() => fn().catch(() => {}));
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

/**
 * Makes the transaction waiting in a manual devnet's mempool revert where it is included: once one waits (a command
 * may still be sending it), `address`'s KOIN balance is cut to half a KOIN in a block of its own, which includes the
 * waiting transaction; a transfer of more than that reverts there ("account 'from' has insufficient balance").
 */
export async function cutBalanceUnderWaiting(devnet: Devnet, address: string): Promise<void> {
  await until('a transaction in the mempool', async () => {
    const { pending_transactions } = (await devnet.node.call('mempool.get_pending_transactions', {
      limit: 1n,
    })) as { pending_transactions: unknown[] };
    return pending_transactions.length > 0 ? true : undefined;
  });
  await devnet.node.call('devnet.set_balance', { account: addressFromString(address), value: KOIN / 2n });
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
  return testServer((req, res, body) => forward(target, req, res, body));
}

/**
 * A recordingProxy that holds the next request `matches` picks once `held()` is called, until the function `held()`
 * resolves with is called; everything else goes through at once.
 */
export async function holdingProxy(
  target: string,
  matches: (body: string) => boolean,
): Promise<TestServer & { held: () => Promise<() => void> }> {
  let holdNext: ((release: () => void) => void) | undefined;
  const proxy = await testServer((req, res, body) => {
    const hold = matches(body) ? holdNext : undefined;
    if (!hold) return forward(target, req, res, body);
    holdNext = undefined;
    hold(() => forward(target, req, res, body));
  });
  return { ...proxy, held: () => new Promise((resolve) => (holdNext = resolve)) };
}

/** Sends a request the proxy received on to `target`, and its answer back (502 when `target` does not answer). */
function forward(target: string, req: IncomingMessage, res: ServerResponse, body: string): void {
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
}

/** A URL on which nothing listens (a port that was free a moment ago). */
export async function deadUrl(): Promise<string> {
  const server = await testServer(() => {});
  await server.close();
  return server.url;
}

type Json = Record<string, unknown>;

/**
 * A real HTTP server in front of a devnet whose transaction store and block store remember what they answered once, as
 * koinos-transaction-store and koinos-block-store do across forks (the devnet's revert forgets it): a transaction is
 * listed with every block it was seen in, in the order seen, also after that block lost its fork, and such a block is
 * still given by id. The rest, and the chain's own view (heads, blocks by height), comes from the devnet unchanged.
 */
export async function forkKeepingProxy(target: string): Promise<TestServer> {
  const listed = new Map<string, { transaction: unknown; blocks: string[] }>();
  const kept = new Map<string, Json>();
  const post = async (body: string): Promise<{ result?: Json }> => {
    const answer = await fetch(`${target}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return (await answer.json()) as { result?: Json };
  };
  const call = async (method: string, params: Json): Promise<Json> =>
    (await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).result!;
  const answerRpc = async (body: string): Promise<string> => {
    const request = JSON.parse(body) as { method?: string; params?: Json };
    const answer = await post(body);
    const result = answer.result;
    if (!result) return JSON.stringify(answer);
    if (request.method === 'transaction_store.get_transactions_by_id') {
      for (const item of (result['transactions'] ?? []) as {
        transaction: { id: string };
        containing_blocks: string[];
      }[]) {
        const seen = listed.get(item.transaction.id) ?? { transaction: item.transaction, blocks: [] };
        listed.set(item.transaction.id, seen);
        for (const block of item.containing_blocks) {
          if (seen.blocks.includes(block)) continue;
          seen.blocks.push(block);
          const { block_items } = await call('block_store.get_blocks_by_id', {
            block_ids: [block],
            return_block: true,
            return_receipt: false,
          });
          kept.set(block, (block_items as Json[])[0]!);
        }
      }
      result['transactions'] = ((request.params?.['transaction_ids'] ?? []) as string[]).flatMap((id) => {
        const seen = listed.get(id);
        return seen ? [{ transaction: seen.transaction, containing_blocks: seen.blocks }] : [];
      });
    }
    if (request.method === 'block_store.get_blocks_by_id') {
      const ids = (request.params?.['block_ids'] ?? []) as string[];
      result['block_items'] = ((result['block_items'] ?? []) as Json[]).map((item, i) => {
        const block = kept.get(ids[i]!);
        if (item['block_id'] || !block) return item;
        return request.params?.['return_block']
          ? block
          : { block_id: block['block_id'], block_height: block['block_height'] };
      });
    }
    return JSON.stringify(answer);
  };
  return testServer((req, res, body) => {
    const path = req.url ?? '/';
    const answer: Promise<[number, string]> =
      req.method === 'POST' && path === '/jsonrpc'
        ? answerRpc(body).then((text) => [200, text])
        : fetch(`${target}${path}`, {
            method: req.method,
            headers: { 'content-type': 'application/json' },
            ...(req.method === 'POST' ? { body } : {}),
          }).then(async (r) => [r.status, await r.text()]);
    answer.then(
      ([status, text]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(text);
      },
      () => {
        res.writeHead(502);
        res.end();
      },
    );
  });
}
