// The system contracts a shaped devnet runs at the network's addresses (pob, resources, claim, governance), over real
// HTTP with koilib as a wallet uses them: ABIs from the contract meta store, KOIN burnt for VHP through pob as Kondor
// builds it (approve, then burn), and the reads and refusals of the other three.
import { Contract, Provider, Signer, Transaction, utils } from 'koilib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { RESOURCE_LIMITS } from '../../src-main/devnet/state/resources.ts';
import { failure, included, method, write } from './koilibContract.ts';
import { KOIN } from '../helpers/constants.ts';

/** koinos-cli .koinosrc (mainnet), as src-main/devnet/shapes.ts names it; read here so a wrong table fails the test. */
const MAINNET = {
  koin: '19GYjDBVXU7keLbYvMLazsGQn3GTWHjHkK',
  vhp: '12Y5vW6gk8GceH53YfRkRre2Rrcsgw7Naq',
  pob: '159myq5YUhhoVWu3wsHKHiJYKPKGUrGiyv',
  claim: '18zw3ZokdfHtudzaWAUnU4tUvKzKiJeN76',
  resources: '1HGN9h47CzoFwU2bQZwe6BYoX4TM6pXc4b',
  governance: '19qj51eTbSFJYU7ZagudkpxPgNSzPMfdPX',
};

type Account = Devnet['accounts'][number];

/** A contract as a dApp builds it: ABI from the node's contract meta store. */
async function fetched(id: string, provider: Provider, signer?: Signer): Promise<Contract> {
  const contract = new Contract({ id, provider, signer });
  await contract.fetchAbi();
  expect(contract.abi, `the node answers an ABI for ${id}`).toBeDefined();
  return contract;
}

/** A read's decoded result; koilib leaves it undefined when the contract answers empty bytes (every field unset). */
async function read<T>(contract: Contract, name: string, args: Record<string, unknown> = {}): Promise<T> {
  return ((await method(contract, name)(args)).result ?? {}) as T;
}

