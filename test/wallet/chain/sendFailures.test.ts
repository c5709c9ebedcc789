// Send through a node that fails the submission (HTTP 500, a stall, malformed JSON): a clear error each time, the
// submission sent exactly once, nothing recorded as pending, and the chain unchanged.
import { describe, expect, it } from 'vitest';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { KoinosNode } from '../../../src-main/wallet/chain/koinosNode.ts';
import { testDevnet, testServer } from './helpers.ts';
import { testServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

type Failure = 'http500' | 'stall' | 'garbage';

/** A real HTTP proxy to the devnet that fails every broadcast submission in the chosen way. */
async function failingProxy(target: string, failure: Failure) {
  const broadcasts: string[] = [];
  const server = await testServer((req, res, body) => {
    const request = body ? JSON.parse(body) : {};
    if (request.method === 'chain.submit_transaction' && request.params?.broadcast === true) {
      broadcasts.push(body);
      if (failure === 'stall') return;
      if (failure === 'http500') {
        res.statusCode = 500;
        res.end('upstream failure');
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"jsonrpc":"2.0","id":');
      return;
    }
    void fetch(`${target}${req.url}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: req.method === 'POST' ? body : undefined,
    })
      .then(async (answer) => {
        res.statusCode = answer.status;
        res.setHeader('content-type', 'application/json');
        res.end(await answer.text());
      })
      .catch(() => res.socket?.destroy());
  });
  return { url: server.url, broadcasts };
}

describe('SendService with a failing node', () => {
  for (const [failure, code] of [
    ['http500', 'NODE_ERROR'],
    ['stall', 'NODE_TIMEOUT'],
    ['garbage', 'NODE_MALFORMED_ANSWER'],
  ] as const) {
    it(`${failure}: confirm fails with ${code}, the transaction is sent once and nothing changes`, async () => {
      const devnet = await testDevnet();
      const proxy = await failingProxy(devnet.url, failure);
      const s = testServices(
        { localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) },
        { timeoutMs: 1500 },
      );
      const [a, b] = devnet.accounts;
      const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
      const error = await expectWalletError(s.send.confirm(review.reviewId));
      expect(error.code).toBe(code);
      expect(proxy.broadcasts).toHaveLength(1);
      expect(s.pending.all()).toEqual([]);
      const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
      expect(await node.nonce(addressFromString(a!.address))).toBe(0n);
      // The review is spent: confirming again cannot send a second copy.
      expect((await expectWalletError(s.send.confirm(review.reviewId))).code).toBe('NOT_FOUND');
      expect(proxy.broadcasts).toHaveLength(1);
    });
  }
});
