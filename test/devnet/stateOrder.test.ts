// get_next_object / get_prev_object over the devnet's state layers (head state, block view, transaction view): state_db
// order of the serialized database_key, removals in upper layers hiding lower objects, checked against a brute-force
// model; and a space of 100,000 objects where a neighbour costs a few binary searches, not a scan. The state keys
// themselves: the serialized database_key as latin1 text for keys of every length, read back by parseStateKey.
import { describe, expect, it } from 'vitest';
import type { ObjectSpace } from '../../src-main/koinos/types.ts';
import { ORDERED_KEYS_WORK } from '../../src-main/devnet/state/orderedKeys.ts';
import { BaseState, objectSpace, parseStateKey, stateKey, StateView } from '../../src-main/devnet/state/state.ts';
import { viewObjectStore } from '../../src-main/devnet/state/stateObjectStore.ts';
import { databaseKeyText } from '../../src-main/devnet/vm/objectStore.ts';
import { keyText } from '../../src-main/devnet/store/storeKeys.ts';

const ZONE = Uint8Array.of(0x00, 0x11, 0x22);
const SPACE: ObjectSpace = { system: false, zone: ZONE, id: 1 };
const OTHER: ObjectSpace = { system: false, zone: ZONE, id: 2 };
const BELOW: ObjectSpace = { system: false, zone: ZONE, id: 0 };
const s = objectSpace(SPACE.zone, SPACE.id, false);
const bytes = (...b: number[]) => Uint8Array.from(b);
const v = (n: number) => Uint8Array.of(n);

/** Three layers as a block runs a transaction: committed head state, the block's view, the transaction's view. */
function layers() {
  const base = new BaseState();
  const block = new StateView(base);
  const tx = new StateView(block);
  return { base, block, tx, store: viewObjectStore(tx) };
}

