// The devnet's HTTP layer on a worker thread (startDevnet's httpThread, the CLI devnet's way): over real HTTP it
// answers exactly as the server in the node's own thread does (JSON-RPC, REST, CORS, the API key, the body limit,
// unknown routes), keeps each answer with its request under concurrent load, reports the node's unexpected failures as
// that server does, reports a port in use with its cause, and on stop answers the requests under way before the port
// closes. The node's thread sends its answers as soon as they are given, ahead of the block planner's next slice.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { connect } from 'node:net';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { nodeBackend } from '../../src-main/devnet/server/backend.ts';
import { answerSender, startHttpThread } from '../../src-main/devnet/server/httpThread.ts';
import type { NodeMethod } from '../../src-main/devnet/methods.ts';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { rpcRaw, transferJson } from './httpHelpers.ts';

const API_KEY = 'thread-key';
const CONFIG = { port: 0, manual: true, accounts: 4, apiKey: API_KEY, log: () => {} } as const;

let inThread: Devnet;
let threaded: Devnet;

beforeAll(async () => {
  [inThread, threaded] = await Promise.all([startDevnet(CONFIG), startDevnet({ ...CONFIG, httpThread: true })]);
});

afterAll(async () => {
  await Promise.all([inThread?.stop(), threaded?.stop()]);
});

