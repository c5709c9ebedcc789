// ABIs of uploaded contracts over HTTP: the prebuilt KCS-4 token of @koinosbox/contracts is deployed with its ABI,
// then used by a koilib Contract that knows only its address (fetchAbi), by the REST routes of koinos-rest (ABI,
// metadata, reads by method name, decode events) and through the account history of sender and receiver.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, Provider, Signer, utils } from 'koilib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { rest, rpc } from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';
import { included, method, write } from './koilibContract.ts';

const dir = join(import.meta.dirname, '../../node_modules/@koinosbox/contracts/assembly/token');
const abiText = readFileSync(join(dir, 'token-abi.json'), 'utf8');
const bytecode = new Uint8Array(readFileSync(join(dir, 'release/token.wasm')));

let devnet: Devnet;
let provider: Provider;
const tokenSigner = Signer.fromSeed('koinos-wallet abi test token key');
let alice: { address: string; wif: string };
let bob: { address: string; wif: string };
let transferId: string;

beforeAll(async () => {
  devnet = await startDevnet({
    port: 0,
    blockTimeMs: 0,
    accounts: 3,
    initialBalance: 1_000_000n * KOIN,
    log: () => {},
  });
  provider = new Provider([`${devnet.url}/jsonrpc`]);
  [alice, bob] = devnet.accounts as [(typeof devnet.accounts)[0], (typeof devnet.accounts)[0]];
  tokenSigner.provider = provider;
  const koin = new Contract({
    id: devnet.koinAddress,
    abi: utils.tokenAbi,
    provider,
    signer: Object.assign(Signer.fromWif(alice.wif), { provider }),
  });
  await write(koin, 'transfer', { from: alice.address, to: tokenSigner.getAddress(), value: (100n * KOIN).toString() });
  // Deployed with the ABI text koilib sends in upload_contract.abi; nothing else tells the node about the token.
  const deployer = new Contract({
    id: tokenSigner.getAddress(),
    abi: JSON.parse(abiText),
    provider,
    signer: tokenSigner,
    bytecode,
  });
  const deployed = await deployer.deploy({ abi: abiText });
  await included(provider, deployed.transaction);
});

afterAll(async () => {
  await devnet?.stop();
});

