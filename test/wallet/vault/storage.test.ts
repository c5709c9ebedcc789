// Where keys live when no keychain answers (an owner-only file, said plainly), and what a failed or interrupted write
// leaves: always the previous state, both on disk and in the running wallet.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addressOfKey } from '../../../src-main/wallet/vault/secretPayload.ts';
import { FILE_STORAGE_NOTICE, type Keychain, type WriteFile } from '../../../src-main/wallet/vault/secretStore.ts';
import type { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { vector } from '../../vectors.ts';
import { KEYTAR, NO_KEYCHAIN, NO_SECRET_SERVICE, PASSWORD, WriteFaults, tempDir, vaultFixture } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WATCHED = addressOfKey(new Uint8Array(32).fill(1));

describe('the data folder', () => {
  it('refuses a folder that cannot be created (under /proc) at once, with STORAGE_FAILED naming it', async () => {
    // Node's recursive mkdir never returns for such a path; the vault makes one level at a time.
    const dataDir = `/proc/koinos-wallet-test-${process.pid}/data`;
    const fx = await vaultFixture();
    try {
      const error = await expectWalletError(fx.open({ dataDir }), 'STORAGE_FAILED');
      expect(error.shortMessage).toContain(dataDir);
    } finally {
      await fx.cleanup();
    }
  });
});

describe('no keychain: an owner-only file', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('keeps sealed entries in a 0600 file and says so in the status', async () => {
    const v = vector('koilib-key-1');
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    cleanups.push(fx.cleanup);
    const vault = await fx.open();
    expect(vault.status()).toEqual({
      exists: false,
      unlocked: false,
      storage: 'file',
      storageNotice: FILE_STORAGE_NOTICE,
      autoLockMinutes: 5,
    });
    await vault.create({ password: PASSWORD });
    await vault.importKey({ key: v.wif_compressed, name: 'K' });
    const keyFile = join(fx.dataDir, 'vault-keys.json');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(fx.dataDir, 'wallet.json'))).mode & 0o777).toBe(0o600);
    const text = await readFile(keyFile, 'utf8');
    expect(text).not.toContain(v.wif_compressed);
    expect(text).not.toContain(v.private_key_hex);
    vault.lock();
    // Once created in a file, the wallet stays there even if a keychain answers later.
    const reopened = await fx.open({ keychain: KEYTAR });
    expect(reopened.status().storage).toBe('file');
    await reopened.unlock({ password: PASSWORD });
    expect(await reopened.reveal({ id: reopened.listAccounts()[0]!.id, password: PASSWORD })).toEqual({
      kind: 'wif',
      secret: v.wif_compressed,
    });
    reopened.lock();
  });

  it('seals API keys under the password in the file, so they are readable only while unlocked', async () => {
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    cleanups.push(fx.cleanup);
    const vault = await fx.open();
    await expectWalletError(vault.apiKeys.set('custom', 'file-api-key-123'), 'VAULT_NOT_FOUND');
    await vault.create({ password: PASSWORD });
    await vault.apiKeys.set('custom', 'file-api-key-123');
    expect(await vault.apiKeys.get('custom')).toEqual({ key: 'file-api-key-123' });
    expect(await readFile(join(fx.dataDir, 'vault-keys.json'), 'utf8')).not.toContain('file-api-key-123');
    vault.lock();
    expect(await vault.apiKeys.has('custom')).toBe(true);
    await expectWalletError(vault.apiKeys.get('custom'), 'VAULT_LOCKED');
    await vault.unlock({ password: PASSWORD });
    await vault.apiKeys.set('custom', null);
    expect(JSON.parse(await readFile(join(fx.dataDir, 'vault-keys.json'), 'utf8')).entries).toEqual({});
    vault.lock();
  });

  it('falls back to the file with the real keytar when D-Bus leads nowhere (child process)', async () => {
    const v = vector('koilib-key-1');
    const dataDir = await tempDir();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      NO_COLOR: '1',
    };
    delete env.DISPLAY;
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'test/wallet/vault/noKeychainChild.ts', dataDir, v.wif_compressed, v.address_compressed],
      {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(result.before).toMatchObject({ exists: false, storage: 'file', storageNotice: FILE_STORAGE_NOTICE });
    expect(result.after).toMatchObject({ exists: true, unlocked: false, storage: 'file' });
    expect(result.signer).toBe(v.address_compressed);
    expect((await stat(join(dataDir, 'vault-keys.json'))).mode & 0o777).toBe(0o600);
    expect(r.stdout + r.stderr).not.toContain(v.wif_compressed);
  });

  it.skipIf(NO_KEYCHAIN !== undefined)(
    'refuses to unlock a keychain wallet whose keychain stopped answering, and says why',
    async () => {
      const v = vector('koilib-key-1');
      const fx = await vaultFixture();
      cleanups.push(fx.cleanup);
      const vault = await fx.open();
      await vault.create({ password: PASSWORD });
      const account = await vault.importKey({ key: v.wif_compressed, name: 'K' });
      vault.lock();
      const down = await fx.open({ keychain: NO_SECRET_SERVICE });
      expect(down.status().storage).toBe('keychain');
      await down.unlock({ password: PASSWORD });
      const error = await expectWalletError(
        down.reveal({ id: account.id, password: PASSWORD }),
        'KEYCHAIN_UNAVAILABLE',
      );
      expect(error.details).toBe('Could not connect: No such file or directory');
      down.lock();
    },
  );
});

