// REST under /v1 over real HTTP on port 0: every route with a success case and an error case asserting the status and
// body, the koinos-rest defaults (flags true unless "false", limit required), 8-decimal amounts and decoding.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startDevnet, type Devnet } from '../../src-main/devnet/startDevnet.ts';
import { addressFromPublicKey, addressToString, privateKeyFromHex, publicKeyFromPrivateKey } from '../../src-main/koinos/keys.ts';
import { KOIN_METHODS } from '../../src-main/koinos/koin.ts';
import { rest, rpc, transferJson } from './httpHelpers.ts';

const KOIN = 100_000_000n;
const INITIAL = 1_000_000n * KOIN;
const STRANGER = addressToString(addressFromPublicKey(publicKeyFromPrivateKey(privateKeyFromHex('22'.repeat(32)))));
const UNKNOWN_ID = `0x1220${'ab'.repeat(32)}`;

let devnet: Devnet;
let url: string;
let includedTx: string;
let includedBlock: string;
let includedHeight: string;
let pendingTx: string;

/** An address with a wrong checksum: the last character of a valid one changed. */
function corrupt(address: string): string {
  const last = address.at(-1)!;
  return address.slice(0, -1) + (last === '2' ? '3' : '2');
}

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, manual: true, accounts: 5, initialBalance: INITIAL, log: () => {} });
  url = devnet.url;
  includedTx = (await rpc(url, 'chain.submit_transaction', { transaction: transferJson(devnet, 0, 1, 5n * KOIN, 1n), broadcast: true })).receipt.id;
  ({ block_id: includedBlock, block_height: includedHeight } = await rpc(url, 'devnet.produce_block', {}));
  pendingTx = (await rpc(url, 'chain.submit_transaction', { transaction: transferJson(devnet, 3, 4, KOIN, 1n), broadcast: true })).receipt.id;
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
    const event = body.receipt.transaction_receipts[0].events.find((e: { name: string }) => e.name.endsWith('transfer_event'));
    expect(event.data).toEqual({ from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: (5n * KOIN).toString() });
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
    expect(await rest(url, `/v1/block/${UNKNOWN_ID}`)).toEqual({ status: 400, body: { error: 'block does not exist' } });
    expect(await rest(url, `/v1/block/${BigInt(includedHeight) + 100n}`)).toEqual({ status: 400, body: { error: 'block does not exist' } });
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
    expect(await rest(url, `/v1/account/${devnet.accounts[2]!.address}/mana`)).toEqual({ status: 200, body: { value: '1000000.00000000' } });
    expect(await rest(url, `/v1/account/${STRANGER}/mana`)).toEqual({ status: 200, body: { value: '0.00000000' } });
  });

  it('GET mana answers 400 "invalid account" for a bad address', async () => {
    expect(await rest(url, `/v1/account/${corrupt(devnet.accounts[2]!.address)}/mana`)).toEqual({ status: 400, body: { error: 'invalid account' } });
    expect(await rest(url, '/v1/account/not-an-address!/mana')).toEqual({ status: 400, body: { error: 'invalid account' } });
  });

  it('GET balance answers the token balance with 8 decimals, by contract address or by the system name "koin"', async () => {
    const expected = { status: 200, body: { value: '1000005.00000000' } };
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/balance/${devnet.koinAddress}`)).toEqual(expected);
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/balance/koin`)).toEqual(expected);
    expect(await rest(url, `/v1/account/${STRANGER}/balance/koin`)).toEqual({ status: 200, body: { value: '0.00000000' } });
  });

  it('GET balance answers 400 "invalid contract_id" and "invalid account" for bad addresses', async () => {
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/balance/${corrupt(devnet.koinAddress)}`)).toEqual({
      status: 400,
      body: { error: 'invalid contract_id' },
    });
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/balance/no_such_contract`)).toEqual({
      status: 400,
      body: { error: 'invalid contract_id' },
    });
    expect(await rest(url, `/v1/account/${corrupt(devnet.accounts[1]!.address)}/balance/koin`)).toEqual({
      status: 400,
      body: { error: 'invalid account' },
    });
  });

  it('GET nonce and next_nonce answer decimal strings, or the encoded value with decode_nonce=false', async () => {
    const account = devnet.accounts[0]!.address;
    expect(await rest(url, `/v1/account/${account}/nonce`)).toEqual({ status: 200, body: { value: '1' } });
    expect(await rest(url, `/v1/account/${account}/nonce?decode_nonce=false`)).toEqual({ status: 200, body: { value: 'KAE=' } });
    expect(await rest(url, `/v1/account/${account}/next_nonce`)).toEqual({ status: 200, body: { value: '2' } });
    expect(await rest(url, `/v1/account/${account}/next_nonce?decode_nonce=false`)).toEqual({ status: 200, body: { value: 'KAI=' } });
    expect(await rest(url, `/v1/account/${STRANGER}/next_nonce`)).toEqual({ status: 200, body: { value: '1' } });
  });

  it('GET nonce and next_nonce answer 400 "invalid account" for a bad address', async () => {
    for (const route of ['nonce', 'next_nonce']) {
      expect(await rest(url, `/v1/account/${corrupt(devnet.accounts[0]!.address)}/${route}`)).toEqual({ status: 400, body: { error: 'invalid account' } });
    }
  });

  it('GET rc answers the raw RC as JSON-RPC does (an empty object when 0)', async () => {
    expect(await rest(url, `/v1/account/${devnet.accounts[2]!.address}/rc`)).toEqual({ status: 200, body: { rc: INITIAL.toString() } });
    expect(await rest(url, `/v1/account/${STRANGER}/rc`)).toEqual({ status: 200, body: {} });
  });

  it('GET rc answers 400 "invalid account" for a bad address', async () => {
    expect(await rest(url, `/v1/account/${corrupt(devnet.accounts[2]!.address)}/rc`)).toEqual({ status: 400, body: { error: 'invalid account' } });
  });

  it('GET history answers an array of records with decoded operations and events', async () => {
    const { status, body } = await rest(url, `/v1/account/${devnet.accounts[1]!.address}/history?limit=10&irreversible=false`);
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
    const descending = (await rest(url, `/v1/account/${account}/history?limit=500&irreversible=false&ascending=false`)).body as any[];
    expect(descending).toEqual([...all].reverse());
    const page = (await rest(url, `/v1/account/${account}/history?limit=1&irreversible=false&sequence_number=${all.length - 1}`)).body as any[];
    expect(page).toEqual([all[all.length - 1]]);
    // Nothing is irreversible yet (the devnet keeps the last 60 blocks reversible, as mainnet does).
    expect((await rest(url, `/v1/account/${account}/history?limit=10`)).body).toEqual([]);
  });

  it('GET history answers 400 without limit, with a bad limit, or above 500', async () => {
    const account = devnet.accounts[1]!.address;
    expect(await rest(url, `/v1/account/${account}/history`)).toEqual({ status: 400, body: { error: "missing required field 'limit'" } });
    for (const limit of ['ten', '-1', '501']) {
      const { status, body } = await rest(url, `/v1/account/${account}/history?limit=${limit}`);
      expect(status, limit).toBe(400);
      expect(body.error).toMatch(/limit/);
    }
    expect(await rest(url, `/v1/account/${corrupt(account)}/history?limit=1`)).toEqual({ status: 400, body: { error: 'invalid account' } });
  });

  it('answers 404 for an unknown account route', async () => {
    expect(await rest(url, `/v1/account/${devnet.accounts[1]!.address}/secrets`)).toEqual({ status: 404, body: { error: 'not found' } });
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
    expect(body.receipt.events.find((e: { name: string }) => e.name.endsWith('transfer_event')).data.to).toBe(devnet.accounts[1]!.address);
  });

  it('GET /v1/transaction/{id} finds a pending transaction in the mempool', async () => {
    const { status, body } = await rest(url, `/v1/transaction/${pendingTx}`);
    expect(status).toBe(200);
    expect(body).toEqual({ transaction: expect.objectContaining({ id: pendingTx, operations: [decodedTransfer(3, 4, KOIN)] }), irreversible: false });
  });

  it('GET /v1/transaction/{id} answers 400 for an unknown or malformed id', async () => {
    expect(await rest(url, `/v1/transaction/${UNKNOWN_ID}`)).toEqual({ status: 400, body: { error: 'transaction does not exist' } });
    const { status, body } = await rest(url, '/v1/transaction/0xnothex');
    expect(status).toBe(400);
    expect(body.error).toMatch(/^invalid transaction id/);
  });

  it('POST /v1/transaction/submit?broadcast=false executes a signed transaction without changing state', async () => {
    const tx = transferJson(devnet, 2, 4, KOIN, 1n);
    const { status, body } = await rest(url, '/v1/transaction/submit?broadcast=false', { method: 'POST', body: JSON.stringify(tx) });
    expect(status).toBe(200);
    expect(body.receipt.id).toBe(tx.id);
    expect(body.transaction.id).toBe(tx.id);
    expect(await rest(url, `/v1/account/${devnet.accounts[2]!.address}/nonce`)).toEqual({ status: 200, body: { value: '0' } });
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
  });
});