/** The brute-force answer: every live object of the space, sorted by serialized database_key, then a linear search. */
function model(objects: Map<string, Uint8Array>, space: ObjectSpace, key: Uint8Array, direction: 'next' | 'prev') {
  const inSpace = [...objects.entries()]
    .map(([k, value]) => ({
      k: databaseKeyText(space, Uint8Array.from(Buffer.from(k, 'latin1'))),
      key: Uint8Array.from(Buffer.from(k, 'latin1')),
      value,
    }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const from = databaseKeyText(space, key);
  const found = direction === 'next' ? inSpace.find((o) => o.k > from) : inSpace.filter((o) => o.k < from).pop();
  return found && { key: found.key, value: found.value };
}

describe('neighbours across state layers', () => {
  it('orders the empty key first, then shorter keys before longer ones (the key length is serialized first)', () => {
    const { base, store } = layers();
    const view = new StateView(base);
    const direct = viewObjectStore(view);
    direct.put(SPACE, bytes(0xff), v(1));
    direct.put(SPACE, bytes(), v(0));
    direct.put(SPACE, bytes(0x00, 0x00), v(2));
    direct.put(SPACE, bytes(0x01), v(3));
    view.commit();
    const order: number[][] = [];
    let at = store.next(SPACE, bytes());
    expect(store.get(SPACE, bytes())).toEqual(v(0));
    while (at) {
      order.push([...at.key]);
      at = store.next(SPACE, at.key);
    }
    // the empty key is the space's first object; next from it skips it (state_db: lower_bound, then past an equal key)
    expect(order).toEqual([[0x01], [0xff], [0x00, 0x00]]);
    expect(store.prev(SPACE, bytes(0x00))).toEqual({ key: bytes(), value: v(0) });
    expect(store.prev(SPACE, bytes())).toBeUndefined();
  });

  it('hides objects removed in an upper layer and finds one put between two lower keys', () => {
    const { base, block, tx, store } = layers();
    const head = new StateView(base);
    for (const k of [1, 3, 5, 7]) viewObjectStore(head).put(SPACE, bytes(k), v(k));
    viewObjectStore(head).put(OTHER, bytes(4), v(40));
    viewObjectStore(head).put(BELOW, bytes(9), v(90));
    head.commit();
    viewObjectStore(block).remove(SPACE, bytes(3));
    viewObjectStore(block).put(SPACE, bytes(4), v(4));
    store.remove(SPACE, bytes(5));
    store.put(SPACE, bytes(2), v(2));
    expect(store.next(SPACE, bytes(1))).toEqual({ key: bytes(2), value: v(2) });
    expect(store.next(SPACE, bytes(2))).toEqual({ key: bytes(4), value: v(4) });
    expect(store.next(SPACE, bytes(4))).toEqual({ key: bytes(7), value: v(7) });
    expect(store.next(SPACE, bytes(7))).toBeUndefined(); // OTHER's object is in the next space
    expect(store.prev(SPACE, bytes(7))).toEqual({ key: bytes(4), value: v(4) });
    expect(store.prev(SPACE, bytes(4))).toEqual({ key: bytes(2), value: v(2) });
    expect(store.prev(SPACE, bytes(1))).toBeUndefined(); // BELOW's object is in the space before
    // the block view alone still sees the transaction's removals undone
    expect(viewObjectStore(block).next(SPACE, bytes(4))).toEqual({ key: bytes(5), value: v(5) });
    // a removal put back in a still higher layer shows again
    const again = new StateView(tx);
    viewObjectStore(again).put(SPACE, bytes(5), v(55));
    expect(viewObjectStore(again).next(SPACE, bytes(4))).toEqual({ key: bytes(5), value: v(55) });
  });

  it('answers prev from past the end with the last object, and next before the first with the first', () => {
    const { store } = layers();
    for (const k of [[0x10], [0x20, 0x01], [0x05, 0x05, 0x05]]) store.put(SPACE, bytes(...k), v(k.length));
    expect(store.prev(SPACE, new Uint8Array(40).fill(0xff))?.key).toEqual(bytes(0x05, 0x05, 0x05));
    expect(store.prev(SPACE, bytes(0x20, 0x00))?.key).toEqual(bytes(0x10));
    expect(store.next(SPACE, bytes())?.key).toEqual(bytes(0x10));
    expect(store.next(SPACE, bytes(0x05, 0x05, 0x05))).toBeUndefined();
  });

  it('matches a brute-force model over random puts and removes in three layers', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    const randomKey = () => Uint8Array.from({ length: rand(4) }, () => [0x00, 0x80, 0xff][rand(3)]!);
    for (let round = 0; round < 20; round++) {
      const { base, block, tx, store } = layers();
      const truth = new Map<string, Uint8Array>();
      const stacks = [new StateView(base), block, tx];
      for (const [i, view] of stacks.entries()) {
        const layer = viewObjectStore(view);
        for (let n = 0; n < 40; n++) {
          const key = randomKey();
          const space = [SPACE, SPACE, SPACE, OTHER, BELOW][rand(5)]!;
          if (rand(3) === 0) layer.remove(space, key);
          else layer.put(space, key, v(rand(256)));
          if (space === SPACE) {
            const value = view.get(s, key);
            if (value === undefined) truth.delete(keyText(key));
            else truth.set(keyText(key), value);
          }
        }
        if (i === 0) stacks[0]!.commit();
      }
      for (let probe = 0; probe < 60; probe++) {
        const key = randomKey();
        expect(store.next(SPACE, key)).toEqual(model(truth, SPACE, key, 'next'));
        expect(store.prev(SPACE, key)).toEqual(model(truth, SPACE, key, 'prev'));
      }
    }
  });

  it('finds a neighbour among 100,000 objects with a few binary searches, not a scan', () => {
    const { base, block, tx, store } = layers();
    const head = new StateView(base);
    const fill = viewObjectStore(head);
    const keyOf = (i: number) => {
      const k = new Uint8Array(4);
      new DataView(k.buffer).setUint32(0, i * 2);
      return k;
    };
    for (let i = 0; i < 100_000; i++) fill.put(SPACE, keyOf(i), v(i & 0xff));
    head.commit();
    viewObjectStore(block).put(SPACE, Uint8Array.of(0, 0, 0x4e, 0x21), v(1)); // 20,001: between two head keys
    expect(store.next(SPACE, keyOf(0))?.key).toEqual(keyOf(1)); // folds the head state's index once
    const before = { ...ORDERED_KEYS_WORK };
    const found = store.next(SPACE, keyOf(10_000));
    const prev = store.prev(SPACE, keyOf(10_001));
    expect(found?.key).toEqual(Uint8Array.of(0, 0, 0x4e, 0x21));
    expect(prev?.key).toEqual(Uint8Array.of(0, 0, 0x4e, 0x21));
    // three layers, each a binary search of at most 17 steps per call: far below the 100,000 keys a scan visits
    expect(ORDERED_KEYS_WORK.probes - before.probes).toBeLessThan(2 * 3 * 20);
    expect(ORDERED_KEYS_WORK.merged - before.merged).toBe(0);
    expect(tx.changes.size).toBe(0);
  });
});

describe('state keys', () => {
  it('are the serialized database_key as latin1 text, and read back, for keys of every length class', () => {
    const spaces = [
      objectSpace(ZONE, 1, false),
      objectSpace(new Uint8Array(0), 4),
      objectSpace(new Uint8Array(200), 300),
    ];
    for (const space of spaces) {
      for (const length of [0, 1, 25, 127, 128, 300, 1023, 1500, 20_000]) {
        const key = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
        const text = stateKey(space, key);
        expect(text).toBe(databaseKeyText(space, key));
        expect(parseStateKey(text)).toEqual({ space: { system: space.system, zone: space.zone, id: space.id }, key });
      }
    }
  });

  it('spell any bytes one character per byte, short or long', () => {
    for (const length of [0, 25, 1024, 1025, 5000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 101) & 0xff);
      expect(keyText(bytes)).toBe(Buffer.from(bytes).toString('latin1'));
      expect(keyText(bytes.subarray(1))).toBe(Buffer.from(bytes.subarray(1)).toString('latin1'));
    }
  });
});
