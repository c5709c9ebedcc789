// The JSON-RPC and REST clients against a real devnet over HTTP and against small servers that fail on purpose:
// every failure is a WalletError with a code a person can act on, reads are retried, submissions never are.
import { describe, expect, it } from 'vitest';
import { BTYPE, bytesToJson } from '../../../src-main/koinos/codec.ts';
import { JsonRpcClient } from '../../../src-main/wallet/chain/jsonRpcClient.ts';
import { KoinosNode } from '../../../src-main/wallet/chain/koinosNode.ts';
import { RestClient } from '../../../src-main/wallet/chain/restClient.ts';
import { redactUrl } from '../../../src-main/wallet/chain/redactUrl.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { deadUrl, testDevnet, testServer } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const SUBMIT = { id: '0x', header: {}, operations: [], signatures: [] };

describe('JsonRpcClient and KoinosNode against a devnet', () => {
  it('reads the chain ID, the head, nonce, mana and the KOIN address by system name', async () => {
    const devnet = await testDevnet();
    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    expect(bytesToJson(await node.chainId(), BTYPE.BASE64)).toBe(devnet.chainId);
    const head = await node.head();
    expect(head.height).toBeGreaterThanOrEqual(0n);
    const account = addressFromString(devnet.accounts[0]!.address);
    expect(await node.nonce(account)).toBe(0n);
    expect(await node.rc(account)).toBeGreaterThan(0n);
    expect(await node.pendingNonce(account)).toBeUndefined();
    const koin = await node.systemContract('koin');
    expect(koin && bytesToJson(koin, BTYPE.ADDRESS)).toBe(devnet.koinAddress);
    // The name service fails a missing name ("no record found for the name"), as on the networks: no such contract.
    expect(await node.systemContract('no-such-contract')).toBeUndefined();
  });

  it('reads the head and chain ID over REST when a REST address is configured', async () => {
    const devnet = await testDevnet();
    const node = new KoinosNode({ jsonRpc: { url: 'http://127.0.0.1:1/unused' }, rest: { url: devnet.url } });
    expect(bytesToJson(await node.chainId(), BTYPE.BASE64)).toBe(devnet.chainId);
    const viaRest = await node.head();
    const viaRpc = await new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } }).head();
    expect(viaRest).toEqual(viaRpc);
  });

  it('maps a node error to the code of the chain error it carries', async () => {
    const devnet = await testDevnet();
    const rpc = new JsonRpcClient({ url: `${devnet.url}/jsonrpc` });
    const unknown = await expectWalletError(rpc.call('chain.no_such_method', {}));
    expect(unknown.code).toBe('NODE_ERROR');
    expect(unknown.shortMessage).toContain('does not offer chain.no_such_method');
  });
});

describe('API keys', () => {
  it('sends the key as the apikey header (JSON-RPC) and X-API-KEY (REST); a wrong one is NODE_UNAUTHORIZED without the key in the text', async () => {
    const devnet = await testDevnet({ apiKey: 'right-key-123456' });
    const good = new KoinosNode({
      jsonRpc: { url: `${devnet.url}/jsonrpc`, apiKey: 'right-key-123456' },
      rest: { url: devnet.url, apiKey: 'right-key-123456' },
    });
    expect(bytesToJson(await good.chainId(), BTYPE.BASE64)).toBe(devnet.chainId);
    expect(await good.rc(addressFromString(devnet.accounts[0]!.address))).toBeGreaterThan(0n);

    const wrong = await expectWalletError(
      new JsonRpcClient({ url: `${devnet.url}/jsonrpc`, apiKey: 'wrong-key-654321' }).call('chain.get_chain_id', {}),
    );
    expect(wrong.code).toBe('NODE_UNAUTHORIZED');
    expect(wrong.message).not.toContain('wrong-key-654321');
    const missing = await expectWalletError(
      new JsonRpcClient({ url: `${devnet.url}/jsonrpc` }).call('chain.get_chain_id', {}),
    );
    expect(missing.code).toBe('NODE_UNAUTHORIZED');
    expect(missing.shortMessage).toContain('requires an API key');
    const rest = await expectWalletError(
      new RestClient({ url: devnet.url, apiKey: 'wrong-key-654321' }).get('/v1/chain/id'),
    );
    expect(rest.code).toBe('NODE_UNAUTHORIZED');
  });
});

