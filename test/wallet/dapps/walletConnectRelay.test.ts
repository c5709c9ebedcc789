// Saying plainly when WalletConnect cannot work: no relay at the configured address, or no project ID for it; and
// where the settings come from (saved, or the environment's override).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWalletApp, type WalletApp } from '../../../src-main/wallet/walletApp.ts';
import { KEYTAR, TEST_SCRYPT, removeService, uniqueService } from '../vault/helpers.ts';

const URI = `wc:${'ab'.repeat(32)}@2?expiryTimestamp=${Math.floor(Date.now() / 1000) + 300}&relay-protocol=irn&symKey=${'cd'.repeat(32)}`;

/** A port nothing listens on: taken, then freed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('WalletConnect without a usable relay', () => {
  const service = uniqueService();
  let dataDir = '';
  let wallet: WalletApp | undefined;
  afterEach(async () => {
    await wallet?.close();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    await removeService(service).catch(() => undefined);
  });

  const open = async (env: Record<string, string>) => {
    dataDir = await mkdtemp(join(tmpdir(), 'koinos-wc-relay-'));
    wallet = await createWalletApp({
      dataDir,
      keychain: KEYTAR,
      vault: { keychainService: service, scryptCost: TEST_SCRYPT },
      devnet: { port: 0 },
      env,
      log: () => {},
    });
    return wallet;
  };

  it('says that no relay is reachable at the address, and shows it in the connections list', async () => {
    const url = `ws://127.0.0.1:${await closedPort()}`;
    const w = await open({ KOINOS_WALLET_WC_RELAY_URL: url, KOINOS_WALLET_WC_PROJECT_ID: 'test-project' });
    await expect(w.handlers['dapps:pair']({ uri: URI })).rejects.toMatchObject({
      code: 'RELAY_UNREACHABLE',
      shortMessage: expect.stringContaining(`No WalletConnect relay is reachable at ${url}`),
    });
    expect((await w.handlers['dapps:list']()).walletConnect).toMatchObject({
      relayUrl: url,
      source: 'env',
      state: 'unreachable',
      problem: expect.stringContaining(url),
    });
  });

  it('asks for a project ID before using the public relay, and keeps the saved settings apart from the override', async () => {
    const w = await open({});
    await expect(w.handlers['dapps:pair']({ uri: URI })).rejects.toMatchObject({
      code: 'RELAY_UNREACHABLE',
      shortMessage: expect.stringContaining('project ID'),
    });
    expect((await w.handlers['dapps:list']()).walletConnect).toMatchObject({
      relayUrl: 'wss://relay.walletconnect.org',
      hasProjectId: false,
      source: 'settings',
    });
    await w.handlers['dapps:updateWalletConnectSettings']({ relayUrl: 'wss://relay.example', projectId: 'abc123' });
    expect(await w.handlers['dapps:walletConnectSettings']()).toEqual({
      relayUrl: 'wss://relay.example',
      projectId: 'abc123',
    });
    expect((await w.handlers['dapps:list']()).walletConnect).toMatchObject({
      relayUrl: 'wss://relay.example',
      hasProjectId: true,
      source: 'settings',
    });
  });
});
