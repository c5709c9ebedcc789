// The JSON file store under the address book and the network settings: a damaged file reads as what the reader keeps,
// and one that holds more than the reader keeps is copied beside it as it was before anything replaces it; changes run
// one after another and are written as `{ version: 1, ... }`, and a change that throws writes nothing.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src-main/wallet/jsonFileStore.ts';
import { keptAsidePath } from '../helpers/keptAside.ts';

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

/** The copies kept beside the store's file. */
async function copies(s: JsonFileStore<Counter>): Promise<string[]> {
  return (await readdir(dirname(s.path))).filter((name) => name.startsWith('counter.json.damaged-'));
}

describe('JsonFileStore', () => {
  it('reads a damaged file as what the reader keeps of it', async () => {
    const s = await store();
    await writeFile(s.path, '{ not json');
    expect(await s.read()).toEqual({ count: 0 });
  });

  it('keeps a file that is not JSON beside it as it is read, names the copy, and keeps one copy of it', async () => {
    const s = await store();
    // Not UTF-8 either: the copy holds the bytes, not their decoding.
    const damaged = Buffer.concat([Buffer.from('{ "count": 7, oops '), Buffer.from([0xff, 0xfe])]);
    await writeFile(s.path, damaged);
    expect(await s.read()).toEqual({ count: 0 });
    const kept = await copies(s);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^counter\.json\.damaged-[0-9a-f]{12}$/);
    expect(s.keptAside).toBe(join(dirname(s.path), kept[0]!));
    expect(await readFile(s.keptAside!)).toEqual(damaged);
    // Read again by a new store (the next start), the same file is the same copy.
    const again = new JsonFileStore<Counter>(s.path, {
      read: () => ({ count: 0 }),
      what: 'the counter',
      code: 'STORAGE_FAILED',
    });
    await again.read();
    expect(again.keptAside).toBe(s.keptAside);
    await s.update((d) => void (d.count = 1));
    await s.update((d) => void (d.count = 2));
    expect(await copies(s)).toEqual(kept);
    expect(s.keptAside).toBe(join(dirname(s.path), kept[0]!));
    expect(await readFile(s.keptAside!)).toEqual(damaged);
    expect(JSON.parse(await readFile(s.path, 'utf8'))).toEqual({ version: 1, count: 2 });
  });

  it('keeps aside a JSON file with more in it than the reader keeps: a field, a version, a value, text not in UTF-8', async () => {
    for (const content of [
      '{ "version": 1, "count": 3, "note": "from a newer wallet" }',
      '{ "version": 2, "count": 3 }',
      '{ "version": 1, "count": "3" }',
      '[1, 2]',
      'null',
    ]) {
      const s = await store();
      await writeFile(s.path, content);
      await s.read();
      expect(await copies(s), content).toHaveLength(1);
      expect(await readFile(s.keptAside!, 'utf8'), content).toBe(content);
    }
    // JSON whose text is not UTF-8, read by a reader that keeps text: read as U+FFFD, it would be written back as such.
    const dir = dirname((await store()).path);
    const notes = new JsonFileStore(join(dir, 'notes.json'), {
      read: (json) => ({
        note: typeof (json as { note?: unknown })?.note === 'string' ? (json as { note: string }).note : '',
      }),
      what: 'the notes',
      code: 'STORAGE_FAILED',
    });
    const latin1 = Buffer.from('{ "note": "caf\xe9" }', 'latin1');
    await writeFile(notes.path, latin1);
    expect(await notes.read()).toEqual({ note: '' });
    expect(await readFile(notes.keptAside!)).toEqual(latin1);
  });

  it('keeps nothing aside of a file read whole, nor of one without the fields that the reader gives defaults', async () => {
    for (const content of ['{ "version": 1, "count": 3 }', '{ "count": 3 }', '{ "version": 1 }', '{}']) {
      const s = await store();
      await writeFile(s.path, content);
      await s.read();
      await s.update((d) => ++d.count);
      expect(await copies(s), content).toEqual([]);
      expect(s.keptAside, content).toBeUndefined();
    }
    const none = await store();
    await none.read();
    expect(none.keptAside).toBeUndefined();
  });

  it('writes no change over a damaged file until its copy is made', async () => {
    const s = await store();
    await writeFile(s.path, '{ "count": 7, oops');
    // A folder where the copy goes: the copy fails at the read, which still answers, and at the change, which writes
    // nothing.
    const blocker = keptAsidePath(s.path, '{ "count": 7, oops');
    await mkdir(join(blocker, 'inside'), { recursive: true });
    expect(await s.read()).toEqual({ count: 0 });
    expect(s.keptAside).toBeUndefined();
    await expect(s.update((d) => void (d.count = 1))).rejects.toThrow();
    expect(await readFile(s.path, 'utf8')).toBe('{ "count": 7, oops');
    await rm(blocker, { recursive: true });
    await s.update((d) => void (d.count = 2));
    expect(s.keptAside).toBe(blocker);
    expect(await readFile(blocker, 'utf8')).toBe('{ "count": 7, oops');
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