/** Status, the headers a client reads, and the body text of one request. */
async function exchange(url: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${url}${path}`, init);
  const headers = Object.fromEntries(
    ['content-type', 'access-control-allow-origin', 'access-control-allow-methods', 'allow', 'connection'].map((h) => [
      h,
      response.headers.get(h),
    ]),
  );
  return { status: response.status, headers, body: await response.text() };
}

const keyed = { apikey: API_KEY, 'X-API-KEY': API_KEY };
const jsonRpc = (method: string, params: object = {}, id = 1): RequestInit => ({
  method: 'POST',
  headers: { ...keyed, 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
});

describe('the HTTP layer on its own thread', () => {
  it('answers every kind of request byte for byte as the server in the node thread does', async () => {
    const cases: [string, RequestInit][] = [
      ['/jsonrpc', jsonRpc('chain.get_head_info')],
      ['/', jsonRpc('chain.get_chain_id')],
      ['/jsonrpc', jsonRpc('chain.get_account_nonce', { account: 'not an address' })],
      ['/jsonrpc', jsonRpc('no.such_method')],
      ['/jsonrpc', { method: 'POST', headers: keyed, body: '{"jsonrpc":' }],
      [
        '/jsonrpc',
        {
          method: 'POST',
          headers: keyed,
          body: JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'chain.get_chain_id' }]),
        },
      ],
      ['/jsonrpc', { method: 'GET', headers: keyed }],
      ['/jsonrpc', { ...jsonRpc('chain.get_chain_id'), headers: { 'content-type': 'application/json' } }],
      ['/v1/chain/id', { headers: keyed }],
      ['/v1/chain/head_info?x=1', { headers: keyed }],
      ['/v1/account/not-an-address/balance/koin', { headers: keyed }],
      ['/v1/chain/id', {}],
      ['/v1/nothing/here', { headers: keyed }],
      ['/elsewhere', { headers: keyed }],
      ['/jsonrpc', { method: 'OPTIONS' }],
      ['/jsonrpc', { method: 'POST', headers: keyed, body: 'x'.repeat(1024 * 1024 + 1) }],
    ];
    for (const [path, init] of cases) {
      const expected = await exchange(inThread.url, path, init);
      expect(await exchange(threaded.url, path, init), `${init.method ?? 'GET'} ${path}`).toEqual(expected);
    }
    // The cases cover what they name: answers of the node, of the HTTP layer, and its refusals.
    const statuses = new Set<number>();
    for (const [path, init] of cases) statuses.add((await exchange(threaded.url, path, init)).status);
    expect([...statuses].sort()).toEqual([200, 204, 400, 401, 404, 405, 413]);
  });

  it('keeps every answer with its request when many are under way at once', async () => {
    const url = `${threaded.url}/jsonrpc?apikey=${API_KEY}`;
    const accounts = threaded.accounts.map((a) => a.address);
    const asked = Array.from({ length: 120 }, (_, i) => ({ id: i, account: accounts[i % accounts.length]! }));
    const answers = await Promise.all(
      asked.map(async ({ id, account }) => {
        const init = jsonRpc(id % 2 === 1 ? 'chain.get_account_rc' : 'chain.get_account_nonce', { account }, id);
        return (await fetch(url, init)).json() as Promise<any>;
      }),
    );
    for (const [i, answer] of answers.entries()) {
      expect(answer.id).toBe(i);
      expect(answer.result, JSON.stringify(answer)).toHaveProperty(i % 2 === 1 ? 'rc' : 'nonce');
    }
  });

  it('submits a transfer that the next block includes', async () => {
    const call = async (method: string, params: object) => {
      const { status, body } = await rpcRaw(
        threaded.url,
        { jsonrpc: '2.0', id: 1, method, params },
        { headers: keyed },
      );
      expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
      return body.result;
    };
    const submitted = await call('chain.submit_transaction', {
      transaction: transferJson(threaded, 0, 1, 5n, 1n),
      broadcast: true,
    });
    await call('devnet.produce_block', {});
    const found = await call('transaction_store.get_transactions_by_id', { transaction_ids: [submitted.receipt.id] });
    expect(found.transactions[0].containing_blocks).toHaveLength(1);
  });
});

describe("the node thread's answers", () => {
  it('go in one message once the requests of a message are answered, before the next slice of a block being planned', async () => {
    const posted: { ids: number[]; slicesRun: number }[] = [];
    let slicesRun = 0;
    const send = answerSender((answers) => posted.push({ ids: answers.map((a) => a.id), slicesRun }));
    // A block being planned: its next slice already waits for the end of this turn, as node.ts's planner gives way.
    const slice = new Promise<void>((resolve) =>
      setImmediate(() => {
        slicesRun++;
        resolve();
      }),
    );
    // The requests of one message, answered in promise jobs as the backend answers them, one of them a job later.
    await Promise.all(
      [1, 2, 3].map(async (id) => {
        await Promise.resolve();
        if (id === 3) await Promise.resolve();
        send({ id, answer: { status: 200, text: String(id) } });
      }),
    );
    await slice;
    expect(posted).toEqual([{ ids: [1, 2, 3], slicesRun: 0 }]);
  });
});

describe('the HTTP thread around the node', () => {
  it("answers 500 without details when the node fails unexpectedly, logging the cause in the node's", async () => {
    const base = threaded.node;
    const node: DevnetNode = Object.create(base, {
      call: {
        value: (method: string, request: Record<string, unknown>) =>
          method === 'chain.get_chain_id'
            ? Promise.reject(new TypeError('secret internals at /home/dev'))
            : base.call(method as NodeMethod, request),
      },
    });
    const log: string[] = [];
    const record = (line: string) => log.push(line);
    const backend = nodeBackend(node, record);
    const front = startHttpThread(
      { ...backend, jsonRpc: () => Promise.reject(new RangeError('secret internals at /srv')) },
      {},
      record,
    );
    try {
      const port = await front.listen(0, '127.0.0.1');
      const url = `http://127.0.0.1:${port}`;
      const rest = await exchange(url, '/v1/chain/id');
      expect(rest).toMatchObject({ status: 500, body: JSON.stringify({ error: 'unknown error' }) });
      const answer = await exchange(url, '/jsonrpc', jsonRpc('chain.get_chain_id'));
      expect(answer).toMatchObject({ status: 500, body: JSON.stringify({ error: 'unknown error' }) });
      expect(log).toHaveLength(2);
      expect(log[0]).toMatch(/secret internals at \/home\/dev/);
      expect(log[1]).toMatch(/^http POST \/jsonrpc failed: .*secret internals at \/srv/);
    } finally {
      await front.stop(0);
    }
  });

  it('says which port is in use, and takes any free one when asked to', async () => {
    const taken = Number(new URL(threaded.url).port);
    await expect(startDevnet({ ...CONFIG, port: taken, httpThread: true })).rejects.toThrow(
      `port ${taken} on 127.0.0.1 is already in use`,
    );
    const log: string[] = [];
    const other = await startDevnet({
      ...CONFIG,
      port: taken,
      httpThread: true,
      anyPortWhenTaken: true,
      log: (line) => log.push(line),
    });
    try {
      expect(Number(new URL(other.url).port)).not.toBe(taken);
      expect(log).toEqual([`port ${taken} on 127.0.0.1 is not free (EADDRINUSE), listening on any free port`]);
      expect((await exchange(other.url, '/v1/chain/id', { headers: keyed })).status).toBe(200);
    } finally {
      await other.stop();
    }
  });

  it('answers the requests under way when it stops, then closes the port', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    const backend = nodeBackend(threaded.node, () => {});
    const front = startHttpThread(
      {
        ...backend,
        jsonRpc: async (body) => {
          arrived();
          await gate;
          return backend.jsonRpc(body);
        },
      },
      {},
      () => {},
    );
    const port = await front.listen(0, '127.0.0.1');
    const underWay = exchange(`http://127.0.0.1:${port}`, '/jsonrpc', jsonRpc('chain.get_chain_id'));
    await waiting;
    const stopped = front.stop(10_000);
    release();
    const answer = await underWay;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).result.chain_id).toBe(threaded.chainId);
    await stopped;
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
