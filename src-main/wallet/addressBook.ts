// The address book: contacts (a label for an address on one network) and the addresses this wallet sent to, per
// network. Not secret, so kept beside the wallet in address-book.json (one atomic write per change, changes serialized);
// the contacts also travel in the encrypted backup.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { addressFromString } from '../koinos/address.ts';
import { WalletError } from '../koinos/errors.ts';
import type { AddressBookView, Contact, ContactMergeSummary, RecentRecipient } from './addressBookTypes.ts';
import type { KnownAddress, KnownAddresses } from './chain/types.ts';
import { JsonFileStore } from './jsonFileStore.ts';
import { oneLine } from './oneLine.ts';

/** The file name inside the data folder. */
export const ADDRESS_BOOK_FILE = 'address-book.json';
/** Recent recipients kept per network (the oldest go first). */
const MAX_RECENT_PER_NETWORK = 50;
const MAX_CONTACTS = 5_000;
const MAX_LABEL_CHARS = 100;

/** A contact as the backup file holds it (no id: the importing wallet gives its own). */
export interface BackupContact {
  label: string;
  address: string;
  networkId: string;
}

interface AddressBookData {
  contacts: Contact[];
  recent: RecentRecipient[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max = 200): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

function validAddress(text: string): boolean {
  try {
    addressFromString(text);
    return true;
  } catch {
    return false;
  }
}

/** Keeps the well-formed entries of a stored file (a damaged entry is dropped, never a reason to fail). */
function readData(json: unknown): AddressBookData {
  const data: AddressBookData = { contacts: [], recent: [] };
  if (!isRecord(json)) return data;
  for (const c of Array.isArray(json['contacts']) ? json['contacts'] : []) {
    if (
      isRecord(c) &&
      isText(c['id']) &&
      isText(c['label'], MAX_LABEL_CHARS) &&
      isText(c['address'], 40) &&
      isText(c['networkId']) &&
      isText(c['addedAt'], 20) &&
      validAddress(c['address'])
    ) {
      data.contacts.push({
        id: c['id'],
        label: c['label'],
        address: c['address'],
        networkId: c['networkId'],
        addedAt: c['addedAt'],
      });
    }
  }
  for (const r of Array.isArray(json['recent']) ? json['recent'] : []) {
    if (
      isRecord(r) &&
      isText(r['address'], 40) &&
      isText(r['networkId']) &&
      isText(r['lastSentAt'], 20) &&
      validAddress(r['address'])
    ) {
      data.recent.push({
        address: r['address'],
        networkId: r['networkId'],
        lastSentAt: r['lastSentAt'],
        ...(isText(r['name'], 100) ? { name: r['name'] } : {}),
      });
    }
  }
  return data;
}

/** A label as stored: on one line ({@link oneLine}), at most 100 characters. */
function cleanLabel(label: string): string {
  const text = oneLine(label, MAX_LABEL_CHARS);
  if (text === '') throw new WalletError('INVALID_ARGUMENT', 'expected a label for the contact, got an empty one');
  return text;
}

/**
 * Contacts and recent recipients of every network, in `<dataDir>/address-book.json`.
 * @example
 * const book = new AddressBook(dataDir);
 * await book.addContact({ label: 'Bob', address: '1Abc…', networkId: 'mainnet' });
 * await book.hasSentTo('mainnet', '1Abc…'); // false until a transfer is recorded
 */
export class AddressBook {
  readonly path: string;
  // A damaged file starts empty rather than stopping the wallet; the backup holds the contacts, and a file the wallet
  // cannot read whole is kept beside it as it was (JsonFileStore), which the view names.
  private readonly store: JsonFileStore<AddressBookData>;
  private readonly now: () => number;

  constructor(dataDir: string, options: { now?: () => number } = {}) {
    this.path = join(dataDir, ADDRESS_BOOK_FILE);
    this.store = new JsonFileStore(this.path, { read: readData, what: 'the address book', code: 'STORAGE_FAILED' });
    this.now = options.now ?? Date.now;
  }

  /** Contacts of a network, by label, and its recent recipients, newest first; the copy of a damaged file, if any. */
  async view(networkId: string): Promise<AddressBookView> {
    const data = await this.store.read();
    const keptAside = this.store.keptAside;
    return {
      networkId,
      ...(keptAside ? { keptAside } : {}),
      contacts: data.contacts.filter((c) => c.networkId === networkId).sort((a, b) => a.label.localeCompare(b.label)),
      recent: data.recent
        .filter((r) => r.networkId === networkId)
        .sort((a, b) => Number(BigInt(b.lastSentAt) - BigInt(a.lastSentAt))),
    };
  }

  /** Every contact of every network (for the backup). */
  async allContacts(): Promise<Contact[]> {
    return structuredClone((await this.store.read()).contacts);
  }