describe('failures of the transport', () => {
  it('a node that is down is NODE_UNREACHABLE, after retrying a read', async () => {
    const url = await deadUrl();
    const error = await expectWalletError(new JsonRpcClient({ url }).call('chain.get_chain_id', {}));
    expect(error.code).toBe('NODE_UNREACHABLE');
    expect(error.shortMessage).toContain(url.replace(/\/$/, ''));
  });

  it('retries a read whose connection was dropped, but sends a submission exactly once', async () => {
    const server = await testServer((_req, res, _body, index) => {
      if (index === 0 || index === 2) {
        res.socket?.destroy();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(_body).id, result: { chain_id: 'EiA' } }));
    });
    const rpc = new JsonRpcClient({ url: server.url });
    expect(await rpc.call('chain.get_chain_id', {})).toEqual({ chain_id: 'EiA' });
    expect(server.requests).toHaveLength(2);
    const write = await expectWalletError(
      rpc.call('chain.submit_transaction', { transaction: SUBMIT, broadcast: true }, 'write'),
    );
    expect(write.code).toBe('NODE_UNREACHABLE');
    expect(server.requests).toHaveLength(3);
  });

  it('a node that stalls is NODE_TIMEOUT, and a stalled submission is not sent again', async () => {
    const server = await testServer(() => {}); // never answers
    const rpc = new JsonRpcClient({ url: server.url, timeoutMs: 200 });
    expect((await expectWalletError(rpc.call('chain.get_chain_id', {}))).code).toBe('NODE_TIMEOUT');
    const write = await expectWalletError(
      rpc.call('chain.submit_transaction', { transaction: SUBMIT, broadcast: true }, 'write'),
    );
    expect(write.code).toBe('NODE_TIMEOUT');
    expect(write.shortMessage).toContain('may or may not have reached it');
    expect(server.requests).toHaveLength(2);
  });

  it('HTTP 500 is NODE_ERROR and malformed JSON is NODE_MALFORMED_ANSWER, each sent once', async () => {
    const failing = await testServer((_req, res) => {
      res.statusCode = 500;
      res.end('<html>Internal Server Error</html>');
    });
    const e500 = await expectWalletError(
      new JsonRpcClient({ url: failing.url }).call('chain.submit_transaction', {}, 'write'),
    );
    expect(e500.code).toBe('NODE_ERROR');
    expect(e500.shortMessage).toContain('HTTP 500');
    expect(failing.requests).toHaveLength(1);

    const garbage = await testServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"jsonrpc":"2.0","result":{');
    });
    const bad = await expectWalletError(new JsonRpcClient({ url: garbage.url }).call('chain.get_chain_id', {}));
    expect(bad.code).toBe('NODE_MALFORMED_ANSWER');
    expect(garbage.requests).toHaveLength(1);

    const wrongShape = await testServer((_req, res, body) => {
      res.end(
        JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, result: { head_topology: { height: 'tall' } } }),
      );
    });
    const shape = await expectWalletError(new KoinosNode({ jsonRpc: { url: wrongShape.url } }).head());
    expect(shape.code).toBe('NODE_MALFORMED_ANSWER');
    expect(shape.details).toContain('height');
  });

  it('never shows credentials of a URL in an error', async () => {
    const url = await deadUrl();
    const withSecrets = url.replace('http://', 'http://alice:hunter2@') + '/jsonrpc?apikey=topsecret';
    const error = await expectWalletError(new JsonRpcClient({ url: withSecrets }).call('chain.get_chain_id', {}));
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('alice');
    expect(error.message).not.toContain('topsecret');
    expect(redactUrl('https://a:b@x.io/p?apikey=k&x=1')).toBe('https://x.io/p?apikey=%5Bredacted%5D&x=1');
  });
});
