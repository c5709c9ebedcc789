// REST under /v1 over real HTTP on port 0: every route with a success case and an error case asserting the status and
// body, the koinos-rest defaults (flags true unless "false", limit required), 8-decimal amounts and decoding.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { nodeBackend } from '../../src-main/devnet/server/backend.ts';
import { createHttpServer } from '../../src-main/devnet/server/httpServer.ts';
import type { NodeMethod } from '../../src-main/devnet/methods.ts';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { ChainError } from '../../src-main/devnet/state/chainError.ts';
import { addressFromPublicKey, addressToString } from '../../src-main/koinos/address.ts';
import { privateKeyFromHex, publicKeyFromPrivateKey } from '../../src-main/koinos/keys.ts';
import { KOIN_METHODS } from '../../src-main/koinos/koin.ts';
import { corruptAddress, expectAddressError, invalidAddresses, rest, rpc, transferJson } from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';

const INITIAL = 1_000_000n * KOIN;
const STRANGER = addressToString(addressFromPublicKey(publicKeyFromPrivateKey(privateKeyFromHex('22'.repeat(32)))));
const UNKNOWN_ID = `0x1220${'ab'.repeat(32)}`;
const UINT64_MAX = ((1n << 64n) - 1n).toString();

let devnet: Devnet;
let url: string;
let includedTx: string;
let includedBlock: string;
let includedHeight: string;
let pendingTx: string;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, manual: true, accounts: 5, initialBalance: INITIAL, log: () => {} });
  url = devnet.url;
  includedTx = (
    await rpc(url, 'chain.submit_transaction', {
      transaction: transferJson(devnet, 0, 1, 5n * KOIN, 1n),
      broadcast: true,
    })
  ).receipt.id;
  ({ block_id: includedBlock, block_height: includedHeight } = await rpc(url, 'devnet.produce_block', {}));
  pendingTx = (
    await rpc(url, 'chain.submit_transaction', { transaction: transferJson(devnet, 3, 4, KOIN, 1n), broadcast: true })
  ).receipt.id;
});

afterAll(async () => {
  await devnet?.stop();
});

/** The decoded transfer operation as koinos-rest shows it. */
function decodedTransfer(from: number, to: number, value: bigint): unknown {
  return {
    call_contract: {
      contract_id: devnet.koinAddress,
      entry_point: 'transfer',
      args: { from: devnet.accounts[from]!.address, to: devnet.accounts[to]!.address, value: value.toString() },
    },
  };
}

describe('REST /v1/chain', () => {
  it('GET /v1/chain/head_info answers the JSON-RPC head info', async () => {
    const { status, body } = await rest(url, '/v1/chain/head_info');
    expect(status).toBe(200);
    expect(body).toEqual(await rpc(url, 'chain.get_head_info'));
    expect(body.head_topology).toMatchObject({ id: includedBlock, height: includedHeight });
  });

  it('GET /v1/chain/id answers {value: chain id}', async () => {
    expect(await rest(url, '/v1/chain/id')).toEqual({ status: 200, body: { value: devnet.chainId } });
  });

  it('GET /v1/chain/resource_limits answers the JSON-RPC resource limits', async () => {
    const { status, body } = await rest(url, '/v1/chain/resource_limits');
    expect(status).toBe(200);
    expect(body).toEqual(await rpc(url, 'chain.get_resource_limits'));
    expect(body.resource_limit_data.compute_bandwidth_cost).toMatch(/^\d+$/);
  });

  it('GET /v1/chain/fork_heads answers the JSON-RPC fork heads', async () => {
    const { status, body } = await rest(url, '/v1/chain/fork_heads');
    expect(status).toBe(200);
    expect(body.fork_heads[0]).toMatchObject({ id: includedBlock, height: includedHeight });
  });

  it('answers 405 for a chain route called with POST, and 404 for an unknown one', async () => {
    for (const route of ['head_info', 'id', 'resource_limits', 'fork_heads']) {
      const { status, body } = await rest(url, `/v1/chain/${route}`, { method: 'POST', body: '{}' });
      expect(status, route).toBe(405);
      expect(body.error).toMatch(/GET/);
    }
    expect(await rest(url, '/v1/chain/everything')).toEqual({ status: 404, body: { error: 'not found' } });
  });
});

