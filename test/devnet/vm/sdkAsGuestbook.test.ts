// A contract written here with @koinos/sdk-as and built in the test run (test/contracts/guestbook), uploaded to a real
// devnet over HTTP with koilib and called as a dApp would: writes, read_contract, events, reversions, compute, and
// KOIN held and sent through the SDK's Token.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, Provider, Signer, utils } from 'koilib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { checkModule } from '../../../src-main/devnet/vm/checkModule.ts';
import { NO_PROTOC, buildContract, entryPoint, type BuiltContract } from '../../contracts/build.ts';
import { rpc, rpcError } from '../httpHelpers.ts';
import { failure, included, method, write } from '../koilibContract.ts';
import { KOIN } from '../../helpers/constants.ts';

/** A cold build runs protoc, as-proto-gen and asc: tens of seconds on a busy 2-core machine. */
const BUILD_TIMEOUT_MS = 300_000;

type Abi = NonNullable<ConstructorParameters<typeof Contract>[0]['abi']>;
type Account = Devnet['accounts'][number];

let built: BuiltContract;
let devnet: Devnet;
let provider: Provider;
let owner: Signer;
let alice: Account;
let bob: Account;
let carol: Account;

function signer(wif: string): Signer {
  return Object.assign(Signer.fromWif(wif), { provider });
}

/** The guestbook as one account sees it (its signer pays and signs). */
function guestbookFor(as: Signer): Contract {
  return new Contract({ id: owner.getAddress(), abi: built.abi as Abi, provider, signer: as });
}

function koinFor(as: Signer): Contract {
  return new Contract({ id: devnet.koinAddress, abi: utils.tokenAbi, provider, signer: as });
}

async function koinBalance(address: string): Promise<bigint> {
  const { result } = await method(koinFor(owner), 'balanceOf')({ owner: address });
  return BigInt((result as { value?: string } | undefined)?.value ?? '0');
}

beforeAll(async () => {
  if (NO_PROTOC !== undefined) return;
  built = await buildContract('guestbook');
  devnet = await startDevnet({
    port: 0,
    blockTimeMs: 0,
    accounts: 3,
    initialBalance: 1_000_000n * KOIN,
    log: () => {},
  });
  provider = new Provider([`${devnet.url}/jsonrpc`]);
  [alice, bob, carol] = devnet.accounts as [Account, Account, Account];
  owner = Object.assign(Signer.fromSeed('koinos-wallet sdk-as guestbook key'), { provider });
  // The guestbook's key pays for its upload (the bytecode's network bytes) with KOIN from alice.
  await write(koinFor(signer(alice.wif)), 'transfer', {
    from: alice.address,
    to: owner.getAddress(),
    value: (100n * KOIN).toString(),
  });
  const deployed = await new Contract({
    id: owner.getAddress(),
    abi: built.abi as Abi,
    provider,
    signer: owner,
    bytecode: built.bytecode,
  }).deploy({
    abi: JSON.stringify(built.abi),
  });
  expect(deployed.receipt?.reverted ?? false).toBe(false);
  await included(provider, deployed.transaction);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await devnet?.stop();
});

