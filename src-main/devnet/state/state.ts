// The devnet's chain state: objects in object spaces, as the node keeps them, in layers (committed head state, a
// block being applied, one transaction, one transaction's operations) that commit into each other. An object's key
// is the serialized `database_key{space, key}`, as koinos-state-db keys it, so its disk cost is the node's.
import type { ObjectSpace, StateDeltaEntry } from '../../koinos/types.ts';
import { encode } from '../../koinos/codec.ts';
import { IndexedMap, type OrderedKeys } from './orderedKeys.ts';
import { keyText, keyTextBytes } from '../store/storeKeys.ts';

const EMPTY: Uint8Array = new Uint8Array(0);

/** An object space with the serialized `database_key` prefix of its objects (latin1 text, see keyText). */
export interface Space extends ObjectSpace {
  readonly system: boolean;
  readonly zone: Uint8Array;
  readonly id: number;
  /** `0x0a <length> <object_space bytes>`: the first field of every database_key in this space. */
  readonly prefix: string;
  /** The same as bytes. */
  readonly prefixBytes: Uint8Array;
}

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** An object space (system spaces unless told otherwise), with its key prefix computed once. */
export function objectSpace(zone: Uint8Array, id: number, system = true): Space {
  const body: number[] = [];
  if (system) body.push(0x08, 0x01);
  if (zone.length > 0) body.push(0x12, ...varint(zone.length), ...zone);
  if (id !== 0) body.push(0x18, ...varint(id));
  const prefixBytes = Uint8Array.from([0x0a, ...varint(body.length), ...body]);
  return { system, zone, id, prefix: keyText(prefixBytes), prefixBytes };
}

/** Kernel spaces (zone empty; koinos/chain/object_spaces.proto): metadata 0, contract metadata 3, nonces 4. */
export const KERNEL_SPACES = {
  metadata: objectSpace(EMPTY, 0),
  contractMetadata: objectSpace(EMPTY, 3),
  nonce: objectSpace(EMPTY, 4),
} as const;

/**
 * The state key of an object: its serialized `database_key{space, key}` as latin1 text (chain/state_db.cpp).
 * @example
 * stateKey(KERNEL_SPACES.nonce, address).length; // 33 (what a new nonce object adds to disk, besides its value)
 */
export function stateKey(space: Space, key: Uint8Array): string {
  if (key.length === 0) return space.prefix;
  const prefix = space.prefixBytes;
  // The key's field `0x12 <varint length> <key>` after the prefix; one or two length bytes for any key the chain holds.
  const lengthBytes = key.length < 0x80 ? 1 : key.length < 0x4000 ? 2 : 3;
  const size = prefix.length + 1 + lengthBytes + key.length;
  if (size > KEY_SCRATCH.length) {
    return space.prefix + keyText(Uint8Array.from([0x12, ...varint(key.length)])) + keyText(key);
  }
  // Written into one buffer and read out as one flat text: the parts joined as texts made several strings a key, and
  // a map lookup then flattened them again (keys are made for every state read).
  KEY_SCRATCH.set(prefix, 0);
  let at = prefix.length;
  KEY_SCRATCH[at++] = 0x12;
  for (let v = key.length; ; v = Math.floor(v / 128)) {
    if (v < 0x80) {
      KEY_SCRATCH[at++] = v;
      break;
    }
    KEY_SCRATCH[at++] = (v & 0x7f) | 0x80;
  }
  KEY_SCRATCH.set(key, at);
  return KEY_SCRATCH.toString('latin1', 0, size);
}

/** stateKey's scratch: state keys are tens of bytes; a longer one is joined from texts. */
const KEY_SCRATCH = Buffer.allocUnsafeSlow(1024);

/** Reads a latin1 key text's varints from a position it moves. */
class KeyTextReader {
  constructor(
    readonly text: string,
    public pos: number,
  ) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.text.charCodeAt(this.pos++);
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }
}

