// The services koilib and dApps call, over real HTTP: contract_meta_store (ABIs), read-only system calls, VHP and
// its effective balance, and the koinos-rest routes for tokens, contracts, blocks, decoding and preparing; each with
// a success test and an error test.
import { parseAmount } from '../../src-main/koinos/amounts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64, toBase64Url } from '../../src-main/koinos/bytes.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { TOKEN_METHODS, VHP_METHODS } from '../../src-main/koinos/koin.ts';
import { nonceToBytes } from '../../src-main/koinos/transaction.ts';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { nextNonce, rest, rpc, rpcError, signedOperationsJson, transferJson } from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';

let devnet: Devnet;
let url: string;
let vhp: string;

beforeAll(async () => {
  devnet = await startDevnet({
    port: 0,
    manual: true,
    accounts: 3,
    signatureThreads: 0,
    irreversibleDepth: 0,
    log: () => {},
  });
  url = devnet.url;
  // VHP resolves by its system name, as KOIN does.
  vhp = (await rest(url, '/v1/contract/vhp')).body.contract_id;
});

afterAll(async () => {
  await devnet?.stop();
});

const address = (i: number) => devnet.accounts[i]!.address;
const bytes = (i: number) => addressFromString(address(i));

async function signedCall(contract: string, from: number, entryPoint: number, args: Uint8Array): Promise<object> {
  return signedOperationsJson(devnet, from, [
    { call_contract: { contract_id: addressFromString(contract), entry_point: entryPoint, args } },
  ]);
}

describe('contract_meta_store.get_contract_meta', () => {
  it('answers the ABI of KOIN and of VHP', async () => {
    const koin = JSON.parse(
      (await rpc(url, 'contract_meta_store.get_contract_meta', { contract_id: devnet.koinAddress })).meta.abi,
    );
    // The upstream ABI (koinos-contracts-as): KCS-4 types; byte equality is asserted in systemAbis.test.ts.
    expect(koin.methods.transfer).toMatchObject({
      entry_point: TOKEN_METHODS.transfer.entryPoint,
      read_only: false,
      argument: 'koinos.standards.kcs4.transfer_arguments',
    });
    expect(koin.methods.approve.entry_point).toBe(0x74e21680);
    const v = JSON.parse((await rpc(url, 'contract_meta_store.get_contract_meta', { contract_id: vhp })).meta.abi);
    expect(v.methods.balance_of.entry_point).toBe(VHP_METHODS.balance_of.entryPoint);
  });

  it('answers no meta for an address that is no contract, and refuses unparseable params', async () => {
    expect(await rpc(url, 'contract_meta_store.get_contract_meta', { contract_id: address(1) })).toEqual({});
    const error = await rpcError(url, 'contract_meta_store.get_contract_meta', { contract_id: 42 });
    expect(error.code).toBe(-32601);
  });
});

describe('chain.invoke_system_call', () => {
  it('answers get_contract_metadata by name', async () => {
    const args = encode('koinos.chain.get_contract_metadata_arguments', {
      contract_id: addressFromString(devnet.koinAddress),
    });
    const { value } = await rpc(url, 'chain.invoke_system_call', {
      name: 'get_contract_metadata',
      args: toBase64Url(args),
    });
    const result = decode('koinos.chain.get_contract_metadata_result', fromBase64(value));
    expect(result.value?.system).toBe(true);
    expect(result.value!.hash.subarray(0, 2)).toEqual(Uint8Array.of(0x12, 0x20));
  });

  it('answers "unknown system call name" for a name system_call_id does not have', async () => {
    const error = await rpcError(url, 'chain.invoke_system_call', { name: 'no_such_call', args: '' });
    expect(error.message).toBe('unknown system call name');
    expect(JSON.parse(error.data!).code).toBe(-103);
  });
});

