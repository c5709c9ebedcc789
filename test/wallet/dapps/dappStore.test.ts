// dapps.json: grants and WalletConnect settings kept across runs, damaged entries dropped and the file as it was kept
// beside it (a file that is not JSON opens as an empty store), and no write over a newer revision another process made.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAPPS_FILE, DappStore } from '../../../src-main/wallet/dapps/dappStore.ts';
import { STORED_GRANT } from '../../helpers/dappGrant.ts';
import { keptAsidePath } from '../../helpers/keptAside.ts';

const GRANT = STORED_GRANT;

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

  it('drops entries that are not grants, and keeps the file as it was beside it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'koinos-dapps-'));
    const content = JSON.stringify({
      version: 1,
      revision: 3,
      grants: [GRANT, { origin: 5 }, null],
      walletConnect: { relayUrl: 7 },
    });
    await writeFile(join(dir, DAPPS_FILE), content);
    const store = await DappStore.open(dir);
    expect(store.grants().map((g) => g.origin)).toEqual([GRANT.origin]);
    expect(store.walletConnect()).toEqual({ relayUrl: '', projectId: '' });
    expect(store.keptAside).toMatch(/dapps\.json\.damaged-[0-9a-f]{12}$/);
    expect(await readFile(store.keptAside!, 'utf8')).toBe(content);
    // Written whole again, the file reads whole.
    await store.updateWalletConnect({ projectId: 'p' });
    expect((await DappStore.open(dir)).keptAside).toBeUndefined();
  });

  it('opens a file that is not JSON as an empty store, and writes over it only once it is kept aside', async () => {
    dir = await mkdtemp(join(tmpdir(), 'koinos-dapps-'));
    const path = join(dir, DAPPS_FILE);
    await writeFile(path, '{ "version": 1, "grants": [');
    // Where the copy goes, a folder: the copy fails as the store opens, which still opens, and at the change, which
    // writes nothing.
    const blocker = keptAsidePath(path, '{ "version": 1, "grants": [');
    await mkdir(join(blocker, 'inside'), { recursive: true });
    const store = await DappStore.open(dir);
    expect(store.grants()).toEqual([]);
    expect(store.keptAside).toBeUndefined();
    await expect(store.putGrant(GRANT)).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe('{ "version": 1, "grants": [');
    await rm(blocker, { recursive: true });
    await store.putGrant(GRANT);
    expect(store.keptAside).toBe(blocker);
    expect(await readFile(blocker, 'utf8')).toBe('{ "version": 1, "grants": [');
    expect((await DappStore.open(dir)).grants()).toEqual([GRANT]);
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