describe('REST /v1/chain errors', () => {
  /** Each chain route and the node method behind it. */
  const CHAIN_ROUTES: [string, string][] = [
    ['head_info', 'chain.get_head_info'],
    ['id', 'chain.get_chain_id'],
    ['resource_limits', 'chain.get_resource_limits'],
    ['fork_heads', 'chain.get_fork_heads'],
  ];

  it('answers 405 with the allowed methods for PUT, DELETE and PATCH on every chain route', async () => {
    for (const [route] of CHAIN_ROUTES) {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        const response = await fetch(`${url}/v1/chain/${route}`, {
          method,
          body: method === 'DELETE' ? undefined : '{}',
        });
        expect(response.status, `${method} ${route}`).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, OPTIONS');
        expect(await response.json()).toEqual({ error: `method ${method} not allowed here; use GET` });
      }
    }
  });

  it('answers 404 for a chain route with an extra or a missing path segment', async () => {
    for (const [route] of CHAIN_ROUTES) {
      expect(await rest(url, `/v1/chain/${route}/extra`), route).toEqual({ status: 404, body: { error: 'not found' } });
    }
    expect(await rest(url, '/v1/chain')).toEqual({ status: 404, body: { error: 'not found' } });
    expect(await rest(url, '/v1/chain/')).toEqual({ status: 404, body: { error: 'not found' } });
  });

  it('ignores query parameters the chain routes do not take', async () => {
    for (const [route] of CHAIN_ROUTES) {
      const plain = await rest(url, `/v1/chain/${route}`);
      expect(plain.status).toBe(200);
      expect(await rest(url, `/v1/chain/${route}?limit=x&return_block=false&apikey=junk&%ZZ=1`), route).toEqual(plain);
    }
  });

  it('answers 401 on every chain route without the X-API-KEY header when a key is required, and runs nothing', async () => {
    const keyed = await startDevnet({ port: 0, manual: true, accounts: 1, apiKey: 'chain-routes-key', log: () => {} });
    try {
      for (const [route] of CHAIN_ROUTES) {
        const expected = { status: 401, body: { error: 'a valid API key is required: header "X-API-KEY"' } };
        expect(await rest(keyed.url, `/v1/chain/${route}`), route).toEqual(expected);
        // The JSON-RPC ways of giving the key do not open the REST routes.
        expect(
          await rest(keyed.url, `/v1/chain/${route}?apikey=chain-routes-key`, {
            headers: { apikey: 'chain-routes-key' },
          }),
        ).toEqual(expected);
        expect(
          (await rest(keyed.url, `/v1/chain/${route}`, { headers: { 'X-API-KEY': 'chain-routes-key' } })).status,
        ).toBe(200);
      }
    } finally {
      await keyed.stop();
    }
  });

  /** An HTTP server on port 0 over the test chain whose node fails `method` with `error`. */
  async function serveFailing(
    method: string,
    error: Error,
    log: string[],
  ): Promise<{ url: string; close: () => Promise<void> }> {
    const base = devnet.node;
    const node: DevnetNode = Object.create(base, {
      call: {
        value: (m: string, request: Record<string, unknown>) =>
          m === method ? Promise.reject(error) : base.call(m as NodeMethod, request),
      },
    });
    const record = (line: string) => log.push(line);
    const { server } = createHttpServer(nodeBackend(node, record), { log: record });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it("answers 400 with the node's message when the node rejects the request behind a chain route", async () => {
    for (const [route, method] of CHAIN_ROUTES) {
      const log: string[] = [];
      const server = await serveFailing(method, new ChainError(-1, `${method} is unavailable`), log);
      try {
        expect(await rest(server.url, `/v1/chain/${route}`), route).toEqual({
          status: 400,
          body: { error: `${method} is unavailable` },
        });
        expect(log).toEqual([]);
      } finally {
        await server.close();
      }
    }
  });

  it('answers 500 "unknown error" without details when a chain route fails unexpectedly, and logs the cause', async () => {
    for (const [route, method] of CHAIN_ROUTES) {
      const log: string[] = [];
      const server = await serveFailing(method, new TypeError('secret internals at /home/dev'), log);
      try {
        expect(await rest(server.url, `/v1/chain/${route}`), route).toEqual({
          status: 500,
          body: { error: 'unknown error' },
        });
        expect(log).toHaveLength(1);
        expect(log[0]).toMatch(
          new RegExp(`^rest GET /v1/chain/${route} failed: TypeError: secret internals at /home/dev`),
        );
      } finally {
        await server.close();
      }
    }
  });
});

