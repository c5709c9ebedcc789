// dapps.json: grants and WalletConnect settings kept across runs, damaged entries dropped, and no write over a newer
// revision another process made.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAPPS_FILE, DappStore, type StoredGrant } from '../../../src-main/wallet/dapps/dappStore.ts';

const GRANT: StoredGrant = {
  origin: 'https://app.example',
  name: 'App',
  url: 'https://app.example/',
  transport: 'walletconnect',
  chains: ['koinos:EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3e'],
  accounts: ['1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'],
  methods: ['koinos_signMessage'],
  grantedAt: '1700000000000',
  sessions: ['abc'],
};

describe('DappStore', () => {
  let dir = '';
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps grants and settings across a reopen, owner-only', async () => {
    dir = await mkdtemp(join(tmpdir(), 'koinos-dapps-'));
    const store = await DappStore.open(dir);
    await store.putGrant(GRANT);
    await store.updateWalletConnect({ relayUrl: 'wss://relay.example' });
    const again = await DappStore.open(dir);
    expect(again.grants()).toEqual([GRANT]);
    expect(again.walletConnect()).toEqual({ relayUrl: 'wss://relay.example', projectId: '' });
    expect(await again.removeGrant(GRANT.origin)).toBe(true);
    expect(await again.removeGrant(GRANT.origin)).toBe(false);
    expect((await DappStore.open(dir)).grants()).toEqual([]);
  });

  it('drops entries that are not grants', async () => {
    dir = await mkdtemp(join(tmpdir(), 'koinos-dapps-'));
    await writeFile(
      join(dir, DAPPS_FILE),
      JSON.stringify({ version: 1, revision: 3, grants: [GRANT, { origin: 5 }, null], walletConnect: { relayUrl: 7 } }),
    );
    const store = await DappStore.open(dir);
    expect(store.grants().map((g) => g.origin)).toEqual([GRANT.origin]);
    expect(store.walletConnect()).toEqual({ relayUrl: '', projectId: '' });
  });

  it('refuses to write over a newer revision, and then holds what is on disk', async () => {
    dir = await mkdtemp(join(tmpdir(), 'koinos-dapps-'));
    const first = await DappStore.open(dir);
    const second = await DappStore.open(dir);
    await second.putGrant(GRANT);
    await expect(first.putGrant({ ...GRANT, origin: 'https://other.example' })).rejects.toMatchObject({
      code: 'STORAGE_FAILED',
    });
    expect(first.grants().map((g) => g.origin)).toEqual([GRANT.origin]);
    expect(JSON.parse(await readFile(join(dir, DAPPS_FILE), 'utf8')).grants).toHaveLength(1);
    await first.putGrant({ ...GRANT, origin: 'https://other.example' });
    expect((await DappStore.open(dir)).grants()).toHaveLength(2);
  });
});
