// Interop with a client nobody here wrote: koilib 9.1.1 (its own Signer, Provider, Contract and token ABI) signs and
// sends a KOIN transfer to the devnet over HTTP, waits for inclusion, and sees the same state as the devnet itself.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Contract, Provider, Signer, utils } from 'koilib';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { koinBalance, rest, rpc } from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';

const INITIAL = 1_000_000n * KOIN;

let devnet: Devnet;
let provider: Provider;

beforeAll(async () => {
  // One block per accepted transaction: the state is still between transfers, so both views can be compared exactly.
  devnet = await startDevnet({ port: 0, blockTimeMs: 0, accounts: 3, initialBalance: INITIAL, log: () => {} });
  provider = new Provider([`${devnet.url}/jsonrpc`]);
});

afterAll(async () => {
  await devnet?.stop();
});

/** A method of a koilib Contract (its `functions` map is typed as possibly missing any name). */
function call(contract: Contract, name: string): NonNullable<Contract['functions'][string]> {
  const fn = contract.functions[name];
  if (!fn) throw new Error(`koilib's token ABI has no method ${name}`);
  return fn;
}

function koinFor(wif: string): { signer: Signer; koin: Contract } {
  const signer = Signer.fromWif(wif);
  signer.provider = provider;
  const koin = new Contract({ id: devnet.koinAddress, abi: utils.tokenAbi, provider, signer });
  return { signer, koin };
}

