// The HTTP server around both APIs, over real HTTP on port 0: API keys (401, nothing executed), the 1 MiB body limit
// (413), malformed input, unknown routes, CORS and preflight, keep-alive, and that bad input never changes state.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { rest, rpc, rpcRaw, transferJson } from './httpHelpers.ts';
import { until } from '../helpers/until.ts';

const KEY = 'devnet-test-key-1';
const MIB = 1024 * 1024;

describe('API key', () => {
  let devnet: Devnet;
  let url: string;

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, manual: true, accounts: 3, apiKey: KEY, log: () => {} });
    url = devnet.url;
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  const chainIdRequest = { jsonrpc: '2.0', id: 1, method: 'chain.get_chain_id', params: {} };

  it('answers REST requests without the X-API-KEY header, or with a wrong key, with 401 and a JSON error', async () => {
    for (const headers of [{}, { 'X-API-KEY': 'wrong' }, { 'X-API-KEY': `${KEY}x` }, { apikey: KEY }] as Record<
      string,
      string
    >[]) {
      const { status, body } = await rest(url, '/v1/chain/id', { headers });
      expect(status, JSON.stringify(headers)).toBe(401);
      expect(body.error).toMatch(/API key/);
    }
  });

  it('serves REST requests that carry the key in X-API-KEY', async () => {
    expect(await rest(url, '/v1/chain/id', { headers: { 'X-API-KEY': KEY } })).toEqual({
      status: 200,
      body: { value: devnet.chainId },
    });
  });

  it('answers JSON-RPC requests without the key, or with a wrong one, with 401 and a JSON-RPC error', async () => {
    for (const [path, headers] of [
      ['/jsonrpc', {}],
      ['/jsonrpc', { apikey: 'wrong' }],
      ['/jsonrpc?apikey=wrong', {}],
      ['/', {}],
    ] as const) {
      const { status, body } = await rpcRaw(url, chainIdRequest, { path, headers });
      expect(status, path).toBe(401);
      expect(body.error.message).toBe('Unauthorized');
      expect(body.result).toBeUndefined();
    }
  });

  it('serves JSON-RPC requests with the key in the apikey header or the apikey query parameter', async () => {
    const byHeader = await rpcRaw(url, chainIdRequest, { headers: { apikey: KEY } });
    expect(byHeader).toEqual({ status: 200, body: { jsonrpc: '2.0', result: { chain_id: devnet.chainId }, id: 1 } });
    const byQuery = await rpcRaw(url, chainIdRequest, { path: `/jsonrpc?apikey=${encodeURIComponent(KEY)}` });
    expect(byQuery.body.result).toEqual({ chain_id: devnet.chainId });
  });

  it('runs nothing for a request without the key', async () => {
    const authorized = async (method: string, params: unknown) =>
      (await rpcRaw(url, { jsonrpc: '2.0', id: 9, method, params }, { headers: { apikey: KEY } })).body.result;
    const headBefore = await authorized('chain.get_head_info', {});
    const tx = transferJson(devnet, 0, 1, 100n, 1n);
    const denied = await Promise.all([
      rpcRaw(url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'chain.submit_transaction',
        params: { transaction: tx, broadcast: true },
      }),
      rpcRaw(url, { jsonrpc: '2.0', id: 2, method: 'devnet.produce_block', params: {} }),
      rest(url, '/v1/transaction/submit', { method: 'POST', body: JSON.stringify(tx) }),
    ]);
    expect(denied.map((d) => d.status)).toEqual([401, 401, 401]);
    expect(await authorized('chain.get_head_info', {})).toEqual(headBefore);
    expect(
      (await authorized('chain.get_account_nonce', { account: devnet.accounts[0]!.address })).nonce ?? 'KAA=',
    ).toBe('KAA=');
    expect((await authorized('mempool.get_pending_nonce', { payee: devnet.accounts[0]!.address })).nonce ?? '').toBe(
      '',
    );
  });

  it('answers the CORS preflight without the key, since browsers cannot send it there', async () => {
    const response = await fetch(`${url}/v1/chain/id`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/X-API-KEY/);
  });
});

