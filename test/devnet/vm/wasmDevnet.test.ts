// Uploaded contracts on the devnet over HTTP, driven by koilib: the prebuilt KCS-4 token of @koinosbox/contracts is
// deployed with Contract.deploy, minted by its own key, transferred by a holder and read with read_contract.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, Provider, Signer } from 'koilib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { rpc, rpcError } from '../httpHelpers.ts';
import { included, method, write } from '../koilibContract.ts';
import { KOIN } from '../../helpers/constants.ts';

const dir = join(import.meta.dirname, '../../../node_modules/@koinosbox/contracts/assembly/token');
const abi = JSON.parse(readFileSync(join(dir, 'token-abi.json'), 'utf8')) as ConstructorParameters<
  typeof Contract
>[0]['abi'];
const bytecode = new Uint8Array(readFileSync(join(dir, 'release/token.wasm')));

let devnet: Devnet;
let provider: Provider;

beforeAll(async () => {
  devnet = await startDevnet({
    port: 0,
    blockTimeMs: 0,
    accounts: 3,
    initialBalance: 1_000_000n * KOIN,
    log: () => {},
  });
  provider = new Provider([`${devnet.url}/jsonrpc`]);
});

afterAll(async () => {
  await devnet?.stop();
});

describe('an uploaded KCS-4 token on the devnet', () => {
  it('deploys, mints, transfers and reads through koilib', async () => {
    const tokenSigner = Signer.fromSeed('koinos-wallet test token key');
    tokenSigner.provider = provider;
    const [alice, bob] = devnet.accounts as [(typeof devnet.accounts)[0], (typeof devnet.accounts)[0]];

    // Give the token key mana: an upload pays the network bytes of its ~60 KB of bytecode.
    const koin = new Contract({
      id: devnet.koinAddress,
      abi: (await import('koilib')).utils.tokenAbi,
      provider,
      signer: Object.assign(Signer.fromWif(alice.wif), { provider }),
    });
    await write(koin, 'transfer', {
      from: alice.address,
      to: tokenSigner.getAddress(),
      value: (100n * KOIN).toString(),
    });

    const token = new Contract({ id: tokenSigner.getAddress(), abi, provider, signer: tokenSigner, bytecode });
    const deployed = await token.deploy({ abi: JSON.stringify(abi) });
    expect(deployed.receipt?.reverted ?? false).toBe(false);
    await included(provider, deployed.transaction);

    const minted = await method(token, 'mint')({ to: alice.address, value: '1000' });
    expect(minted.receipt?.reverted ?? false).toBe(false);
    expect(minted.receipt?.events?.map((e) => e.name)).toEqual(['token.mint_event']);
    expect(BigInt(minted.receipt!.compute_bandwidth_used)).toBeGreaterThan(1_000_000n);
    await included(provider, minted.transaction);

    const aliceToken = new Contract({
      id: tokenSigner.getAddress(),
      abi,
      provider,
      signer: Object.assign(Signer.fromWif(alice.wif), { provider }),
    });
    const sent = await method(aliceToken, 'transfer')({ from: alice.address, to: bob.address, value: '300' });
    await included(provider, sent.transaction);

    expect((await method(token, 'balance_of')({ owner: alice.address })).result).toEqual({ value: '700' });
    expect((await method(token, 'balance_of')({ owner: bob.address })).result).toEqual({ value: '300' });

    // A transfer bob did not sign reverts with the contract's own message, and nothing changes.
    const error = await method(
      aliceToken,
      'transfer',
    )({ from: bob.address, to: alice.address, value: '1' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/from has not authorized transfer/);
    expect((await method(token, 'balance_of')({ owner: bob.address })).result).toEqual({ value: '300' });
  });

  it('stops an endless read at the read compute limit and keeps serving', async () => {
    const { wat } = await import('./wat.ts');
    const endless = await wat('(module (memory 1) (func (export "_start") (loop $l br $l)))');
    const signer = Signer.fromSeed('koinos-wallet endless loop key');
    signer.provider = provider;
    const [alice] = devnet.accounts as [(typeof devnet.accounts)[0]];
    const koin = new Contract({
      id: devnet.koinAddress,
      abi: (await import('koilib')).utils.tokenAbi,
      provider,
      signer: Object.assign(Signer.fromWif(alice.wif), { provider }),
    });
    await write(koin, 'transfer', { from: alice.address, to: signer.getAddress(), value: (10n * KOIN).toString() });
    const loop = new Contract({ id: signer.getAddress(), abi: { methods: {} }, provider, signer, bytecode: endless });
    await included(provider, (await loop.deploy()).transaction);

    const error = await rpcError(devnet.url, 'chain.read_contract', {
      contract_id: signer.getAddress(),
      entry_point: 1,
      args: '',
    });
    // koinos-chain: a read has no rc session, so its 10,000,000 compute end as the resource meter's failure.
    expect(error.message).toBe('compute bandwidth limit exceeded');
    expect(JSON.stringify(error.data ?? '')).toMatch(/-1013/);
    expect((await rpc(devnet.url, 'chain.get_head_info')).head_topology).toBeDefined();
  });
});
