// REST /v1/token/{contract}/… over real HTTP on port 0, as koinos-rest answers them: amounts formatted by koilib's
// formatUnits, and the transaction-preparing routes (transfer, mint, burn, approve) whose operation, once signed and
// submitted, does what it says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64 } from '../../src-main/koinos/bytes.ts';
import { fromJson } from '../../src-main/koinos/codec.ts';
import { parseAbi } from '../../src-main/koinos/contractAbi.ts';
import { KOIN_ABI } from '../../src-main/devnet/contracts/abi/systemAbis.ts';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { rest, rpc, signedOperationsJson } from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';

const kcs4 = parseAbi(KOIN_ABI);
let devnet: Devnet;
let url: string;
const address = (i: number) => devnet.accounts[i]!.address;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, manual: true, accounts: 3, initialBalance: 1000n * KOIN, log: () => {} });
  url = devnet.url;
});

afterAll(async () => {
  await devnet?.stop();
});

/** Signs `operation` (REST JSON) by account `from`, submits it and produces its block; the receipt. */
async function submit(from: number, operation: unknown): Promise<any> {
  const transaction = await signedOperationsJson(devnet, from, [fromJson('koinos.protocol.operation', operation)]);
  const { receipt } = await rpc(url, 'chain.submit_transaction', { transaction, broadcast: true });
  await rpc(url, 'devnet.produce_block', {});
  return receipt;
}

/** The method name and arguments of an operation answered by a preparing route, decoded with the KCS-4 ABI. */
function decodeOperation(body: any): { name: string; args: unknown } {
  const m = kcs4.methodByEntryPoint(body.call_contract.entry_point)!;
  return { name: m.name, args: kcs4.decodeArguments(m, fromBase64(body.call_contract.args)) };
}

describe('REST /v1/token reads', () => {
  it('formats amounts as koilib formatUnits: no trailing zeros ("1000", "999.27")', async () => {
    const supply = (await rest(url, '/v1/token/koin/total_supply')).body.value;
    expect(supply).toMatch(/^[1-9]\d*$/); // whole KOIN: no ".00000000"
    expect(await rest(url, '/v1/token/koin/info')).toEqual({
      status: 200,
      body: { name: 'Koin', symbol: 'KOIN', decimals: 8, total_supply: supply },
    });
    expect(await rest(url, `/v1/token/koin/balance/${address(0)}`)).toEqual({ status: 200, body: { value: '1000' } });
    // node-api.md keeps 8 fractional digits on the account route.
    expect(await rest(url, `/v1/account/${address(0)}/balance/koin`)).toEqual({
      status: 200,
      body: { value: '1000.00000000' },
    });
  });

  it('answers the node’s error for an address without a contract, and "invalid contract_id" for a bad one', async () => {
    expect(await rest(url, `/v1/token/${address(1)}/info`)).toEqual({
      status: 400,
      body: { error: 'contract does not exist' },
    });
    expect(await rest(url, '/v1/token/not-a-contract/total_supply')).toEqual({
      status: 400,
      body: { error: 'invalid contract_id' },
    });
  });
});

describe('REST /v1/token transaction-preparing routes', () => {
  it('GET transfer answers the KCS-4 transfer operation (value in token units, memo kept), which moves the amount', async () => {
    const { status, body } = await rest(
      url,
      `/v1/token/koin/transfer?from=${address(0)}&to=${address(1)}&value=0.73&memo=rent`,
    );
    expect(status).toBe(200);
    expect(body.call_contract.contract_id).toBe(devnet.koinAddress);
    expect(decodeOperation(body)).toEqual({
      name: 'transfer',
      args: { from: address(0), to: address(1), value: '73000000', memo: 'rent' },
    });
    const receipt = await submit(0, body);
    expect(receipt.reverted).toBeUndefined();
    expect((await rest(url, `/v1/token/koin/balance/${address(1)}`)).body).toEqual({ value: '1000.73' });
    expect((await rest(url, `/v1/token/koin/balance/${address(0)}`)).body.value).toBe('999.27');
  });

  it('GET approve answers the approve operation, which sets the allowance the allowance routes read', async () => {
    const { body } = await rest(url, `/v1/token/koin/approve?owner=${address(2)}&spender=${address(0)}&value=1.5`);
    expect(decodeOperation(body)).toEqual({
      name: 'approve',
      args: { owner: address(2), spender: address(0), value: '150000000' },
    });
    await submit(2, body);
    expect(await rest(url, `/v1/token/koin/allowance/${address(2)}/${address(0)}`)).toEqual({
      status: 200,
      body: { value: '1.5' },
    });
    expect((await rest(url, `/v1/token/koin/allowances/${address(2)}?limit=5`)).body).toEqual({
      owner: address(2),
      allowances: [{ spender: address(0), value: '1.5' }],
    });
  });

  it('GET mint and burn answer their operations; KCS-4 mint and burn have no memo, so it is left out as koilib does', async () => {
    const mint = (await rest(url, `/v1/token/koin/mint?to=${address(1)}&value=2&memo=ignored`)).body;
    expect(decodeOperation(mint)).toEqual({ name: 'mint', args: { to: address(1), value: '200000000' } });
    const burn = (await rest(url, `/v1/token/koin/burn?from=${address(1)}&value=0.1`)).body;
    expect(decodeOperation(burn)).toEqual({ name: 'burn', args: { from: address(1), value: '10000000' } });
    const before = (await rest(url, `/v1/token/koin/balance/${address(1)}`)).body.value;
    await submit(1, burn);
    expect((await rest(url, `/v1/token/koin/balance/${address(1)}`)).body.value).toBe(
      (Number(before) - 0.1).toFixed(2),
    );
  });

  it('answers 400 with koinos-rest’s texts for a missing parameter, a bad account and a bad value', async () => {
    expect(await rest(url, `/v1/token/koin/transfer?from=${address(0)}&to=${address(1)}`)).toEqual({
      status: 400,
      body: { error: "missing required field 'value'" },
    });
    expect(await rest(url, `/v1/token/koin/approve?owner=${address(0)}&value=1`)).toEqual({
      status: 400,
      body: { error: "missing required field 'spender'" },
    });
    expect(await rest(url, `/v1/token/koin/mint?to=nobody&value=1`)).toEqual({
      status: 400,
      body: { error: 'invalid account' },
    });
    const bad = await rest(url, `/v1/token/koin/burn?from=${address(0)}&value=0.000000001`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^invalid value: expected at most 8 decimal places/);
  });
});
