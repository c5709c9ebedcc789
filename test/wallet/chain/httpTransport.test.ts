// The node clients' HTTP exchange (node:http) on the wire: compressed answers as fetch took them, the answer's cap
// enforced while it arrives, a node that stops or breaks half-way through its answer, and kept-alive connections.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { exchange, type HttpRequest } from '../../../src-main/wallet/chain/httpTransport.ts';
import { JsonRpcClient } from '../../../src-main/wallet/chain/jsonRpcClient.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import { onCleanup, testServer } from './helpers.ts';

const ANSWER = { jsonrpc: '2.0', id: 1, result: { chain_id: 'EiA', padding: 'x'.repeat(2000) } };

function read(url: string, options: Partial<HttpRequest> = {}): ReturnType<typeof exchange> {
  return exchange({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"chain.get_chain_id","params":{}}',
    kind: 'read',
    timeoutMs: 5_000,
    what: 'chain.get_chain_id',
    ...options,
  });
}

describe('answers on the wire', () => {
  it('asks for gzip, deflate and brotli, and reads each', async () => {
    const encoders: Record<string, (bytes: Buffer) => Buffer> = {
      gzip: gzipSync,
      deflate: deflateSync,
      br: brotliCompressSync,
    };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const server = await testServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        res.end(encode(Buffer.from(JSON.stringify(ANSWER))));
      });
      const answer = await read(server.url);
      expect(answer.json, encoding).toEqual(ANSWER);
      expect(server.headers[0]!['accept-encoding']).toBe('gzip, deflate, br');
    }
  });

  it('refuses an answer over the cap, declared or as it arrives, and one that does not decompress', async () => {
    const declared = await testServer((_req, res) => {
      res.writeHead(200, { 'content-length': '5000' });
      res.end('x'.repeat(5000));
    });
    const tooLong = await expectWalletError(read(declared.url, { maxAnswerBytes: 1000 }));
    expect(tooLong.code).toBe('NODE_MALFORMED_ANSWER');
    expect(tooLong.details).toContain('an answer of 5000 bytes (at most 1000)');

    // Chunked, with no length: refused once the decompressed bytes pass the cap, not after the whole was read.
    let streamed = 0;
    const endless = await testServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const more = () => {
        while (streamed < 10_000_000 && res.write('x'.repeat(1000))) streamed += 1000;
        if (streamed < 10_000_000) res.once('drain', more);
        else res.end();
      };
      more();
    });
    const stopped = await expectWalletError(read(endless.url, { maxAnswerBytes: 4000 }));
    expect(stopped.code).toBe('NODE_MALFORMED_ANSWER');
    expect(stopped.details).toContain('an answer of more than 4000 bytes');
    expect(streamed).toBeLessThan(10_000_000);

    const corrupt = await testServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(Buffer.from('this is not gzip at all'));
    });
    const garbled = await expectWalletError(read(corrupt.url));
    expect(garbled.code).toBe('NODE_MALFORMED_ANSWER');
    expect(garbled.details).toContain('a gzip answer that does not decompress');

    const unasked = await testServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'zstd' });
      res.end('{}');
    });
    const unknown = await expectWalletError(read(unasked.url));
    expect(unknown.code).toBe('NODE_MALFORMED_ANSWER');
    expect(unknown.details).toContain('the zstd encoding, which the wallet did not ask for');
  });

  it('a node that stops half-way through its answer is NODE_TIMEOUT; one whose connection breaks is NODE_UNREACHABLE', async () => {
    const half = JSON.stringify(ANSWER).slice(0, 500);
    const stalls = await testServer((_req, res) => {
      res.writeHead(200, { 'content-length': '5000' });
      res.write(half); // and nothing more
    });
    const stalled = await expectWalletError(read(stalls.url, { timeoutMs: 300 }));
    expect(stalled.code).toBe('NODE_TIMEOUT');
    expect(stalled.shortMessage).toContain('stopped sending its answer');

    const breaks = await testServer((_req, res) => {
      res.writeHead(200, { 'content-length': '5000' });
      res.write(half, () => res.socket?.destroy());
    });
    const broken = await expectWalletError(read(breaks.url));
    expect(broken.code).toBe('NODE_UNREACHABLE');
    expect(broken.shortMessage).toContain('broke while it answered');
    // A submission whose answer broke is not sent again either.
    const write = await expectWalletError(read(breaks.url, { kind: 'write' }));
    expect(write.code).toBe('NODE_UNREACHABLE');
    expect(breaks.requests).toHaveLength(2);
  });

  it('says a write may have reached the node when its answer was lost or cut, and not when it never went out', async () => {
    const half = JSON.stringify(ANSWER).slice(0, 500);
    const stalls = await testServer((_req, res) => {
      res.writeHead(200, { 'content-length': '5000' });
      res.write(half);
    });
    const cuts = await testServer((req) => req.socket.destroy());
    const garbles = await testServer((_req, res) => res.writeHead(502).end('<html>Bad gateway</html>'));
    const refuses = await testServer((_req, res) => res.writeHead(401).end());
    const closed = await testServer(() => {});
    await closed.close();
    const cases: [string, string, boolean][] = [
      [stalls.url, 'NODE_TIMEOUT', true],
      [cuts.url, 'NODE_UNREACHABLE', true],
      [garbles.url, 'NODE_ERROR', true],
      [refuses.url, 'NODE_UNAUTHORIZED', false],
      [closed.url, 'NODE_UNREACHABLE', false], // refused: nothing went out
    ];
    for (const [url, code, unknown] of cases) {
      // Only the stalling node is waited out; the others answer at once, however long a loaded machine takes to
      // carry that answer (a 502 timed out at 300 ms in a CI run on two busy cores).
      const timeoutMs = url === stalls.url ? 300 : 30_000;
      const write = await expectWalletError(read(url, { kind: 'write', timeoutMs }));
      expect([write.code, write.deliveryUnknown], url).toEqual([code, unknown]);
      // A read is asked again: whether it arrived does not matter.
      const reading = await expectWalletError(read(url, { timeoutMs }));
      expect(reading.deliveryUnknown, url).toBe(false);
    }
  });
});

describe('connections', () => {
  it('sends one request after another on one kept-alive connection', async () => {
    let connections = 0;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, result: { chain_id: 'EiA' } }));
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onCleanup(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const rpc = new JsonRpcClient({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jsonrpc` });
    for (let i = 0; i < 20; i++) expect(await rpc.call('chain.get_chain_id', {})).toEqual({ chain_id: 'EiA' });
    expect(connections).toBe(1);
  });
});