describe('an uploaded contract with its ABI', () => {
  it('gives koilib its ABI: fetchAbi, then calls, reads and decodeEvent with the fetched ABI', async () => {
    const token = new Contract({ id: tokenSigner.getAddress(), provider, signer: tokenSigner });
    const abi = await token.fetchAbi();
    expect(abi).toEqual(JSON.parse(abiText));
    await write(token, 'mint', { to: alice.address, value: '1000' });

    const asAlice = new Contract({
      id: tokenSigner.getAddress(),
      provider,
      signer: Object.assign(Signer.fromWif(alice.wif), { provider }),
    });
    await asAlice.fetchAbi();
    const sent = await write(asAlice, 'transfer', { from: alice.address, to: bob.address, value: '300' });
    transferId = sent.transaction!.id!;
    const event = sent.receipt!.events!.find((e) => e.name === 'token.transfer_event')!;
    expect((await asAlice.decodeEvent(event)).args).toEqual({ from: alice.address, to: bob.address, value: '300' });
    expect((await method(asAlice, 'balance_of')({ owner: bob.address })).result).toEqual({ value: '300' });
  });

  it('serves the ABI, the metadata and reads by method name over REST', async () => {
    const id = tokenSigner.getAddress();
    const abi = await rest(devnet.url, `/v1/contract/${id}/abi`);
    expect(abi.status).toBe(200);
    expect(abi.body.contract_id).toBe(id);
    expect(abi.body.abi.methods.transfer).toMatchObject({ entry_point: 670398154, read_only: false });
    expect(abi.body.abi.types).toBe(JSON.parse(abiText).types);

    const metadata = await rest(devnet.url, `/v1/contract/${id}/metadata`);
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({ contract_id: id, hash: expect.stringMatching(/^0x1220[0-9a-f]{64}$/) });

    expect((await rest(devnet.url, `/v1/contract/${id}/balance_of?owner=${bob.address}`)).body).toEqual({
      value: '300',
    });
    const post = await rest(devnet.url, `/v1/contract/${id}/balance_of`, {
      method: 'POST',
      body: JSON.stringify({ owner: alice.address }),
    });
    expect(post.body).toEqual({ value: '700' });
    expect((await rest(devnet.url, `/v1/contract/${id}/get_info`)).body).toMatchObject({ decimals: 8 });
    // A write method answers the operation to sign, its arguments encoded with the contract's ABI types.
    const op = await rest(devnet.url, `/v1/contract/${id}/transfer`, {
      method: 'POST',
      body: JSON.stringify({ from: alice.address, to: bob.address, value: '5' }),
    });
    expect(op.body.call_contract).toMatchObject({ contract_id: id, entry_point: 670398154 });
    // The token routes work on the uploaded token as on the built-in ones.
    expect((await rest(devnet.url, `/v1/token/${id}/balance/${bob.address}`)).body).toEqual({ value: '0.000003' });

    const wrong = await rest(devnet.url, `/v1/contract/${id}/balance_off`);
    expect(wrong).toEqual({ status: 400, body: { error: 'method "balance_off" does not exist' } });
    const badArgs = await rest(devnet.url, `/v1/contract/${id}/balance_of?owner=nope`);
    expect(badArgs.status).toBe(400);
    expect(badArgs.body.error).toMatch(/^invalid arguments of balance_of: owner:/);
  });

  it('decodes the events of the uploaded token with its ABI (decode/events, history)', async () => {
    const id = tokenSigner.getAddress();
    const tx = await rpc(devnet.url, 'transaction_store.get_transactions_by_id', { transaction_ids: [transferId] });
    expect(tx.transactions).toHaveLength(1);
    const history = await rest(devnet.url, `/v1/account/${bob.address}/history?limit=10&irreversible=false`);
    const record = history.body.find((r: any) => r.trx?.transaction.id === transferId);
    expect(record.trx.receipt.events).toEqual([
      {
        source: id,
        name: 'token.transfer_event',
        data: { from: alice.address, to: bob.address, value: '300' },
        impacted: [bob.address, alice.address],
      },
    ]);
    expect(record.trx.transaction.operations[0].call_contract).toEqual({
      contract_id: id,
      entry_point: 'transfer',
      args: { from: alice.address, to: bob.address, value: '300' },
    });

    const raw = await rest(
      devnet.url,
      `/v1/account/${bob.address}/history?limit=10&irreversible=false&decode_events=false`,
    );
    const event = raw.body.find((r: any) => r.trx?.transaction.id === transferId).trx.receipt.events[0];
    expect(typeof event.data).toBe('string');
    const decoded = await rest(devnet.url, '/v1/decode/events', { method: 'POST', body: JSON.stringify([event]) });
    expect(decoded.body).toEqual([{ ...event, data: { from: alice.address, to: bob.address, value: '300' } }]);
  });

  it('answers a clear 400 for an uploaded ABI that does not read, and keeps serving', async () => {
    const { wat } = await import('./vm/wat.ts');
    const signer = Signer.fromSeed('koinos-wallet abi test bad abi key');
    signer.provider = provider;
    const koin = new Contract({
      id: devnet.koinAddress,
      abi: utils.tokenAbi,
      provider,
      signer: Object.assign(Signer.fromWif(alice.wif), { provider }),
    });
    await write(koin, 'transfer', { from: alice.address, to: signer.getAddress(), value: (10n * KOIN).toString() });
    const module = await wat('(module (memory (export "memory") 1) (func (export "_start")))');
    const bad = new Contract({ id: signer.getAddress(), abi: { methods: {} }, provider, signer, bytecode: module });
    await included(
      provider,
      (await bad.deploy({ abi: JSON.stringify({ methods: { m: { argument: '', return: '', entry_point: 'one' } } }) }))
        .transaction,
    );
    const answer = await rest(devnet.url, `/v1/contract/${signer.getAddress()}/abi`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      `abi of contract ${signer.getAddress()} is not usable: ABI method m: expected an entry_point from 0 to 4294967295, got "one"`,
    );
    expect((await rest(devnet.url, `/v1/contract/${tokenSigner.getAddress()}/abi`)).status).toBe(200);
  });

  it('puts the transfer in the history of every account its event impacts: sender and receiver', async () => {
    for (const account of [alice.address, bob.address, tokenSigner.getAddress()]) {
      const { values } = await rpc(devnet.url, 'account_history.get_account_history', {
        address: account,
        limit: 50,
        ascending: true,
        irreversible: false,
      });
      expect(
        (values ?? []).map((v: any) => v.trx?.transaction.id),
        account,
      ).toContain(transferId);
    }
  });
});