/**
 * The object spaces read by parseStateKey, by the key text of their serialized form: a block's delta entries name a
 * few spaces thousands of times. Frozen, as they are shared.
 */
const PARSED_SPACES = new Map<string, ObjectSpace>();

/** The object space and key bytes of a state key (the inverse of stateKey). */
export function parseStateKey(text: string): { space: ObjectSpace; key: Uint8Array } {
  const reader = new KeyTextReader(text, 1);
  const spaceLength = reader.varint();
  const spaceStart = reader.pos;
  const spaceEnd = spaceStart + spaceLength;
  const spaceText = text.slice(spaceStart, spaceEnd);
  let space = PARSED_SPACES.get(spaceText);
  if (!space) {
    space = parseSpace(reader, spaceEnd);
    if (PARSED_SPACES.size >= 10_000) PARSED_SPACES.clear();
    PARSED_SPACES.set(spaceText, space);
  }
  if (spaceEnd >= text.length) return { space, key: EMPTY };
  reader.pos = spaceEnd + 1;
  const keyLength = reader.varint();
  return { space, key: keyTextBytes(text.slice(reader.pos, reader.pos + keyLength)) };
}

/** Reads a serialized object_space from the reader's position up to `end`. */
function parseSpace(reader: KeyTextReader, end: number): ObjectSpace {
  let system = false;
  let zone = EMPTY;
  let id = 0;
  while (reader.pos < end) {
    const tag = reader.text.charCodeAt(reader.pos++);
    if (tag === 0x08) system = reader.text.charCodeAt(reader.pos++) !== 0;
    else if (tag === 0x12) {
      const length = reader.varint();
      zone = keyTextBytes(reader.text.slice(reader.pos, reader.pos + length));
      reader.pos += length;
    } else id = reader.varint();
  }
  return Object.freeze({ system, zone, id });
}

/** Something objects can be read from: undefined means the object does not exist. */
export interface StateSource {
  lookup(key: string): Uint8Array | undefined;
  /** Every object whose state key starts with `prefix` (in no particular order). */
  scan(prefix: string, into: Map<string, Uint8Array | null>): void;
  /** The ordered key index of this layer and of every layer below it, top first (removed keys included). */
  layers(into: OrderedKeys[]): void;
}

/** A layer that can take another layer's changes (null deletes). */
export interface StateSink {
  set(key: string, value: Uint8Array | null): void;
}

/** The committed state (after the head block): a plain map. */
export class BaseState implements StateSource, StateSink {
  readonly objects = new IndexedMap<Uint8Array>();

  lookup(key: string): Uint8Array | undefined {
    return this.objects.get(key);
  }

  scan(prefix: string, into: Map<string, Uint8Array | null>): void {
    for (const [key, value] of this.objects) if (key.startsWith(prefix)) into.set(key, value);
  }

  layers(into: OrderedKeys[]): void {
    into.push(this.objects.order);
  }

  set(key: string, value: Uint8Array | null): void {
    if (value === null) this.objects.delete(key);
    else this.objects.set(key, value);
  }
}

/**
 * Changes on top of another layer. `put` and `remove` return the disk bytes the change uses, as state_db.cpp's
 * put_object counts them: a new object its serialized database_key plus its value, a changed one the difference in
 * value size, a removed one minus its key and value.
 */
export class StateView implements StateSource, StateSink {
  /** Changed objects in the order they were first changed; null marks a removed object. */
  readonly changes = new IndexedMap<Uint8Array | null>();
  readonly parent: StateSource & StateSink;

  constructor(parent: StateSource & StateSink) {
    this.parent = parent;
  }

  lookup(key: string): Uint8Array | undefined {
    const changed = this.changes.get(key);
    if (changed !== undefined) return changed ?? undefined;
    return this.parent.lookup(key);
  }

