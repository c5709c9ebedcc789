// Notes on transactions: the person's own words for an entry of the history ("rent, March", "refund of order 12"), per
// network and transaction, shown on its History row and written into the history export and the encrypted backup. Not
// secret, so kept beside the wallet in history-notes.json (one atomic write per change, changes serialized; a damaged
// file is kept aside).
import { join } from 'node:path';
import { WalletError, describe } from '../koinos/errors.ts';
import { JsonFileStore } from './jsonFileStore.ts';
import { oneLine } from './oneLine.ts';

/** The file name inside the data folder. */
export const HISTORY_NOTES_FILE = 'history-notes.json';
/** The longest note, in UTF-16 units (a note is one line: longer text is cut). */
export const MAX_NOTE_CHARS = 200;
const MAX_NOTES = 20_000;
const TRANSACTION_ID = /^0x1220[0-9a-f]{64}$/;

interface NoteRecord {
  networkId: string;
  transactionId: string;
  note: string;
}

interface NotesData {
  notes: NoteRecord[];
}

const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/** Keeps the well-formed notes of a stored file (a damaged entry is dropped, never a reason to fail). */
function readNotes(json: unknown): NotesData {
  const data: NotesData = { notes: [] };
  const notes = typeof json === 'object' && json !== null ? (json as { notes?: unknown }).notes : undefined;
  for (const n of Array.isArray(notes) ? notes : []) {
    const { networkId, transactionId, note } = (n ?? {}) as Record<string, unknown>;
    const valid = typeof transactionId === 'string' && TRANSACTION_ID.test(transactionId);
    if (valid && isText(networkId, 100) && isText(note, MAX_NOTE_CHARS))
      data.notes.push({ networkId, transactionId, note });
  }
  return data;
}

/**
 * @example
 * const notes = new HistoryNotes(dataDir);
 * await notes.set('mainnet', '0x1220…', 'rent, March');
 * await notes.notesOf('mainnet', ['0x1220…']); // Map { '0x1220…' => 'rent, March' }
 */
export class HistoryNotes {
  readonly path: string;
  private readonly store: JsonFileStore<NotesData>;

  constructor(dataDir: string) {
    this.path = join(dataDir, HISTORY_NOTES_FILE);
    this.store = new JsonFileStore(this.path, { read: readNotes, what: 'the history notes', code: 'STORAGE_FAILED' });
  }

  /** The notes on the network by transaction id: of the transactions among `transactionIds` (absent: of all). */
  async notesOf(networkId: string, transactionIds?: readonly (string | undefined)[]): Promise<Map<string, string>> {
    const wanted = transactionIds && new Set(transactionIds);
    const notes = new Map<string, string>();
    for (const n of (await this.store.read()).notes)
      if (n.networkId === networkId && (!wanted || wanted.has(n.transactionId))) notes.set(n.transactionId, n.note);
    return notes;
  }

  /** Every note, for the backup. */
  async all(): Promise<NoteRecord[]> {
    return structuredClone((await this.store.read()).notes);
  }

  /**
   * Adds a backup's notes on the networks among `knownNetworks`, in one write: a transaction that has a note here keeps
   * it, and an entry that is no note (a bad id, an empty note once on one line) is skipped. Returns how many were added.
   */
  async merge(notes: readonly NoteRecord[], knownNetworks: ReadonlySet<string>): Promise<number> {
    return this.store.update((data) => {
      const has = new Set(data.notes.map((n) => `${n.networkId} ${n.transactionId}`));
      let added = 0;
      for (const { networkId, transactionId, note: text } of notes) {
        const note = typeof text === 'string' ? oneLine(text, MAX_NOTE_CHARS) : '';
        const key = `${networkId} ${transactionId}`;
        if (!knownNetworks.has(networkId) || !TRANSACTION_ID.test(transactionId) || note === '' || has.has(key))
          continue;
        if (data.notes.length >= MAX_NOTES) break;
        data.notes.push({ networkId, transactionId, note });
        has.add(key);
        added++;
      }
      return added;
    });
  }

  /**
   * Sets the note of a transaction on a network, on one line and at most MAX_NOTE_CHARS long; an empty one removes it.
   * Returns the note as kept ('' when removed).
   * @throws WalletError INVALID_ARGUMENT (not a transaction id, a full file).
   */
  async set(networkId: string, transactionId: string, text: string): Promise<string> {
    if (!TRANSACTION_ID.test(transactionId))
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected a transaction id (0x1220 and 64 hex digits), got ${describe(transactionId)}`,
      );
    const note = oneLine(text, MAX_NOTE_CHARS);
    return this.store.update((data) => {
      const others = data.notes.filter((n) => !(n.networkId === networkId && n.transactionId === transactionId));
      if (note !== '' && others.length >= MAX_NOTES)
        throw new WalletError('INVALID_ARGUMENT', `expected at most ${MAX_NOTES} notes; remove some first`);
      data.notes = note === '' ? others : [...others, { networkId, transactionId, note }];
      return note;
    });
  }
}
