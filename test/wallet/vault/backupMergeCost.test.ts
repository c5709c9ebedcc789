// What a large backup costs the main process: one seed per recovery phrase (not one per account), and turns of the
// event loop while its accounts are checked, so that nothing else waits for the whole import. Counted, not timed:
// PBKDF2 (the seed) by wrapping node:crypto's pbkdf2Sync, turns by a setImmediate chain running beside the merge.
import { describe, expect, it, vi } from 'vitest';
import type { BackupPayload } from '../../../src-main/wallet/vault/backupFile.ts';
import { mergeBackup } from '../../../src-main/wallet/vault/backupMerge.ts';
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
});
