// The address book: contacts per network (relabelled rather than doubled), recent recipients newest first, the
// first-payment question, the addresses made to look like one it knows, a file that survives a restart and a damaged one, and contacts through the encrypted backup.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WalletError } from '../../src-main/koinos/errors.ts';
import { isAddress, looksLike } from '../../src-main/koinos/address.ts';
import { ADDRESS_BOOK_FILE, AddressBook } from '../../src-main/wallet/addressBook.ts';
import { lookalikeAddress } from '../helpers/lookalike.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from './vault/helpers.ts';

const BOB = '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs';
const CAROL = '1DFF1akeStY8SfomzFsSYsZPesQcbnF1vR';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A wallet created in a folder of its own, whose backup goes to a second wallet's folder (not created yet). */
async function backupPair() {
  const from = await vaultFixture({ keychain: NO_SECRET_SERVICE });
  const to = await vaultFixture({ keychain: NO_SECRET_SERVICE });
  cleanups.push(from.cleanup, to.cleanup);
  const source = await from.open();
  await source.create({ password: PASSWORD });
  return { source, to };
}

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'address-book-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('the address book', () => {
  it('keeps contacts per network, relabels an address it has, removes by id, and reads them back after a restart', async () => {
    const dir = await folder();
    let clock = 1_000;
    const book = new AddressBook(dir, { now: () => clock++ });
    const bob = await book.addContact({ label: ' Bob ', address: BOB, networkId: 'mainnet' });
    expect(bob).toMatchObject({ label: 'Bob', address: BOB, networkId: 'mainnet', addedAt: '1000' });
    expect((await book.addContact({ label: 'Bobby', address: BOB, networkId: 'mainnet' })).id).toBe(bob.id);
    await book.addContact({ label: 'Bob on the devnet', address: BOB, networkId: 'local' });
    await book.addContact({ label: 'Alice', address: CAROL, networkId: 'mainnet' });
    expect((await book.view('mainnet')).contacts.map((c) => c.label)).toEqual(['Alice', 'Bobby']);

    const again = new AddressBook(dir);
    expect((await again.view('local')).contacts.map((c) => c.label)).toEqual(['Bob on the devnet']);
    expect((await again.removeContact(bob.id)).map((c) => c.label)).toEqual(['Alice']);
    await expect(again.removeContact(bob.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(again.addContact({ label: '  ', address: BOB, networkId: 'mainnet' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(
      again.addContact({ label: 'Typo', address: `${BOB.slice(0, -1)}t`, networkId: 'mainnet' }),
    ).rejects.toMatchObject({ code: 'INVALID_ADDRESS' });
  });

  it('remembers where this wallet sent, per network, newest first: what the first-payment warning asks', async () => {
    const dir = await folder();
    let clock = 5_000;
    const book = new AddressBook(dir, { now: () => clock++ });
    expect(await book.hasSentTo('mainnet', BOB)).toBe(false);
    await book.recordSent('mainnet', BOB, '@bob');
    await book.recordSent('mainnet', CAROL);
    expect(await book.hasSentTo('mainnet', BOB)).toBe(true);
    expect(await book.hasSentTo('local', BOB)).toBe(false);
    await book.recordSent('mainnet', BOB);
    const recent = (await new AddressBook(dir).view('mainnet')).recent;
    expect(recent.map((r) => [r.address, r.lastSentAt])).toEqual([
      [BOB, '5002'],
      [CAROL, '5001'],
    ]);
  });

  it('tells an address made to look like another, as address poisoning makes them, and lists the addresses to compare with', async () => {
    const likeBob = lookalikeAddress(BOB);
    expect(isAddress(likeBob)).toBe(true);
    expect(likeBob).not.toBe(BOB);
    expect([likeBob.slice(0, 8), likeBob.slice(-2)]).toEqual([BOB.slice(0, 8), BOB.slice(-2)]);
    expect(looksLike(BOB, likeBob)).toBe(true);
    expect(looksLike(BOB, BOB)).toBe(false);
    expect(looksLike(BOB, CAROL)).toBe(false);
    // After the leading 1: both ends over 2 characters at least, 5 in all.
    const x = 'x'.repeat(26);
    const y = 'y'.repeat(26);
    expect(looksLike(`1AB${x}CDE`, `1AB${y}CDE`)).toBe(true);
    expect(looksLike(`1ABC${x}DE`, `1ABC${y}DE`)).toBe(true);
    expect(looksLike(`1AB${x}CD`, `1AB${y}CD`)).toBe(false);
    expect(looksLike(`1A${x}BCDE`, `1A${y}BCDE`)).toBe(false);
    expect(looksLike(`1ABCD${x}E`, `1ABCD${y}E`)).toBe(false);

    const book = new AddressBook(await folder());
    await book.addContact({ label: 'Bob', address: BOB, networkId: 'mainnet' });
    await book.recordSent('mainnet', CAROL);
    // What a review compares a recipient with (riskFlags.ts): the contacts, then the recipients, of the network.
    expect(await book.known('mainnet')).toEqual([
      { address: BOB, label: 'your contact Bob' },
      { address: CAROL, label: 'an address you sent to' },
    ]);
    expect(await book.known('testnet')).toEqual([]);
    expect(await book.known()).toHaveLength(2);
  });

  it('starts empty from a damaged file and keeps only the well-formed entries of a tampered one, naming each copy', async () => {
    const dir = await folder();
    const path = join(dir, ADDRESS_BOOK_FILE);
    await writeFile(path, '{ not json');
    const damaged = await new AddressBook(dir).view('mainnet');
    expect(damaged).toEqual({ networkId: 'mainnet', contacts: [], recent: [], keptAside: damaged.keptAside });
    expect(damaged.keptAside).toMatch(/address-book\.json\.damaged-[0-9a-f]{12}$/);
    expect(await readFile(damaged.keptAside!, 'utf8')).toBe('{ not json');
    const tampered = JSON.stringify({
      contacts: [
        { id: 'c1', label: 'Bob', address: BOB, networkId: 'mainnet', addedAt: '1' },
        { id: 'c2', label: 'Bad', address: 'nope', networkId: 'mainnet', addedAt: '1' },
      ],
      recent: [],
    });
    await writeFile(path, tampered);
    const book = new AddressBook(dir);
    const view = await book.view('mainnet');
    expect(view.contacts.map((c) => c.id)).toEqual(['c1']);
    expect(view.keptAside).not.toBe(damaged.keptAside);
    expect(await readFile(view.keptAside!, 'utf8')).toBe(tampered);
    // The next change writes what was read; the copy stays, and the file reads whole at the next start.
    await book.addContact({ label: 'Carol', address: CAROL, networkId: 'mainnet' });
    expect((await book.view('mainnet')).keptAside).toBe(view.keptAside);
    const next = await new AddressBook(dir).view('mainnet');
    expect(next.contacts.map((c) => c.label)).toEqual(['Bob', 'Carol']);
    expect(next.keptAside).toBeUndefined();
  });

  it('travels in the encrypted backup and merges into another wallet, saying what it added and what it skipped', async () => {
    const { source, to } = await backupPair();
    const contacts = [
      { label: 'Bob', address: BOB, networkId: 'mainnet' },
      { label: 'Carol', address: CAROL, networkId: 'local' },
      { label: 'Carol again', address: CAROL, networkId: 'local' },
      { label: 'On my own node', address: CAROL, networkId: 'custom-5f0c6c2e-1f7e-4d0e-9a57-3f1c4a0b7d21' },
      { label: 'Broken', address: 'not an address', networkId: 'mainnet' },
    ];
    const backup = await source.exportBackup(
      { password: PASSWORD, backupPassword: 'the backup password' },
      { contacts },
    );
    expect(backup.content).not.toContain(BOB); // sealed with the rest
    source.lock();

    const target = await to.open();
    await target.create({ password: PASSWORD });
    const book = new AddressBook(await folder());
    await book.addContact({ label: 'Robert', address: BOB, networkId: 'mainnet' });
    const { summary } = await target.importBackup(
      { content: backup.content, backupPassword: 'the backup password' },
      { mergeContacts: (c) => book.mergeContacts(c, new Set(['mainnet', 'harbinger', 'local'])) },
    );
    target.lock();
    expect(summary.contacts).toEqual({ added: 1, invalid: 1, duplicate: 2, overLimit: 0, unknownNetwork: 1 });
    expect(summary.warnings).toEqual([]);
    expect((await book.view('mainnet')).contacts.map((c) => c.label)).toEqual(['Robert']);
    expect((await book.view('local')).contacts.map((c) => [c.label, c.address])).toEqual([['Carol', CAROL]]);
    expect((await book.view('custom-5f0c6c2e-1f7e-4d0e-9a57-3f1c4a0b7d21')).contacts).toEqual([]);
  });

  it('counts the contacts past the 5,000 a book holds, and keeps the book at 5,000', async () => {
    const book = new AddressBook(await folder());
    // 5,000 distinct valid addresses: one address on as many networks (a contact is an address on one network).
    const many = Array.from({ length: 5_000 }, (_, i) => ({ label: `C${i}`, address: BOB, networkId: `n${i}` }));
    const networks = new Set([...many.map((c) => c.networkId), 'mainnet']);
    expect(await book.mergeContacts(many, networks)).toMatchObject({ added: 5_000, overLimit: 0 });
    const more = [
      { label: 'Carol', address: CAROL, networkId: 'mainnet' },
      { label: 'Bob', address: BOB, networkId: 'mainnet' },
      { label: 'Known', address: BOB, networkId: 'n7' },
    ];
    expect(await book.mergeContacts(more, networks)).toEqual({
      added: 0,
      invalid: 0,
      duplicate: 1,
      overLimit: 2,
      unknownNetwork: 0,
    });
    expect((await book.allContacts()).length).toBe(5_000);
  });

  it('imports the accounts when the contacts cannot be saved, and says so as a warning, not a failure', async () => {
    const { source, to } = await backupPair();
    await source.addWatch({ address: CAROL, name: 'Cold' });
    const backup = await source.exportBackup(
      { password: PASSWORD, backupPassword: 'the backup password' },
      { contacts: [{ label: 'Bob', address: BOB, networkId: 'mainnet' }] },
    );
    source.lock();
    const target = await to.open();
    await target.create({ password: PASSWORD });
    const result = await target.importBackup(
      { content: backup.content, backupPassword: 'the backup password' },
      {
        mergeContacts: () =>
          Promise.reject(new WalletError('STORAGE_FAILED', 'the address book could not be written: the disk is full')),
      },
    );
    expect(result.accounts.map((a) => a.name)).toEqual(['Cold']);
    expect(result.summary.addedAccountIds).toEqual([result.accounts[0]!.id]);
    expect(result.summary.warnings).toEqual([
      "The accounts were imported, but the backup's 1 contact(s) were not: the address book could not be written: the disk is full",
    ]);
    // Committed: a fresh open of the folder has the account.
    target.lock();
    expect((await to.open()).listAccounts().map((a) => a.name)).toEqual(['Cold']);
  });

  it('says networks in the warning when a backup with networks and no contacts cannot be merged', async () => {
    const { source, to } = await backupPair();
    const network = { id: 'custom-1', name: 'Team node', jsonRpcUrl: 'https://team.example.com/jsonrpc' };
    const backup = await source.exportBackup(
      { password: PASSWORD, backupPassword: 'the backup password' },
      { networks: [network] },
    );
    source.lock();
    const target = await to.open();
    await target.create({ password: PASSWORD });
    const given: unknown[] = [];
    const result = await target.importBackup(
      { content: backup.content, backupPassword: 'the backup password' },
      {
        mergeContacts: (contacts, networks) => {
          given.push(contacts, networks);
          return Promise.reject(new WalletError('STORAGE_FAILED', 'the network settings could not be written'));
        },
      },
    );
    expect(given).toEqual([[], [network]]);
    expect(result.summary.warnings).toEqual([
      "The accounts were imported, but the backup's 1 network(s) were not: the network settings could not be written",
    ]);
  });
});