describe.skipIf(NO_PROTOC !== undefined)('a contract built from @koinos/sdk-as in the test run', () => {
  it('is WebAssembly 1.0 with an exported _start, and its ABI numbers methods as the SDK dispatch does', () => {
    // The chain's check (fizzy: WebAssembly 1.0, an exported _start, only the host's imports) passes.
    const layout = checkModule(built.bytecode);
    expect(layout.exports.map((e) => e.name)).toContain('_start');
    expect(layout.importedFuncs.map((i) => i.name)).toEqual(['invoke_system_call']);
    expect(built.abi.methods.sign!.entry_point).toBe(entryPoint('sign'));
    expect(built.abi.methods.sign!.entry_point).toBe(0x0b6f395c);
    expect(Object.keys(built.abi.methods).sort()).toEqual(['count', 'get_entry', 'payout', 'sign', 'tip']);
  });

  it("makes the ABI koinos-abi-proto-gen makes, in koilib's shape", () => {
    // test/contracts/guestbook.abi-proto-gen.abi: the generator's output for guestbook.proto (@koinos/abi-proto-gen
    // 1.0.0 under Debian's protoc 3.21.12). The generator cannot run in a test: its first run npm-installs protobufjs
    // 6's CLI dependencies into node_modules. After changing guestbook.proto, regenerate it (README, Develop a contract).
    const generated = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../contracts/guestbook.abi-proto-gen.abi'), 'utf8'),
    ) as {
      methods: Record<
        string,
        { argument: string; return: string; description: string; 'entry-point': string; 'read-only': boolean }
      >;
      types: string;
    };
    expect(built.abi.types).toBe(generated.types);
    expect(Object.keys(built.abi.methods).sort()).toEqual(Object.keys(generated.methods).sort());
    for (const [name, m] of Object.entries(generated.methods)) {
      expect(built.abi.methods[name]).toEqual({
        entry_point: Number.parseInt(m['entry-point'], 16),
        argument: m.argument,
        return: m.return,
        read_only: m['read-only'],
        description: m.description,
      });
    }
  });

  it('answers a read-only method over chain.read_contract before anything is written', async () => {
    const { result } = await method(guestbookFor(owner), 'count')({});
    expect(result).toBeUndefined(); // an empty count_result: value 0 is not on the wire
    const raw = await rpc(devnet.url, 'chain.read_contract', {
      contract_id: owner.getAddress(),
      entry_point: entryPoint('count'),
      args: '',
    });
    expect(raw.result ?? '').toBe('');
  });

  it('stores a signed entry and emits guestbook.signed with the signer impacted, decoded by koilib', async () => {
    const guestbook = guestbookFor(signer(alice.wif));
    const signed = await write(guestbook, 'sign', { signer: alice.address, message: 'hello from the devnet' });
    expect(signed.receipt?.reverted ?? false).toBe(false);
    expect(signed.receipt?.logs).toEqual(['entry 1 signed']);

    const events = signed.receipt?.events ?? [];
    expect(events.map((e) => [e.name, e.source, e.impacted])).toEqual([
      ['guestbook.signed', owner.getAddress(), [alice.address]],
    ]);
    const decoded = await guestbook.decodeEvent(events[0]!);
    expect(decoded.args).toEqual({ number: '1', signer: alice.address, message: 'hello from the devnet' });

    expect((await method(guestbook, 'get_entry')({ number: '1' })).result).toEqual({
      signer: alice.address,
      message: 'hello from the devnet',
    });
    expect((await method(guestbook, 'count')({})).result).toEqual({ value: '1' });
  });

  it('gives back the ABI uploaded with it, so that koilib fetchAbi finds its methods and types', async () => {
    const fetched = new Contract({ id: owner.getAddress(), provider });
    expect(await fetched.fetchAbi()).toEqual(built.abi);
    expect((await method(fetched, 'get_entry')({ number: '1' })).result).toEqual({
      signer: alice.address,
      message: 'hello from the devnet',
    });
  });

  it("reverts with the contract's own message and changes nothing", async () => {
    const guestbook = guestbookFor(signer(alice.wif));
    const tooLong = await failure(method(guestbook, 'sign')({ signer: alice.address, message: 'x'.repeat(141) }));
    expect(tooLong.message).toMatch(/expected a message of 1 to 140 characters, found 141/);
    // System.requireAuthority: alice cannot sign in bob's name.
    const forBob = await failure(method(guestbook, 'sign')({ signer: bob.address, message: 'not bob' }));
    expect(forBob.message).toContain(`account '${bob.address}' authorization failed`);
    // A read-only method's System.require, over read_contract.
    const missing = await rpcError(devnet.url, 'chain.read_contract', {
      contract_id: owner.getAddress(),
      entry_point: entryPoint('get_entry'),
      args: utils.encodeBase64url(new Uint8Array([0x08, 99])),
    });
    expect(missing.message).toBe('expected an entry numbered 99, found none');
    const unknown = await rpcError(devnet.url, 'chain.read_contract', {
      contract_id: owner.getAddress(),
      entry_point: 1,
      args: '',
    });
    expect(unknown.message).toBe('expected a known entry point, found 0x1');
    expect((await method(guestbook, 'count')({})).result).toEqual({ value: '1' });
  });

  it('charges compute for its instructions and system calls, the same for the same work', async () => {
    const bobGuestbook = guestbookFor(signer(bob.wif));
    const first = await write(bobGuestbook, 'sign', { signer: bob.address, message: 'same words' });
    const second = await write(bobGuestbook, 'sign', { signer: bob.address, message: 'same words' });
    const compute = BigInt(first.receipt!.compute_bandwidth_used);
    // Far above a native call's few thousand: every wasm instruction of the SDK's encoding and dispatch is a tick.
    expect(compute).toBeGreaterThan(100_000n);
    // Not across signers: System.requireAuthority builds its message (a base58 of the signer) before it checks, and
    // base58 takes more or fewer instructions for other bytes.
    expect(BigInt(second.receipt!.compute_bandwidth_used)).toBe(compute);
    expect(BigInt(second.receipt!.rc_used)).toBeGreaterThan(0n);
  });

  it("takes a KOIN tip within the tipper's allowance and pays it out when its own key signs", async () => {
    const aliceSigner = signer(alice.wif);
    const tip = 3n * KOIN;
    const before = await koinBalance(owner.getAddress());
    await write(koinFor(aliceSigner), 'approve', {
      owner: alice.address,
      spender: owner.getAddress(),
      value: tip.toString(),
    });

    const tipped = await write(guestbookFor(aliceSigner), 'tip', {
      token: devnet.koinAddress,
      from: alice.address,
      value: tip.toString(),
    });
    const events = tipped.receipt?.events ?? [];
    // KOIN's own transfer event (source KOIN), then the guestbook's.
    expect(events.map((e) => [e.name, e.source])).toEqual([
      ['token.transfer_event', devnet.koinAddress],
      ['guestbook.tipped', owner.getAddress()],
    ]);
    expect((await guestbookFor(aliceSigner).decodeEvent(events[1]!)).args).toEqual({
      token: devnet.koinAddress,
      from: alice.address,
      value: tip.toString(),
    });
    expect(await koinBalance(owner.getAddress())).toBe(before + tip);

    // The allowance is spent: KOIN refuses the contract although alice signed the transaction (koinos-sdk-as
    // checkAccountAuthority: a transaction's signatures do not authorize a calling contract). KOIN's refusal is a
    // failure, which comes back to the contract as `false` from Token.transfer, and the contract reverts with its own message.
    const again = await failure(
      method(
        guestbookFor(aliceSigner),
        'tip',
      )({ token: devnet.koinAddress, from: alice.address, value: tip.toString() }),
    );
    expect(again.message).toContain(`the token refused to move a tip of ${tip} to the guestbook`);

    // So does a balance too low, even with the allowance.
    const carolSigner = signer(carol.wif);
    const tooMuch = (2_000_000n * KOIN).toString();
    await write(koinFor(carolSigner), 'approve', { owner: carol.address, spender: owner.getAddress(), value: tooMuch });
    const poor = await failure(
      method(guestbookFor(carolSigner), 'tip')({ token: devnet.koinAddress, from: carol.address, value: tooMuch }),
    );
    expect(poor.message).toContain(`the token refused to move a tip of ${tooMuch} to the guestbook`);
    expect(await koinBalance(owner.getAddress())).toBe(before + tip);

    // Paying out needs the guestbook's own key; alice's signature is not enough.
    const payout = { token: devnet.koinAddress, to: bob.address, value: KOIN.toString() };
    const notOwner = await failure(method(guestbookFor(aliceSigner), 'payout')(payout));
    expect(notOwner.message).toContain(`account '${owner.getAddress()}' authorization failed`);
    const bobBefore = await koinBalance(bob.address);
    await write(guestbookFor(owner), 'payout', payout);
    expect(await koinBalance(bob.address)).toBe(bobBefore + KOIN);
    expect(await koinBalance(owner.getAddress())).toBe(before + tip - KOIN);
  });
});
