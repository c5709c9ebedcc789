// The file WalletConnect's client keeps its state in: sealed with the key the vault keeps for it (nothing of it readable
// on disk), an older wallet's plain file sealed as it opens, a damaged one (sealed: it may hold keys in plain text) or
// one sealed with another key (as it is) kept aside;
// what is set is on disk once its promise resolves, a change set as a write under way ends is written as it closes, and
// after close() nothing more is written (the client still changes entries as it stops).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryApiKeyStore } from '../../../src-main/wallet/chain/apiKeyStore.ts';
import { open as openSealed } from '../../../src-main/wallet/vault/vaultCrypto.ts';
import {
  FileKeyValueStorage,
  KEPT_SEALED_AS,
  openSealedState,
  STORAGE_KEY_ID,
  storageKey,
} from '../../../src-main/wallet/dapps/walletConnectStorage.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import { tempDir } from '../../helpers/tempDir.ts';
import { keptAsidePath } from '../../helpers/keptAside.ts';

const tempFile = async () => join(await tempDir('koinos-wcstore-'), 'walletconnect.json');
const newKey = () => new Uint8Array(randomBytes(32));
/** What the file holds, opened with `key` (it fails the test when the file is not sealed with it). */
const onDisk = async (path: string, key: Uint8Array) => {
  const entries = openSealedState(key, await readFile(path, 'utf8'));
  expect(entries, `${path} sealed with the key`).toBeDefined();
  return Object.fromEntries(entries!);
};

/** The client's state as it is kept: its relay key and a session's symmetric key among the entries. */
const SECRET = 'c0ffee'.repeat(10);
const STATE = { 'wc@2:core:0.3//keychain': { client_ed25519_seed: SECRET } };