describe('REST /v1/block/{block_id_or_height}', () => {
  it('finds a block by id with block, receipt, decoded operations and decoded events by default', async () => {
    const { status, body } = await rest(url, `/v1/block/${includedBlock}`);
    expect(status).toBe(200);
    expect(body.block_id).toBe(includedBlock);
    expect(body.block_height).toBe(includedHeight);
    expect(body.block.header.height).toBe(includedHeight);
    expect(body.block.header.signer).toBe(devnet.node.genesisAddress);
    expect(body.block.transactions[0].id).toBe(includedTx);
    expect(body.block.transactions[0].operations).toEqual([decodedTransfer(0, 1, 5n * KOIN)]);
    const event = body.receipt.transaction_receipts[0].events.find((e: { name: string }) =>
      e.name.endsWith('transfer_event'),
    );
    expect(event.data).toEqual({
      from: devnet.accounts[0]!.address,
      to: devnet.accounts[1]!.address,
      value: (5n * KOIN).toString(),
    });
    expect(event.impacted).toEqual(expect.arrayContaining([devnet.accounts[0]!.address, devnet.accounts[1]!.address]));
  });

  it('finds the same block by height', async () => {
    const byHeight = await rest(url, `/v1/block/${includedHeight}`);
    const byId = await rest(url, `/v1/block/${includedBlock}`);
    expect(byHeight.status).toBe(200);
    expect(byHeight.body).toEqual(byId.body);
  });

  it('leaves operations and events encoded, and block or receipt out, only for the literal "false"', async () => {
    const { body } = await rest(url, `/v1/block/${includedBlock}?decode_operations=false&decode_events=false`);
    const op = body.block.transactions[0].operations[0].call_contract;
    expect(op.entry_point).toBe(KOIN_METHODS.transfer.entryPoint);
    expect(op.args).toMatch(/^[A-Za-z0-9_-]+=*$/);
    const event = body.receipt.transaction_receipts[0].events[0];
    expect(event.data).toBeTypeOf('string');

    expect((await rest(url, `/v1/block/${includedBlock}?return_block=false`)).body.block).toBeUndefined();
    expect((await rest(url, `/v1/block/${includedBlock}?return_receipt=false`)).body.receipt).toBeUndefined();
    // Anything but "false" is true, as in koinos-rest.
    const loose = await rest(url, `/v1/block/${includedBlock}?return_block=0&decode_operations=no`);
    expect(loose.body.block.transactions[0].operations[0].call_contract.entry_point).toBe('transfer');
  });

  it('answers 400 "block does not exist" for an unknown id or a height above the head', async () => {
    expect(await rest(url, `/v1/block/${UNKNOWN_ID}`)).toEqual({
      status: 400,
      body: { error: 'block does not exist' },
    });
    expect(await rest(url, `/v1/block/${BigInt(includedHeight) + 100n}`)).toEqual({
      status: 400,
      body: { error: 'block does not exist' },
    });
  });

  it('answers 400 naming the block height for a height beyond 2^64-1 or 0, and "block does not exist" up to 2^64-1', async () => {
    for (const ref of ['18446744073709551616', '99999999999999999999', '1'.padEnd(40, '0')]) {
      expect(await rest(url, `/v1/block/${ref}`), ref).toEqual({
        status: 400,
        body: { error: `invalid block height: expected a whole number up to ${UINT64_MAX}, got "${ref}"` },
      });
    }
    expect(await rest(url, `/v1/block/${UINT64_MAX}`)).toEqual({
      status: 400,
      body: { error: 'block does not exist' },
    });
    expect(await rest(url, '/v1/block/0')).toEqual({
      status: 400,
      body: { error: 'invalid block height: blocks start at height 1, got "0"' },
    });
    // Leading zeros are still the same height.
    expect((await rest(url, `/v1/block/000${includedHeight}`)).body.block_id).toBe(includedBlock);
  });

  it('answers 400 for a block reference that is neither an id nor a height', async () => {
    for (const ref of ['0xzz', 'latest', '-1', '0x123']) {
      const { status, body } = await rest(url, `/v1/block/${ref}`);
      expect(status, ref).toBe(400);
      expect(body.error).toMatch(/^invalid block id/);
    }
  });
});

