// What a large backup costs the main process: one seed per recovery phrase (not one per account), and turns of the
// event loop while its accounts are checked, so that nothing else waits for the whole import. Counted, not timed:
// PBKDF2 (the seed) by wrapping node:crypto's pbkdf2Sync, turns by a setImmediate chain running beside the merge. And
// what such a turn may bring: the wallet locked in the middle of an import (the merge is wrapped to lock it then).
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { sealBackup, type BackupPayload } from '../../../src-main/wallet/vault/backupFile.ts';
import { mergeBackup } from '../../../src-main/wallet/vault/backupMerge.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import { NO_SECRET_SERVICE, PASSWORD, TEST_SCRYPT, vaultFixture } from './helpers.ts';
import { phraseAccounts } from '../../../src-main/wallet/vault/secretPayload.ts';
import type { VaultRecord } from '../../../src-main/wallet/vault/walletFile.ts';

const seeds = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const pbkdf2Sync = (...args: Parameters<typeof actual.pbkdf2Sync>) => {
    seeds.count++;
    return actual.pbkdf2Sync(...args);
  };
  return { ...actual, default: { ...actual, pbkdf2Sync }, pbkdf2Sync };
});

const merging = vi.hoisted(() => ({ after: undefined as (() => void) | undefined }));
vi.mock('../../../src-main/wallet/vault/backupMerge.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src-main/wallet/vault/backupMerge.ts')>();
  return {
    ...actual,
    mergeBackup: async (...args: Parameters<typeof actual.mergeBackup>) => {
      const merged = await actual.mergeBackup(...args);
      merging.after?.();
      return merged;
    },
  };
});

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const ACCOUNTS = 40;

function emptyVault(): VaultRecord {
  const kdf = { N: 2 ** 15, r: 8, p: 1, salt: '' };
  return {
    walletId: 'w',
    storage: 'file',
    keychainService: 's',
    kdf,
    generation: 'g',
    check: '',
    accounts: [],
    phrases: [],
  };
}

function payload(): BackupPayload {
  const { accountAt, wipe } = phraseAccounts(PHRASE);
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({
    name: `P${i}`,
    kind: 'phrase' as const,
    address: accountAt(i).address,
    phraseRef: 'p',
    derivationIndex: i,
  }));
  wipe();
  return { phrases: [{ ref: 'p', phrase: PHRASE, nextIndex: ACCOUNTS }], accounts };
}

describe('merging a large backup', () => {
  it('computes the seed of a recovery phrase once for all its accounts', async () => {
    const backup = payload();
    seeds.count = 0;
    const { addedIds } = await mergeBackup(emptyVault(), backup);
    expect(addedIds).toHaveLength(ACCOUNTS);
    expect(seeds.count).toBe(1);
  });

  it('lets the event loop turn while it checks the accounts', async () => {
    const backup = payload();
    let turns = 0;
    let running = true;
    const turn = () => {
      if (!running) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const { addedIds } = await mergeBackup(emptyVault(), backup);
    running = false;
    expect(addedIds).toHaveLength(ACCOUNTS);
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('refuses the import, changing nothing, when the wallet locked while the accounts were checked', async () => {
    const fixture = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    onTestFinished(fixture.cleanup);
    const vault = await fixture.open();
    await vault.create({ password: PASSWORD });
    const before = await files(fixture.dataDir);
    const content = await sealBackup(payload(), 'the backup password', TEST_SCRYPT, new Date());
    merging.after = () => void vault.lock();
    onTestFinished(() => (merging.after = undefined));
    await expectWalletError(vault.importBackup({ content, backupPassword: 'the backup password' }), 'VAULT_LOCKED');
    // Nothing was sealed with the wiped key: the folder is as it was, and the wallet opens with its password.
    expect(await files(fixture.dataDir)).toEqual(before);
    merging.after = undefined;
    await vault.unlock({ password: PASSWORD });
    expect(vault.listAccounts()).toEqual([]);
  });
});

/** Every file of a data folder and its bytes. */
async function files(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile()))
    out[relative(dir, join(e.parentPath, e.name))] = (await readFile(join(e.parentPath, e.name))).toString('base64');
  return out;
}
