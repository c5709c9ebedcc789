// The file WalletConnect's client keeps its state in: what is set is on disk once its promise resolves, a damaged file is
// refused with a way out, a change set as a write under way ends is written as it closes, and after close() nothing
// more is written (the client still changes entries as it stops).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileKeyValueStorage } from '../../../src-main/wallet/dapps/walletConnectStorage.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import { tempDir } from '../../helpers/tempDir.ts';

const tempFile = async () => join(await tempDir('koinos-wcstore-'), 'walletconnect.json');
const onDisk = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe('FileKeyValueStorage', () => {
  it('starts empty without a file, keeps what is set on disk, and reads it back', async () => {
    const path = await tempFile();
    const storage = await FileKeyValueStorage.open(path);
    expect(await storage.getKeys()).toEqual([]);
    await Promise.all([storage.setItem('a', { n: 1 }), storage.setItem('b', [2]), storage.removeItem('missing')]);
    await storage.removeItem('b');
    expect(await onDisk(path)).toEqual({ a: { n: 1 } });
    const again = await FileKeyValueStorage.open(path);
    expect(await again.getEntries()).toEqual([['a', { n: 1 }]]);
  });

  it('refuses a file that is not a JSON object, says where it is and how to start without it, and leaves it', async () => {
    const path = await tempFile();
    await writeFile(path, '[1, 2]');
    const error = await expectWalletError(FileKeyValueStorage.open(path), 'STORAGE_FAILED');
    expect(error.message).toContain(`Move ${path} away to start without them`);
    expect(await readFile(path, 'utf8')).toBe('[1, 2]');
  });

  it('writes, as it closes, what a caller sets once its write under way is on disk', async () => {
    // The client's message tracker: what it saw of a message, then, once that is written, whether it took it in.
    const path = await tempFile();
    const storage = await FileKeyValueStorage.open(path);
    const steps = (async () => {
      await storage.setItem('messages', ['m']);
      await storage.setItem('messages_withoutClientAck', []);
    })();
    await storage.close();
    expect(await onDisk(path)).toEqual({ messages: ['m'], messages_withoutClientAck: [] });
    await steps;
  });

  it('writes what was set before close(), and nothing after, even once its folder is gone', async () => {
    const path = await tempFile();
    const storage = await FileKeyValueStorage.open(path);
    void storage.setItem('before', 1);
    await storage.close();
    expect(await onDisk(path)).toEqual({ before: 1 });
    await storage.setItem('after', 2);
    await storage.removeItem('before');
    expect(await onDisk(path)).toEqual({ before: 1 });
    await rm(join(path, '..'), { recursive: true });
    await expect(storage.setItem('gone', 3)).resolves.toBeUndefined();
    expect(await storage.getKeys()).toEqual(['after', 'gone']);
  });
});
