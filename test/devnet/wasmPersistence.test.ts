// An uploaded contract and its state survive a SIGKILL of the devnet process and a restart on the same data directory
// (the prebuilt KCS-4 token of @koinosbox/contracts, driven by koilib over HTTP), and the same transaction gives the same
// compute twice in the first process and as the first contract run of the restarted one (a new process: a cold cache).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Provider, Signer, utils } from 'koilib';
import type { TransactionJson } from 'koilib';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnDevnet, type DevnetProcess } from './devnetProcess.ts';
import { included, method, write } from './koilibContract.ts';
import { KOIN, LONG_TEST } from '../helpers/constants.ts';
import { until } from '../helpers/until.ts';

const TOKEN_DIR = join(import.meta.dirname, '../../node_modules/@koinosbox/contracts/assembly/token');

const running: DevnetProcess[] = [];
let dir: string | undefined;

afterEach(async () => {
  for (const p of running.splice(0))
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function start(dataDir: string): Promise<DevnetProcess> {
  const p = await spawnDevnet(['--port', '0', '--block-time', '0', '--accounts', '3', '--data-dir', dataDir]);
  running.push(p);
  return p;
}

describe('uploaded contracts on disk', LONG_TEST, () => {
  it('keeps a contract and its state across kill -9, with the same compute for the same transaction', async () => {
    const abi = JSON.parse(await readFile(join(TOKEN_DIR, 'token-abi.json'), 'utf8')) as ConstructorParameters<
      typeof Contract
    >[0]['abi'];
    const bytecode = new Uint8Array(await readFile(join(TOKEN_DIR, 'release/token.wasm')));
    dir = await mkdtemp(join(tmpdir(), 'devnet-wasm-persistence-'));
    const first = await start(dir);
    const [alice, bob] = first.info.accounts as [{ address: string; wif: string }, { address: string; wif: string }];
    const connect = (p: DevnetProcess) => new Provider([`${p.info.url}/jsonrpc`]);
    let provider = connect(first);
    const tokenKey = Signer.fromSeed('koinos-wallet persistence test token');
    const aliceKey = Signer.fromWif(alice.wif);
    const withProvider = (signer: Signer) => Object.assign(signer, { provider });
    const koin = new Contract({
      id: first.info.koin_address,
      abi: utils.tokenAbi,
      provider,
      signer: withProvider(aliceKey),
    });
    await write(koin, 'transfer', { from: alice.address, to: tokenKey.getAddress(), value: (100n * KOIN).toString() });

    const token = new Contract({ id: tokenKey.getAddress(), abi, provider, signer: withProvider(tokenKey), bytecode });
    await included(provider, (await token.deploy()).transaction);
    await write(token, 'mint', { to: alice.address, value: '1000' });
    const asAlice = new Contract({ id: tokenKey.getAddress(), abi, provider, signer: withProvider(aliceKey) });
    await write(asAlice, 'transfer', { from: alice.address, to: bob.address, value: '300' });

    // One signed transfer, dry-run (broadcast false: nothing changes) in each process.
    const { transaction } = await method(asAlice, 'transfer')(
      { from: alice.address, to: bob.address, value: '1' },
      { sendTransaction: false },
    );
    const dryRun = async () => {
      const { receipt } = await provider.sendTransaction(transaction as TransactionJson, false);
      expect(receipt.reverted ?? false).toBe(false);
      return BigInt(receipt.compute_bandwidth_used);
    };
    const firstRun = await dryRun();
    const cachedRun = await dryRun();
    expect(firstRun).toBeGreaterThan(1_000_000n);
    expect(cachedRun).toBe(firstRun);

    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await start(dir);
    expect(second.info.chain_id).toBe(first.info.chain_id);
    provider = connect(second);
    // the restarted process's first contract run: its module cache is cold, the module instrumented afresh
    const restartedRun = await dryRun();
    expect(restartedRun).toBe(firstRun);
    const reader = new Contract({ id: tokenKey.getAddress(), abi, provider });
    expect((await method(reader, 'balance_of')({ owner: alice.address })).result).toEqual({ value: '700' });
    expect((await method(reader, 'balance_of')({ owner: bob.address })).result).toEqual({ value: '300' });
    expect((await method(reader, 'total_supply')({})).result).toEqual({ value: '1000' });

    // and the contract runs on: the same transaction, now broadcast, is included with that compute
    const { receipt } = await provider.sendTransaction(transaction as TransactionJson, true);
    expect(BigInt(receipt.compute_bandwidth_used)).toBe(firstRun);
    const balance = async () => (await method(reader, 'balance_of')({ owner: bob.address })).result;
    await until('the transfer included', async () => ((await balance())?.value === '301' ? true : undefined), 30_000);
    expect(await balance()).toEqual({ value: '301' });
    console.log(
      `token transfer compute: ${firstRun} (first process), ${cachedRun} (again, cached module), ${restartedRun} (after kill -9: new process, cold cache)`,
    );
  });
});
