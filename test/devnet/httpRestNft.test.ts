// REST /v1/nft/{contract}/… over real HTTP on port 0 against a KCS-5 collection (the @koinosbox/contracts NFT,
// uploaded with koilib): the reads as koinos-rest answers them, and the transaction-preparing routes, whose operations
// are signed and submitted to show they act on the collection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, Provider, Signer } from 'koilib';
import { fromBase64 } from '../../src-main/koinos/bytes.ts';
import { fromJson } from '../../src-main/koinos/codec.ts';
import { parseAbi } from '../../src-main/koinos/contractAbi.ts';
import { KCS5_ABI } from '../../src-main/devnet/contracts/abi/systemAbis.ts';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { uploadKoinosbox } from '../wallet/chain/wasmToken.ts';
import { write } from './koilibContract.ts';
import { rest, rpc, signedOperationsJson } from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';

const SEED = 'koinos-wallet rest nft collection key';
const WAIT_MS = 60_000;
const kcs5 = parseAbi(KCS5_ABI);
let devnet: Devnet;
let url: string;
let nft: string;
const address = (i: number) => devnet.accounts[i]!.address;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockTimeMs: 0, accounts: 3, initialBalance: 1000n * KOIN, log: () => {} });
  url = devnet.url;
  nft = (await uploadKoinosbox(`${url}/jsonrpc`, devnet.koinAddress, devnet.accounts[0]!, SEED, 'nft')).address;
  const provider = new Provider([`${url}/jsonrpc`]);
  const signer = Object.assign(Signer.fromSeed(SEED), { provider });
  const abi = JSON.parse(
    readFileSync(
      join(import.meta.dirname, '../../node_modules/@koinosbox/contracts/assembly/nft/nft-abi.json'),
      'utf8',
    ),
  );
  const collection = new Contract({ id: nft, abi, provider, signer });
  for (const [name, args] of [
    ['mint', { to: address(1), token_id: '0x31' }],
    ['set_metadata', { token_id: '0x31', metadata: '{"name":"one"}' }],
    // Deep enough that writing it back as JSON overflows the stack.
    ['set_metadata', { token_id: '0x33', metadata: `${'['.repeat(20_000)}${']'.repeat(20_000)}` }],
  ] as const) {
    await write(collection, name, args);
  }
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

/** Signs `operation` (REST JSON) by account `from` and submits it; resolves once its block is made. */
async function submit(from: number, operation: unknown): Promise<any> {
  const transaction = await signedOperationsJson(devnet, from, [fromJson('koinos.protocol.operation', operation)]);
  return (await rpc(url, 'chain.submit_transaction', { transaction, broadcast: true })).receipt;
}

function decodeOperation(body: any): { name: string; args: unknown } {
  const m = kcs5.methodByEntryPoint(body.call_contract.entry_point)!;
  return { name: m.name, args: kcs5.decodeArguments(m, fromBase64(body.call_contract.args)) };
}

describe('REST /v1/nft reads', () => {
  it('answers the collection: name, symbol, owner, total supply, info, empty uri and royalties', async () => {
    expect(await rest(url, `/v1/nft/${nft}/name`)).toEqual({ status: 200, body: { value: 'My NFT' } });
    expect((await rest(url, `/v1/nft/${nft}/symbol`)).body).toEqual({ value: 'NFT' });
    expect((await rest(url, `/v1/nft/${nft}/owner`)).body).toEqual({ value: nft });
    expect((await rest(url, `/v1/nft/${nft}/total_supply`)).body).toEqual({ value: '1' });
    // The koinosbox collection has no get_info: the one-value reads, without an empty uri (koilib drops "").
    expect((await rest(url, `/v1/nft/${nft}/info`)).body).toEqual({ name: 'My NFT', symbol: 'NFT', total_supply: '1' });
    expect((await rest(url, `/v1/nft/${nft}/uri`)).body).toEqual({});
    expect((await rest(url, `/v1/nft/${nft}/royalties`)).body).toEqual({ value: [] });
  });

  it('answers balances, owners, token lists, metadata and approvals of tokens', async () => {
    expect((await rest(url, `/v1/nft/${nft}/balance/${address(1)}`)).body).toEqual({ value: '1' });
    expect((await rest(url, `/v1/nft/${nft}/balance/${address(2)}`)).body).toEqual({ value: '0' });
    expect((await rest(url, `/v1/nft/${nft}/0x31/owner`)).body).toEqual({ value: address(1) });
    expect((await rest(url, `/v1/nft/${nft}/tokens?limit=10`)).body).toEqual({ values: ['0x31'] });
    expect((await rest(url, `/v1/nft/${nft}/owner/${address(1)}?limit=10`)).body).toEqual({ values: ['0x31'] });
    expect((await rest(url, `/v1/nft/${nft}/0x31/metadata`)).body).toEqual({ name: 'one' });
    expect((await rest(url, `/v1/nft/${nft}/0x32/metadata`)).body).toEqual({});
    expect(await rest(url, `/v1/nft/${nft}/0x33/metadata`)).toEqual({
      status: 400,
      body: { error: 'the metadata of token 0x33 nests deeper than 64 levels' },
    });
    expect((await rest(url, `/v1/nft/${nft}/0x31/approved?limit=1`)).body).toEqual({ value: [] });
    expect((await rest(url, `/v1/nft/${nft}/approved_for_all/${address(1)}/${address(2)}`)).body).toEqual({
      value: false,
    });
  });

  it('answers 400 for a missing limit, a bad token id and a bad account', async () => {
    expect(await rest(url, `/v1/nft/${nft}/tokens`)).toEqual({
      status: 400,
      body: { error: "missing required field 'limit'" },
    });
    expect(await rest(url, `/v1/nft/${nft}/31/owner`)).toEqual({
      status: 400,
      body: { error: 'invalid token_id: expected "0x" followed by hex, got "31"' },
    });
    expect(await rest(url, `/v1/nft/${nft}/balance/nobody`)).toEqual({
      status: 400,
      body: { error: 'invalid account' },
    });
    expect(await rest(url, '/v1/nft/nothing-here/name')).toEqual({
      status: 400,
      body: { error: 'invalid contract_id' },
    });
  });
});