  /**
   * Adds a contact; an address already in the book on that network gets the new label instead of a second entry.
   * @throws WalletError INVALID_ADDRESS, INVALID_ARGUMENT (an empty label, a full book).
   */
  async addContact(input: BackupContact): Promise<Contact> {
    addressFromString(input.address);
    const label = cleanLabel(input.label);
    return this.store.update((data) => {
      const existing = data.contacts.find((c) => c.address === input.address && c.networkId === input.networkId);
      if (existing) {
        existing.label = label;
        return structuredClone(existing);
      }
      if (data.contacts.length >= MAX_CONTACTS)
        throw new WalletError('INVALID_ARGUMENT', `expected at most ${MAX_CONTACTS} contacts; remove some first`);
      const contact: Contact = {
        id: randomUUID(),
        label,
        address: input.address,
        networkId: input.networkId,
        addedAt: String(this.now()),
      };
      data.contacts.push(contact);
      return structuredClone(contact);
    });
  }

  /**
   * Removes a contact; returns the contacts of its network.
   * @throws WalletError NOT_FOUND for an id the book does not have.
   */
  async removeContact(id: string): Promise<Contact[]> {
    const networkId = await this.store.update((data) => {
      const found = data.contacts.find((c) => c.id === id);
      if (!found) throw new WalletError('NOT_FOUND', 'That contact is no longer in the address book.');
      data.contacts = data.contacts.filter((c) => c.id !== id);
      return found.networkId;
    });
    return (await this.view(networkId)).contacts;
  }

  /**
   * Adds the backup's contacts that the book does not have (same address and network; labels here win) on the
   * networks in `networkIds` (the wallet's: a custom network's id is the other wallet's own, and its contacts would
   * show nowhere), and says what it skipped.
   * @example
   * await book.mergeContacts(backup.contacts, new Set(['mainnet', 'harbinger', 'local'])); // { added: 2, … }
   */
  mergeContacts(contacts: readonly BackupContact[], networkIds: ReadonlySet<string>): Promise<ContactMergeSummary> {
    return this.store.update((data) => {
      const summary: ContactMergeSummary = { added: 0, invalid: 0, duplicate: 0, overLimit: 0, unknownNetwork: 0 };
      const present = new Set(data.contacts.map((d) => `${d.networkId} ${d.address}`));
      for (const c of contacts) {
        // A label that is nothing once cleaned (only spaces or invisible characters) is skipped like a missing one.
        const label = typeof c.label === 'string' ? oneLine(c.label, MAX_LABEL_CHARS) : '';
        if (!validAddress(c.address) || !isText(c.networkId) || label === '') summary.invalid++;
        else if (!networkIds.has(c.networkId)) summary.unknownNetwork++;
        else if (present.has(`${c.networkId} ${c.address}`)) summary.duplicate++;
        else if (data.contacts.length >= MAX_CONTACTS) summary.overLimit++;
        else {
          data.contacts.push({
            id: randomUUID(),
            label,
            address: c.address,
            networkId: c.networkId,
            addedAt: String(this.now()),
          });
          present.add(`${c.networkId} ${c.address}`);
          summary.added++;
        }
      }
      return summary;
    });
  }

  /** Whether a transfer from this wallet to `address` on the network was recorded. */
  async hasSentTo(networkId: string, address: string): Promise<boolean> {
    return (await this.store.read()).recent.some((r) => r.networkId === networkId && r.address === address);
  }

  /**
   * The contacts and the recipients of this wallet on the network (on every network when `networkId` is absent), as a
   * review names them, for it to compare a recipient with (LOOKALIKE_RECIPIENT).
   */
  async known(networkId?: string): Promise<KnownAddress[]> {
    const data = await this.store.read();
    const on = (id: string) => networkId === undefined || id === networkId;
    return [
      ...data.contacts
        .filter((c) => on(c.networkId))
        .map((c) => ({ address: c.address, label: `your contact ${c.label}` })),
      ...data.recent
        .filter((r) => on(r.networkId))
        .map((r) => ({ address: r.address, label: 'an address you sent to' })),
    ];
  }

  /** The contact of an address on a network, if it is one. */
  async contactOf(networkId: string, address: string): Promise<Contact | undefined> {
    return (await this.store.read()).contacts.find((c) => c.networkId === networkId && c.address === address);
  }

  /** Records a submitted transfer to `address` (and the name typed for it); keeps the newest 50 per network. */
  recordSent(networkId: string, address: string, name?: string): Promise<void> {
    return this.store.update((data) => {
      const entry: RecentRecipient = { address, networkId, lastSentAt: String(this.now()), ...(name ? { name } : {}) };
      const others = data.recent.filter((r) => !(r.networkId === networkId && r.address === address));
      const mine = [entry, ...others.filter((r) => r.networkId === networkId)].slice(0, MAX_RECENT_PER_NETWORK);
      data.recent = [...mine, ...others.filter((r) => r.networkId !== networkId)];
    });
  }
}

/**
 * What a review compares a transfer's recipient with (LOOKALIKE_RECIPIENT): the wallet's accounts, read at each review,
 * then the book's contacts and recipients on the network. The app reads the accounts from its vault, the CLI's
 * `--data-dir` from the folder's wallet.json.
 * @example
 * const known = knownAddresses(new AddressBook(dataDir), () => vault.listAccounts());
 */
export function knownAddresses(
  book: AddressBook,
  accounts: () => readonly { address: string; name: string }[] | Promise<readonly { address: string; name: string }[]>,
): KnownAddresses {
  return async (networkId) => [
    ...(await accounts()).map((a) => ({ address: a.address, label: `your account ${a.name}` })),
    ...(await book.known(networkId)),
  ];
}
