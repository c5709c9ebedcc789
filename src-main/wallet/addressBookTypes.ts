// The address book's vocabulary: contacts and recent recipients per network. Types only: the IPC contract re-exports
// them for the renderer.
import type { UintString } from './chain/types.ts';

/** An address-book entry: a label for an address on one network. */
export interface Contact {
  id: string;
  label: string;
  address: string;
  networkId: string;
  /** Epoch milliseconds. */
  addedAt: UintString;
}

/** An address this wallet sent to on a network. */
export interface RecentRecipient {
  address: string;
  networkId: string;
  /** Epoch milliseconds of the last transfer to it. */
  lastSentAt: UintString;
  /** The name typed for it the last time, if any. */
  name?: string;
}

/** The address book of one network: contacts, then recent recipients (newest first). */
export interface AddressBookView {
  networkId: string;
  /**
   * Where address-book.json is kept as it was when the wallet could not read all of it (not JSON, or entries it
   * dropped): the book holds what it could read, and a change writes the file anew with that. Absent: read whole.
   */
  keptAside?: string;
  contacts: Contact[];
  recent: RecentRecipient[];
}

/** What merging a backup's contacts did: how many went in, and how many were skipped and why. */
export interface ContactMergeSummary {
  added: number;
  /** No valid address, no network id, or a label that is empty once cleaned. */
  invalid: number;
  /** The book (or the backup, earlier) has that address on that network already. */
  duplicate: number;
  /** Past the 5,000 contacts the book holds. */
  overLimit: number;
  /** On a network this wallet does not have (a custom network of the other wallet: its id is its own). */
  unknownNetwork: number;
  /** Custom networks of the backup this wallet did not have, added with it (without an API key). Absent: none. */
  networksAdded?: number;
  /** Notes on transactions added (one this wallet has on that transaction stays). Absent: none. */
  notesAdded?: number;
}
