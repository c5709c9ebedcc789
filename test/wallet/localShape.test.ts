// The Local network's shape as a wallet setting: the embedded devnet starts plain, becomes a new chain shaped like
// mainnet on request (KOIN found at mainnet's address, through the name service), keeps that shape across a restart of
// the wallet, and goes back to plain the same way.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWalletApp, type WalletApp } from '../../src-main/wallet/walletApp.ts';
import { KEYTAR, PASSWORD, TEST_SCRYPT, removeService, uniqueService } from './vault/helpers.ts';

const MAINNET_KOIN = '19GYjDBVXU7keLbYvMLazsGQn3GTWHjHkK';

describe('the Local network shape setting', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(dataDir: string, service: string): Promise<WalletApp> {
    const wallet = await createWalletApp({
      dataDir,
      keychain: KEYTAR,
      vault: { keychainService: service, scryptCost: TEST_SCRYPT },
      devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 2 } },
      log: () => {},
    });
    cleanups.push(() => wallet.close());
    return wallet;
  }

  it('makes a new chain shaped like mainnet, keeps it across a restart, and goes back to plain', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'koinos-shape-'));
    const service = uniqueService();
    cleanups.push(async () => {
      await rm(dataDir, { recursive: true, force: true });
      await removeService(service).catch(() => undefined);
    });
    let wallet = await open(dataDir, service);
    await wallet.handlers['vault:create']({ password: PASSWORD });
    await wallet.handlers['devnet:importAccount']({ index: 0, watchOnly: true });
    const plain = await wallet.handlers['devnet:status']();
    expect(plain.shape).toBe('plain');
    const koinOf = async (w: WalletApp) =>
      (await w.handlers['tokens:list']({})).find((t) => t.system === 'koin')!.contract;
    expect(await koinOf(wallet)).not.toBe(MAINNET_KOIN);

    const shaped = await wallet.handlers['devnet:setShape']({ like: 'mainnet' });
    expect(shaped.shape).toBe('mainnet');
    expect(shaped.running).toBe(true);
    expect(shaped.chainId).not.toBe(plain.chainId); // a new chain: nothing signed before is valid on it
    expect(await koinOf(wallet)).toBe(MAINNET_KOIN);

    await wallet.close();
    wallet = await open(dataDir, service);
    await wallet.handlers['networks:head']({});
    expect((await wallet.handlers['devnet:status']()).shape).toBe('mainnet');

    expect((await wallet.handlers['devnet:setShape']({ like: 'plain' })).shape).toBe('plain');
    expect(await koinOf(wallet)).not.toBe(MAINNET_KOIN);
  });
});
