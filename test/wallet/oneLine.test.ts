// One rule for the names the wallet shows (account names, contact labels, dApp names): one line, no character that
// reorders or hides text, a bounded width; and each of the three follows it.
import { describe, expect, it } from 'vitest';
import { oneLine } from '../../src-main/wallet/oneLine.ts';
import { shownDappName } from '../../src-main/wallet/dapps/dappService.ts';
import { AddressBook } from '../../src-main/wallet/addressBook.ts';
import { cleanName } from '../../src-main/wallet/vault/accountBook.ts';
import { tempDir } from '../helpers/tempDir.ts';

const ADDRESS = '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs';

describe('oneLine', () => {
  it('turns line breaks, separators, tabs, bidirectional overrides and invisible characters into one space', () => {
    expect(oneLine('  a\r\n\tb\u2028c\u2029d\u0085e  ', 64)).toBe('a b c d e');
    // An override would show "Savings" reversed after it; isolates, marks, zero-width spaces and tags hide or reorder.
    expect(oneLine('pay\u202eSavings\u202c\u2066x\u2069\u200ey\u200bz\ufeff\u{e0041}!', 64)).toBe(
      'pay Savings x y z !',
    );
  });

  it('keeps the joiners that emoji and scripts need, and every other character', () => {
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';
    expect(oneLine(`Family ${family} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 é`, 64)).toBe(
      `Family ${family} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 é`,
    );
  });

  it('cuts a long text between characters, at most `max` UTF-16 units with the ellipsis', () => {
    expect(oneLine('é'.repeat(70), 64)).toBe(`${'é'.repeat(63)}…`);
    const cut = oneLine(`a${'\u{1f600}'.repeat(40)}`, 64);
    expect(cut).toBe(`a${'\u{1f600}'.repeat(31)}…`);
    expect(cut.length).toBeLessThanOrEqual(64);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(oneLine('x'.repeat(64), 64)).toBe('x'.repeat(64));
  });
});

describe('the names that follow it', () => {
  const spoof = 'Bob\u202e\n(verified)';

  it('an account name, with its fallback when nothing is left', () => {
    const vault = { accounts: [] } as unknown as Parameters<typeof cleanName>[1];
    expect(cleanName(spoof, vault)).toBe('Bob (verified)');
    expect(cleanName('\u200b\n', vault)).toBe('Account 1');
  });

  it("a contact's label, as stored and read back", async () => {
    const book = new AddressBook(await tempDir('koinos-labels-'));
    await book.addContact({ label: spoof, address: ADDRESS, networkId: 'mainnet' });
    expect((await book.view('mainnet')).contacts.map((c) => c.label)).toEqual(['Bob (verified)']);
    await expect(book.addContact({ label: '\u2028\u202e', address: ADDRESS, networkId: 'testnet' })).rejects.toThrow(
      'expected a label for the contact, got an empty one',
    );
    // From a backup, such a contact is skipped, and the others come in: the import has committed its accounts by then.
    const merged = await book.mergeContacts(
      [
        { label: '\u200b', address: ADDRESS, networkId: 'testnet' },
        { label: 'Carol\u2066', address: ADDRESS, networkId: 'harbinger' },
      ],
      new Set(['testnet', 'harbinger']),
    );
    expect(merged).toMatchObject({ added: 1, invalid: 1 });
    expect((await book.view('harbinger')).contacts.map((c) => c.label)).toEqual(['Carol']);
  });

  it("a dApp's declared name, or its origin", () => {
    expect(shownDappName(spoof, 'https://x.io')).toBe('Bob (verified)');
    expect(shownDappName('\u2066\u2069', 'https://x.io')).toBe('https://x.io');
  });
});
