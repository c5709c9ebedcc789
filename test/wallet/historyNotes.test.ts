// Notes on transactions in their file: set, replaced, removed, kept one line and bounded, read back by another run,
// and a damaged entry dropped while the rest is kept.
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { HISTORY_NOTES_FILE, HistoryNotes, MAX_NOTE_CHARS } from '../../src-main/wallet/historyNotes.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';
import { tempDir } from './vault/helpers.ts';

const id = (digit: string) => `0x1220${digit.repeat(64)}`;

describe('HistoryNotes', () => {
  it('keeps one note per transaction and network, on one line, and reads them back in the next run', async () => {
    const dataDir = await tempDir();
    const notes = new HistoryNotes(dataDir);
    expect(await notes.set('mainnet', id('a'), '  rent,\n March \u202e ')).toBe('rent, March');
    expect(await notes.set('local', id('a'), 'on the devnet')).toBe('on the devnet');
    expect(await notes.set('mainnet', id('b'), 'x'.repeat(MAX_NOTE_CHARS + 50))).toBe(
      `${'x'.repeat(MAX_NOTE_CHARS - 1)}…`,
    );
    expect(await notes.set('mainnet', id('b'), 'refund')).toBe('refund');
    expect(await notes.notesOf('mainnet', [id('a'), id('b'), id('c'), undefined])).toEqual(
      new Map([
        [id('a'), 'rent, March'],
        [id('b'), 'refund'],
      ]),
    );
    // Removed by an empty note; the other network's note on the same id stays.
    expect(await notes.set('mainnet', id('a'), ' ')).toBe('');
    const again = new HistoryNotes(dataDir);
    expect(await again.notesOf('mainnet')).toEqual(new Map([[id('b'), 'refund']]));
    expect(await again.notesOf('local')).toEqual(new Map([[id('a'), 'on the devnet']]));

    const refused = await expectWalletError(notes.set('mainnet', 'tx-1', 'x'), 'INVALID_ARGUMENT');
    expect(refused.shortMessage).toBe('expected a transaction id (0x1220 and 64 hex digits), got "tx-1"');
  });

  it('drops a damaged entry of its file and keeps the others', async () => {
    const dataDir = await tempDir();
    const file = `${dataDir}/${HISTORY_NOTES_FILE}`;
    await writeFile(
      file,
      JSON.stringify({
        notes: [
          { networkId: 'mainnet', transactionId: id('a'), note: 'kept' },
          { networkId: 'mainnet', transactionId: 'not an id', note: 'dropped' },
          { networkId: 'mainnet', transactionId: id('b'), note: 42 },
        ],
      }),
    );
    const notes = new HistoryNotes(dataDir);
    expect(await notes.notesOf('mainnet')).toEqual(new Map([[id('a'), 'kept']]));
    await notes.set('mainnet', id('c'), 'new');
    expect((JSON.parse(await readFile(file, 'utf8')) as { notes: unknown }).notes).toEqual([
      { networkId: 'mainnet', transactionId: id('a'), note: 'kept' },
      { networkId: 'mainnet', transactionId: id('c'), note: 'new' },
    ]);
  });
});