describe('REST /v1/nft transaction-preparing routes', () => {
  it('GET {token}/transfer answers a KCS-5 transfer from the token’s owner, which moves the token', async () => {
    const { status, body } = await rest(url, `/v1/nft/${nft}/0x31/transfer?to=${address(2)}&memo=gift`);
    expect(status).toBe(200);
    expect(body.call_contract.contract_id).toBe(nft);
    expect(decodeOperation(body)).toEqual({
      name: 'transfer',
      args: { from: address(1), to: address(2), token_id: '0x31', memo: 'gift' },
    });
    const receipt = await submit(1, body);
    expect(receipt.events.map((e: { name: string }) => e.name)).toEqual(['collections.transfer_event']);
    await expect
      .poll(async () => (await rest(url, `/v1/nft/${nft}/0x31/owner`)).body, { timeout: WAIT_MS })
      .toEqual({ value: address(2) });
  });

  it('GET {token}/approve and approve_for_all answer approvals the collection then reports', async () => {
    const approve = (await rest(url, `/v1/nft/${nft}/0x31/approve?operator=${address(0)}`)).body;
    expect(decodeOperation(approve)).toEqual({
      name: 'approve',
      args: { owner: address(2), operator: address(0), token_id: '0x31' },
    });
    await submit(2, approve);
    await expect
      .poll(async () => (await rest(url, `/v1/nft/${nft}/0x31/approved?limit=1`)).body, { timeout: WAIT_MS })
      .toEqual({ value: [address(0)] });
    const forAll = (
      await rest(url, `/v1/nft/${nft}/approve_for_all?owner=${address(2)}&operator=${address(1)}&approved=true`)
    ).body;
    expect(decodeOperation(forAll)).toEqual({
      name: 'set_approval_for_all',
      args: { owner: address(2), operator: address(1), approved: true },
    });
    await submit(2, forAll);
    await expect
      .poll(async () => (await rest(url, `/v1/nft/${nft}/approved_for_all/${address(2)}/${address(1)}`)).body, {
        timeout: WAIT_MS,
      })
      .toEqual({ value: true });
  });

  it('answers mint, burn, set_metadata, set_royalties and transfer (of the collection) as operations', async () => {
    expect(decodeOperation((await rest(url, `/v1/nft/${nft}/0x32/mint?to=${address(1)}&memo=m`)).body)).toEqual({
      name: 'mint',
      args: { to: address(1), token_id: '0x32', memo: 'm' },
    });
    expect(decodeOperation((await rest(url, `/v1/nft/${nft}/0x32/burn`)).body)).toEqual({
      name: 'burn',
      args: { token_id: '0x32' },
    });
    const metadata = await rest(url, `/v1/nft/${nft}/0x31/set_metadata`, { method: 'POST', body: '{ "name": "uno" }' });
    expect(decodeOperation(metadata.body)).toEqual({
      name: 'set_metadata',
      args: { token_id: '0x31', metadata: '{"name":"uno"}' },
    });
    const royalties = await rest(url, `/v1/nft/${nft}/set_royalties`, {
      method: 'POST',
      body: JSON.stringify({ value: [{ percentage: '100', address: address(0) }] }),
    });
    expect(decodeOperation(royalties.body)).toEqual({
      name: 'set_royalties',
      args: { value: [{ percentage: '100', address: address(0) }] },
    });
    expect(decodeOperation((await rest(url, `/v1/nft/${nft}/transfer?to=${address(1)}`)).body)).toEqual({
      name: 'transfer_ownership',
      args: { to: address(1) },
    });
  });

  it('answers 400 for a missing recipient or operator and a body that is not JSON', async () => {
    expect(await rest(url, `/v1/nft/${nft}/0x31/mint`)).toEqual({
      status: 400,
      body: { error: "missing required field 'to'" },
    });
    expect(await rest(url, `/v1/nft/${nft}/0x31/approve`)).toEqual({
      status: 400,
      body: { error: "missing required field 'operator'" },
    });
    expect(await rest(url, `/v1/nft/${nft}/approve_for_all?owner=${address(1)}`)).toEqual({
      status: 400,
      body: { error: "missing required field 'operator'" },
    });
    expect(await rest(url, `/v1/nft/${nft}/0x31/set_metadata`, { method: 'POST', body: '{' })).toEqual({
      status: 400,
      body: { error: 'invalid request body: expected the metadata as JSON' },
    });
  });
});