describe('interrupted writes', () => {
  let fx: Awaited<ReturnType<typeof vaultFixture>>;
  let faults: WriteFaults;
  let vault: Vault;
  beforeEach(async () => {
    faults = new WriteFaults();
    fx = await vaultFixture({ keychain: faults.keychain(NO_SECRET_SERVICE), writeFile: faults.writeFile() });
    vault = await fx.open();
    await vault.create({ password: PASSWORD });
    await vault.addWatch({ address: WATCHED, name: 'W' });
  });
  afterEach(async () => {
    vault.lock();
    await fx.cleanup();
  });

  async function failNextWrite(k = 1): Promise<void> {
    faults.step = 0;
    faults.failAt = k;
  }

  it('a full disk while saving wallet.json changes nothing, on disk or in memory', async () => {
    const onDisk = await readFile(join(fx.dataDir, 'wallet.json'), 'utf8');
    const accounts = vault.listAccounts();
    await failNextWrite();
    const error = await expectWalletError(
      vault.renameAccount({ id: accounts[0]!.id, name: 'renamed' }),
      'STORAGE_FAILED',
    );
    expect(error.details).toContain('ENOSPC');
    await failNextWrite();
    await expectWalletError(vault.updateSettings({ theme: 'dark' }), 'STORAGE_FAILED');
    expect(vault.listAccounts()).toEqual(accounts);
    expect(vault.getSettings().theme).toBe('system');
    expect(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8')).toBe(onDisk);
  });

  it('a failed import (entry written, wallet.json not) leaves no account and no stray entry', async () => {
    // Step 1 lists the entry as a stray in wallet.json, step 2 writes the sealed key to the key file, step 3 would
    // commit the account.
    await failNextWrite(3);
    await expectWalletError(
      vault.importKey({ key: vector('koilib-key-1').private_key_hex, name: 'K' }),
      'STORAGE_FAILED',
    );
    expect(vault.listAccounts().map((a) => a.kind)).toEqual(['watch']);
    expect(JSON.parse(await readFile(join(fx.dataDir, 'vault-keys.json'), 'utf8')).entries).toEqual({});
    faults.failAt = Infinity;
    expect((await vault.importKey({ key: vector('koilib-key-1').private_key_hex, name: 'K' })).kind).toBe('key');
  });

  it('a crash in the middle of an atomic write (temp file half written) leaves the previous wallet.json', async () => {
    const before = await readFile(join(fx.dataDir, 'wallet.json'), 'utf8');
    const crash: WriteFile = async (path, content) => {
      await writeFile(`${path}.crash.tmp`, content.slice(0, content.length / 2));
      throw new Error('process killed (simulated)');
    };
    const crashing = await fx.open({ writeFile: crash });
    await crashing.unlock({ password: PASSWORD });
    await expectWalletError(
      crashing.addWatch({ address: '1DFF1akeStY8SfomzFsSYsZPesQcbnF1vR', name: 'X' }),
      'STORAGE_FAILED',
    );
    crashing.lock();
    expect(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8')).toBe(before);
    const reopened = await fx.open({ writeFile: undefined });
    expect(reopened.listAccounts().map((a) => a.name)).toEqual(['W']);
    expect((await readdir(fx.dataDir)).some((f) => f.endsWith('.tmp'))).toBe(true);
  });

  it('refuses to open a wallet.json it did not write, and never overwrites it', async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, 'wallet.json'), '{"version":1,"vault":{"walletId":"x"}}');
    await expectWalletError(
      vaultFixture().then((f) => f.open({ dataDir })),
      'VAULT_CORRUPT',
    );
    await writeFile(join(dataDir, 'wallet.json'), 'not json');
    await expectWalletError(
      vaultFixture().then((f) => f.open({ dataDir })),
      'VAULT_CORRUPT',
    );
    expect(await readFile(join(dataDir, 'wallet.json'), 'utf8')).toBe('not json');
  });
});

describe.skipIf(NO_KEYCHAIN !== undefined)('API keys saved before the wallet exists', () => {
  it('stay readable when the keychain they are in does not answer at the moment the wallet is created', async () => {
    let down = false;
    const locked = () => Promise.reject(new Error('Cannot create an item in a locked collection'));
    const keychain: Keychain = {
      getPassword: (s, a) => (down ? locked() : KEYTAR.getPassword(s, a)),
      setPassword: (s, a, p) => (down ? locked() : KEYTAR.setPassword(s, a, p)),
      deletePassword: (s, a) => (down ? locked() : KEYTAR.deletePassword(s, a)),
    };
    const fx = await vaultFixture({ keychain });
    const vault = await fx.open();
    try {
      await vault.apiKeys.set('mainnet', 'the-api-key', ['https://api.koinos.io']);
      down = true; // a locked keychain, or its unlock prompt cancelled
      await vault.create({ password: PASSWORD });
      down = false;
      expect(vault.status().storage).toBe('keychain');
      expect(await vault.apiKeys.get('mainnet')).toEqual({ key: 'the-api-key', origins: ['https://api.koinos.io'] });
      await vault.changePassword({ oldPassword: PASSWORD, newPassword: 'another good password' });
      expect(await vault.apiKeys.get('mainnet')).toEqual({ key: 'the-api-key', origins: ['https://api.koinos.io'] });
    } finally {
      vault.lock();
      await fx.cleanup();
    }
  });
});