describe('REST /v1/account/{account}/...', () => {
  it('GET mana answers the account RC with 8 decimals', async () => {
    expect(await rest(url, `/v1/account/${devnet.accounts[2]!.address}/mana`)).toEqual({
      status: 200,
      body: { value: '1000000.00000000' },
    });
    expect(await rest(url, `/v1/account/${STRANGER}/mana`)).toEqual({ status: 200, body: { value: '0.00000000' } });
  });

  it('GET mana answers 400 "invalid account" for a bad address', async () => {
    expect(await rest(url, `/v1/account/${corruptAddress(devnet.accounts[2]!.address)}/mana`)).toEqual({
      status: 400,
      body: { error: 'invalid account' },
    });
    expect(await rest(url, '/v1/account/not-an-address!/mana')).toEqual({
      status: 400,
      body: { error: 'invalid account' },
    });
  });

  it('GET balance answers the token balance with 8 decimals, by contract address or by the system name "koin"', async () => {
    const expected = { status: 200, body: { value: '1000005.00000000' } };
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/balance/${devnet.koinAddress}`)).toEqual(
      expected,
    );
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/balance/koin`)).toEqual(expected);
    expect(await rest(url, `/v1/account/${STRANGER}/balance/koin`)).toEqual({
      status: 200,
      body: { value: '0.00000000' },
    });
  });

  it('GET balance answers 400 "invalid contract_id" and "invalid account" for bad addresses', async () => {
    expect(
      await rest(url, `/v1/account/${devnet.accounts[1]!.address}/balance/${corruptAddress(devnet.koinAddress)}`),
    ).toEqual({
      status: 400,
      body: { error: 'invalid contract_id' },
    });
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/balance/no_such_contract`)).toEqual({
      status: 400,
      body: { error: 'invalid contract_id' },
    });
    expect(await rest(url, `/v1/account/${corruptAddress(devnet.accounts[1]!.address)}/balance/koin`)).toEqual({
      status: 400,
      body: { error: 'invalid account' },
    });
  });

  it('GET nonce answers a number and next_nonce a decimal string (as koinos-rest), or the encoded value with decode_nonce=false', async () => {
    const account = devnet.accounts[0]!.address;
    expect(await rest(url, `/v1/account/${account}/nonce`)).toEqual({ status: 200, body: { value: 1 } });
    expect(await rest(url, `/v1/account/${account}/nonce?decode_nonce=false`)).toEqual({
      status: 200,
      body: { value: 'KAE=' },
    });
    expect(await rest(url, `/v1/account/${account}/next_nonce`)).toEqual({ status: 200, body: { value: '2' } });
    expect(await rest(url, `/v1/account/${account}/next_nonce?decode_nonce=false`)).toEqual({
      status: 200,
      body: { value: 'KAI=' },
    });
    expect(await rest(url, `/v1/account/${STRANGER}/next_nonce`)).toEqual({ status: 200, body: { value: '1' } });
  });

  it('GET nonce and next_nonce answer 400 "invalid account" for a bad address', async () => {
    for (const route of ['nonce', 'next_nonce']) {
      expect(await rest(url, `/v1/account/${corruptAddress(devnet.accounts[0]!.address)}/${route}`)).toEqual({
        status: 400,
        body: { error: 'invalid account' },
      });
    }
  });

  it('GET rc answers the raw RC as JSON-RPC does (an empty object when 0)', async () => {
    expect(await rest(url, `/v1/account/${devnet.accounts[2]!.address}/rc`)).toEqual({
      status: 200,
      body: { rc: INITIAL.toString() },
    });
    expect(await rest(url, `/v1/account/${STRANGER}/rc`)).toEqual({ status: 200, body: {} });
  });

  it('GET rc answers 400 "invalid account" for a bad address', async () => {
    expect(await rest(url, `/v1/account/${corruptAddress(devnet.accounts[2]!.address)}/rc`)).toEqual({
      status: 400,
      body: { error: 'invalid account' },
    });
  });

  it('GET history answers an array of records with decoded operations and events', async () => {
    const { status, body } = await rest(
      url,
      `/v1/account/${devnet.accounts[1]!.address}/history?limit=10&irreversible=false`,
    );
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    const record = body.find((r: any) => r.trx?.transaction.id === includedTx);
    expect(record.trx.transaction.operations).toEqual([decodedTransfer(0, 1, 5n * KOIN)]);
    const event = record.trx.receipt.events.find((e: { name: string }) => e.name.endsWith('transfer_event'));
    expect(event.data.value).toBe((5n * KOIN).toString());
    // The sender has the same transaction in its own history.
    const sender = await rest(url, `/v1/account/${devnet.accounts[0]!.address}/history?limit=10&irreversible=false`);
    expect(sender.body.map((r: any) => r.trx?.transaction.id)).toContain(includedTx);
  });

  it('GET history honours order, offset and the irreversible default (true)', async () => {
    const account = devnet.accounts[1]!.address;
    const all = (await rest(url, `/v1/account/${account}/history?limit=500&irreversible=false`)).body as any[];
    expect(all.length).toBeGreaterThan(0);
    const descending = (await rest(url, `/v1/account/${account}/history?limit=500&irreversible=false&ascending=false`))
      .body as any[];
    expect(descending).toEqual([...all].reverse());
    const page = (
      await rest(url, `/v1/account/${account}/history?limit=1&irreversible=false&sequence_number=${all.length - 1}`)
    ).body as any[];
    expect(page).toEqual([all[all.length - 1]]);
    // Nothing is irreversible yet (the devnet keeps the last 60 blocks reversible, as mainnet does).
    expect((await rest(url, `/v1/account/${account}/history?limit=10`)).body).toEqual([]);
  });

  it('GET history answers 400 without limit, with a bad limit, or above 500', async () => {
    const account = devnet.accounts[1]!.address;
    expect(await rest(url, `/v1/account/${account}/history`)).toEqual({
      status: 400,
      body: { error: "missing required field 'limit'" },
    });
    for (const limit of ['ten', '-1', '1.5', '0x10', '501', '18446744073709551616', '99999999999999999999']) {
      expect(await rest(url, `/v1/account/${account}/history?limit=${limit}`), limit).toEqual({
        status: 400,
        body: { error: `invalid limit: expected a whole number up to 500, got "${limit}"` },
      });
    }
    expect(await rest(url, `/v1/account/${corruptAddress(account)}/history?limit=1`)).toEqual({
      status: 400,
      body: { error: 'invalid account' },
    });
  });

  it('GET history answers 400 naming sequence_number when it is negative, not decimal, or beyond 2^64-1', async () => {
    const account = devnet.accounts[1]!.address;
    for (const seq of ['-3', 'x', '1e3', '18446744073709551616', '99999999999999999999']) {
      expect(
        await rest(url, `/v1/account/${account}/history?limit=5&sequence_number=${encodeURIComponent(seq)}`),
        seq,
      ).toEqual({
        status: 400,
        body: { error: `invalid sequence_number: expected a whole number up to ${UINT64_MAX}, got "${seq}"` },
      });
    }
    // The largest one is a valid offset past every record.
    expect(
      await rest(url, `/v1/account/${account}/history?limit=5&irreversible=false&sequence_number=${UINT64_MAX}`),
    ).toEqual({ status: 200, body: [] });
  });

  it('GET history answers an empty array (not {}) for an account without records', async () => {
    expect(await rest(url, `/v1/account/${STRANGER}/history?limit=10&irreversible=false`)).toEqual({
      status: 200,
      body: [],
    });
  });

  it('answers 404 for an unknown account route', async () => {
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/secrets`)).toEqual({
      status: 404,
      body: { error: 'not found' },
    });
  });
});