describe('HTTP server', () => {
  let devnet: Devnet;
  let url: string;

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, manual: true, accounts: 3, log: () => {} });
    url = devnet.url;
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  it('binds 127.0.0.1 by default', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers a JSON-RPC body over 1 MiB with 413, declared or streamed, without running it', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'chain.get_chain_id',
      params: { pad: 'x'.repeat(MIB) },
    });
    const declared = await fetch(`${url}/jsonrpc`, { method: 'POST', body: big });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: string }).error).toMatch(/too large/);

    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const streamed = await fetch(`${url}/jsonrpc`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('accepts a body just under 1 MiB', async () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'chain.get_chain_id', params: {} as Record<string, string> };
    const base = JSON.stringify(request).length;
    request.params.pad = 'x'.repeat(MIB - base - 20);
    const { status, body } = await rpcRaw(url, request);
    expect(status).toBe(200);
    expect(body.result).toEqual({ chain_id: devnet.chainId });
  });

  it('answers 413 for REST bodies over 1 MiB too', async () => {
    const response = await fetch(`${url}/v1/transaction/submit`, { method: 'POST', body: 'x'.repeat(MIB + 1) });
    expect(response.status).toBe(413);
  });

  it('lets a client send the rest of an oversized body after its 413, then answers it on the same connection', async () => {
    // A client still sending when the server closed the connection lost the 413 itself (fetch failed: EPIPE).
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const chunked = Buffer.concat(
      Array.from({ length: 24 }, () => Buffer.concat([Buffer.from('10000\r\n'), chunk, Buffer.from('\r\n')])),
    );
    const uploads = [
      // Declared too large: answered from the headers, while the 2 MiB are still on their way.
      { headers: `Content-Length: ${2 * MIB}`, body: Buffer.alloc(2 * MIB, 0x20) },
      // Sent in chunks without a length: answered once past 1 MiB, while the rest is still on its way.
      { headers: 'Transfer-Encoding: chunked', body: Buffer.concat([chunked, Buffer.from('0\r\n\r\n')]) },
    ];
    const next = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'chain.get_chain_id', params: {} });
    for (const upload of uploads) {
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      let received = '';
      let closed = false;
      const errors: string[] = [];
      socket.on('data', (data) => (received += data.toString('latin1')));
      socket.on('close', () => (closed = true));
      socket.on('error', (error) => errors.push(error.message));
      // The next whole response on the connection (status line, headers, a Content-Length body), taken off the rest.
      const response = () =>
        until('an HTTP response', () => {
          const end = received.indexOf('\r\n\r\n');
          const length = end < 0 ? 0 : Number(/content-length: *(\d+)/i.exec(received.slice(0, end))?.[1] ?? 0);
          if (end >= 0 && received.length >= end + 4 + length) {
            const text = received.slice(0, end + 4 + length);
            received = received.slice(end + 4 + length);
            return text;
          }
          if (closed) throw new Error(`the connection closed; received ${JSON.stringify(received.slice(0, 200))}`);
          return undefined;
        });
      try {
        socket.write(
          `POST /jsonrpc HTTP/1.1\r\nHost: devnet\r\nContent-Type: application/json\r\n${upload.headers}\r\n\r\n`,
        );
        socket.write(upload.body);
        const refused = await response();
        expect(refused).toMatch(/^HTTP\/1\.1 413 /);
        expect(refused).toMatch(/request body too large/);
        socket.write(
          `POST /jsonrpc HTTP/1.1\r\nHost: devnet\r\nContent-Type: application/json\r\nContent-Length: ${next.length}\r\n\r\n${next}`,
        );
        const answered = await response();
        expect(answered).toMatch(/^HTTP\/1\.1 200 /);
        expect(JSON.parse(answered.slice(answered.indexOf('\r\n\r\n') + 4))).toEqual({
          jsonrpc: '2.0',
          id: 2,
          result: { chain_id: devnet.chainId },
        });
        expect(errors).toEqual([]);
      } finally {
        socket.destroy();
      }
    }
  });

  it('answers unknown paths with 404 and JSON-RPC paths with 405 for GET', async () => {
    expect(await rest(url, '/nope')).toEqual({ status: 404, body: { error: 'not found' } });
    expect(await rest(url, '/v2/chain/id')).toEqual({ status: 404, body: { error: 'not found' } });
    expect(await rest(url, '/v1')).toEqual({ status: 404, body: { error: 'not found' } });
    expect(await rest(url, '/v1/%E0%A4%A')).toEqual({
      status: 400,
      body: { error: 'invalid path: bad percent-encoding' },
    });
    const get = await rest(url, '/jsonrpc');
    expect(get.status).toBe(405);
  });

  it('sends CORS headers on every answer and 204 to OPTIONS', async () => {
    const preflight = await fetch(`${url}/jsonrpc`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    const error = await fetch(`${url}/nope`);
    expect(error.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('keeps connections alive across requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const reused: boolean[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((resolve, reject) => {
          const req = httpRequest(
            `${url}/jsonrpc`,
            { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } },
            (res) => {
              expect(res.headers.connection).toBe('keep-alive');
              res.resume();
              res.on('end', resolve);
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'chain.get_chain_id' }));
          reused.push(req.reusedSocket);
        });
      }
    } finally {
      agent.destroy();
    }
    expect(reused).toEqual([false, true, true]);
  });

  it('survives malformed HTTP and keeps serving', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(url);
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('THIS IS NOT HTTP\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(await rpc(url, 'chain.get_chain_id')).toEqual({ chain_id: devnet.chainId });
  });

  it('changes no state when it rejects bad input', async () => {
    const before = await Promise.all([
      rpc(url, 'chain.get_head_info'),
      rpc(url, 'chain.get_account_nonce', { account: devnet.accounts[0]!.address }),
      rpc(url, 'chain.get_account_rc', { account: devnet.accounts[0]!.address }),
    ]);
    const good = transferJson(devnet, 0, 1, 1000n, 1n);
    const badSignature = { ...good, signatures: ['AAAA'] };
    const wrongChain = transferJson(
      { ...devnet, chainId: 'EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3ejxRSewi7qIBfSA==' } as Devnet,
      0,
      1,
      1000n,
      1n,
    );
    const answers = await Promise.all([
      rpcRaw(url, '{"jsonrpc":"2.0","id":1,"method":"chain.submit_transaction","params":{"transaction":'),
      rpcRaw(url, {
        jsonrpc: '2.0',
        id: 2,
        method: 'chain.submit_transaction',
        params: { transaction: { header: 'x' } },
      }),
      rpcRaw(url, {
        jsonrpc: '2.0',
        id: 3,
        method: 'chain.submit_transaction',
        params: { transaction: badSignature, broadcast: true },
      }),
      rpcRaw(url, {
        jsonrpc: '2.0',
        id: 4,
        method: 'chain.submit_transaction',
        params: { transaction: wrongChain, broadcast: true },
      }),
      rpcRaw(url, {
        jsonrpc: '2.0',
        id: 5,
        method: 'chain.submit_transaction',
        params: { transaction: { ...good, id: '0x1220' + '00'.repeat(32) }, broadcast: true },
      }),
      rest(url, '/v1/transaction/submit', { method: 'POST', body: JSON.stringify({ ...good, operations: [] }) }),
    ]);
    expect(answers.map((a) => a.body.error?.code ?? a.status)).toEqual([-32700, -32601, -32603, -32603, -32603, 400]);
    const after = await Promise.all([
      rpc(url, 'chain.get_head_info'),
      rpc(url, 'chain.get_account_nonce', { account: devnet.accounts[0]!.address }),
      rpc(url, 'chain.get_account_rc', { account: devnet.accounts[0]!.address }),
    ]);
    expect(after).toEqual(before);
    const pending = await rpc(url, 'mempool.get_pending_nonce', { payee: devnet.accounts[0]!.address });
    expect(pending.nonce ?? '').toBe('');
    // The good transaction is still accepted afterwards: nothing was half-applied.
    expect((await rpc(url, 'chain.submit_transaction', { transaction: good, broadcast: true })).receipt.id).toBe(
      good.id,
    );
  });
});
