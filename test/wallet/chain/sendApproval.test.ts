// The send and offline-signing flows behind the approval queue, against a real devnet seen through a recording proxy
// (a node that keeps everything it is sent, as a malicious one would): nothing signed reaches the node before the
// person approves, a cancelled or rejected review leaves nothing it could broadcast, and rc_limit is sized under the
// approved cap by a dry run that runs only after the approval.
import { describe, expect, it } from 'vitest';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { nonceToBytes, transactionToBase64 } from '../../../src-main/koinos/transaction.ts';
import { KoinosNode } from '../../../src-main/wallet/chain/koinosNode.ts';
import { tokenBalance } from '../../../src-main/wallet/chain/tokens.ts';
import type { Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { testDevnet, testServer, type TestServer } from './helpers.ts';
import { testServices, type TestServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

interface Rpc {
  method: string;
  params: { transaction?: { signatures?: string[]; header?: { rc_limit?: string } }; broadcast?: boolean };
}

/** A node in front of `devnet` that forwards every JSON-RPC call and keeps it. */
async function recordingNode(devnet: Devnet): Promise<TestServer & { calls: () => Rpc[] }> {
  const server = await testServer((req, res, body) => {
    void fetch(`${devnet.url}${req.url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      .then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      })
      .catch(() => res.socket?.destroy()); // the node stopped at the end of the test: the client sees a closed connection
  });
  return { ...server, calls: () => server.requests.map((b) => JSON.parse(b) as Rpc) };
}

async function throughProxy(
  devnet: Devnet,
): Promise<{ s: TestServices; proxy: Awaited<ReturnType<typeof recordingNode>>; networkId: string }> {
  const proxy = await recordingNode(devnet);
  const s = testServices(devnet);
  const { id } = await s.networks.add({ name: 'Recorded node', jsonRpcUrl: `${proxy.url}/jsonrpc` });
  return { s, proxy, networkId: id };
}

const signedCalls = (calls: Rpc[]) => calls.filter((c) => (c.params?.transaction?.signatures?.length ?? 0) > 0);

describe('send behind the approval queue', () => {
  it('sends nothing signed before the approval: a rejected review leaves the node nothing it could broadcast', async () => {
    const devnet = await testDevnet();
    const { s, proxy, networkId } = await throughProxy(devnet);
    const [a, b] = devnet.accounts;
    const review = await s.send.prepare({ networkId, from: a!.address, to: b!.address, token: 'koin', amount: '7' });
    expect(signedCalls(proxy.calls())).toEqual([]);
    expect(proxy.calls().some((c) => c.method === 'chain.submit_transaction')).toBe(false);
    expect(review.estimateSource).toBe('default'); // nothing measured on this network yet: the review says it is an estimate

    s.person.decision = 'reject';
    expect((await expectWalletError(s.send.confirm(review.reviewId))).code).toBe('REJECTED');
    expect(s.person.seen).toHaveLength(1);
    expect(signedCalls(proxy.calls())).toEqual([]);
    expect(s.approvals.decisions().map((d) => d.decision)).toEqual(['rejected']);
    // The review is gone: a rejected request cannot be confirmed later by whoever holds its id.
    expect((await expectWalletError(s.send.confirm(review.reviewId))).code).toBe('NOT_FOUND');
  });

  it('shows the person the review built from the bytes, then sizes rc_limit under the approved cap with a dry run and sends once', async () => {
    const devnet = await testDevnet();
    const { s, proxy, networkId } = await throughProxy(devnet);
    const [a, b] = devnet.accounts;
    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    const koin = await s.tokens.resolve(networkId, 'koin');
    const before = await tokenBalance(node, koin, addressFromString(b!.address));

    const review = await s.send.prepare({ networkId, from: a!.address, to: b!.address, token: 'koin', amount: '1.5' });
    const receipt = await s.send.confirm(review.reviewId);
    const shown = s.person.seen[0]!.review;
    expect(shown).toMatchObject({
      kind: 'send',
      signer: a!.address,
      payer: a!.address,
      nonce: review.nonce,
      rcLimit: review.rcLimit,
      chainId: devnet.chainId,
    });
    expect(shown.operations[0]!.args).toMatchObject({ from: a!.address, to: b!.address, value: '150000000' });

    const submits = signedCalls(proxy.calls());
    expect(submits.map((c) => c.params.broadcast ?? false)).toEqual([false, true]); // the dry run after approval, then the send
    const cap = BigInt(review.rcLimit);
    expect(BigInt(submits[0]!.params.transaction!.header!.rc_limit!)).toBe(cap);
    const sent = BigInt(submits[1]!.params.transaction!.header!.rc_limit!);
    expect(sent).toBeLessThan(cap);
    expect(sent).toBe(BigInt(receipt.rcLimit));
    expect(BigInt(receipt.rcUsed)).toBeLessThanOrEqual(sent);
    await s.follower.waitFor(receipt.transactionId, ['included'], 10_000);
    expect(await tokenBalance(node, koin, addressFromString(b!.address))).toBe(before + 150_000_000n);

    // The next review's estimate is the cost just measured on this network.
    const next = await s.send.prepare({ networkId, from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    expect(next.estimateSource).toBe('measured');
  });

  it("signs nothing when the approval is refused for a flagged offline transaction (an upload over the signer's own address)", async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a] = devnet.accounts;
    const upload = transactionToBase64({
      id: new Uint8Array(),
      header: {
        chain_id: Buffer.from(devnet.chainId, 'base64url'),
        rc_limit: 100_000_000n,
        nonce: nonceToBytes(1n),
        operation_merkle_root: new Uint8Array(),
        payer: addressFromString(a!.address),
        payee: new Uint8Array(),
      },
      operations: [
        {
          upload_contract: {
            contract_id: addressFromString(a!.address),
            bytecode: Uint8Array.from([0, 97, 115, 109]),
            abi: '',
            authorizes_call_contract: true,
            authorizes_transaction_application: true,
            authorizes_upload_contract: true,
          },
        },
      ],
      signatures: [],
    });
    s.person.decision = 'reject';
    expect((await expectWalletError(s.offline.sign(upload, a!.address))).code).toBe('REJECTED');
    const shown = s.person.seen[0]!.review;
    expect(shown.kind).toBe('sign');
    expect(shown.risks.map((r) => r.code)).toEqual(expect.arrayContaining(['REPLACES_ACCOUNT', 'UPLOAD_CONTRACT']));

    s.person.decision = 'approve';
    const signed = await s.offline.sign(upload, a!.address);
    expect(signed.signers).toEqual([a!.address]);
    expect(signed.risks.map((r) => r.code)).toContain('REPLACES_ACCOUNT');
  });
});
