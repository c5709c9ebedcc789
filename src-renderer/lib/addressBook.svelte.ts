// The address book and the names of addresses as the screens show them: contacts and recent recipients of the selected
// network (from main's address book), and the names main found for addresses (names:reverse), asked once per address.
import type { AddressBookView, AddressNames, Contact } from '../../src-main/ipc/contract.ts';
import { call } from './ipc.ts';

/** A contact or recent recipient that matches what is typed in a recipient field. */
export interface Suggestion {
  address: string;
  /** The contact's label, or the name typed the last time, or nothing. */
  label?: string;
  kind: 'contact' | 'recent';
}

/** At most this many suggestions under a recipient field. */
const MAX_SUGGESTIONS = 5;

/** The address book of the selected network. One instance, {@link book}. */
class AddressBookState {
  view = $state.raw<AddressBookView | undefined>();
  /** Names found for addresses on the network of `namesNetwork`, by address. */
  names = $state.raw<Record<string, AddressNames>>({});
  #namesNetwork = '';
  #asked = new Set<string>();

  /** Reads the contacts and recent recipients of `networkId` (again). */
  async load(networkId: string): Promise<void> {
    this.view = await call('contacts:list', { networkId });
  }

  /** The contact of an address on the loaded network. */
  contactOf(address: string | undefined): Contact | undefined {
    return address === undefined ? undefined : this.view?.contacts.find((c) => c.address === address);
  }

  /** Contacts, then recent recipients, whose label, name or address contains `text` (case-insensitive). */
  suggestions(text: string): Suggestion[] {
    const query = text.trim().toLowerCase();
    if (!this.view || query === '') return [];
    const matches = (...parts: (string | undefined)[]) =>
      parts.some((p) => p !== undefined && p.toLowerCase().includes(query));
    const found: Suggestion[] = this.view.contacts
      .filter((c) => matches(c.label, c.address))
      .map((c) => ({ address: c.address, label: c.label, kind: 'contact' }));
    for (const r of this.view.recent) {
      if (found.some((f) => f.address === r.address) || !matches(r.name, r.address)) continue;
      found.push({ address: r.address, ...(r.name ? { label: r.name } : {}), kind: 'recent' });
    }
    // The exact address is already in the field: nothing to suggest.
    return found.filter((f) => f.address !== text.trim()).slice(0, MAX_SUGGESTIONS);
  }

  /** Adds (or relabels) a contact on `networkId` and reloads the book. */
  async add(networkId: string, label: string, address: string): Promise<Contact> {
    const contact = await call('contacts:add', { label, address, networkId });
    await this.load(networkId);
    return contact;
  }

  /**
   * Asks main for the names of the addresses not asked about yet on `networkId` (a failure leaves them unnamed: names
   * only decorate an address shown in full or short beside them).
   */
  async lookup(networkId: string, addresses: readonly (string | undefined)[]): Promise<void> {
    if (networkId !== this.#namesNetwork) {
      this.#namesNetwork = networkId;
      this.#asked.clear();
      this.names = {};
    }
    const wanted = [...new Set(addresses.filter((a): a is string => a !== undefined && !this.#asked.has(a)))].slice(
      0,
      200,
    );
    if (wanted.length === 0) return;
    for (const a of wanted) this.#asked.add(a);
    try {
      const found = await call('names:reverse', { addresses: wanted, networkId });
      if (networkId !== this.#namesNetwork) return;
      this.names = { ...this.names, ...Object.fromEntries(found.map((n) => [n.address, n])) };
    } catch {
      for (const a of wanted) this.#asked.delete(a); // asked again with the next page
    }
  }

  /** The names of an address as one short text (`@alice, alice.koin`), or undefined. */
  nameText(address: string | undefined): string | undefined {
    const names = address === undefined ? undefined : this.names[address];
    if (!names) return undefined;
    const all = [...(names.nickname ? [names.nickname] : []), ...names.kap];
    return all.length > 0 ? all.join(', ') : undefined;
  }
}

/** The address book of the selected network. */
export const book = new AddressBookState();