describe('REST /v1/transaction', () => {
  it('GET /v1/transaction/{id} finds an included transaction with its block, receipt and decoded content', async () => {
    const { status, body } = await rest(url, `/v1/transaction/${includedTx}`);
    expect(status).toBe(200);
    expect(body.transaction.id).toBe(includedTx);
    expect(body.transaction.operations).toEqual([decodedTransfer(0, 1, 5n * KOIN)]);
    expect(body.transaction.timestamp).toMatch(/^\d+$/);
    expect(body.containing_blocks).toEqual([includedBlock]);
    expect(body.irreversible).toBe(false);
    expect(body.receipt.id).toBe(includedTx);
    expect(body.receipt.events.find((e: { name: string }) => e.name.endsWith('transfer_event')).data.to).toBe(
      devnet.accounts[1]!.address,
    );
  });

  it('GET /v1/transaction/{id} finds a pending transaction in the mempool', async () => {
    const { status, body } = await rest(url, `/v1/transaction/${pendingTx}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      transaction: expect.objectContaining({ id: pendingTx, operations: [decodedTransfer(3, 4, KOIN)] }),
      irreversible: false,
    });
  });

  it('GET /v1/transaction/{id} answers 400 for an unknown or malformed id', async () => {
    expect(await rest(url, `/v1/transaction/${UNKNOWN_ID}`)).toEqual({
      status: 400,
      body: { error: 'transaction does not exist' },
    });
    const { status, body } = await rest(url, '/v1/transaction/0xnothex');
    expect(status).toBe(400);
    expect(body.error).toMatch(/^invalid transaction id/);
  });

  it('POST /v1/transaction/submit?broadcast=false executes a signed transaction without changing state', async () => {
    const tx = transferJson(devnet, 2, 4, KOIN, 1n);
    const { status, body } = await rest(url, '/v1/transaction/submit?broadcast=false', {
      method: 'POST',
      body: JSON.stringify(tx),
    });
    expect(status).toBe(200);
    expect(body.receipt.id).toBe(tx.id);
    expect(body.transaction.id).toBe(tx.id);
    expect(await rest(url, `/v1/account/${devnet.accounts[2]!.address}/nonce`)).toEqual({
      status: 200,
      body: { value: 0 },
    });
  });

  it('POST /v1/transaction/submit answers 400 with the node message for a rejected transaction or a bad body', async () => {
    const reused = transferJson(devnet, 0, 2, KOIN, 1n);
    const rejected = await rest(url, '/v1/transaction/submit', { method: 'POST', body: JSON.stringify(reused) });
    expect(rejected.status).toBe(400);
    expect(rejected.body.error).toMatch(/nonce/);
    for (const body of ['{not json', '[1,2]', '{"header": 5}']) {
      const bad = await rest(url, '/v1/transaction/submit', { method: 'POST', body });
      expect(bad.status, body).toBe(400);
      expect(bad.body.error).toBeTypeOf('string');
    }
    // The field path is the transaction's own, without the names of internal request messages.
    expect(await rest(url, '/v1/transaction/submit', { method: 'POST', body: '{"header": 5}' })).toEqual({
      status: 400,
      body: { error: 'invalid transaction: header: expected a JSON object, got number 5' },
    });
  });

  it('POST /v1/transaction/submit answers 400 naming the field for an invalid payer or payee, and changes nothing', async () => {
    const tx = transferJson(devnet, 2, 4, KOIN, 1n) as any;
    for (const { text, reason } of invalidAddresses(devnet.accounts[2]!.address)) {
      for (const field of ['payer', 'payee']) {
        const { status, body } = await rest(url, '/v1/transaction/submit', {
          method: 'POST',
          body: JSON.stringify({ ...tx, header: { ...tx.header, [field]: text } }),
        });
        expect(status).toBe(400);
        expectAddressError(body.error, 'invalid transaction: ', `header.${field}`, text, reason);
      }
    }
    expect(await rest(url, `/v1/account/${devnet.accounts[2]!.address}/nonce`)).toEqual({
      status: 200,
      body: { value: 0 },
    });
  });
});
