// Send through a node that fails the submission. A refusal that says the node did not take it (HTTP 401, a connection
// refused) is an error and nothing is recorded. An answer lost, cut short or unreadable after the transaction went out
// (HTTP 500, a stall, malformed JSON, a connection cut) may hide a transaction that arrived: SUBMISSION_UNKNOWN, the
// transaction recorded as pending and followed, and then dropped if the node does not have it or included if it does.
// Either way it is sent exactly once.
import { describe, expect, it } from 'vitest';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { KoinosNode } from '../../../src-main/wallet/chain/koinosNode.ts';
import { until } from '../../helpers/until.ts';
import { testDevnet, testServer } from './helpers.ts';
import { testServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

type Failure = 'http500' | 'stall' | 'garbage' | 'http401' | 'forwardThenCut';

/** A real HTTP proxy to the devnet that fails every broadcast submission in the chosen way. */
async function failingProxy(target: string, failure: Failure) {
  const broadcasts: string[] = [];
  const forward = (req: { method?: string; url?: string }, body: string) =>
    fetch(`${target}${req.url}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: req.method === 'POST' ? body : undefined,
    });
  const server = await testServer((req, res, body) => {
    const request = body ? JSON.parse(body) : {};
    if (request.method === 'chain.submit_transaction' && request.params?.broadcast === true) {
      broadcasts.push(body);
      if (failure === 'stall') return;
      if (failure === 'http500' || failure === 'http401') {
        res.statusCode = failure === 'http500' ? 500 : 401;
        res.end('upstream failure');
        return;
      }
      if (failure === 'forwardThenCut') {
        // The node takes it; its answer never comes back.
        void forward(req, body).then(() => res.socket?.destroy());
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"jsonrpc":"2.0","id":');
      return;
    }
    void forward(req, body)
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
  /** A devnet behind a proxy failing as told, the services on it, and a review of 1 KOIN from account 0 to 1. */
  async function reviewThrough(failure: Failure) {
    const devnet = await testDevnet();
    const proxy = await failingProxy(devnet.url, failure);
    const s = testServices(
      { localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) },
      { timeoutMs: 1500 },
    );
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    return { devnet, proxy, s, a: a!, b: b!, review, node };
  }

  it('http401: confirm fails with NODE_UNAUTHORIZED, the transaction is sent once and nothing is recorded', async () => {
    const { proxy, s, a, review, node } = await reviewThrough('http401');
    expect((await expectWalletError(s.send.confirm(review.reviewId))).code).toBe('NODE_UNAUTHORIZED');
    expect(proxy.broadcasts).toHaveLength(1);
    expect(s.pending.all()).toEqual([]);
    expect(await node.nonce(addressFromString(a.address))).toBe(0n);
  });

  for (const failure of ['http500', 'stall', 'garbage'] as const) {
    it(`${failure}: confirm says the outcome is unknown, follows the transaction, and drops it when the node lacks it`, async () => {
      const { proxy, s, a, review, node } = await reviewThrough(failure);
      const error = await expectWalletError(s.send.confirm(review.reviewId));
      expect(error.code).toBe('SUBMISSION_UNKNOWN');
      expect(error.shortMessage).toMatch(/^Transaction 0x[0-9a-f]{68} was sent, but no answer says whether/);
      expect(error.shortMessage).toContain('Check History before sending it again');
      expect(proxy.broadcasts).toHaveLength(1);
      const [tracked] = s.pending.all();
      expect(error.shortMessage).toContain(tracked!.id);
      // The Local devnet is one node: a transaction it lists nowhere is gone, and its nonce is free again.
      await until('the unknown transaction dropped', () => (s.pending.all().length === 0 ? true : undefined));
      expect(await node.nonce(addressFromString(a.address))).toBe(0n);
      // The review is spent: confirming again cannot send a second copy.
      expect((await expectWalletError(s.send.confirm(review.reviewId))).code).toBe('NOT_FOUND');
      expect(proxy.broadcasts).toHaveLength(1);
    });
  }

  it('forwardThenCut: the transaction the node took while its answer was lost is followed into a block, and the next transfer comes after it', async () => {
    const { s, a, b, review, node } = await reviewThrough('forwardThenCut');
    const error = await expectWalletError(s.send.confirm(review.reviewId));
    expect(error.code).toBe('SUBMISSION_UNKNOWN');
    const [tracked] = s.pending.all();
    expect(tracked!.nonce).toBe(1n);
    const included = await s.follower.waitFor(tracked!.id, ['included', 'irreversible'], 30_000);
    expect(included.status).toMatch(/included|irreversible/);
    expect(await node.nonce(addressFromString(a.address))).toBe(1n);
    const next = await s.send.prepare({ from: a.address, to: b.address, token: 'koin', amount: '1' });
    expect(next.nonce).toBe('2');
  });
});
