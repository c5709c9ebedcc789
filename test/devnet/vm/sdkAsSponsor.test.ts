// A contract as a transaction's payer, on a real devnet over HTTP with koilib: the sponsor (test/contracts/sponsor,
// uploaded with authorizes_transaction_application) approves through its own `authorize` entry point, as koinos-chain's
// apply_transaction asks check_authority(transaction_application, payer); it pays for transactions up to 1 KOIN of
// rc_limit that the payee signed, and refuses larger ones with the chain's authorization failure.
import { Contract, Provider, Signer, utils } from 'koilib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { NO_PROTOC, buildContract, type BuiltContract } from '../../contracts/build.ts';
import { failure, included, method, write } from '../koilibContract.ts';
import { KOIN } from '../../helpers/constants.ts';

/** One cold build (protoc, as-proto-gen and asc): tens of seconds on a busy 2-core machine. */
const BUILD_TIMEOUT_MS = 400_000;

type Abi = NonNullable<ConstructorParameters<typeof Contract>[0]['abi']>;
type Account = Devnet['accounts'][number];

let devnet: Devnet;
let provider: Provider;
let alice: Account;
let bob: Account;
let built: BuiltContract;
const sponsorKey = Signer.fromSeed('koinos-wallet sdk-as sponsor key');
const sponsor = sponsorKey.getAddress();

function signer(wif: string): Signer {
  return Object.assign(Signer.fromWif(wif), { provider });
}

async function rpc<T>(method: string, params: unknown): Promise<T> {
  const answer = (await (
    await fetch(`${devnet.url}/jsonrpc`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
  ).json()) as { result: T };
  return answer.result;
}

const manaOf = async (account: string): Promise<bigint> =>
  BigInt((await rpc<{ rc?: string }>('chain.get_account_rc', { account })).rc ?? '0');

beforeAll(async () => {
  if (NO_PROTOC !== undefined) return;
  built = await buildContract('sponsor');
  devnet = await startDevnet({
    port: 0,
    blockTimeMs: 0,
    accounts: 2,
    initialBalance: 1_000_000n * KOIN,
    log: () => {},
  });
  provider = new Provider([`${devnet.url}/jsonrpc`]);
  [alice, bob] = devnet.accounts as [Account, Account];
  const koin = new Contract({ id: devnet.koinAddress, abi: utils.tokenAbi, provider, signer: signer(alice.wif) });
  await write(koin, 'transfer', { from: alice.address, to: sponsor, value: (100n * KOIN).toString() });
  const key = Object.assign(sponsorKey, { provider });
  const deployed = await new Contract({
    id: sponsor,
    abi: built.abi as Abi,
    provider,
    signer: key,
    bytecode: built.bytecode,
  }).deploy({
    abi: JSON.stringify(built.abi),
    authorizesTransactionApplication: true,
  });
  await included(provider, deployed.transaction);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await devnet?.stop();
});

describe.skipIf(NO_PROTOC !== undefined)('a contract paying for transactions', () => {
  it("pays for alice's transfer that only alice signed, through its authorize entry point", async () => {
    const koin = new Contract({ id: devnet.koinAddress, abi: utils.tokenAbi, provider, signer: signer(alice.wif) });
    const limit = (await method(new Contract({ id: sponsor, abi: built.abi as Abi, provider }), 'get_limit')({}))
      .result as { value: string };
    expect(BigInt(limit.value)).toBe(KOIN);
    const [sponsorBefore, aliceBefore] = [await manaOf(sponsor), await manaOf(alice.address)];

    const sent = await method(koin, 'transfer')(
      { from: alice.address, to: bob.address, value: '1000' },
      { payer: sponsor, payee: alice.address, rcLimit: (KOIN / 2n).toString() },
    );
    expect(sent.transaction!.signatures).toHaveLength(1);
    await included(provider, sent.transaction);
    const receipt = sent.receipt!;
    expect([receipt.payer, receipt.reverted ?? false]).toEqual([sponsor, false]);
    // The sponsor's mana went down by rc_used, less what regenerated meanwhile (mana regenerates with time).
    const sponsorAfter = await manaOf(sponsor);
    expect(sponsorAfter).toBeLessThan(sponsorBefore);
    expect(sponsorAfter).toBeGreaterThanOrEqual(sponsorBefore - BigInt(receipt.rc_used));
    // Alice's mana only regenerates (she holds the balance that moved, less 1000 satoshis, none was spent on mana).
    expect(await manaOf(alice.address)).toBeGreaterThanOrEqual(aliceBefore - 1000n);
    expect((await koin.functions.balanceOf!({ owner: bob.address })).result).toEqual({
      value: (1_000_000n * KOIN + 1000n).toString(),
    });
  });

  it("refuses a transaction its authorize says no to, with the chain's authorization failure", async () => {
    const koin = new Contract({ id: devnet.koinAddress, abi: utils.tokenAbi, provider, signer: signer(alice.wif) });
    const refused = await failure(
      method(koin, 'transfer')(
        { from: alice.address, to: bob.address, value: '1000' },
        { payer: sponsor, payee: alice.address, rcLimit: (2n * KOIN).toString() },
      ),
    );
    expect(refused.message).toContain(`account ${sponsor} has not authorized transaction`);
    expect(refused.message).toContain('-200');
  });

  it("does not take the payer's signature for a contract payer, and still asks the payee's", async () => {
    const koin = new Contract({ id: devnet.koinAddress, abi: utils.tokenAbi, provider, signer: signer(bob.wif) });
    // Bob signs a transfer of alice's tokens with alice as payee: the sponsor approves, alice's signature is missing.
    const notAlice = await failure(
      method(koin, 'transfer')(
        { from: alice.address, to: bob.address, value: '1' },
        { payer: sponsor, payee: alice.address, rcLimit: (KOIN / 2n).toString() },
      ),
    );
    expect(notAlice.message).toContain(`account ${alice.address} has not authorized transaction`);
  });
});
