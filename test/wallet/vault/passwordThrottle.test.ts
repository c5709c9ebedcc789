// Guessing the password: three wrong tries are free, then each one doubles the wait (1 s, 2 s, 4 s ... 5 minutes),
// and a try during the wait is refused before scrypt runs, on every path that checks the password. Time is the
// fixture's hand-driven clock, so nothing sleeps.
import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WalletError } from '../../../src-main/koinos/errors.ts';
import { MAX_WAIT_MS, formatWait } from '../../../src-main/wallet/vault/passwordThrottle.ts';
import type { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const WRONG = 'not the wallet password';
const KEY = '11'.repeat(32);

type Fixture = Awaited<ReturnType<typeof vaultFixture>>;

describe('password throttling', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** A wallet with one key, locked, its auto-lock at the maximum so that moving the clock does not lock it. */
  async function locked(): Promise<{ fx: Fixture; vault: Vault; accountId: string }> {
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    cleanups.push(fx.cleanup);
    const vault = await fx.open();
    await vault.create({ password: PASSWORD });
    await vault.updateSettings({ autoLockMinutes: 1440 });
    const { id } = await vault.importKey({ key: KEY, name: 'K' });
    vault.lock();
    cleanups.push(async () => void vault.lock());
    return { fx, vault, accountId: id };
  }

  /** Every attempt's error code, in order. */
  async function codes(attempts: Promise<unknown>[]): Promise<string[]> {
    const settled = await Promise.allSettled(attempts);
    return settled.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as WalletError).code));
  }

  it('checks three wrong passwords, then refuses without checking until a doubling wait has passed', async () => {
    const { fx, vault } = await locked();
    const sequential: string[] = [];
    for (let i = 0; i < 5; i++) sequential.push(...(await codes([vault.unlock({ password: WRONG })])));
    // Only WRONG_PASSWORD means scrypt ran: three times.
    expect(sequential).toEqual([
      'WRONG_PASSWORD',
      'WRONG_PASSWORD',
      'WRONG_PASSWORD',
      'TOO_MANY_ATTEMPTS',
      'TOO_MANY_ATTEMPTS',
    ]);

    // The right password is refused too during the wait, and the message says how long is left.
    const early = await expectWalletError(vault.unlock({ password: PASSWORD }), 'TOO_MANY_ATTEMPTS');
    expect(early.shortMessage).toBe(
      'expected a pause after 3 wrong passwords in a row, but this try came too early: wait 1 second and try again',
    );
    expect(vault.status().unlocked).toBe(false);

    // Each further wrong password doubles the wait: 2 s, then 4 s.
    fx.clock.advance(1_000);
    await expectWalletError(vault.unlock({ password: WRONG }), 'WRONG_PASSWORD');
    fx.clock.advance(1_999);
    expect((await expectWalletError(vault.unlock({ password: PASSWORD }), 'TOO_MANY_ATTEMPTS')).shortMessage).toContain(
      '4 wrong passwords in a row, but this try came too early: wait 1 second',
    );
    fx.clock.advance(1);
    const fifth = await expectWalletError(vault.unlock({ password: WRONG }), 'WRONG_PASSWORD');
    expect(fifth.metaMessages).toContain('After several wrong passwords the next try waits 4 seconds.');
    expect((await expectWalletError(vault.unlock({ password: PASSWORD }), 'TOO_MANY_ATTEMPTS')).shortMessage).toContain(
      'wait 4 seconds',
    );

    // After the wait the right password unlocks, the count starts again, and nothing was damaged.
    fx.clock.advance(4_000);
    await vault.unlock({ password: PASSWORD });
    expect(vault.status().unlocked).toBe(true);
    expect(await vault.reveal({ id: vault.listAccounts()[0]!.id, password: PASSWORD })).toMatchObject({ kind: 'wif' });
    expect(await codes([1, 2, 3].map(() => vault.verifyPassword({ password: WRONG })))).toEqual([
      'WRONG_PASSWORD',
      'WRONG_PASSWORD',
      'WRONG_PASSWORD',
    ]);
  });

  it('lets at most three of forty parallel guesses run scrypt', async () => {
    const { fx, vault } = await locked();
    const results = await codes(Array.from({ length: 40 }, () => vault.unlock({ password: WRONG })));
    expect(results.filter((c) => c === 'WRONG_PASSWORD')).toHaveLength(3);
    expect(results.filter((c) => c === 'TOO_MANY_ATTEMPTS')).toHaveLength(37);
    // The refused guesses did not lengthen the wait: 1 second after the third failure, the right password unlocks.
    fx.clock.advance(1_000);
    await vault.unlock({ password: PASSWORD });
    expect(vault.status().unlocked).toBe(true);
    const json = JSON.parse(await readFile(join(fx.dataDir, 'wallet.json'), 'utf8'));
    expect(json.vault.accounts).toHaveLength(1);
  });

  it('covers reveal, remove, export, change password and verifyPassword, sharing one count', async () => {
    const { fx, vault, accountId } = await locked();
    await vault.unlock({ password: PASSWORD });
    const attempts = [
      () => vault.reveal({ id: accountId, password: WRONG }),
      () => vault.removeAccount({ id: accountId, password: WRONG }),
      () => vault.exportBackup({ password: WRONG, backupPassword: 'a backup password' }),
      () => vault.changePassword({ oldPassword: WRONG, newPassword: 'a new wallet password' }),
      () => vault.verifyPassword({ password: WRONG }),
      () => vault.reveal({ id: accountId, password: PASSWORD }),
    ];
    const results: string[] = [];
    for (const attempt of attempts) results.push(...(await codes([attempt()])));
    expect(results).toEqual([
      'WRONG_PASSWORD',
      'WRONG_PASSWORD',
      'WRONG_PASSWORD',
      'TOO_MANY_ATTEMPTS',
      'TOO_MANY_ATTEMPTS',
      'TOO_MANY_ATTEMPTS',
    ]);
    fx.clock.advance(1_000);
    await vault.verifyPassword({ password: PASSWORD });
    expect(vault.listAccounts()).toHaveLength(1);
    expect(await vault.reveal({ id: accountId, password: PASSWORD })).toMatchObject({ kind: 'wif' });
  });

  it('keeps counting when the vault is opened again in the same process (a page reload does not reset it)', async () => {
    const { fx, vault } = await locked();
    await codes([1, 2, 3].map(() => vault.unlock({ password: WRONG })));
    const reopened = await fx.open();
    await expectWalletError(reopened.unlock({ password: PASSWORD }), 'TOO_MANY_ATTEMPTS');
  });

  it('caps the wait at five minutes', async () => {
    const { fx, vault } = await locked();
    for (let i = 0; i < 14; i++) {
      await codes([vault.unlock({ password: WRONG })]);
      fx.clock.advance(MAX_WAIT_MS);
    }
    await expectWalletError(vault.unlock({ password: WRONG }), 'WRONG_PASSWORD');
    expect((await expectWalletError(vault.unlock({ password: PASSWORD }), 'TOO_MANY_ATTEMPTS')).shortMessage).toContain(
      'wait 5 minutes and try again',
    );
    fx.clock.advance(MAX_WAIT_MS);
    await vault.unlock({ password: PASSWORD });
  });

  it('says the wait in seconds and minutes', () => {
    expect([1, 999, 1000, 1001, 59_000, 60_000, 128_000, 300_000].map(formatWait)).toEqual([
      '1 second',
      '1 second',
      '1 second',
      '2 seconds',
      '59 seconds',
      '1 minute',
      '2 minutes 8 seconds',
      '5 minutes',
    ]);
  });
});

describe('verifyPassword', () => {
  it('accepts the wallet password, refuses another, and needs the wallet unlocked', async () => {
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    try {
      const vault = await fx.open();
      await vault.create({ password: PASSWORD });
      await expect(vault.verifyPassword({ password: PASSWORD })).resolves.toBeUndefined();
      await expectWalletError(vault.verifyPassword({ password: WRONG }), 'WRONG_PASSWORD');
      vault.lock();
      await expectWalletError(vault.verifyPassword({ password: PASSWORD }), 'VAULT_LOCKED');
    } finally {
      await fx.cleanup();
    }
  });
});