describe('VHP', () => {
  it('counts a received amount in the effective balance only 20 blocks later', async () => {
    await rpc(url, 'devnet.set_balance', { contract_id: vhp, account: address(0), value: String(100n * KOIN) });
    const effective = async (i: number) => {
      const m = VHP_METHODS.effective_balance_of;
      const { result } = await rpc(url, 'chain.read_contract', {
        contract_id: vhp,
        entry_point: m.entryPoint,
        args: toBase64Url(encode(m.argsType, { owner: bytes(i) })),
      });
      return decode(m.resultType, result ? fromBase64(result) : new Uint8Array(0)).value;
    };
    expect(await effective(0)).toBe(100n * KOIN);
    const transfer = TOKEN_METHODS.transfer;
    const { receipt } = await rpc(url, 'chain.submit_transaction', {
      transaction: await signedCall(
        vhp,
        0,
        transfer.entryPoint,
        encode(transfer.argsType, { from: bytes(0), to: bytes(1), value: 40n * KOIN }),
      ),
      broadcast: true,
    });
    expect(receipt.events[0]).toMatchObject({ source: vhp, name: 'token.transfer_event' });
    await rpc(url, 'devnet.produce_block', {});
    expect((await rest(url, `/v1/token/vhp/balance/${address(1)}`)).body).toEqual({ value: '40' });
    expect(await effective(1)).toBe(0n);
    expect(await effective(0)).toBe(60n * KOIN); // a decrease counts at once
    await rpc(url, 'devnet.produce_blocks', { count: 20 });
    expect(await effective(1)).toBe(40n * KOIN);
  });

  it('refuses effective_balance_of without an owner', async () => {
    const m = VHP_METHODS.effective_balance_of;
    const error = await rpcError(url, 'chain.read_contract', { contract_id: vhp, entry_point: m.entryPoint, args: '' });
    expect(error.message).toBe("account 'owner' cannot be null");
  });
});

describe('REST token routes', () => {
  it('answers name, symbol, decimals, info, total_supply, balance, allowance and allowances', async () => {
    expect((await rest(url, '/v1/token/koin/name')).body).toEqual({ value: 'Koin' });
    expect((await rest(url, '/v1/token/koin/symbol')).body).toEqual({ value: 'KOIN' });
    expect((await rest(url, '/v1/token/koin/decimals')).body).toEqual({ value: 8 });
    const info = (await rest(url, '/v1/token/koin/info')).body;
    expect(info).toMatchObject({ name: 'Koin', symbol: 'KOIN', decimals: 8 });
    expect((await rest(url, '/v1/token/koin/total_supply')).body).toEqual({ value: info.total_supply });
    // koilib formatUnits on /v1/token (koinos-rest); node-api.md's 8 digits on /v1/account/{a}/balance/{c}.
    const balance = (await rest(url, `/v1/token/koin/balance/${address(2)}`)).body;
    expect(balance.value).toMatch(/^\d+(\.\d*[1-9])?$/);
    const accountBalance = (await rest(url, `/v1/account/${address(2)}/balance/koin`)).body;
    expect(accountBalance.value).toMatch(/^\d+\.\d{8}$/);
    expect(parseAmount(accountBalance.value)).toBe(parseAmount(balance.value));
    const approve = TOKEN_METHODS.approve;
    await rpc(url, 'chain.submit_transaction', {
      transaction: await signedCall(
        devnet.koinAddress,
        2,
        approve.entryPoint,
        encode(approve.argsType, { owner: bytes(2), spender: bytes(1), value: 150_000_000n }),
      ),
      broadcast: true,
    });
    await rpc(url, 'devnet.produce_block', {});
    expect((await rest(url, `/v1/token/koin/allowance/${address(2)}/${address(1)}`)).body).toEqual({ value: '1.5' });
    expect((await rest(url, `/v1/token/koin/allowances/${address(2)}?limit=10`)).body).toEqual({
      owner: address(2),
      allowances: [{ spender: address(1), value: '1.5' }],
    });
  });

  it('refuses allowances without a limit, and an address without a contract', async () => {
    expect(await rest(url, `/v1/token/koin/allowances/${address(2)}`)).toEqual({
      status: 400,
      body: { error: "missing required field 'limit'" },
    });
    // Tokens are called through the KCS-4 ABI, as koinos-rest does: an address without a contract gets the node's error.
    expect(await rest(url, `/v1/token/${address(1)}/name`)).toEqual({
      status: 400,
      body: { error: 'contract does not exist' },
    });
  });
});