  scan(prefix: string, into: Map<string, Uint8Array | null>): void {
    this.parent.scan(prefix, into);
    for (const [key, value] of this.changes) if (key.startsWith(prefix)) into.set(key, value);
  }

  layers(into: OrderedKeys[]): void {
    into.push(this.changes.order);
    this.parent.layers(into);
  }

  get(space: Space, key: Uint8Array): Uint8Array | undefined {
    return this.lookup(stateKey(space, key));
  }

  set(key: string, value: Uint8Array | null): void {
    this.changes.set(key, value);
  }

  put(space: Space, key: Uint8Array, value: Uint8Array): number {
    const k = stateKey(space, key);
    const old = this.lookup(k);
    this.changes.set(k, value);
    return old === undefined ? k.length + value.length : value.length - old.length;
  }

  remove(space: Space, key: Uint8Array): number {
    const k = stateKey(space, key);
    const old = this.lookup(k);
    if (old === undefined) return 0;
    this.changes.set(k, null);
    return -(k.length + old.length);
  }

  /**
   * The objects of `space` whose key starts with `keyPrefix`, sorted by key bytes (as the node's ordered index walks
   * them with get_next_object / get_prev_object). Scans every object: the devnet's state is small.
   */
  entries(space: Space, keyPrefix: Uint8Array = EMPTY): { key: Uint8Array; value: Uint8Array }[] {
    const found = new Map<string, Uint8Array | null>();
    this.scan(space.prefix, found);
    const prefix = keyText(keyPrefix);
    const out: { key: Uint8Array; value: Uint8Array; text: string }[] = [];
    for (const [k, value] of found) {
      if (value === null) continue;
      const { key } = parseStateKey(k);
      const text = keyText(key);
      if (text.startsWith(prefix)) out.push({ key, value, text });
    }
    out.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    return out.map(({ key, value }) => ({ key, value }));
  }

  /** Moves this layer's changes into its parent. */
  commit(): void {
    for (const [key, value] of this.changes) this.parent.set(key, value);
    this.changes.clear();
  }
}

/**
 * The object next to `from` (`'next'`: the first above, `'prev'`: the last below) among the keys that start with
 * `prefix`, across every layer of `source`, as koinos-state-db's state_node::get_next_object / get_prev_object walk
 * their merged layers (state_db.cpp: lower_bound on the serialized database_key, then one step; an object removed in
 * an upper layer hides the one below). Each step is one binary search per layer; a run of removed keys is stepped
 * over one key at a time.
 */
export function neighbour(
  source: StateSource,
  from: string,
  prefix: string,
  direction: 'next' | 'prev',
): [string, Uint8Array] | undefined {
  const layers: OrderedKeys[] = [];
  source.layers(layers);
  let cursor = from;
  for (;;) {
    let best: string | undefined;
    for (const layer of layers) {
      const found = direction === 'next' ? layer.higher(cursor) : layer.lower(cursor);
      if (found !== undefined && (best === undefined || (direction === 'next' ? found < best : found > best)))
        best = found;
    }
    // Keys of one space are contiguous (they share the prefix), so the first key outside it ends the search.
    if (best === undefined || !best.startsWith(prefix)) return undefined;
    const value = source.lookup(best);
    if (value !== undefined) return [best, value];
    cursor = best;
  }
}

/** The changes of a layer as state delta entries (value absent for a removed object). */
export function deltaEntries(changes: Map<string, Uint8Array | null>): StateDeltaEntry[] {
  const out: StateDeltaEntry[] = [];
  for (const [key, value] of changes) {
    const { space, key: bytes } = parseStateKey(key);
    const entry: StateDeltaEntry = { object_space: space, key: bytes };
    if (value !== null) entry.value = value;
    out.push(entry);
  }
  return out;
}

/** Canonical bytes of a state delta entry. */
export function encodeDeltaEntry(entry: StateDeltaEntry): Uint8Array {
  return encode('koinos.protocol.state_delta_entry', entry);
}
