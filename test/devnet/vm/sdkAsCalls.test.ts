// Two contracts built from @koinos/sdk-as in the test run, one calling the other on a real devnet over HTTP with
// koilib: the fan signs the guestbook with System.call, the guestbook sees the fan as its caller (the SDK's
// checkAccountAuthority), a reversion in the callee ends the whole call, and a read goes through the nested call.
import { Contract, Provider, Signer, utils } from 'koilib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { NO_PROTOC, buildContract, type BuiltContract } from '../../contracts/build.ts';
import { failure, included, method, write } from '../koilibContract.ts';
import { KOIN } from '../../helpers/constants.ts';

/** Two cold builds (protoc, as-proto-gen and asc each): tens of seconds each on a busy 2-core machine. */
const BUILD_TIMEOUT_MS = 400_000;

type Abi = NonNullable<ConstructorParameters<typeof Contract>[0]['abi']>;
type Account = Devnet['accounts'][number];

let devnet: Devnet;
let provider: Provider;
let alice: Account;
const keys = {
  guestbook: Signer.fromSeed('koinos-wallet sdk-as guestbook key (calls)'),
  fan: Signer.fromSeed('koinos-wallet sdk-as fan key'),
};
const built: Partial<Record<keyof typeof keys, BuiltContract>> = {};

function signer(wif: string): Signer {
  return Object.assign(Signer.fromWif(wif), { provider });
}

/** A contract as `as` sees it. */
function contract(name: keyof typeof keys, as: Signer): Contract {
  return new Contract({ id: keys[name].getAddress(), abi: built[name]!.abi as Abi, provider, signer: as });
}

beforeAll(async () => {
  if (NO_PROTOC !== undefined) return;
  built.guestbook = await buildContract('guestbook');
  built.fan = await buildContract('fan');
  devnet = await startDevnet({
    port: 0,
    blockTimeMs: 0,
    accounts: 1,
    initialBalance: 1_000_000n * KOIN,
    log: () => {},
  });
  provider = new Provider([`${devnet.url}/jsonrpc`]);
  [alice] = devnet.accounts as [Account];
  const koin = new Contract({ id: devnet.koinAddress, abi: utils.tokenAbi, provider, signer: signer(alice.wif) });
  for (const name of ['guestbook', 'fan'] as const) {
    const key = Object.assign(keys[name], { provider });
    await write(koin, 'transfer', { from: alice.address, to: key.getAddress(), value: (100n * KOIN).toString() });
    const { abi, bytecode } = built[name]!;
    const deployed = await new Contract({
      id: key.getAddress(),
      abi: abi as Abi,
      provider,
      signer: key,
      bytecode,
    }).deploy({ abi: JSON.stringify(abi) });
    await included(provider, deployed.transaction);
  }
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await devnet?.stop();
});

describe.skipIf(NO_PROTOC !== undefined)('an SDK contract calling another', () => {
  it('signs the guestbook in its own name: the guestbook sees the fan as its caller and emits the event', async () => {
    const cheered = await write(contract('fan', signer(alice.wif)), 'cheer', {
      guestbook: keys.guestbook.getAddress(),
      message: 'cheers',
    });
    const events = cheered.receipt?.events ?? [];
    // The event's source is the contract that emitted it (the callee), not the one the transaction called.
    expect(events.map((e) => [e.name, e.source, e.impacted])).toEqual([
      ['guestbook.signed', keys.guestbook.getAddress(), [keys.fan.getAddress()]],
    ]);
    expect(cheered.receipt?.logs).toEqual(['entry 1 signed']);
    const guestbook = contract('guestbook', signer(alice.wif));
    expect((await method(guestbook, 'get_entry')({ number: '1' })).result).toEqual({
      signer: keys.fan.getAddress(),
      message: 'cheers',
    });

    // The nested call costs more than the same work called directly.
    const direct = await write(guestbook, 'sign', { signer: alice.address, message: 'cheers' });
    expect(BigInt(cheered.receipt!.compute_bandwidth_used)).toBeGreaterThan(
      BigInt(direct.receipt!.compute_bandwidth_used),
    );
  });

  it("ends the whole transaction with the callee's reversion, even when the account itself signed it", async () => {
    const fan = contract('fan', signer(alice.wif));
    // The SDK's checkAccountAuthority: a calling contract that is not the account, for an account without a contract
    // that authorizes calls, is refused although alice signed the transaction.
    const inAlicesName = await failure(
      method(
        fan,
        'cheer_as',
      )({ guestbook: keys.guestbook.getAddress(), signer: alice.address, message: 'not from alice' }),
    );
    expect(inAlicesName.message).toContain(`account '${alice.address}' authorization failed`);
    const tooLong = await failure(
      method(fan, 'cheer')({ guestbook: keys.guestbook.getAddress(), message: 'x'.repeat(141) }),
    );
    expect(tooLong.message).toMatch(/expected a message of 1 to 140 characters, found 141/);
    expect((await method(contract('guestbook', signer(alice.wif)), 'count')({})).result).toEqual({ value: '2' });
  });

  it('reads through a nested call in chain.read_contract', async () => {
    const { result } = await method(
      contract('fan', signer(alice.wif)),
      'entries',
    )({ guestbook: keys.guestbook.getAddress() });
    expect(result).toEqual({ value: '2' });
  });
});