describe('FileKeyValueStorage', () => {
  it('starts empty without a file, keeps what is set on disk, and reads it back', async () => {
    const path = await tempFile();
    const key = newKey();
    const storage = await FileKeyValueStorage.open(path, new Uint8Array(key));
    expect(await storage.getKeys()).toEqual([]);
    await Promise.all([storage.setItem('a', { n: 1 }), storage.setItem('b', [2]), storage.removeItem('missing')]);
    await storage.removeItem('b');
    expect(await onDisk(path, key)).toEqual({ a: { n: 1 } });
    const again = await FileKeyValueStorage.open(path, new Uint8Array(key));
    expect(await again.getEntries()).toEqual([['a', { n: 1 }]]);
    expect(again.keptAside).toBeUndefined();
  });

  it('writes nothing of its entries in plain text, owner-only, and zeroes its key as it closes', async () => {
    const path = await tempFile();
    const key = newKey();
    const held = new Uint8Array(key);
    const storage = await FileKeyValueStorage.open(path, held);
    await storage.setItem('wc@2:core:0.3//keychain', STATE['wc@2:core:0.3//keychain']);
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('keychain');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await onDisk(path, key)).toEqual(STATE);
    await storage.close();
    expect(held.every((byte) => byte === 0)).toBe(true);
  });

  it("seals an older wallet's plain file as it opens, and keeps its entries", async () => {
    const path = await tempFile();
    const key = newKey();
    await writeFile(path, JSON.stringify(STATE));
    const storage = await FileKeyValueStorage.open(path, new Uint8Array(key));
    expect(Object.fromEntries(await storage.getEntries())).toEqual(STATE);
    expect(storage.keptAside).toBeUndefined();
    expect(await readFile(path, 'utf8')).not.toContain(SECRET);
    expect(await onDisk(path, key)).toEqual(STATE);
  });

  it('keeps aside a file that is not a JSON object (sealed) or is sealed with another key (as it is), and starts empty', async () => {
    const other = newKey();
    const theirs = await tempFile();
    await (await FileKeyValueStorage.open(theirs, new Uint8Array(other))).setItem('a', 1);
    const sealedByOther = await readFile(theirs);
    // An older wallet's plain file cut short: its keys are in it, in plain text.
    const cutShort = JSON.stringify(STATE).slice(0, -3);
    for (const content of ['[1, 2]', cutShort, sealedByOther]) {
      const path = await tempFile();
      const key = newKey();
      await writeFile(path, content);
      const storage = await FileKeyValueStorage.open(path, new Uint8Array(key));
      expect(await storage.getKeys()).toEqual([]);
      expect(storage.keptAside).toBe(keptAsidePath(path, content));
      const kept = await readFile(storage.keptAside!);
      if (content === sealedByOther) expect(kept).toEqual(sealedByOther);
      else {
        // Nothing of it readable without the key; with it, the file byte for byte (and never as the sessions).
        expect(kept.toString('utf8')).not.toContain(content === cutShort ? SECRET : '[1, 2]');
        expect(openSealed(key, kept.toString('utf8'), KEPT_SEALED_AS)).toEqual(new Uint8Array(Buffer.from(content)));
        expect(openSealedState(key, kept.toString('utf8'))).toBeUndefined();
        expect((await stat(storage.keptAside!)).mode & 0o777).toBe(0o600);
      }
      expect(await onDisk(path, key)).toEqual({});
      await storage.setItem('b', 2);
      expect(await onDisk(path, key)).toEqual({ b: 2 });
    }
  });

  it('refuses a file it cannot keep aside, says where it is, and leaves it', async () => {
    const path = await tempFile();
    await writeFile(path, '[1, 2]');
    await mkdir(join(keptAsidePath(path, '[1, 2]'), 'inside'), { recursive: true });
    const error = await expectWalletError(FileKeyValueStorage.open(path, newKey()), 'STORAGE_FAILED');
    expect(error.message).toContain(path);
    expect(await readFile(path, 'utf8')).toBe('[1, 2]');
  });

  it('writes, as it closes, what a caller sets once its write under way is on disk', async () => {
    // The client's message tracker: what it saw of a message, then, once that is written, whether it took it in.
    const path = await tempFile();
    const key = newKey();
    const storage = await FileKeyValueStorage.open(path, new Uint8Array(key));
    const steps = (async () => {
      await storage.setItem('messages', ['m']);
      await storage.setItem('messages_withoutClientAck', []);
    })();
    await storage.close();
    expect(await onDisk(path, key)).toEqual({ messages: ['m'], messages_withoutClientAck: [] });
    await steps;
  });

  it('writes what was set before close(), and nothing after, even once its folder is gone', async () => {
    const path = await tempFile();
    const key = newKey();
    const storage = await FileKeyValueStorage.open(path, new Uint8Array(key));
    void storage.setItem('before', 1);
    await storage.close();
    expect(await onDisk(path, key)).toEqual({ before: 1 });
    await storage.setItem('after', 2);
    await storage.removeItem('before');
    expect(await onDisk(path, key)).toEqual({ before: 1 });
    await rm(join(path, '..'), { recursive: true });
    await expect(storage.setItem('gone', 3)).resolves.toBeUndefined();
    expect(await storage.getKeys()).toEqual(['after', 'gone']);
  });
});

describe('storageKey', () => {
  it('makes a key of 32 bytes once, keeps it in the API key store, and gives the same one after', async () => {
    const keys = new MemoryApiKeyStore();
    const path = await tempFile();
    const first = await storageKey(keys, path);
    expect(first).toHaveLength(32);
    expect((await keys.get(STORAGE_KEY_ID))?.key).toBe(Buffer.from(first).toString('base64'));
    expect(await storageKey(keys, path)).toEqual(first);
  });

  it('replaces a stored value that is not a key of 32 bytes', async () => {
    const keys = new MemoryApiKeyStore({ [STORAGE_KEY_ID]: Buffer.from('short').toString('base64') });
    const key = await storageKey(keys, await tempFile());
    expect(key).toHaveLength(32);
    expect((await keys.get(STORAGE_KEY_ID))?.key).toBe(Buffer.from(key).toString('base64'));
  });

  it('does not replace a key the store lists but does not hand over while the file it sealed is there', async () => {
    // A locked keychain may answer a read with nothing: a new key then would leave the sessions unreadable for good.
    const set: string[] = [];
    const silent = {
      get: async () => undefined,
      has: async () => true,
      set: async (id: string) => void set.push(id),
    };
    const path = await tempFile();
    await writeFile(path, 'sealed sessions');
    const error = await expectWalletError(storageKey(silent, path), 'KEYCHAIN_UNAVAILABLE');
    expect(error.message).toContain(path);
    expect(set).toEqual([]);
    // Once the file is moved away, a new key starts a new file.
    await rm(path);
    expect(await storageKey(silent, path)).toHaveLength(32);
    expect(set).toEqual([STORAGE_KEY_ID]);
  });
});
