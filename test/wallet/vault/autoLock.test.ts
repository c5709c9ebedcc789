// The idle lock, driven by a hand-moved clock: after the idle time without activity, at once when the time is
// shortened, on machine sleep (lock()), and even when the timer never fired (the deadline is checked on use).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vector } from '../../vectors.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from './helpers.ts';
import type { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { nonceToBytes } from '../../../src-main/koinos/transaction.ts';
import type { Transaction } from '../../../src-main/koinos/types.ts';
import { approvalFor } from '../../helpers/approval.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

function transferFrom(payer: string): Transaction {
  return {
    id: new Uint8Array(),
    header: {
      chain_id: Uint8Array.from([0x12, 0x20, ...new Uint8Array(32)]),
      rc_limit: 1n,
      nonce: nonceToBytes(1n),
      operation_merkle_root: new Uint8Array(),
      payer: addressFromString(payer),
      payee: new Uint8Array(),
    },
    operations: [],
    signatures: [],
  };
}

const MINUTE = 60_000;

describe('auto-lock', () => {
  let fx: Awaited<ReturnType<typeof vaultFixture>>;
  let vault: Vault;
  let states: boolean[];
  beforeEach(async () => {
    // The owner-only file store: the idle lock does not depend on where keys live, and this runs everywhere.
    fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    vault = await fx.open();
    await vault.create({ password: PASSWORD });
    states = [];
    vault.onLockChange((s) => states.push(s.unlocked));
  });
  afterEach(async () => {
    vault.lock();
    await fx.cleanup();
  });

  it('locks after 5 idle minutes by default, and activity moves the deadline', async () => {
    fx.clock.advance(5 * MINUTE - 1000);
    expect(vault.status().unlocked).toBe(true);
    vault.touch();
    fx.clock.advance(5 * MINUTE - 1000);
    expect(vault.status().unlocked).toBe(true);
    fx.clock.advance(1000);
    expect(vault.status().unlocked).toBe(false);
    expect(states).toEqual([false]);
    expect(fx.clock.pending).toBe(0);
  });

  it('counts signing as activity', async () => {
    const v = vector('koilib-key-1');
    await vault.importKey({ key: v.wif_compressed, name: 'K' });
    fx.clock.advance(4 * MINUTE);
    const tx = transferFrom(v.address_compressed);
    const signed = await vault.signTransaction(v.address_compressed, tx, await approvalFor(v.address_compressed, tx));
    expect(signed.signatures).toHaveLength(1);
    fx.clock.advance(4 * MINUTE);
    expect(vault.status().unlocked).toBe(true);
    fx.clock.advance(MINUTE);
    expect(vault.status().unlocked).toBe(false);
  });

  it('applies a new idle time at once, counted from the last activity', async () => {
    fx.clock.advance(2 * MINUTE);
    await vault.updateSettings({ autoLockMinutes: 1 });
    expect(vault.status()).toMatchObject({ unlocked: false, autoLockMinutes: 1 });
    await vault.unlock({ password: PASSWORD });
    fx.clock.advance(MINUTE - 1);
    expect(vault.status().unlocked).toBe(true);
    fx.clock.advance(1);
    expect(vault.status().unlocked).toBe(false);
    await vault.updateSettings({ autoLockMinutes: 30 });
    await vault.unlock({ password: PASSWORD });
    fx.clock.advance(29 * MINUTE);
    expect(vault.status().unlocked).toBe(true);
  });

  it('locks on sleep, and when the timer did not fire (clock jumped while asleep) the next use finds it locked', async () => {
    const v = vector('koilib-key-1');
    await vault.importKey({ key: v.wif_compressed, name: 'K' });
    fx.clock.time += 6 * MINUTE; // time passes, no timer runs
    await expectWalletError(vault.newPhrase({ words: 12 }), 'VAULT_LOCKED');
    expect(states).toEqual([false]);
    await vault.unlock({ password: PASSWORD });
    vault.lock(); // what the shell calls on powerMonitor 'suspend'
    expect(vault.status().unlocked).toBe(false);
    expect(states).toEqual([false, true, false]);
  });

  it('an unlock after the deadline starts a fresh session instead of extending the stale one', async () => {
    fx.clock.time += 6 * MINUTE;
    await vault.unlock({ password: PASSWORD });
    expect(states).toEqual([false, true]);
    fx.clock.advance(5 * MINUTE - 1);
    expect(vault.status().unlocked).toBe(true);
  });
});
