// What a crash leaves in the secret store goes at the next unlock, found in the list of stray entries that wallet.json
// keeps (entries.ts withStrays), never by listing the keychain: keytar's listing crashes the process on an entry whose
// secret the keychain did not hand over, as after a cancelled unlock prompt (atom/node-keytar#477). Run in both stores.
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Vault } from '../../../src-main/wallet/vault/vault.ts';
import type { VaultRecord } from '../../../src-main/wallet/vault/walletFile.ts';
import { vector } from '../../vectors.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import {
  KEYTAR,
  NO_KEYCHAIN,
  NO_SECRET_SERVICE,
  PASSWORD,
  STORES,
  WriteFaults,
  storedEntries,
  vaultFixture,
} from './helpers.ts';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

type Fixture = Awaited<ReturnType<typeof vaultFixture>>;

/** The vault's name of a stored entry: the keychain's account names carry the wallet id in front. */
const entryName = (stored: string, kind: 'keychain' | 'file') =>
  kind === 'keychain' ? stored.slice(stored.indexOf('/') + 1) : stored;

async function vaultSection(fx: Fixture): Promise<VaultRecord> {
  return JSON.parse(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8')).vault;
}

for (const store of STORES) {
  describe.skipIf(store.skip)(`stray entries (${store.name})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    /** A wallet with one phrase account, whose writes can fail, on a keychain that records any listing. */
    async function wallet() {
      const faults = new WriteFaults();
      const listings: string[] = [];
      const keychain = {
        ...faults.keychain(store.keychain),
        findCredentials: async (service: string) => {
          listings.push(service);
          return [];
        },
      };
      const fx = await vaultFixture({ keychain, writeFile: faults.writeFile() });
      cleanups.push(fx.cleanup);
      const vault = await fx.open();
      await vault.create({ password: PASSWORD });
      const phrase = await vault.importPhrase({ phrase: PHRASE, name: 'P' });
      const [phraseEntry] = await storedEntries(fx, store.kind);
      /** The process dies at its `k`th write from now: that write and every later one fail. */
      const crashAt = (k: number) => Object.assign(faults, { step: 0, failAt: k, crash: true, lands: false });
      /** Its `k`th write from now happens, then reports a failure; the later ones go through. */
      const landsAt = (k: number) => Object.assign(faults, { step: 0, failAt: k, crash: false, lands: true });
      /** A new process on the same folder, unlocked, once its cleanup of stray entries is done. */
      const restart = async (): Promise<Vault> => {
        faults.failAt = Infinity;
        const restarted = await fx.open();
        await restarted.unlock({ password: PASSWORD });
        await restarted.settled();
        return restarted;
      };
      return { fx, faults, crashAt, landsAt, restart, listings, vault, phrase, phraseEntry: phraseEntry! };
    }

    it('deletes at the next unlock the entry of an import that crashed before the commit naming it', async () => {
      const { fx, crashAt, restart, listings, vault, phraseEntry } = await wallet();
      // The import's writes: 1 lists its entry as a stray, 2 writes the entry, 3 commits the account. The process
      // dies at 3, so nothing removes the entry.
      crashAt(3);
      const key = vector('koilib-key-1');
      await expectWalletError(vault.importKey({ key: key.wif_compressed, name: 'K' }), 'STORAGE_FAILED');
      const left = await storedEntries(fx, store.kind);
      expect(left).toHaveLength(2);
      const stray = left.find((name) => name !== phraseEntry)!;
      expect((await vaultSection(fx)).strayEntries).toEqual([entryName(stray, store.kind)]);
      vault.lock();

      const restarted = await restart();
      expect(await storedEntries(fx, store.kind)).toEqual([phraseEntry]);
      expect((await vaultSection(fx)).strayEntries).toBeUndefined();
      expect(restarted.listAccounts().map((a) => a.name)).toEqual(['P']);
      const again = await restarted.importKey({ key: key.wif_compressed, name: 'K' });
      expect(await restarted.reveal({ id: again.id, password: PASSWORD })).toEqual({
        kind: 'wif',
        secret: key.wif_compressed,
      });
      expect(listings).toEqual([]);
      restarted.lock();
    });

    it('keeps an imported key whose write landed but reported a failure, or drops the account with it, for every write', async () => {
      const key = vector('koilib-key-1');
      for (let k = 1; ; k++) {
        const { fx, faults, landsAt, restart, vault } = await wallet();
        landsAt(k);
        const failed = await vault.importKey({ key: key.wif_compressed, name: 'K' }).then(
          () => undefined,
          (error: unknown) => error,
        );
        const reachedEnd = faults.step < k;
        vault.lock();
        // Whatever the import said, a new process finds the account with its key, or no account.
        const restarted = await restart();
        const account = restarted.listAccounts().find((a) => a.name === 'K');
        if (account) {
          expect(await restarted.reveal({ id: account.id, password: PASSWORD }), `write ${k}`).toEqual({
            kind: 'wif',
            secret: key.wif_compressed,
          });
        }
        expect(account !== undefined || failed !== undefined, `write ${k}`).toBe(true);
        restarted.lock();
        await fx.cleanup();
        cleanups.splice(cleanups.indexOf(fx.cleanup), 1);
        if (reachedEnd) break;
        expect(k).toBeLessThan(20);
      }
    });

    it('deletes at the next unlock the entry of a removed account when the process died before deleting it', async () => {
      const { fx, crashAt, restart, listings, vault, phrase, phraseEntry } = await wallet();
      const key = await vault.importKey({ key: vector('koilib-key-1').wif_compressed, name: 'K' });
      const keyEntry = (await storedEntries(fx, store.kind)).find((name) => name !== phraseEntry)!;
      // The removal's writes: 1 commits wallet.json without the account, 2 deletes its entry. The process dies at 2.
      crashAt(2);
      await vault.removeAccount({ id: key.id, password: PASSWORD });
      expect(await storedEntries(fx, store.kind)).toEqual([phraseEntry, keyEntry].sort());
      vault.lock();

      const restarted = await restart();
      expect(await storedEntries(fx, store.kind)).toEqual([phraseEntry]);
      expect((await vaultSection(fx)).strayEntries).toBeUndefined();
      expect(await restarted.reveal({ id: phrase.id, password: PASSWORD })).toEqual({ kind: 'phrase', secret: PHRASE });
      expect(listings).toEqual([]);
      restarted.lock();
    });

    // With a keychain, API keys are keychain entries outside the vault's generations (apiKeys.ts).
    if (store.kind === 'file')
      it("deletes at the next unlock a network's sealed API key whose commit the process did not reach", async () => {
        const { fx, crashAt, restart, listings, vault, phraseEntry } = await wallet();
        // Without a keychain an API key is a sealed entry: 1 lists it as a stray, 2 writes it, 3 commits. Dies at 3.
        crashAt(3);
        await expectWalletError(vault.apiKeys.set('custom', 'the-api-key'), 'STORAGE_FAILED');
        expect(await storedEntries(fx, store.kind)).toHaveLength(2);
        vault.lock();

        const restarted = await restart();
        expect(await storedEntries(fx, store.kind)).toEqual([phraseEntry]);
        expect(await restarted.apiKeys.has('custom')).toBe(false);
        await restarted.apiKeys.set('custom', 'the-api-key');
        expect(await restarted.apiKeys.get('custom')).toEqual({ key: 'the-api-key' });
        expect(listings).toEqual([]);
        restarted.lock();
      });

    it('keeps a listed entry that wallet.json names, and only drops it from the list', async () => {
      const { fx, restart, vault, phrase, phraseEntry } = await wallet();
      vault.lock();
      // As a crash of another process between its commits could leave it: the phrase's own entry listed as a stray.
      const path = join(fx.dataDir, 'wallet.json');
      const file = JSON.parse(await readFile(path, 'utf8'));
      file.vault.strayEntries = [entryName(phraseEntry, store.kind)];
      await writeFile(path, JSON.stringify(file));
      const restarted = await restart();
      expect(await storedEntries(fx, store.kind)).toEqual([phraseEntry]);
      expect((await vaultSection(fx)).strayEntries).toBeUndefined();
      expect(await restarted.reveal({ id: phrase.id, password: PASSWORD })).toEqual({ kind: 'phrase', secret: PHRASE });
      restarted.lock();
    });
  });
}

describe('the list of stray entries in wallet.json', () => {
  it('refuses a list that is not one of entry names', async () => {
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    onTestFinished(fx.cleanup);
    const vault = await fx.open();
    await vault.create({ password: PASSWORD });
    vault.lock();
    const path = join(fx.dataDir, 'wallet.json');
    const file = JSON.parse(await readFile(path, 'utf8'));
    for (const strayEntries of ['a/secret/b', [''], [7]]) {
      await writeFile(path, JSON.stringify({ ...file, vault: { ...file.vault, strayEntries } }));
      const error = await expectWalletError(fx.open(), 'VAULT_CORRUPT');
      expect(error.shortMessage).toContain('its list of stray entries is not a list of entry names');
    }
  });
});

describe.skipIf(NO_KEYCHAIN !== undefined)('stray entries of another window (system keychain)', () => {
  it("refuses a window's import whose entry another window's unlock deleted, so no account lacks its key", async () => {
    const fx = await vaultFixture();
    onTestFinished(fx.cleanup);
    const first = await fx.open();
    await first.create({ password: PASSWORD });
    first.lock();
    // Window A's import stops once its entry is in the keychain, before the commit that names the account.
    let written!: () => void;
    const entryWritten = new Promise<void>((resolve) => (written = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const a = await fx.open({
      keychain: {
        ...KEYTAR,
        setPassword: async (service, account, password) => {
          await KEYTAR.setPassword(service, account, password);
          written();
          await released;
        },
      },
    });
    await a.unlock({ password: PASSWORD });
    await a.settled();
    const importing = a.importKey({ key: vector('koilib-key-1').wif_compressed, name: 'K' });
    await entryWritten;
    expect(await storedEntries(fx, 'keychain')).toHaveLength(1);
    // Window B opens now: wallet.json lists A's entry as a stray, and B's unlock deletes it.
    const b = await fx.open();
    await b.unlock({ password: PASSWORD });
    await b.settled();
    expect(await storedEntries(fx, 'keychain')).toEqual([]);
    // A's commit is refused: the user is told the import was not saved, and no account names a missing key.
    release();
    await expectWalletError(importing, 'VAULT_CHANGED');
    const reopened = await fx.open();
    expect(reopened.listAccounts()).toEqual([]);
    for (const vault of [a, b]) vault.lock();
  });
});
