// The in-memory store (store.ts MemoryStore) against a plain map: values written once go to slabs, values written
// again and long values stay apart, released slab values are compacted away, and every read, batch and listing
// answers as a map of copies would.
import { describe, expect, it } from 'vitest';
import { equalBytes, toHex } from '../../src-main/koinos/bytes.ts';
import { MemoryStore, type StoreOp } from '../../src-main/devnet/store/store.ts';

/** A small deterministic generator (xorshift32), so that a failure repeats. */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}

/** `length` bytes that tell value `id` from the others: the id at both ends, its low byte between. */
function bytes(length: number, id: number): Uint8Array {
  const out = new Uint8Array(length).fill(id & 0xff);
  for (let i = 0; i < 4 && i < length; i++) out[i] = out[length - 1 - i] = (id >>> (8 * i)) & 0xff;
  return out;
}

async function listing(store: MemoryStore, prefix: Uint8Array): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const [key, value] of store.entries(prefix)) out.push([toHex(key), toHex(value)]);
  return out;
}

describe('the in-memory store', () => {
  it('answers as a map of copies through batches of puts, overwrites and deletes', async () => {
    const store = new MemoryStore();
    const model = new Map<string, Uint8Array>();
    const next = random(19);
    const keys = Array.from({ length: 300 }, (_, i) => Uint8Array.of(i % 3, i >> 8, i & 0xff));
    let written = 0;
    for (let batch = 0; batch < 60; batch++) {
      const ops: StoreOp[] = [];
      for (let i = 0; i < 40; i++) {
        const key = keys[next(keys.length)]!;
        if (next(6) === 0) {
          ops.push({ type: 'del', key });
          continue;
        }
        // Mostly small values; some past the slab limit, some that leave a slab's end unused.
        const length = next(20) === 0 ? 70_000 + next(1000) : next(4) === 0 ? 30_000 + next(30_000) : next(600);
        ops.push({ type: 'put', key, value: bytes(length, batch * 40 + i) });
        written += length;
      }
      await store.write(ops);
      for (const op of ops) {
        if (op.type === 'put') model.set(toHex(op.key), op.value!.slice());
        else model.delete(toHex(op.key));
      }
      const got = await store.getMany(keys);
      keys.forEach((key, i) => {
        const expected = model.get(toHex(key));
        const same =
          expected === undefined ? got[i] === undefined : got[i] !== undefined && equalBytes(got[i]!, expected);
        expect(same, `key ${toHex(key)} after batch ${batch}`).toBe(true);
      });
    }
    // Several slabs' worth was written, so values were read across slab boundaries.
    expect(written).toBeGreaterThan(3 << 20);
    const expected = [...model]
      .filter(([key]) => key.startsWith('01'))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, value]): [string, string] => [key, toHex(value)]);
    expect(expected.length).toBeGreaterThan(10);
    expect(await listing(store, Uint8Array.of(1))).toEqual(expected);
  });

  it('reads each value whole where values fill a slab to its last byte', async () => {
    const store = new MemoryStore();
    // 2-byte length + 65,533 bytes, 16 times: exactly one megabyte, then one more value in a new slab.
    const ops: StoreOp[] = Array.from({ length: 17 }, (_, i) => ({
      type: 'put',
      key: Uint8Array.of(9, i),
      value: bytes(65_534, i),
    }));
    await store.write(ops);
    for (const [i, op] of ops.entries()) expect(toHex((await store.get(Uint8Array.of(9, i)))!)).toBe(toHex(op.value!));
  });

  it('keeps the slabs near the live size when values are deleted and written again, as a revert does', async () => {
    const store = new MemoryStore();
    const keys = Array.from({ length: 40 }, (_, i) => Uint8Array.of(7, i));
    const ids = keys.map((_, i) => i);
    await store.write(keys.map((key, i) => ({ type: 'put', key, value: bytes(50_000, ids[i]!) })));
    // About 2 MB live. Each round deletes half the values and writes them again, so that without compaction the slabs
    // would hold every round's values (over 12 MB after 12 rounds), and a compaction copies the other half.
    for (let round = 1; round <= 12; round++) {
      const again = keys.map((_, i) => i).filter((i) => (i + round) % 2 === 0);
      await store.write(again.map((i) => ({ type: 'del', key: keys[i]! })));
      for (const i of again) ids[i] = round * 100 + i;
      await store.write(again.map((i) => ({ type: 'put', key: keys[i]!, value: bytes(50_000, ids[i]!) })));
      const got = await store.getMany(keys);
      keys.forEach((key, i) => {
        expect(equalBytes(got[i]!, bytes(50_000, ids[i]!)), `key ${toHex(key)} in round ${round}`).toBe(true);
      });
      expect(store.slabBytes, `after round ${round}`).toBeLessThanOrEqual(6 << 20);
    }
  });

  it('forgets everything on clear, and takes new values after it', async () => {
    const store = new MemoryStore();
    await store.write([
      { type: 'put', key: Uint8Array.of(1), value: bytes(10, 1) },
      { type: 'put', key: Uint8Array.of(2), value: bytes(100_000, 2) },
    ]);
    await store.write([{ type: 'put', key: Uint8Array.of(1), value: bytes(12, 3) }]);
    await store.clear();
    expect(await store.getMany([Uint8Array.of(1), Uint8Array.of(2)])).toEqual([undefined, undefined]);
    expect(await listing(store, new Uint8Array())).toEqual([]);
    await store.write([{ type: 'put', key: Uint8Array.of(1), value: bytes(5, 4) }]);
    expect(await listing(store, new Uint8Array())).toEqual([['01', toHex(bytes(5, 4))]]);
  });
});