describe('koilib against the devnet', () => {
  it('derives the same addresses from the development WIFs and reads the same chain id', async () => {
    for (const account of devnet.accounts) expect(Signer.fromWif(account.wif).getAddress()).toBe(account.address);
    expect(await provider.getChainId()).toBe(devnet.chainId);
  });

  it('reads KOIN name, symbol, decimals and balances through its Contract class and the token ABI', async () => {
    const { koin } = koinFor(devnet.accounts[0]!.wif);
    expect((await call(koin, 'name')()).result).toEqual({ value: 'Koin' });
    expect((await call(koin, 'symbol')()).result).toEqual({ value: 'KOIN' });
    expect((await call(koin, 'decimals')()).result).toEqual({ value: 8 });
    const { result } = await call(koin, 'balanceOf')({ owner: devnet.accounts[2]!.address });
    expect(result).toEqual({ value: INITIAL.toString() });
  });

  it('signs and sends a KOIN transfer with its own Signer and Provider, waits for it, and agrees with the devnet', async () => {
    const [sender, receiver] = devnet.accounts as [(typeof devnet.accounts)[0], (typeof devnet.accounts)[0]];
    const { koin } = koinFor(sender.wif);
    const value = 123_456_789n;
    const before = await call(koin, 'balanceOf')({ owner: receiver.address });

    // koilib fills chain id, nonce (get_account_nonce + 1) and rc_limit (the payer's whole mana) itself.
    const { transaction, receipt } = await call(
      koin,
      'transfer',
    )({ from: sender.address, to: receiver.address, value: value.toString() });
    expect(transaction).toBeDefined();
    expect(receipt?.reverted ?? false).toBe(false);
    expect(BigInt(receipt!.rc_used)).toBeGreaterThan(0n);
    const included = await transaction!.wait('byTransactionId', 15_000);
    expect(included.blockNumber).toBeGreaterThan(0);

    // The block koilib found is the one the devnet stored the transaction in.
    const { transactions } = await rpc(devnet.url, 'transaction_store.get_transactions_by_id', {
      transaction_ids: [transaction!.id],
    });
    expect(transactions[0].containing_blocks).toEqual([included.blockId]);

    const after = await call(koin, 'balanceOf')({ owner: receiver.address });
    expect(BigInt(after.result!.value as string) - BigInt(before.result!.value as string)).toBe(value);

    // koilib's view equals the devnet's own view (JSON-RPC read by this project's client, and REST).
    for (const account of [sender, receiver]) {
      const viaKoilib = BigInt((await call(koin, 'balanceOf')({ owner: account.address })).result!.value as string);
      expect(viaKoilib).toBe(await koinBalance(devnet.url, devnet.koinAddress, account.address));
      const rc = await provider.getAccountRc(account.address);
      expect(rc).toBe((await rpc(devnet.url, 'chain.get_account_rc', { account: account.address })).rc ?? '0');
      expect(BigInt(rc)).toBeLessThanOrEqual(viaKoilib);
    }
    expect(await koinBalance(devnet.url, devnet.koinAddress, sender.address)).toBe(INITIAL - value);
    expect(await koinBalance(devnet.url, devnet.koinAddress, receiver.address)).toBe(INITIAL + value);
    expect(await provider.getNonce(sender.address)).toBe(1);

    // The receipt's transfer event, as the REST API decodes it.
    const record = await rest(devnet.url, `/v1/transaction/${transaction!.id}`);
    const event = record.body.receipt.events.find((e: { name: string }) => e.name.endsWith('transfer_event'));
    expect(event.data).toEqual({ from: sender.address, to: receiver.address, value: value.toString() });
  });

  it('sends a second transfer with the next nonce and sees the devnet reject a replay with the chain error koilib parses', async () => {
    const [sender, receiver] = devnet.accounts as [(typeof devnet.accounts)[0], (typeof devnet.accounts)[0]];
    const { signer, koin } = koinFor(sender.wif);
    const { transaction } = await call(koin, 'transfer')({ from: sender.address, to: receiver.address, value: '1000' });
    await transaction!.wait('byBlock', 15_000);
    expect(await provider.getNonce(sender.address)).toBe(2);

    // Resending the same signed transaction: its nonce is used now.
    const error = await signer.sendTransaction(transaction!).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const parsed = JSON.parse(error!.message);
    expect(parsed.error).toMatch(/nonce/);
    expect(parsed.code).toBe(-201);
  });

  it('fetches the KOIN ABI from contract_meta_store and uses it for allowances (approve, allowance, getAllowances)', async () => {
    const [owner, spender] = devnet.accounts as [(typeof devnet.accounts)[0], (typeof devnet.accounts)[0]];
    const signer = Signer.fromWif(owner.wif);
    signer.provider = provider;
    const koin = new Contract({ id: devnet.koinAddress, provider, signer });
    const abi = await koin.fetchAbi();
    expect(Object.keys(abi!.methods)).toEqual(
      expect.arrayContaining(['transfer', 'approve', 'allowance', 'get_allowances']),
    );
    expect((await call(koin, 'name')()).result).toEqual({ value: 'Koin' });
    // KOIN answers a zero allowance with no bytes, and the real ABI has no default_output: koilib gives no result, as on mainnet.
    expect((await call(koin, 'allowance')({ owner: owner.address, spender: spender.address })).result).toBeUndefined();
    const { transaction, receipt } = await call(
      koin,
      'approve',
    )({ owner: owner.address, spender: spender.address, value: '500' });
    expect(receipt!.events[0]).toMatchObject({
      name: 'token.approve_event',
      impacted: [owner.address, spender.address],
    });
    await transaction!.wait('byBlock', 15_000);
    expect((await call(koin, 'allowance')({ owner: owner.address, spender: spender.address })).result).toEqual({
      value: '500',
    });
    const { result } = await call(koin, 'get_allowances')({ owner: owner.address, limit: 10 });
    expect(result).toEqual({ owner: owner.address, allowances: [{ spender: spender.address, value: '500' }] });
  });

  it('reads contract metadata with invokeGetContractMetadata', async () => {
    const metadata = await provider.invokeGetContractMetadata(devnet.koinAddress);
    expect(metadata).toMatchObject({ value: { system: true } });
    expect((metadata as { value: { hash: string } }).value.hash).toMatch(/^0x1220[0-9a-f]{64}$/);
  });

  it('gets the node error (not a crash) for a block above the head', async () => {
    const error = await provider.getBlock(999_999).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/Block height mismatch/);
  });

  it('sees a transaction that would revert refused at submission (code 1), nonce unchanged', async () => {
    const [sender] = devnet.accounts as [(typeof devnet.accounts)[0]];
    const { koin } = koinFor(sender.wif);
    const nonce = await provider.getNonce(sender.address);
    const error = await call(
      koin,
      'transfer',
    )({ from: sender.address, to: sender.address, value: '1' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const parsed = JSON.parse(error!.message);
    expect(parsed).toMatchObject({
      error: 'cannot transfer to yourself',
      code: 1,
      logs: ['transaction reverted: cannot transfer to yourself'],
    });
    expect(await provider.getNonce(sender.address)).toBe(nonce);
  });

  it("gives koilib the error text a real node gives: the error data keys in the chain's sorted order", async () => {
    // koilib writes JSON.stringify({ error, ...JSON.parse(data) }); koinos-chain writes data from an nlohmann::json
    // (sorted keys), so on a real node the text reads error, code, logs - and koilib's own e2e suite matches the text.
    const [sender] = devnet.accounts as [(typeof devnet.accounts)[0]];
    const { koin } = koinFor(sender.wif);
    await expect(call(koin, 'transfer')({ from: sender.address, to: sender.address, value: '100' })).rejects.toThrow(
      JSON.stringify({
        error: 'cannot transfer to yourself',
        code: 1,
        logs: ['transaction reverted: cannot transfer to yourself'],
      }),
    );
  });
});
