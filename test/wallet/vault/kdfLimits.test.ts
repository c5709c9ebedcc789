// scrypt settings read from a file (a backup to import, wallet.json) must be the ones the wallet writes: r=8, p=1, N a
// power of two from 2^15 to 2^20. Anything else is refused before scrypt runs, and the wallet is left as it was.
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openBackup } from '../../../src-main/wallet/vault/backupFile.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const BACKUP_PASSWORD = 'the backup password';

describe('limits of the key derivation settings read from files', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function wallet() {
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    cleanups.push(fx.cleanup);
    const vault = await fx.open();
    await vault.create({ password: PASSWORD });
    await vault.importKey({ key: '11'.repeat(32), name: 'K' });
    cleanups.push(async () => void vault.lock());
    return { fx, vault };
  }

  const files = async (dataDir: string) =>
    Promise.all(['wallet.json', 'vault-keys.json'].map((name) => readFile(join(dataDir, name), 'utf8')));

  it('refuses a crafted backup (N=2^20, r=32, p=2) before any scrypt work, and changes nothing', async () => {
    const { fx, vault } = await wallet();
    const { content } = await vault.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const crafted = JSON.parse(content);
    crafted.kdf = { ...crafted.kdf, N: 2 ** 20, r: 32, p: 2 };
    const before = await files(fx.dataDir);
    const accounts = vault.listAccounts();
    // A wrong password as well: WRONG_PASSWORD would mean scrypt ran (for half a minute and 8 GB); it must not get there.
    const error = await expectWalletError(
      vault.importBackup({ content: JSON.stringify(crafted), backupPassword: 'not the backup password' }),
      'INVALID_BACKUP',
    );
    expect(error.shortMessage).toBe(
      'expected a Koinos wallet backup file, but its key derivation settings are not ones this wallet writes ' +
        '(expected scrypt with r=8, p=1 and N a power of two from 2^10 to 2^20, but found N=2^20 r=32 p=2)',
    );
    for (const kdf of [{ r: 8, p: 16 }, { r: 1, p: 1 }, { N: 2 ** 21 }, { N: 3 }, { N: '1024' }]) {
      const other = JSON.stringify({ ...crafted, kdf: { ...crafted.kdf, N: 2 ** 10, r: 8, p: 1, ...kdf } });
      await expectWalletError(
        vault.importBackup({ content: other, backupPassword: BACKUP_PASSWORD }),
        'INVALID_BACKUP',
      );
    }
    expect(await files(fx.dataDir)).toEqual(before);
    expect(vault.listAccounts()).toEqual(accounts);
    expect(vault.status().unlocked).toBe(true);
  });

  it('takes an N below 2^15 only in a wallet given a cheap test cost', async () => {
    const { vault } = await wallet();
    const { content } = await vault.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    expect(JSON.parse(content).kdf.N).toBe(2 ** 10);
    expect((await openBackup(content, BACKUP_PASSWORD, { minScryptN: 2 ** 10 })).accounts).toHaveLength(1);
    const error = await expectWalletError(openBackup(content, BACKUP_PASSWORD), 'INVALID_BACKUP');
    expect(error.shortMessage).toContain(
      'expected scrypt with r=8, p=1 and N a power of two from 2^15 to 2^20, but found N=2^10 r=8 p=1',
    );
  });

  it('refuses to open a wallet.json whose settings were altered, before any password is tried', async () => {
    const { fx, vault } = await wallet();
    vault.lock();
    const path = join(fx.dataDir, 'wallet.json');
    const original = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(
      path,
      JSON.stringify({
        ...original,
        vault: { ...original.vault, kdf: { ...original.vault.kdf, N: 2 ** 20, r: 32, p: 2 } },
      }),
    );
    const error = await expectWalletError(fx.open(), 'VAULT_CORRUPT');
    expect(error.shortMessage).toContain(
      'its key derivation settings are not ones this wallet writes (expected scrypt with r=8, p=1 and N a power of two from 2^10 to 2^20, but found N=2^20 r=32 p=2)',
    );
    // Without the test's cheap cost the floor is 2^15: the test wallet's own 2^10 is refused too.
    await writeFile(path, JSON.stringify(original));
    await expectWalletError(fx.open({ scryptCost: undefined }), 'VAULT_CORRUPT');
    await expect(fx.open()).resolves.toBeDefined();
  });
});
