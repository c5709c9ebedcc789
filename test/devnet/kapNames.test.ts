// The devnet's KAP stand-in, driven by koilib over real HTTP as a dApp would drive KAP on mainnet: at KAP's mainnet
// address in a mainnet-shaped chain, with the ABI the contract meta store answers; mint, owner_of, get_name, get_names.
import { Contract, Provider, Signer } from 'koilib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { failure, method, write } from './koilibContract.ts';

const KAP_MAINNET = '13tmzDmfqCsbYT26C4CmKxq86d33senqH3';
const hexOf = (text: string) => `0x${Buffer.from(text, 'utf8').toString('hex')}`;

describe('the KAP stand-in of a mainnet-shaped devnet', () => {
  let devnet: Devnet;
  let provider: Provider;
  type Account = Devnet['accounts'][number];
  let alice: Account;
  let bob: Account;
  const kapAs = async (wif?: string) => {
    const signer = wif ? Object.assign(Signer.fromWif(wif), { provider }) : undefined;
    const contract = new Contract({ id: KAP_MAINNET, provider, ...(signer ? { signer } : {}) });
    await contract.fetchAbi();
    expect(contract.abi, 'the node answers an ABI for KAP').toBeDefined();
    return contract;
  };

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, blockTimeMs: 0, accounts: 2, shape: { like: 'mainnet' }, log: () => {} });
    provider = new Provider([`${devnet.url}/jsonrpc`]);
    [alice, bob] = devnet.accounts as [Account, Account];
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('mints a name for the signing owner and answers it by owner_of, get_name and get_names', async () => {
    const kap = await kapAs(alice.wif);
    const answer = await write(kap, 'mint', { name: 'Alice.koin', duration_increments: 1, owner: alice.address });
    expect(answer.receipt?.events?.[0]?.name).toBe('collections.mint_event');
    expect(((await method(kap, 'owner_of')({ token_id: hexOf('alice.koin') })).result as { value: string }).value).toBe(
      alice.address,
    );
    const named = (await method(kap, 'get_name')({ name: 'alice.koin' })).result as {
      domain: string;
      name: string;
      owner: string;
      expiration: string;
    };
    expect(named).toMatchObject({ domain: 'koin', name: 'alice', owner: alice.address });
    expect(BigInt(named.expiration)).toBeGreaterThan(BigInt(Date.now()));
    await write(kap, 'mint', { name: 'second.koin', owner: alice.address });
    const names = (await method(kap, 'get_names')({ owner: alice.address, limit: '10' })).result as {
      names: { name: string }[];
    };
    expect(names.names.map((n) => n.name)).toEqual(['alice', 'second']);
  });

  it('answers nothing for a name nobody holds, as KAP does (an empty object, not an error)', async () => {
    const kap = await kapAs();
    expect((await method(kap, 'owner_of')({ token_id: hexOf('nobody.koin') })).result ?? {}).toEqual({});
    expect((await method(kap, 'get_name')({ name: 'nobody.koin' })).result ?? {}).toEqual({});
    expect((await method(kap, 'get_names')({ owner: bob.address, limit: '10' })).result ?? {}).toEqual({});
  });

  it('refuses a name already taken, a malformed name, and a mint the owner did not sign', async () => {
    const asBob = await kapAs(bob.wif);
    expect((await failure(method(asBob, 'mint')({ name: 'alice.koin', owner: bob.address }))).message).toContain(
      'name alice.koin is already taken',
    );
    expect((await failure(method(asBob, 'mint')({ name: 'bad--name.koin', owner: bob.address }))).message).toContain(
      'invalid name',
    );
    expect((await failure(method(asBob, 'mint')({ name: 'bobs.koin', owner: alice.address }))).message).toContain(
      'must sign the mint',
    );
  });
});
