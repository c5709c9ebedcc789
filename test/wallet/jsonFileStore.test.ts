// The JSON file store under the address book and the network settings: a damaged file reads as what the reader keeps
// (one that is not JSON is kept beside it before a change replaces it), changes run one after another and are written
// as `{ version: 1, ... }`, and a change that throws writes nothing.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src-main/wallet/jsonFileStore.ts';

interface Counter {
  count: number;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function store(): Promise<JsonFileStore<Counter>> {
  const dir = await mkdtemp(join(tmpdir(), 'json-store-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const read = (json: unknown): Counter => ({
    count: typeof (json as Counter | undefined)?.count === 'number' ? (json as Counter).count : 0,
  });
  return new JsonFileStore(join(dir, 'counter.json'), { read, what: 'the counter', code: 'STORAGE_FAILED' });
}

describe('JsonFileStore', () => {
  it('reads a damaged file as what the reader keeps of it', async () => {
    const s = await store();
    await writeFile(s.path, '{ not json');
    expect(await s.read()).toEqual({ count: 0 });
  });

  it('keeps a file that is not JSON beside it before the first change replaces it, and only that one', async () => {
    const s = await store();
    await writeFile(s.path, '{ "count": 7, oops');
    expect(await s.read()).toEqual({ count: 0 });
    await s.update((d) => void (d.count = 1));
    await s.update((d) => void (d.count = 2));
    const kept = (await readdir(dirname(s.path))).filter((name) => name.startsWith('counter.json.damaged-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(dirname(s.path), kept[0]!), 'utf8')).toBe('{ "count": 7, oops');
    expect(JSON.parse(await readFile(s.path, 'utf8'))).toEqual({ version: 1, count: 2 });
  });

  it('runs changes one after another, each on what the one before wrote, and writes them with a version', async () => {
    const s = await store();
    const results = await Promise.all([1, 2, 3].map(() => s.update((d) => ++d.count)));
    expect(results).toEqual([1, 2, 3]);
    expect(JSON.parse(await readFile(s.path, 'utf8'))).toEqual({ version: 1, count: 3 });
  });

  it('writes nothing and keeps the data when a change throws, and runs the next change', async () => {
    const s = await store();
    await s.update((d) => void (d.count = 5));
    await expect(
      s.update((d) => {
        d.count = 99;
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await s.read()).toEqual({ count: 5 });
    expect(await s.update((d) => ++d.count)).toBe(6);
    expect(JSON.parse(await readFile(s.path, 'utf8'))).toEqual({ version: 1, count: 6 });
  });
});
