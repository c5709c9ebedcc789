// The encrypted backup: one file, a password of its own, no keychain needed; restores every account into an empty
// wallet or merges into one that has some of them already; refuses wrong passwords, altered and foreign files.
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountInfo } from '../../../src-main/ipc/contract.ts';
import type { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { openBackup, sealBackup, type BackupPayload } from '../../../src-main/wallet/vault/backupFile.ts';
import { backupPayloadOf } from '../../../src-main/wallet/vault/backupMerge.ts';
import type { VaultRecord } from '../../../src-main/wallet/vault/walletFile.ts';
import { deriveAccount } from '../../../src-main/wallet/vault/secretPayload.ts';
import { vector } from '../../vectors.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const BACKUP_PASSWORD = 'the backup password';
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const WATCHED = '1DFF1akeStY8SfomzFsSYsZPesQcbnF1vR';

/** Every file of a data folder and its bytes: a refused import must leave them as they were. */
async function files(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const out: Record<string, string> = {};
  for (const e of names) {
    const path = join(e.parentPath, e.name);
    out[relative(dir, path)] = (await readFile(path)).toString('base64');
  }
  return out;
}

/** The backup `content` with its payload changed by `change`, sealed again with the same password and cost. */
async function recrafted(content: string, change: (payload: BackupPayload) => BackupPayload): Promise<string> {
  const { kdf } = JSON.parse(content) as { kdf: { N: number; r: number; p: number } };
  const payload = await openBackup(content, BACKUP_PASSWORD, { minScryptN: kdf.N });
  return sealBackup(change(payload), BACKUP_PASSWORD, kdf, new Date());
}

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

  const dataDirs = new Map<Vault, string>();

  async function wallet(password = PASSWORD): Promise<Vault> {
    // The owner-only file store: a backup must not need the keychain on either side.
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    cleanups.push(fx.cleanup);
    const vault = await fx.open();
    dataDirs.set(vault, fx.dataDir);
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
    const { accounts: imported, summary } = await to.importBackup({
      content: backup.content,
      backupPassword: BACKUP_PASSWORD,
    });
    expect(shape(imported)).toEqual(shape(from.listAccounts()));
    expect(summary).toMatchObject({
      addedAccountIds: imported.map((a) => a.id),
      upgradedAccountIds: [],
      alreadyPresent: 0,
    });
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
    const { accounts, summary } = await to.importBackup({ content, backupPassword: BACKUP_PASSWORD });
    expect(accounts.map((a) => a.name)).toEqual(['Mine', 'Phrase 1', 'Dev key', 'Cold']);
    expect(accounts[1]).toMatchObject({ phraseId: own.phraseId, derivationIndex: 1 });
    expect(summary).toEqual({
      addedAccountIds: accounts.slice(1).map((a) => a.id),
      upgradedAccountIds: [],
      alreadyPresent: 1,
      contacts: { added: 0, invalid: 0, duplicate: 0, overLimit: 0, unknownNetwork: 0 },
      warnings: [],
    });
    const again = await to.importBackup({ content, backupPassword: BACKUP_PASSWORD });
    expect(again.accounts).toEqual(accounts);
    expect(again.summary).toMatchObject({ addedAccountIds: [], upgradedAccountIds: [], alreadyPresent: 4 });
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
    const found = [
      'recovery phrase entry 1 of 1 has a "nextIndex" of 2147483648',
      'recovery phrase entry 1 of 1 has a "nextIndex" of -1',
      `account entry 1 of ${payload.accounts.length} has a "derivationIndex" of 2147483648`,
    ];
    for (const [i, bad] of crafted.entries()) {
      const text = await sealBackup(bad, BACKUP_PASSWORD, kdf, new Date());
      const error = await expectWalletError(
        to.importBackup({ content: text, backupPassword: BACKUP_PASSWORD }),
        'INVALID_BACKUP',
      );
      expect(error.shortMessage).toBe(
        `expected a Koinos wallet backup file, but ${found[i]}, not a whole number from 0 to 2147483647`,
      );
    }
    // The wallet is as it was, and still saves.
    expect(to.listAccounts().map((a) => a.name)).toEqual(['Mine']);
    await to.renameAccount({ id: mine.id, name: 'Still mine' });
    expect(to.listAccounts().map((a) => a.name)).toEqual(['Still mine']);
  });

  it('refuses custom networks and notes that are not lists of text entries, naming the entry and the field', async () => {
    const from = await source();
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const to = await wallet();
    const network = { id: 'custom-1', name: 'Team node', jsonRpcUrl: 'https://team.example.com/jsonrpc' };
    const cases: [unknown, string][] = [
      ['https://team.example.com', 'its networks are not a list'],
      [[network, { ...network, name: 3 }], 'network entry 2 of 2 has a number as its "name", not text'],
      [[{ ...network, restUrl: ['x'] }], 'network entry 1 of 1 has a list as its "restUrl", not text'],
      [[null], 'network entry 1 of 1 has nothing as its "id", not text'],
    ];
    for (const [networks, why] of cases) {
      const text = await recrafted(content, (p) => ({ ...p, networks: networks as BackupPayload['networks'] }));
      const error = await expectWalletError(
        to.importBackup({ content: text, backupPassword: BACKUP_PASSWORD }),
        'INVALID_BACKUP',
      );
      expect(error.shortMessage).toBe(`expected a Koinos wallet backup file, but ${why}`);
    }
    // Notes on transactions alike.
    const note = { networkId: 'mainnet', transactionId: `0x1220${'a'.repeat(64)}`, note: 'rent' };
    for (const [notes, why] of [
      [{ note }, 'its notes are not a list'],
      [[note, { ...note, note: 42 }], 'note entry 2 of 2 has a number as its "note", not text'],
    ] as [unknown, string][]) {
      const text = await recrafted(content, (p) => ({ ...p, notes: notes as BackupPayload['notes'] }));
      const error = await expectWalletError(
        to.importBackup({ content: text, backupPassword: BACKUP_PASSWORD }),
        'INVALID_BACKUP',
      );
      expect(error.shortMessage).toBe(`expected a Koinos wallet backup file, but ${why}`);
    }
    expect(to.listAccounts()).toEqual([]);
  });

  it('refuses a phrase or key account whose address is not the one its key gives, naming it, changing nothing', async () => {
    const from = await source();
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const to = await wallet();
    await to.addWatch({ address: WATCHED, name: 'Mine' });
    const before = await files(dataDirs.get(to)!);
    const [p0, p1, key] = from.listAccounts();
    // Entry 2 is Phrase 1 (index 1), entry 3 the development key.
    const cases = [
      {
        entry: 1,
        what: 'recovery phrase account 1',
        derived: p1!.address,
        change: (p: BackupPayload) => ({
          ...p,
          accounts: p.accounts.map((a, i) => (i === 1 ? { ...a, address: p0!.address } : a)),
        }),
        written: p0!.address,
      },
      {
        entry: 2,
        what: 'an imported key',
        derived: key!.address,
        change: (p: BackupPayload) => ({
          ...p,
          accounts: p.accounts.map((a, i) => (i === 2 ? { ...a, address: WATCHED } : a)),
        }),
        written: WATCHED,
      },
    ];
    for (const c of cases) {
      const error = await expectWalletError(
        to.importBackup({ content: await recrafted(content, c.change), backupPassword: BACKUP_PASSWORD }),
        'INVALID_BACKUP',
      );
      expect(error.shortMessage).toBe(
        `expected account entry ${c.entry + 1} of 4 of the backup (${c.what}) to have the address its key gives, ` +
          `${c.derived}, but the backup says ${c.written}; nothing was imported`,
      );
    }
    expect(to.listAccounts().map((a) => a.name)).toEqual(['Mine']);
    expect(await files(dataDirs.get(to)!)).toEqual(before);
  });

  it("raises a phrase's next index above its highest account, whatever the file says", async () => {
    const from = await source();
    // The file says 1, but it holds account 7 of the phrase.
    const content = await recrafted(
      (await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD })).content,
      (p) => ({
        phrases: p.phrases.map((q) => ({ ...q, nextIndex: 1 })),
        accounts: [
          ...p.accounts,
          {
            name: 'Seven',
            kind: 'phrase',
            phraseRef: p.phrases[0]!.ref,
            derivationIndex: 7,
            address: deriveAccount(PHRASE, 7).address,
          },
        ],
      }),
    );
    const fresh = await wallet();
    const { accounts } = await fresh.importBackup({ content, backupPassword: BACKUP_PASSWORD });
    expect((await fresh.deriveNext({ phraseId: accounts[0]!.phraseId!, name: 'next' })).derivationIndex).toBe(8);
    // Merged into a phrase the wallet holds (its own next index is 1): the same.
    const mine = await wallet();
    const own = await mine.importPhrase({ phrase: PHRASE, name: 'Mine' });
    await mine.importBackup({ content, backupPassword: BACKUP_PASSWORD });
    expect((await mine.deriveNext({ phraseId: own.phraseId!, name: 'next' })).derivationIndex).toBe(8);
  });

  it('turns a watch-only account into the signing account the backup holds, keeping its name and place', async () => {
    const from = await source();
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const [, p1, key] = from.listAccounts();
    const to = await wallet();
    const first = await to.addWatch({ address: WATCHED, name: 'First' });
    const savings = await to.addWatch({ address: p1!.address, name: 'Savings' });
    const hot = await to.addWatch({ address: key!.address, name: 'Hot' });
    const { accounts, summary } = await to.importBackup({ content, backupPassword: BACKUP_PASSWORD });
    expect(shape(accounts)).toEqual([
      { name: 'First', address: WATCHED, kind: 'watch' },
      { name: 'Savings', address: p1!.address, kind: 'phrase', derivationIndex: 1 },
      { name: 'Hot', address: key!.address, kind: 'key', developmentOnly: true },
      { name: 'Phrase 0', address: from.listAccounts()[0]!.address, kind: 'phrase', derivationIndex: 0 },
    ]);
    expect(accounts.slice(0, 3).map((a) => a.id)).toEqual([first.id, savings.id, hot.id]);
    expect(summary).toMatchObject({
      addedAccountIds: [accounts[3]!.id],
      upgradedAccountIds: [savings.id, hot.id],
      alreadyPresent: 1,
    });
    // They sign now: their keys are in the wallet.
    expect(await to.reveal({ id: hot.id, password: PASSWORD })).toEqual(
      await from.reveal({ id: key!.id, password: PASSWORD }),
    );
  });

  it('names the entry and the field of an incomplete account, never quoting a key', async () => {
    const from = await source();
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const to = await wallet();
    const key = vector('koilib-key-1').private_key_hex;
    const at = (i: number, patch: object) => (p: BackupPayload) => ({
      ...p,
      accounts: p.accounts.map((a, j) => (j === i ? { ...a, ...patch } : a)),
    });
    const cases: [(p: BackupPayload) => BackupPayload, string][] = [
      [at(2, { privateKeyHex: undefined }), 'account entry 3 of 4 has nothing as its "privateKeyHex", not text'],
      [at(2, { privateKeyHex: 42 }), 'account entry 3 of 4 has a number as its "privateKeyHex", not text'],
      [at(1, { phraseRef: null }), 'account entry 2 of 4 has null as its "phraseRef", not text'],
      [at(3, { address: undefined }), 'account entry 4 of 4 has nothing as its "address", not text'],
      [
        at(2, { kind: 'cold', privateKeyHex: key }),
        'account entry 3 of 4 has "cold" as its "kind", not "phrase", "key" or "watch"',
      ],
      // Two phrases of one ref: which one its accounts mean would be left to chance.
      [
        (p) => ({ ...p, phrases: [...p.phrases, { ...p.phrases[0]!, phrase: 'abandon '.repeat(11) + 'about' }] }),
        'recovery phrase entry 2 of 2 has the "ref" of recovery phrase entry 1',
      ],
    ];
    for (const [change, found] of cases) {
      const error = await expectWalletError(
        to.importBackup({ content: await recrafted(content, change), backupPassword: BACKUP_PASSWORD }),
        'INVALID_BACKUP',
      );
      expect(error.shortMessage).toBe(`expected a Koinos wallet backup file, but ${found}`);
      expect(JSON.stringify(error)).not.toContain(key);
    }
    expect(to.listAccounts()).toEqual([]);
  });

  it('refuses a backup of more than 1000 accounts before deriving any, and will not write one', async () => {
    const from = await source();
    const { content } = await from.exportBackup({ password: PASSWORD, backupPassword: BACKUP_PASSWORD });
    const to = await wallet();
    const many = await recrafted(content, (p) => ({
      ...p,
      accounts: Array.from({ length: 1001 }, (_, i) => ({ ...p.accounts[0]!, name: `A${i}` })),
    }));
    const error = await expectWalletError(
      to.importBackup({ content: many, backupPassword: BACKUP_PASSWORD }),
      'INVALID_BACKUP',
    );
    expect(error.shortMessage).toBe('expected a backup of at most 1000 accounts, got 1001');
    expect(to.listAccounts()).toEqual([]);
    const big = {
      phrases: [],
      accounts: Array.from({ length: 1001 }, (_, i) => ({
        id: `w${i}`,
        name: `W${i}`,
        address: WATCHED,
        kind: 'watch',
      })),
    } as unknown as VaultRecord;
    const refused = await expectWalletError(
      backupPayloadOf(big, () => Promise.reject(new Error('no secret is read'))),
      'INVALID_BACKUP',
    );
    expect(refused.shortMessage).toBe('expected a backup of at most 1000 accounts, got 1001');
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
