// The encrypted backup: one file, a password of its own, no keychain needed; restores every account into an empty
// wallet or merges into one that has some of them already; refuses wrong passwords, altered and foreign files.
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountInfo } from '../../../src-main/ipc/contract.ts';
import type { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { openBackup, sealBackup } from '../../../src-main/wallet/vault/backupFile.ts';
import { vector } from '../../vectors.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const BACKUP_PASSWORD = 'the backup password';
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const WATCHED = '1DFF1akeStY8SfomzFsSYsZPesQcbnF1vR';

const shape = (accounts: AccountInfo[]) =>
  accounts.map(({ name, address, kind, derivationIndex, developmentOnly }) => ({
    name,
    address,
    kind,
    derivationIndex,
    developmentOnly,
  }));

describe('encrypted backup', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function wallet(password = PASSWORD): Promise<Vault> {
    // The owner-only file store: a backup must not need the keychain on either side.
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    cleanups.push(fx.cleanup);
    const vault = await fx.open();
    await vault.create({ password });
    cleanups.push(async () => void vault.lock());
    return vault;
  }

  async function source(): Promise<Vault> {
    const vault = await wallet();
    const p0 = await vault.importPhrase({ phrase: PHRASE, name: 'Phrase 0' });
    await vault.deriveNext({ phraseId: p0.phraseId!, name: 'Phrase 1' });
    const p2 = await vault.deriveNext({ phraseId: p0.phraseId!, name: 'Phrase 2' });
    await vault.removeAccount({ id: p2.id, password: PASSWORD });
    await vault.importKey({ key: vector('koilib-key-1').wif_compressed, name: 'Dev key' }, { developmentOnly: true });
    await vault.addWatch({ address: WATCHED, name: 'Cold' });
    return vault;
  }

  it('exports one sealed file and restores every account, secret and flag into an empty wallet', async () => {
    const from = await source();
    const backup = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    expect(backup.fileName).toBe('koinos-wallet-backup-2023-11-14.json');
    for (const secret of [
      PHRASE,
      vector('koilib-key-1').wif_compressed,
      vector('koilib-key-1').private_key_hex,
      PASSWORD,
      BACKUP_PASSWORD,
      'Phrase 0',
      WATCHED,
    ]) {
      expect(backup.content).not.toContain(secret);
    }
    const to = await wallet('another wallet password');
    const imported = await to.importBackup({ content: backup.content, backupPassword: BACKUP_PASSWORD });
    expect(shape(imported)).toEqual(shape(from.listAccounts()));
    for (const [i, account] of imported.entries()) {
      if (account.kind === 'watch') continue;
      const original = from.listAccounts()[i]!;
      expect(await to.reveal({ id: account.id, password: 'another wallet password' })).toEqual(
        await from.reveal({ id: original.id, password: PASSWORD }),
      );
    }
    // The phrase's next index travels too: index 2 was used (then removed) and is not handed out again.
    expect((await to.deriveNext({ phraseId: imported[0]!.phraseId!, name: 'next' })).derivationIndex).toBe(3);
  });

  it('merges into a wallet that has some accounts: no duplicates, the phrase recognised', async () => {
    const from = await source();
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const to = await wallet();
    const own = await to.importPhrase({ phrase: PHRASE, name: 'Mine' });
    const result = await to.importBackup({ content, backupPassword: BACKUP_PASSWORD });
    expect(result.map((a) => a.name)).toEqual(['Mine', 'Phrase 1', 'Dev key', 'Cold']);
    expect(result[1]).toMatchObject({ phraseId: own.phraseId, derivationIndex: 1 });
    expect(await to.importBackup({ content, backupPassword: BACKUP_PASSWORD })).toEqual(result);
  });

  it('refuses a wrong backup password, an altered file, a foreign file and a crafted cost, changing nothing', async () => {
    const from = await source();
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const to = await wallet();
    const wrong = await expectWalletError(
      to.importBackup({ content, backupPassword: 'not the backup password' }),
      'WRONG_PASSWORD',
    );
    expect(wrong.message).not.toContain('not the backup password');
    expect(wrong.shortMessage).toBe(
      'That password does not open this backup: it needs the password the backup was made with.',
    );
    const parsed = JSON.parse(content);
    const flipped = parsed.data.slice(0, -6) + (parsed.data.at(-6) === 'A' ? 'B' : 'A') + parsed.data.slice(-5);
    await expectWalletError(
      to.importBackup({ content: JSON.stringify({ ...parsed, data: flipped }), backupPassword: BACKUP_PASSWORD }),
      'WRONG_PASSWORD',
    );
    await expectWalletError(
      to.importBackup({
        content: JSON.stringify({ ...parsed, kdf: { ...parsed.kdf, N: 2 ** 30 } }),
        backupPassword: BACKUP_PASSWORD,
      }),
      'INVALID_BACKUP',
    );
    await expectWalletError(
      to.importBackup({ content: '{"hello":1}', backupPassword: BACKUP_PASSWORD }),
      'INVALID_BACKUP',
    );
    await expectWalletError(
      to.importBackup({ content: 'x'.repeat(5 * 1024 * 1024), backupPassword: BACKUP_PASSWORD }),
      'INVALID_BACKUP',
    );
    expect(to.listAccounts()).toEqual([]);
  });

  it('refuses a backup whose derivation indexes wallet.json could not hold, before anything is written', async () => {
    const from = await source();
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const { kdf } = JSON.parse(content) as { kdf: { N: number; r: number; p: number } };
    const payload = await openBackup(content, BACKUP_PASSWORD, { minScryptN: kdf.N });
    const to = await wallet();
    const mine = await to.importKey({ key: vector('crypto-cpp-wif-foobar').wif_compressed, name: 'Mine' });
    const crafted = [
      { ...payload, phrases: payload.phrases.map((p) => ({ ...p, nextIndex: 2 ** 31 })) },
      { ...payload, phrases: payload.phrases.map((p) => ({ ...p, nextIndex: -1 })) },
      {
        ...payload,
        accounts: payload.accounts.map((a) => (a.kind === 'phrase' ? { ...a, derivationIndex: 2 ** 31 } : a)),
      },
    ];
    for (const bad of crafted) {
      const text = await sealBackup(bad, BACKUP_PASSWORD, kdf, new Date());
      const error = await expectWalletError(
        to.importBackup({ content: text, backupPassword: BACKUP_PASSWORD }),
        'INVALID_BACKUP',
      );
      expect(error.shortMessage).toContain('index');
    }
    // The wallet is as it was, and still saves.
    expect(to.listAccounts().map((a) => a.name)).toEqual(['Mine']);
    await to.renameAccount({ id: mine.id, name: 'Still mine' });
    expect(to.listAccounts().map((a) => a.name)).toEqual(['Still mine']);
  });

  it('asks the wallet password to export, a backup password of 8 characters or more, and an unlocked wallet', async () => {
    const from = await source();
    await expectWalletError(
      from.exportBackup({ password: 'wrong password', backupPassword: BACKUP_PASSWORD }),
      'WRONG_PASSWORD',
    );
    await expectWalletError(from.exportBackup({ password: PASSWORD, backupPassword: 'short' }), 'WEAK_PASSWORD');
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    from.lock();
    // Secrets are decrypted only while unlocked, even with the password at hand.
    await expectWalletError(from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD }), 'VAULT_LOCKED');
    await expectWalletError(from.reveal({ id: from.listAccounts()[0]!.id, password: PASSWORD }), 'VAULT_LOCKED');
    await expectWalletError(
      from.changePassword({ oldPassword: PASSWORD, newPassword: 'another long password' }),
      'VAULT_LOCKED',
    );
    const to = await wallet();
    to.lock();
    await expectWalletError(to.importBackup({ content, backupPassword: BACKUP_PASSWORD }), 'VAULT_LOCKED');
  });
});
