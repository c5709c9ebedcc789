// The wallet's name resolvers against the real contracts of a devnet over HTTP: the nicknames contract of
// @koinosbox/contracts and the KAP stand-in, both at mainnet's addresses in a mainnet-shaped chain; the other way
// (the names of an address); and the clear refusals: a name nobody holds, an expired one, a network without the
// contract, a node down.
import { Contract, Provider, Signer } from 'koilib';
import { describe, expect, it } from 'vitest';
import type { Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { NameResolver } from '../../../src-main/wallet/chain/names.ts';
import { write } from '../../devnet/koilibContract.ts';
import { deadUrl, testDevnet } from './helpers.ts';
import { testServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const NICKNAMES_MAINNET = '1KD9Es7LBBjA1FY3ViCgQJ7e6WH1ipKbhz';
const KAP_MAINNET = '13tmzDmfqCsbYT26C4CmKxq86d33senqH3';

type Account = Devnet['accounts'][number];

/** A contract as a dApp builds it (ABI from the node), signing as `account`. */
async function contractAs(devnet: Devnet, id: string, account: Account): Promise<Contract> {
  const provider = new Provider([`${devnet.url}/jsonrpc`]);
  const contract = new Contract({ id, provider, signer: Object.assign(Signer.fromWif(account.wif), { provider }) });
  await contract.fetchAbi();
  return contract;
}

async function mainnetShaped() {
  const devnet = await testDevnet({ shape: { like: 'mainnet' } });
  const [alice, bob, carol] = devnet.accounts as [Account, Account, Account];
  await write(await contractAs(devnet, NICKNAMES_MAINNET, alice), 'mint', {
    to: alice.address,
    token_id: `0x${Buffer.from('alice').toString('hex')}`,
  });
  await write(await contractAs(devnet, KAP_MAINNET, bob), 'mint', {
    name: 'bob.koin',
    duration_increments: 1,
    owner: bob.address,
  });
  const s = testServices(devnet);
  return { devnet, s, names: new NameResolver({ networks: s.networks, tokens: s.tokens }), alice, bob, carol };
}

describe('recipient names on a mainnet-shaped Local network', () => {
  it('resolves @name through the nicknames contract and name.koin through KAP, to full addresses with the contract flags', async () => {
    const { names, alice, bob } = await mainnetShaped();
    const nickname = await names.resolve('local', ' @Alice ');
    expect(nickname).toMatchObject({
      address: alice.address,
      name: '@alice',
      source: 'nickname',
      contract: NICKNAMES_MAINNET,
    });
    // A freshly minted nickname is neither permanent nor governance-held: its owner can point it elsewhere (Kondor warns).
    expect(nickname.flags).toEqual({
      permanentAddress: false,
      modifiableOnlyByGovernance: false,
      ownerCanChange: true,
    });
    const kap = await names.resolve('local', 'bob.koin');
    expect(kap).toMatchObject({ address: bob.address, name: 'bob.koin', source: 'kap', contract: KAP_MAINNET });
    expect(BigInt(kap.flags.expiration!)).toBeGreaterThan(BigInt(Date.now()));
  });

  it('gives the names of addresses: the main nickname, KAP names, and nothing for an address without any', async () => {
    const { names, alice, bob, carol } = await mainnetShaped();
    const shown = await names.reverse('local', [alice.address, bob.address, carol.address]);
    expect(shown).toEqual([
      { address: alice.address, nickname: '@alice', kap: [] },
      { address: bob.address, kap: ['bob.koin'] },
      { address: carol.address, kap: [] },
    ]);
  });

  it('neither resolves nor shows a name made to look like another (a Cyrillic о, a zero width space, an ɑ)', async () => {
    const { devnet, names, bob, carol } = await mainnetShaped();
    const kap = await contractAs(devnet, KAP_MAINNET, carol);
    const lookalikes = ['b\u043eb.koin', 'bo\u200bb.koin', '\u0251lice.koin'];
    for (const name of [...lookalikes, '\u0430\u043b\u0438\u0441\u0430.koin'])
      await write(kap, 'mint', { name, duration_increments: 1, owner: carol.address });
    for (const name of lookalikes) {
      const refused = await expectWalletError(names.resolve('local', name), 'INVALID_ARGUMENT');
      expect(refused.shortMessage).toContain('can look like another name; paste the address instead');
    }
    // A name in other letters than a-z is carol's to be sent to when typed (алиса.koin)...
    expect((await names.resolve('local', '\u0430\u043b\u0438\u0441\u0430.koin')).address).toBe(carol.address);
    // ...but beside her address, any of them would vouch for it as someone else's: only plain names are shown.
    expect(await names.reverse('local', [carol.address, bob.address])).toEqual([
      { address: carol.address, kap: [] },
      { address: bob.address, kap: ['bob.koin'] },
    ]);
  });

  it('refuses a KAP name in its grace period, as expired, and shows it beside no address; then nobody holds it', async () => {
    const { devnet, names, bob } = await mainnetShaped();
    const year = 365 * 86_400_000;
    await devnet.node.call('devnet.advance_time', { milliseconds: BigInt(year + 86_400_000) });
    // KAP still answers it (the holder may renew it): the wallet says it expired, and until when it can be renewed.
    const expired = await expectWalletError(names.resolve('local', 'bob.koin'), 'NAME_NOT_FOUND');
    expect(expired.shortMessage).toMatch(
      /^bob\.koin expired on \d{4}-\d\d-\d\d on Local \(devnet\)\. Its holder may renew it until \d{4}-\d\d-\d\d; after that anyone can take it\./,
    );
    expect(await names.reverse('local', [bob.address])).toEqual([{ address: bob.address, kap: [] }]);
    // Past the grace period KAP answers nothing, and anyone may mint it.
    await devnet.node.call('devnet.advance_time', { milliseconds: BigInt(31 * 86_400_000) });
    const gone = await expectWalletError(names.resolve('local', 'bob.koin'), 'NAME_NOT_FOUND');
    expect(gone.shortMessage).toContain('Nobody holds the name bob.koin');
  });

  it('says that nobody holds a name, for each kind, instead of falling back to the text', async () => {
    const { names } = await mainnetShaped();
    const nick = await expectWalletError(names.resolve('local', '@nobody'));
    expect(nick.code).toBe('NAME_NOT_FOUND');
    expect(nick.shortMessage).toContain('Nobody holds the name @nobody');
    const kap = await expectWalletError(names.resolve('local', 'nobody.koin'));
    expect(kap.code).toBe('NAME_NOT_FOUND');
    expect(kap.shortMessage).toContain('nobody.koin');
    expect((await expectWalletError(names.resolve('local', 'bad..koin'))).code).toBe('INVALID_ARGUMENT');
  });
});

describe('recipient names where they cannot be resolved', () => {
  it('says the network has no such contract (a plain devnet has neither), and gives no reverse names there', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const names = new NameResolver({ networks: s.networks, tokens: s.tokens });
    const nick = await expectWalletError(names.resolve('local', '@alice'));
    expect(nick.code).toBe('NAME_SERVICE_UNAVAILABLE');
    expect(nick.shortMessage).toContain('has no nicknames contract');
    expect((await expectWalletError(names.resolve('local', 'alice.koin'))).code).toBe('NAME_SERVICE_UNAVAILABLE');
    expect(await names.reverse('local', [devnet.accounts[0]!.address])).toEqual([
      { address: devnet.accounts[0]!.address, kap: [] },
    ]);
  });

  it('passes a node that does not answer on as a node error, not as an unknown name', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet, { timeoutMs: 2_000 });
    const down = await s.networks.add({ name: 'Down', jsonRpcUrl: await deadUrl() });
    const names = new NameResolver({ networks: s.networks, tokens: s.tokens });
    const error = await expectWalletError(names.resolve(down.id, '@alice'));
    expect(error.code).toMatch(/^NODE_/);
  });
});
