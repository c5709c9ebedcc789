// The devnet's chain state: objects in object spaces, as the node keeps them, in layers (committed head state,
// the pending state of the mempool, one transaction, one transaction's operations) that commit into each other.
// Every change is also what the receipts show as `state_delta_entries`.
import { encode } from '../koinos/codec.ts';
import type { ObjectSpace, StateDeltaEntry } from '../koinos/types.ts';
import { keyText, keyTextBytes } from './store.ts';

/** The object spaces the devnet uses, by a one-letter tag (the first character of every state key). */
export type SpaceTag = 'B' | 'S' | 'N' | 'M';

const EMPTY = new Uint8Array(0);

/** Object space of each tag. KOIN's spaces are system spaces in the KOIN contract's zone (contracts-as Koin.ts). */
export function objectSpaces(koinAddress: Uint8Array): Record<SpaceTag, ObjectSpace> {
  return {
    // KOIN supply (space 0, key empty) and balances (space 1, key = address: mana_balance_object)
    S: { system: true, zone: koinAddress, id: 0 },
    B: { system: true, zone: koinAddress, id: 1 },
    // kernel spaces (zone empty): metadata 0, transaction_nonce 4 (koinos/chain/object_spaces.proto)
    M: { system: true, zone: EMPTY, id: 0 },
    N: { system: true, zone: EMPTY, id: 4 },
  };
}

/** The state key of an object: its space tag followed by its key bytes as latin1 text. */
export function stateKey(tag: SpaceTag, key: Uint8Array): string {
  return tag + keyText(key);
}

/** The key bytes of a state key. */
export function keyBytes(stateKeyText: string): Uint8Array {
  return keyTextBytes(stateKeyText.slice(1));
}

/** The space tag of a state key. */
export function tagOf(stateKeyText: string): SpaceTag {
  return stateKeyText[0] as SpaceTag;
}

/** Something objects can be read from: undefined means the object does not exist. */
export interface StateSource {
  lookup(key: string): Uint8Array | undefined;
}

/** A layer that can take another layer's changes (null deletes). */
export interface StateSink {
  set(key: string, value: Uint8Array | null): void;
}

/** The committed state (after the head block): a plain map. */
export class BaseState implements StateSource, StateSink {
  readonly objects = new Map<string, Uint8Array>();

  lookup(key: string): Uint8Array | undefined {
    return this.objects.get(key);
  }

  set(key: string, value: Uint8Array | null): void {
    if (value === null) this.objects.delete(key);
    else this.objects.set(key, value);
  }
}

/**
 * Changes on top of another layer. `put` returns the disk bytes the change uses (a new object costs its key and
 * value, a changed one the difference in value size).
 */
export class StateView implements StateSource, StateSink {
  /** Changed objects in the order they were first changed; null marks a removed object. */
  readonly changes = new Map<string, Uint8Array | null>();
  readonly parent: StateSource & StateSink;

  constructor(parent: StateSource & StateSink) {
    this.parent = parent;
  }

  lookup(key: string): Uint8Array | undefined {
    const changed = this.changes.get(key);
    if (changed !== undefined) return changed ?? undefined;
    return this.parent.lookup(key);
  }

  get(tag: SpaceTag, key: Uint8Array): Uint8Array | undefined {
    return this.lookup(stateKey(tag, key));
  }

  set(key: string, value: Uint8Array | null): void {
    this.changes.set(key, value);
  }

  put(tag: SpaceTag, key: Uint8Array, value: Uint8Array): number {
    const k = stateKey(tag, key);
    const old = this.lookup(k);
    this.changes.set(k, value);
    return old === undefined ? key.length + value.length : value.length - old.length;
  }

  /** Moves this layer's changes into its parent. */
  commit(): void {
    for (const [key, value] of this.changes) this.parent.set(key, value);
    this.changes.clear();
  }
}

/** The changes of a layer as state delta entries (value absent for a removed object). */
export function deltaEntries(changes: Map<string, Uint8Array | null>, spaces: Record<SpaceTag, ObjectSpace>): StateDeltaEntry[] {
  const out: StateDeltaEntry[] = [];
  for (const [key, value] of changes) {
    const entry: StateDeltaEntry = { object_space: spaces[tagOf(key)], key: keyBytes(key) };
    if (value !== null) entry.value = value;
    out.push(entry);
  }
  return out;
}

/** Canonical bytes of a state delta entry. */
export function encodeDeltaEntry(entry: StateDeltaEntry): Uint8Array {
  return encode('koinos.protocol.state_delta_entry', entry);
}