describe('system contracts of a devnet shaped like mainnet', () => {
  let devnet: Devnet;
  let provider: Provider;
  let alice: Account;
  let bob: Account;
  const signer = (wif: string) => Object.assign(Signer.fromWif(wif), { provider });

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, blockTimeMs: 0, accounts: 2, shape: { like: 'mainnet' }, log: () => {} });
    provider = new Provider([`${devnet.url}/jsonrpc`]);
    [alice, bob] = devnet.accounts as [Account, Account];
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('registers every system name at its mainnet address', async () => {
    for (const name of ['pob', 'claim', 'resources', 'governance'] as const) {
      expect(await provider.invokeGetContractAddress(name)).toEqual({ value: { address: MAINNET[name] } });
    }
  });

  it("answers pob's consensus parameters and metadata as a fresh chain's pob does", async () => {
    const pob = await fetched(MAINNET.pob, provider);
    const { value: params } = await read<{ value: Record<string, number> }>(pob, 'get_consensus_parameters');
    expect(params).toEqual({
      target_annual_inflation_rate: 19802,
      target_burn_percent: 501000,
      target_block_interval: 3000,
      quantum_length: 10,
    });
    const { value: metadata } = await read<{ value: { seed: string; difficulty: string; last_block_time?: string } }>(
      pob,
      'get_metadata',
    );
    // seed = the chain id, difficulty = 2^57 as 16 big-endian bytes (Pob.ts fetch_metadata before the first block).
    expect(utils.toHexString(utils.decodeBase64url(metadata.seed))).toBe(
      utils.toHexString(utils.decodeBase64url(await provider.getChainId())),
    );
    expect(BigInt(`0x${utils.toHexString(utils.decodeBase64url(metadata.difficulty))}`)).toBe(1n << 57n);
    expect(utils.decodeBase64url(metadata.difficulty)).toHaveLength(16);
    const head = await provider.getHeadInfo();
    expect(BigInt(metadata.last_block_time ?? 0)).toBe(BigInt(head.head_block_time ?? 0));
  });

  it('burns KOIN for VHP one for one when the owner approves pob in the same transaction, as Kondor does', async () => {
    const koin = new Contract({ id: MAINNET.koin, abi: utils.tokenAbi, provider, signer: signer(alice.wif) });
    const vhp = new Contract({ id: MAINNET.vhp, abi: utils.tokenAbi, provider });
    const pob = await fetched(MAINNET.pob, provider, signer(alice.wif));
    const balance = async (token: Contract, owner: string) =>
      BigInt((await read<{ value?: string }>(token, 'balanceOf', { owner })).value ?? '0');
    const supply = async (token: Contract) =>
      BigInt((await read<{ value?: string }>(token, 'totalSupply')).value ?? '0');
    const before = {
      koin: await balance(koin, alice.address),
      vhp: await balance(vhp, alice.address),
      koinSupply: await supply(koin),
      vhpSupply: await supply(vhp),
    };
    const amount = 7n * KOIN;

    const transaction = new Transaction({
      signer: signer(alice.wif),
      provider,
      options: { rcLimit: String(10n * KOIN) },
    });
    const approve = await method(koin, 'approve')(
      { owner: alice.address, spender: MAINNET.pob, value: String(amount) },
      { onlyOperation: true },
    );
    const burn = await method(pob, 'burn')(
      { token_amount: String(amount), burn_address: alice.address, vhp_address: alice.address },
      { onlyOperation: true },
    );
    await transaction.pushOperation(approve.operation!);
    await transaction.pushOperation(burn.operation!);
    const receipt = await transaction.send();
    await included(provider, transaction.transaction);

    expect(receipt.reverted ?? false).toBe(false);
    expect(receipt.events.map((e) => [e.name, e.source])).toEqual([
      ['token.approve_event', MAINNET.koin],
      ['token.burn_event', MAINNET.koin],
      ['token.mint_event', MAINNET.vhp],
    ]);
    expect(before.koin - (await balance(koin, alice.address))).toBe(amount);
    expect((await balance(vhp, alice.address)) - before.vhp).toBe(amount);
    expect(before.koinSupply - (await supply(koin))).toBe(amount);
    expect((await supply(vhp)) - before.vhpSupply).toBe(amount);
    // The allowance is spent to zero, so KOIN removed it.
    expect(
      (await read<{ value?: string }>(koin, 'allowance', { owner: alice.address, spender: MAINNET.pob })).value ?? '0',
    ).toBe('0');
  });

  it("refuses a burn the owner signed but did not approve, with KOIN's message (KCS-4 KOIN asks a contract caller for an allowance)", async () => {
    const vhp = new Contract({ id: MAINNET.vhp, abi: utils.tokenAbi, provider });
    const pob = await fetched(MAINNET.pob, provider, signer(bob.wif));
    const before = (await read<{ value?: string }>(vhp, 'balanceOf', { owner: bob.address })).value ?? '0';
    const error = await failure(
      method(pob, 'burn')({ token_amount: String(KOIN), burn_address: bob.address, vhp_address: bob.address }),
    );
    expect(error.message).toContain("account 'from' has not authorized burn");
    expect((await read<{ value?: string }>(vhp, 'balanceOf', { owner: bob.address })).value ?? '0').toBe(before);
  });

  it("registers a producer's public key with the producer's signature and refuses another signer", async () => {
    const asAlice = await fetched(MAINNET.pob, provider, signer(alice.wif));
    const publicKey = utils.encodeBase64url(Signer.fromWif(alice.wif).publicKey as Uint8Array);
    const missing = await failure(method(asAlice, 'get_public_key')({ producer: alice.address }));
    expect(missing.message).toContain('given address has no public key record');
    const answer = await write(asAlice, 'register_public_key', { producer: alice.address, public_key: publicKey });
    expect(answer.receipt?.events?.map((e) => e.name)).toEqual(['koinos.contracts.pob.register_public_key_event']);
    expect(await read(asAlice, 'get_public_key', { producer: alice.address })).toEqual({ value: publicKey });
    const asBob = await fetched(MAINNET.pob, provider, signer(bob.wif));
    const refused = await failure(
      method(asBob, 'register_public_key')({ producer: alice.address, public_key: publicKey }),
    );
    expect(refused.message).toContain(`account '${alice.address}' authorization failed`);
  });

  it('answers the resource limits the devnet meters with, and the markets and parameters behind them', async () => {
    const resources = await fetched(MAINNET.resources, provider);
    const { value: limits } = await read<{ value: Record<string, string> }>(resources, 'get_resource_limits');
    expect(Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, BigInt(v)]))).toEqual(RESOURCE_LIMITS);
    expect(await provider.getResourceLimits()).toEqual({ resource_limit_data: limits });
    const { value: markets } = await read<{
      value: Record<string, { block_limit: string; block_budget: string; resource_supply: string }>;
    }>(resources, 'get_resource_markets');
    expect(BigInt(markets.compute_bandwidth!.block_limit)).toBe(RESOURCE_LIMITS.compute_bandwidth_limit);
    expect(BigInt(markets.disk_storage!.block_limit)).toBe(RESOURCE_LIMITS.disk_storage_limit);
    expect(markets.network_bandwidth!.block_budget).toBe('262144');
    expect(BigInt(markets.network_bandwidth!.resource_supply)).toBeGreaterThan(0n);
    const { value: params } = await read<{ value: Record<string, string> }>(resources, 'get_resource_parameters');
    expect(params).toMatchObject({
      block_interval_ms: '3000',
      rc_regen_ms: '432000000',
      print_rate_premium: '1688',
      print_rate_precision: '1000',
    });
  });

  it('refuses to set resource parameters: without the system authority as the contract does, with it because prices are fixed', async () => {
    const asAlice = await fetched(MAINNET.resources, provider, signer(alice.wif));
    const params = {
      block_interval_ms: '1000',
      rc_regen_ms: '1',
      decay_constant: '1',
      one_minus_decay_constant: '1',
      print_rate_premium: '1',
      print_rate_precision: '1',
    };
    const unauthorized = await failure(method(asAlice, 'set_resource_parameters')({ params }));
    expect(unauthorized.message).toContain('can only set resource parameters with system authority');
    const asGenesis = await fetched(MAINNET.resources, provider, signer(devnet.node.genesisAccount.wif));
    const fixed = await failure(method(asGenesis, 'set_resource_parameters')({ params }));
    expect(fixed.message).toContain("the devnet's resource prices are fixed");
  });

  it('answers an empty claim set and refuses a claim as the claim contract refuses an unknown address', async () => {
    const claim = await fetched(MAINNET.claim, provider, signer(alice.wif));
    const { value: info } = await read<{ value?: Record<string, number | string> }>(claim, 'get_info');
    expect(Number(info?.total_eth_accounts ?? 0) + Number(info?.eth_accounts_claimed ?? 0)).toBe(0);
    expect(BigInt(info?.total_koin ?? 0) + BigInt(info?.koin_claimed ?? 0)).toBe(0n);
    const status = await read<{ value?: { token_amount?: string; claimed?: boolean } }>(claim, 'check_claim', {
      eth_address: '0x' + '11'.repeat(20),
    });
    expect(status.value?.claimed ?? false).toBe(false);
    expect(status.value?.token_amount ?? '0').toBe('0');
    const refused = await failure(
      method(
        claim,
        'claim',
      )({
        eth_address: '0x' + '11'.repeat(20),
        koin_address: alice.address,
        signature: utils.encodeBase64url(new Uint8Array(65)),
      }),
    );
    expect(refused.message).toContain('no KOIN claim with that address exists');
  });

  it('lists no governance proposals and refuses a submission with a devnet message', async () => {
    const governance = await fetched(MAINNET.governance, provider, signer(alice.wif));
    expect((await read<{ value?: unknown[] }>(governance, 'get_proposals', { limit: 10 })).value ?? []).toEqual([]);
    expect(
      (await read<{ value?: unknown[] }>(governance, 'get_proposals_by_status', { limit: 10, status: 'active' }))
        .value ?? [],
    ).toEqual([]);
    const id = utils.encodeBase64url(new Uint8Array([0x12, 0x20, ...new Uint8Array(32)]));
    expect(
      (
        await read<{ value?: unknown }>(governance, 'get_proposal_by_id', {
          proposal_id: `0x${utils.toHexString(utils.decodeBase64url(id))}`,
        })
      ).value,
    ).toBeUndefined();
    const refused = await failure(
      method(governance, 'submit_proposal')({ operations: [], operation_merkle_root: id, fee: '0' }),
    );
    expect(refused.message).toContain('submit_proposal is not supported on the devnet');
  });
});

describe('system contracts of a devnet shaped like harbinger', () => {
  let devnet: Devnet;
  let provider: Provider;

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, blockTimeMs: 0, accounts: 1, shape: { like: 'harbinger' }, log: () => {} });
    provider = new Provider([`${devnet.url}/jsonrpc`]);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it("runs pob at harbinger's address and has no claim contract, as harbinger has none", async () => {
    const { value } = (await provider.invokeGetContractAddress('pob'))!;
    expect(value.address).toBe('1MAbK5pYkhp9yHnfhYamC3tfSLmVRTDjd9');
    const pob = await fetched(value.address, provider);
    expect(
      (await read<{ value: { quantum_length: number } }>(pob, 'get_consensus_parameters')).value.quantum_length,
    ).toBe(10);
    await failure(provider.invokeGetContractAddress('claim'));
  });
});