describe('REST contract routes', () => {
  it('answers the contract id, its ABI, its metadata, a read by method name and a write as an operation', async () => {
    expect((await rest(url, '/v1/contract/koin')).body).toEqual({ contract_id: devnet.koinAddress });
    const abi = (await rest(url, '/v1/contract/koin/abi')).body;
    expect(abi.contract_id).toBe(devnet.koinAddress);
    expect(abi.abi.methods.balance_of.read_only).toBe(true);
    const metadata = (await rest(url, '/v1/contract/koin/metadata')).body;
    expect(metadata).toMatchObject({ contract_id: devnet.koinAddress, system: true });
    expect(metadata.hash).toMatch(/^0x1220[0-9a-f]{64}$/);
    expect((await rest(url, `/v1/contract/koin/balance_of?owner=${address(0)}`)).body.value).toMatch(/^\d+$/);
    const op = await rest(url, '/v1/contract/koin/transfer', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ from: address(0), to: address(1), value: '5' }),
    });
    expect(op.body.call_contract).toMatchObject({
      contract_id: devnet.koinAddress,
      entry_point: TOKEN_METHODS.transfer.entryPoint,
    });
    const decoded = await rest(url, '/v1/decode/operations', { method: 'POST', body: JSON.stringify([op.body]) });
    expect(decoded.body).toEqual([
      {
        call_contract: {
          contract_id: devnet.koinAddress,
          entry_point: 'transfer',
          args: { from: address(0), to: address(1), value: '5' },
        },
      },
    ]);
  });

  it('refuses an unknown method and arguments that do not parse', async () => {
    expect(await rest(url, '/v1/contract/koin/steal')).toEqual({
      status: 400,
      body: { error: 'method "steal" does not exist' },
    });
    const bad = await rest(url, '/v1/contract/koin/transfer', {
      method: 'POST',
      body: JSON.stringify({ value: 'lots' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^invalid arguments of transfer: /);
  });
});

describe('REST blocks, decoding, preparing and block submission', () => {
  it('lists blocks from a height, decodes events, and prepares a transaction for signing', async () => {
    await rpc(url, 'chain.submit_transaction', {
      transaction: transferJson(devnet, 0, 1, KOIN, await nextNonce(url, address(0))),
      broadcast: true,
    });
    const { block_height } = await rpc(url, 'devnet.produce_block', {});
    const list = (await rest(url, `/v1/blocks?start=${block_height}&limit=5`)).body;
    expect(list).toHaveLength(1);
    const event = list[0].receipt.transaction_receipts[0].events[0];
    expect(event).toMatchObject({
      name: 'token.transfer_event',
      data: { from: address(0), to: address(1), value: String(KOIN) },
    });
    const raw = (await rest(url, `/v1/blocks?start=${block_height}&limit=1&decode_events=false`)).body[0].receipt
      .transaction_receipts[0].events;
    expect((await rest(url, '/v1/decode/events', { method: 'POST', body: JSON.stringify(raw) })).body[0].data).toEqual(
      event.data,
    );

    const op = (await rest(url, `/v1/contract/koin/transfer?from=${address(0)}&to=${address(1)}&value=7`)).body;
    const prepared = await rest(url, '/v1/transaction/prepare', {
      method: 'POST',
      body: JSON.stringify({ header: { payer: address(0) }, operations: [op] }),
    });
    expect(prepared.status).toBe(200);
    expect(prepared.body.header.chain_id).toBe(devnet.chainId);
    expect(prepared.body.header.nonce).toBe(toBase64Url(nonceToBytes(await nextNonce(url, address(0)))));
    expect(prepared.body.id).toMatch(/^0x1220/);
  });

  it('refuses blocks without a limit, a prepare without a payer, and explains that the devnet makes its own blocks', async () => {
    expect(await rest(url, '/v1/blocks?start=1')).toEqual({
      status: 400,
      body: { error: "missing required field 'limit'" },
    });
    expect((await rest(url, '/v1/transaction/prepare', { method: 'POST', body: '{"operations":[]}' })).body).toEqual({
      error: 'invalid transaction: header.payer is required',
    });
    const submitted = await rest(url, '/v1/block/submit', { method: 'POST', body: '{"id":"0x1220"}' });
    expect(submitted.status).toBe(400);
    expect(submitted.body.error).toMatch(/^chain.submit_block is not supported by the devnet/);
    expect((await rest(url, '/v1/decode/events', { method: 'POST', body: '{}' })).status).toBe(400);
  });
});
