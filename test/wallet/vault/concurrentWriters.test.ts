// Two wallets on one data folder (two windows, or two processes): a stale one never deletes nor drops what the other
// added. Its commits are refused with VAULT_CHANGED, and its unlock-time cleanup of orphans deletes nothing.
// Also: wallet.json files written before the revision counter still open.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyToWif } from '../../../src-main/koinos/keys.ts';
import { NO_SECRET_SERVICE, PASSWORD, STORES, storedEntries, vaultFixture } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const K1 = '11'.repeat(32);
const K2 = '22'.repeat(32);
const K3 = '33'.repeat(32);
const wifOf = (hex: string) => privateKeyToWif(Uint8Array.from(Buffer.from(hex, 'hex')));

type Fixture = Awaited<ReturnType<typeof vaultFixture>>;

async function walletJson(fx: Fixture): Promise<{ revision?: number; vault: { accounts: { name: string }[] } }> {
  return JSON.parse(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8'));
}

for (const store of STORES) {
  describe.skipIf(store.skip)(`two wallets on one data folder (${store.name})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    async function fixture(): Promise<Fixture> {
      const fx = await vaultFixture({ keychain: store.keychain });
      cleanups.push(fx.cleanup);
      return fx;
    }

    it('keeps a key added by one window when a stale one unlocks and writes (M4, step by step)', async () => {
      const fx = await fixture();
      // 1. Window A creates the wallet and imports K1.
      const a = await fx.open();
      await a.create({ password: PASSWORD });
      const k1 = await a.importKey({ key: K1, name: 'K1' });
      // 2. Window B starts on the same folder.
      const b = await fx.open();
      // 3. A imports K2.
      const k2 = await a.importKey({ key: K2, name: 'K2' });
      const entries = await storedEntries(fx, store.kind);
      expect(entries).toHaveLength(2);
      // 4. B is unlocked; its background cleanup judges by a stale wallet.json and must delete nothing.
      await b.unlock({ password: PASSWORD });
      await b.settled();
      expect(await storedEntries(fx, store.kind)).toEqual(entries);
      // 5. B's next commits (a rename, a setting, a watch account) are refused and write nothing.
      const onDisk = await readFile(join(fx.dataDir, 'wallet.json'), 'utf8');
      const error = await expectWalletError(b.renameAccount({ id: k1.id, name: 'renamed' }), 'VAULT_CHANGED');
      expect(error.shortMessage).toBe(
        'another wallet window or process changed this wallet since this one opened it, so this change was not saved',
      );
      expect(error.metaMessages).toEqual([
        'Close this window and reopen the wallet to see the current accounts, then try again.',
      ]);
      // B read revision 3 (the wallet, K1 listed as a stray, K1 named); A's import of K2 made it 5.
      expect(error.details).toMatch(/^expected revision 3 of .*wallet\.json, found revision 5$/);
      await expectWalletError(b.updateSettings({ theme: 'dark' }), 'VAULT_CHANGED');
      await expectWalletError(b.importKey({ key: K3, name: 'K3' }), 'VAULT_CHANGED');
      expect(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8')).toBe(onDisk);
      // B's refused import removed its own entry again, and nothing else.
      expect(await storedEntries(fx, store.kind)).toEqual(entries);
      // 6. A still reveals K2, and a reopened wallet has both accounts.
      expect(await a.reveal({ id: k2.id, password: PASSWORD })).toEqual({ kind: 'wif', secret: wifOf(K2) });
      expect((await walletJson(fx)).vault.accounts.map((x) => x.name)).toEqual(['K1', 'K2']);
      const reopened = await fx.open();
      await reopened.unlock({ password: PASSWORD });
      await reopened.renameAccount({ id: k1.id, name: 'renamed' });
      expect(reopened.listAccounts().map((x) => x.name)).toEqual(['renamed', 'K2']);
      expect(await reopened.reveal({ id: k2.id, password: PASSWORD })).toEqual({ kind: 'wif', secret: wifOf(K2) });
      for (const vault of [a, b, reopened]) vault.lock();
    });

    it('lets exactly one of two racing imports commit, and keeps both stores consistent', async () => {
      const fx = await fixture();
      const a = await fx.open();
      await a.create({ password: PASSWORD });
      const b = await fx.open();
      await b.unlock({ password: PASSWORD });
      const results = await Promise.allSettled([
        a.importKey({ key: K2, name: 'K2' }),
        b.importKey({ key: K3, name: 'K3' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason.code).toBe('VAULT_CHANGED');
      // The committed account's key is there and opens; the refused one left no entry behind.
      const reopened = await fx.open();
      await reopened.unlock({ password: PASSWORD });
      const [account] = reopened.listAccounts();
      expect(reopened.listAccounts()).toHaveLength(1);
      expect(await storedEntries(fx, store.kind)).toHaveLength(1);
      expect(await reopened.reveal({ id: account!.id, password: PASSWORD })).toEqual({
        kind: 'wif',
        secret: wifOf(account!.name === 'K2' ? K2 : K3),
      });
      for (const vault of [a, b, reopened]) vault.lock();
    });

    it('refuses a stale password change and leaves the other window its keys', async () => {
      const fx = await fixture();
      const a = await fx.open();
      await a.create({ password: PASSWORD });
      await a.importKey({ key: K1, name: 'K1' });
      const b = await fx.open();
      await b.unlock({ password: PASSWORD });
      const k2 = await a.importKey({ key: K2, name: 'K2' });
      const entries = await storedEntries(fx, store.kind);
      await expectWalletError(
        b.changePassword({ oldPassword: PASSWORD, newPassword: 'a different password' }),
        'VAULT_CHANGED',
      );
      // B's new generation is gone again; A's entries are untouched and A's password still opens.
      expect(await storedEntries(fx, store.kind)).toEqual(entries);
      expect(await a.reveal({ id: k2.id, password: PASSWORD })).toEqual({ kind: 'wif', secret: wifOf(K2) });
      a.lock();
      b.lock();
    });

    it('keeps a key that another process added (child process via tsx)', async () => {
      const fx = await fixture();
      const a = await fx.open();
      await a.create({ password: PASSWORD });
      const k1 = await a.importKey({ key: K1, name: 'K1' });
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'test/wallet/vault/writerChild.ts', fx.dataDir, fx.keychainService, PASSWORD, K2],
        {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(child.status, child.stderr).toBe(0);
      const k2 = JSON.parse(child.stdout.trim().split('\n').pop()!) as { id: string; name: string };
      expect(k2.name).toBe('From the other process');
      const entries = await storedEntries(fx, store.kind);
      expect(entries).toHaveLength(2);
      // A is now stale: a lock and unlock runs its cleanup, which must not touch K2; its writes are refused.
      a.lock();
      await a.unlock({ password: PASSWORD });
      await a.settled();
      expect(await storedEntries(fx, store.kind)).toEqual(entries);
      await expectWalletError(a.renameAccount({ id: k1.id, name: 'renamed' }), 'VAULT_CHANGED');
      const reopened = await fx.open();
      await reopened.unlock({ password: PASSWORD });
      expect(await reopened.reveal({ id: k2.id, password: PASSWORD })).toEqual({ kind: 'wif', secret: wifOf(K2) });
      a.lock();
      reopened.lock();
    });
  });
}

describe('the revision of wallet.json', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('counts every commit, and opens a file written before the counter existed as revision 0', async () => {
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    cleanups.push(fx.cleanup);
    const vault = await fx.open();
    await vault.create({ password: PASSWORD });
    const k1 = await vault.importKey({ key: K1, name: 'K1' });
    // The wallet, then the import's two: its entry listed as a stray, then the account that names it.
    expect((await walletJson(fx)).revision).toBe(3);
    vault.lock();

    // A file of an earlier version of the wallet: no revision field.
    const path = join(fx.dataDir, 'wallet.json');
    const old = JSON.parse(await readFile(path, 'utf8'));
    delete old.revision;
    await writeFile(path, JSON.stringify(old, null, 2));
    const reopened = await fx.open();
    await reopened.unlock({ password: PASSWORD });
    await reopened.renameAccount({ id: k1.id, name: 'renamed' });
    expect((await walletJson(fx)).revision).toBe(1);
    expect(await reopened.reveal({ id: k1.id, password: PASSWORD })).toEqual({ kind: 'wif', secret: wifOf(K1) });
    reopened.lock();
  });

  it('refuses a wallet.json whose revision is not a whole number', async () => {
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    cleanups.push(fx.cleanup);
    const vault = await fx.open();
    await vault.create({ password: PASSWORD });
    vault.lock();
    const path = join(fx.dataDir, 'wallet.json');
    for (const revision of [-1, 1.5, '3']) {
      await writeFile(path, JSON.stringify({ ...JSON.parse(await readFile(path, 'utf8')), revision }));
      const error = await expectWalletError(fx.open(), 'VAULT_CORRUPT');
      expect(error.shortMessage).toContain('its revision is not a whole number from 0 up');
    }
  });
});
