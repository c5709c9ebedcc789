// The vault against the real keychain: create, unlock, lock, accounts of every kind, signing, and the settings file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { Signer as KoilibSigner } from 'koilib';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { privateKeyToWif } from '../../../src-main/koinos/keys.ts';
import { nonceToBytes, recoverSigners } from '../../../src-main/koinos/transaction.ts';
import type { Transaction } from '../../../src-main/koinos/types.ts';
import { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { vector } from '../../vectors.ts';
import { KEYTAR, NO_KEYCHAIN, PASSWORD, vaultFixture } from './helpers.ts';
import { approvalFor } from '../../helpers/approval.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const TEST_PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** The address at m/44'/659'/index'/0/0 computed without our code: @scure/bip32 for the key, koilib for the address. */
function referenceAddress(phrase: string, index: number): string {
  const key = HDKey.fromMasterSeed(mnemonicToSeedSync(phrase)).derive(`m/44'/659'/${index}'/0/0`).privateKey!;
  return new KoilibSigner({ privateKey: Buffer.from(key).toString('hex') }).getAddress();
}

function unsignedTransfer(payer: string): Transaction {
  return {
    id: new Uint8Array(),
    header: {
      chain_id: Uint8Array.from([0x12, 0x20, ...new Uint8Array(32).fill(7)]),
      rc_limit: 100_000_000n,
      nonce: nonceToBytes(1n),
      operation_merkle_root: new Uint8Array(),
      payer: addressFromString(payer),
      payee: new Uint8Array(),
    },
    operations: [],
    signatures: [],
  };
}

describe.skipIf(NO_KEYCHAIN !== undefined)('vault in the system keychain', () => {
  let fx: Awaited<ReturnType<typeof vaultFixture>>;
  let vault: Vault;
  beforeEach(async () => {
    fx = await vaultFixture();
    vault = await fx.open();
  });
  afterEach(async () => {
    vault.lock();
    await fx.cleanup();
  });

  it('starts with no wallet, creates one unlocked in the keychain, and refuses a second', async () => {
    expect(vault.status()).toEqual({ exists: false, unlocked: false, storage: 'keychain', autoLockMinutes: 5 });
    expect(await vault.create({ password: PASSWORD })).toEqual({
      exists: true,
      unlocked: true,
      storage: 'keychain',
      autoLockMinutes: 5,
    });
    await expectWalletError(vault.create({ password: PASSWORD }), 'VAULT_EXISTS');
    const reopened = await fx.open();
    expect(reopened.status()).toMatchObject({ exists: true, unlocked: false, storage: 'keychain' });
  });

  it('refuses a password shorter than 8 characters', async () => {
    const error = await expectWalletError(vault.create({ password: 'short' }), 'WEAK_PASSWORD');
    expect(error.shortMessage).toBe('expected the wallet password to have at least 8 characters, got 5');
    expect(vault.status().exists).toBe(false);
  });

  it('imports a WIF, keeps its sealed key in the keychain, and signs for it only while unlocked', async () => {
    const v = vector('koilib-key-1');
    await vault.create({ password: PASSWORD });
    const account = await vault.importKey({ key: v.wif_compressed, name: 'Main' });
    expect(account).toEqual({ id: account.id, name: 'Main', address: v.address_compressed, kind: 'key' });

    // One keychain entry, sealed: neither the key nor its WIF is in it, nor in wallet.json.
    const entries = await KEYTAR.findCredentials(fx.keychainService);
    expect(entries).toHaveLength(1);
    const walletJson = await readFile(join(fx.dataDir, 'wallet.json'), 'utf8');
    for (const text of [entries[0]!.password, entries[0]!.account, walletJson]) {
      expect(text).not.toContain(v.private_key_hex);
      expect(text).not.toContain(v.wif_compressed);
    }
    expect(entries[0]!.password).toMatch(/^v1\./);

    const signed = await vault.signTransaction(
      v.address_compressed,
      unsignedTransfer(v.address_compressed),
      await approvalFor(v.address_compressed, unsignedTransfer(v.address_compressed)),
    );
    expect(recoverSigners(signed)).toEqual([{ address: v.address_compressed }]);

    vault.lock();
    await expectWalletError(
      vault.signTransaction(
        v.address_compressed,
        unsignedTransfer(v.address_compressed),
        await approvalFor(v.address_compressed, unsignedTransfer(v.address_compressed)),
      ),
      'VAULT_LOCKED',
    );
    // After a restart: unlock, and the key is read from the keychain again.
    const reopened = await fx.open();
    await reopened.unlock({ password: PASSWORD });
    const again = await reopened.signTransaction(
      v.address_compressed,
      unsignedTransfer(v.address_compressed),
      await approvalFor(v.address_compressed, unsignedTransfer(v.address_compressed)),
    );
    expect(again.signatures).toEqual(signed.signatures);
    reopened.lock();
  });

  it('imports 64 hex digits and flags a development key', async () => {
    const v = vector('koilib-key-1');
    await vault.create({ password: PASSWORD });
    const account = await vault.importKey({ key: v.private_key_hex, name: 'Dev' }, { developmentOnly: true });
    expect(account).toMatchObject({ address: v.address_compressed, kind: 'key', developmentOnly: true });
    await expectWalletError(vault.importKey({ key: v.wif_compressed, name: 'Twice' }), 'ACCOUNT_EXISTS');
  });

  it('unlocks without opening any entry: one key derivation checked against wallet.json, entries opened on use', async () => {
    await vault.create({ password: PASSWORD });
    for (let i = 0; i < 5; i++)
      await vault.importKey({ key: Buffer.from(new Uint8Array(32).fill(i + 1)).toString('hex'), name: `K${i}` });
    vault.lock();
    const reads: string[] = [];
    const counting = {
      ...KEYTAR,
      getPassword: (service: string, account: string) => (reads.push(account), KEYTAR.getPassword(service, account)),
    };
    const reopened = await fx.open({ keychain: counting });
    await reopened.unlock({ password: PASSWORD });
    expect(reads).toEqual([]);
    const last = reopened.listAccounts()[4]!;
    await reopened.signTransaction(
      last.address,
      unsignedTransfer(last.address),
      await approvalFor(last.address, unsignedTransfer(last.address)),
    );
    expect(reads).toHaveLength(1);
    await reopened.signTransaction(
      last.address,
      unsignedTransfer(last.address),
      await approvalFor(last.address, unsignedTransfer(last.address)),
    );
    expect(reads).toHaveLength(1);
    await reopened.settled();
    reopened.lock();
  });

  it('answers a wrong password with WRONG_PASSWORD and stays as it was', async () => {
    await vault.create({ password: PASSWORD });
    vault.lock();
    const error = await expectWalletError(vault.unlock({ password: 'not the password' }), 'WRONG_PASSWORD');
    expect(error.message).not.toContain('not the password');
    // Plain words for the person at the keyboard, not a developer's "expected ..., but ...".
    expect(error.shortMessage).toBe("That is not this wallet's password.");
    expect(vault.status().unlocked).toBe(false);
    await vault.unlock({ password: PASSWORD });
    await expectWalletError(vault.unlock({ password: 'not the password' }), 'WRONG_PASSWORD');
    expect(vault.status().unlocked).toBe(true);
  });

  it('tells listeners when it locks and unlocks', async () => {
    const seen: boolean[] = [];
    const off = vault.onLockChange((status) => seen.push(status.unlocked));
    await vault.create({ password: PASSWORD });
    vault.lock();
    vault.lock();
    await vault.unlock({ password: PASSWORD });
    off();
    vault.lock();
    expect(seen).toEqual([true, false, true]);
  });

  it("derives phrase accounts at m/44'/659'/N'/0/0 like Kondor, never reusing an index", async () => {
    await vault.create({ password: PASSWORD });
    const first = await vault.importPhrase({ phrase: `  ${TEST_PHRASE.toUpperCase()} `, name: 'Phrase 0' });
    expect(first).toMatchObject({ kind: 'phrase', derivationIndex: 0, address: referenceAddress(TEST_PHRASE, 0) });
    const second = await vault.deriveNext({ phraseId: first.phraseId!, name: 'Phrase 1' });
    expect(second).toMatchObject({
      kind: 'phrase',
      phraseId: first.phraseId,
      derivationIndex: 1,
      address: referenceAddress(TEST_PHRASE, 1),
    });
    await vault.removeAccount({ id: second.id, password: PASSWORD });
    const third = await vault.deriveNext({ phraseId: first.phraseId!, name: '' });
    expect(third).toMatchObject({ derivationIndex: 2, address: referenceAddress(TEST_PHRASE, 2), name: 'Account 2' });
    await expectWalletError(vault.importPhrase({ phrase: TEST_PHRASE, name: 'again' }), 'ACCOUNT_EXISTS');
    // One keychain entry for the phrase, whatever the number of its accounts.
    expect(await KEYTAR.findCredentials(fx.keychainService)).toHaveLength(1);

    vault.lock();
    const reopened = await fx.open();
    await reopened.unlock({ password: PASSWORD });
    const signed = await reopened.signTransaction(
      third.address,
      unsignedTransfer(third.address),
      await approvalFor(third.address, unsignedTransfer(third.address)),
    );
    expect(recoverSigners(signed)).toEqual([{ address: referenceAddress(TEST_PHRASE, 2) }]);
    reopened.lock();
  });

  it("skips a phrase index whose address is in the wallet already, so the phrase's later accounts can be added", async () => {
    await vault.create({ password: PASSWORD });
    const first = await vault.importPhrase({ phrase: TEST_PHRASE, name: 'Phrase 0' });
    // Index 1 came in another way first (watched here; a WIF from another wallet is the same).
    await vault.addWatch({ address: referenceAddress(TEST_PHRASE, 1), name: 'Watched' });
    const next = await vault.deriveNext({ phraseId: first.phraseId!, name: 'Phrase 2' });
    expect(next).toMatchObject({ kind: 'phrase', derivationIndex: 2, address: referenceAddress(TEST_PHRASE, 2) });
    expect(vault.listAccounts().map((a) => a.name)).toEqual(['Phrase 0', 'Watched', 'Phrase 2']);
  });

  it('rejects an invalid phrase or key without quoting it', async () => {
    await vault.create({ password: PASSWORD });
    const phrase = TEST_PHRASE.replace(/about$/, 'abandon');
    const badPhrase = await expectWalletError(vault.importPhrase({ phrase, name: 'x' }), 'INVALID_MNEMONIC');
    expect(badPhrase.message).not.toContain('abandon');
    const v = vector('koilib-key-1');
    const wif = v.wif_compressed.slice(0, -1) + (v.wif_compressed.endsWith('L') ? 'M' : 'L');
    const badWif = await expectWalletError(vault.importKey({ key: wif, name: 'x' }), 'INVALID_WIF');
    expect(badWif.message).not.toContain(wif.slice(0, 20));
    expect(vault.listAccounts()).toEqual([]);
  });

  it('makes a new phrase, shows it once, and saves it only when the asked words match', async () => {
    await vault.create({ password: PASSWORD });
    const draft = await vault.newPhrase({ words: 24 });
    expect(draft.words).toHaveLength(24);
    expect(draft.checkPositions).toHaveLength(3);
    expect(new Set(draft.checkPositions).size).toBe(3);
    expect(draft.checkPositions.every((p) => p >= 1 && p <= 24)).toBe(true);
    const right = draft.checkPositions.map((position) => ({ position, word: draft.words[position - 1]! }));
    const wrong = right.map((c, i) => (i === 1 ? { ...c, word: c.word === 'zoo' ? 'zone' : 'zoo' } : c));
    const error = await expectWalletError(
      vault.confirmPhrase({ draftId: draft.draftId, name: 'New', checks: wrong }),
      'INVALID_MNEMONIC',
    );
    expect(error.shortMessage).toContain(`word ${draft.checkPositions[1]}`);
    expect(vault.listAccounts()).toEqual([]);
    const account = await vault.confirmPhrase({ draftId: draft.draftId, name: 'New', checks: right });
    expect(account).toMatchObject({
      name: 'New',
      kind: 'phrase',
      derivationIndex: 0,
      address: referenceAddress(draft.words.join(' '), 0),
    });
    await expectWalletError(vault.confirmPhrase({ draftId: draft.draftId, name: 'New', checks: right }), 'NOT_FOUND');
    expect((await vault.newPhrase({ words: 12 })).words).toHaveLength(12);
  });

  it('forgets an unconfirmed phrase when it locks', async () => {
    await vault.create({ password: PASSWORD });
    const draft = await vault.newPhrase({ words: 12 });
    vault.lock();
    await vault.unlock({ password: PASSWORD });
    const checks = draft.checkPositions.map((position) => ({ position, word: draft.words[position - 1]! }));
    await expectWalletError(vault.confirmPhrase({ draftId: draft.draftId, name: 'x', checks }), 'NOT_FOUND');
  });

  it('adds watch-only addresses, which cannot sign or reveal', async () => {
    const v = vector('koilib-key-1');
    await vault.create({ password: PASSWORD });
    const watch = await vault.addWatch({ address: v.address_compressed, name: 'Cold' });
    expect(watch).toEqual({ id: watch.id, name: 'Cold', address: v.address_compressed, kind: 'watch' });
    await expectWalletError(
      vault.signTransaction(
        v.address_compressed,
        unsignedTransfer(v.address_compressed),
        await approvalFor(v.address_compressed, unsignedTransfer(v.address_compressed)),
      ),
      'WATCH_ONLY',
    );
    await expectWalletError(vault.reveal({ id: watch.id, password: PASSWORD }), 'WATCH_ONLY');
    await expectWalletError(
      vault.addWatch({ address: v.address_compressed.slice(0, -1) + 'x', name: 'typo' }),
      'INVALID_ADDRESS',
    );
    expect(await KEYTAR.findCredentials(fx.keychainService)).toHaveLength(0);
  });

  it('renames, reorders and removes (with the password) accounts, and keeps that across a restart', async () => {
    const v = vector('koilib-key-1');
    await vault.create({ password: PASSWORD });
    const a = await vault.importKey({ key: v.wif_compressed, name: 'A' });
    const b = await vault.importPhrase({ phrase: TEST_PHRASE, name: 'B' });
    const c = await vault.addWatch({ address: referenceAddress(TEST_PHRASE, 5), name: 'C' });
    expect((await vault.renameAccount({ id: b.id, name: '  Savings\n' })).name).toBe('Savings');
    expect((await vault.reorderAccounts({ ids: [c.id, a.id, b.id] })).map((x) => x.name)).toEqual([
      'C',
      'A',
      'Savings',
    ]);
    await expectWalletError(vault.reorderAccounts({ ids: [c.id, a.id] }), 'INVALID_ARGUMENT');
    await expectWalletError(vault.removeAccount({ id: a.id, password: 'wrong password' }), 'WRONG_PASSWORD');
    await vault.updateSettings({ selectedAccountId: a.id });
    expect((await vault.removeAccount({ id: a.id, password: PASSWORD })).map((x) => x.id)).toEqual([c.id, b.id]);
    expect(vault.getSettings().selectedAccountId).toBeUndefined();
    // The removed key's entry is gone from the keychain; the phrase's stays.
    expect(await KEYTAR.findCredentials(fx.keychainService)).toHaveLength(1);
    await expectWalletError(vault.renameAccount({ id: a.id, name: 'x' }), 'ACCOUNT_NOT_FOUND');
    const reopened = await fx.open();
    expect(reopened.listAccounts()).toEqual(vault.listAccounts());
    await vault.removeAccount({ id: b.id, password: PASSWORD });
    expect(await KEYTAR.findCredentials(fx.keychainService)).toHaveLength(0);
  });

  it('reveals a phrase or a WIF only with the password', async () => {
    const v = vector('koilib-key-1');
    await vault.create({ password: PASSWORD });
    const key = await vault.importKey({ key: v.private_key_hex, name: 'K' });
    const phrase = await vault.importPhrase({ phrase: TEST_PHRASE, name: 'P' });
    await expectWalletError(vault.reveal({ id: key.id, password: 'wrong password' }), 'WRONG_PASSWORD');
    expect(await vault.reveal({ id: key.id, password: PASSWORD })).toEqual({ kind: 'wif', secret: v.wif_compressed });
    expect(await vault.reveal({ id: phrase.id, password: PASSWORD })).toEqual({ kind: 'phrase', secret: TEST_PHRASE });
    expect(privateKeyToWif(Buffer.from(v.private_key_hex, 'hex'))).toBe(v.wif_compressed);
  });

  it('keeps settings in wallet.json, validates them, and reads them before a wallet exists', async () => {
    expect(vault.getSettings()).toEqual({ autoLockMinutes: 5, theme: 'system' });
    expect(await vault.updateSettings({ theme: 'dark', autoLockMinutes: 15 })).toEqual({
      autoLockMinutes: 15,
      theme: 'dark',
    });
    await expectWalletError(vault.updateSettings({ autoLockMinutes: 0 }), 'INVALID_ARGUMENT');
    await expectWalletError(vault.updateSettings({ theme: 'blue' as 'dark' }), 'INVALID_ARGUMENT');
    await expectWalletError(vault.updateSettings({ selectedAccountId: 'nope' }), 'ACCOUNT_NOT_FOUND');
    // The network selection is the chain settings' (walletChannels joins them): the vault takes none.
    await vault.updateSettings({ theme: 'dark', ...({ injected: 'x', selectedNetworkId: 'testnet' } as object) });
    const reopened = await fx.open();
    expect(reopened.getSettings()).toEqual({ autoLockMinutes: 15, theme: 'dark' });
    expect(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8')).not.toContain('selectedNetworkId');
    expect(reopened.status().autoLockMinutes).toBe(15);
    expect(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8')).not.toContain('injected');
  });

  it('keeps API keys of networks in the keychain, readable while locked and before a wallet exists', async () => {
    expect(await vault.apiKeys.get('custom-1')).toBeUndefined();
    await vault.apiKeys.set('custom-1', 'api-key-secret-123');
    expect(await vault.apiKeys.has('custom-1')).toBe(true);
    expect(await vault.apiKeys.get('custom-1')).toEqual({ key: 'api-key-secret-123' });
    expect(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8')).not.toContain('api-key-secret-123');
    await vault.create({ password: PASSWORD });
    await vault.apiKeys.set('custom-1', 'replaced-key');
    vault.lock();
    const reopened = await fx.open();
    expect(await reopened.apiKeys.has('custom-1')).toBe(true);
    expect(await reopened.apiKeys.get('custom-1')).toEqual({ key: 'replaced-key' });
    await expectWalletError(reopened.apiKeys.set('custom-2', ''), 'INVALID_ARGUMENT');
    await reopened.apiKeys.set('custom-1', null);
    expect(await reopened.apiKeys.has('custom-1')).toBe(false);
    expect(await reopened.apiKeys.get('custom-1')).toBeUndefined();
    expect(await KEYTAR.findCredentials(fx.keychainService)).toHaveLength(0);
  });

  it('refuses keychain entries swapped between accounts (each entry is bound to its name)', async () => {
    await vault.create({ password: PASSWORD });
    const a = await vault.importKey({ key: vector('koilib-key-1').wif_compressed, name: 'A' });
    await vault.importPhrase({ phrase: TEST_PHRASE, name: 'B' });
    vault.lock();
    const [x, y] = await KEYTAR.findCredentials(fx.keychainService);
    await KEYTAR.setPassword(fx.keychainService, x!.account, y!.password);
    await KEYTAR.setPassword(fx.keychainService, y!.account, x!.password);
    const reopened = await fx.open();
    await reopened.unlock({ password: PASSWORD });
    const error = await expectWalletError(reopened.reveal({ id: a.id, password: PASSWORD }), 'VAULT_CORRUPT');
    expect(error.shortMessage).toBe('expected a sealed key in the system keychain, but it is damaged or moved');
    await expectWalletError(
      reopened.signTransaction(
        a.address,
        unsignedTransfer(a.address),
        await approvalFor(a.address, unsignedTransfer(a.address)),
      ),
      'VAULT_CORRUPT',
    );
    reopened.lock();
  });

  it('refuses account changes that need keys while locked', async () => {
    await vault.create({ password: PASSWORD });
    vault.lock();
    await expectWalletError(vault.importKey({ key: vector('koilib-key-1').wif_compressed, name: 'x' }), 'VAULT_LOCKED');
    await expectWalletError(vault.importPhrase({ phrase: TEST_PHRASE, name: 'x' }), 'VAULT_LOCKED');
    await expectWalletError(vault.newPhrase({ words: 12 }), 'VAULT_LOCKED');
    const other = await vaultFixture();
    await expectWalletError((await other.open()).unlock({ password: PASSWORD }), 'VAULT_NOT_FOUND');
    await other.cleanup();
  });
});
