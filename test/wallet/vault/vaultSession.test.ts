// The unlocked session's memory: every key, opened secret and draft phrase is zero-filled on wipe (lock), an old key
// on a password change, a forgotten account's key on removal, and the oldest draft when too many are made.
import { describe, expect, it, vi } from 'vitest';
import { MAX_DRAFTS, VaultSession } from '../../../src-main/wallet/vault/vaultSession.ts';
import { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { vector } from '../../vectors.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from './helpers.ts';

const filled = (n: number, value = 0xab) => new Uint8Array(n).fill(value);
const allZero = (bytes: Uint8Array) => bytes.every((b) => b === 0);

describe('vault session memory', () => {
  it('zero-fills the key, opened secrets, private keys and drafts on wipe', () => {
    const key = filled(32);
    const payload = filled(33);
    const privateKey = filled(32);
    const draft = filled(80);
    const session = new VaultSession(key);
    session.payloads.set('s', payload);
    session.signingKeys.set('a', privateKey);
    session.addDraft('d', { payload: draft, checkPositions: [1, 2, 3] });
    const copy = session.keyCopy();
    session.wipe();
    for (const bytes of [key, payload, privateKey, draft]) expect(allZero(bytes)).toBe(true);
    expect(allZero(copy)).toBe(false); // a copy is its holder's to wipe
    expect([session.payloads.size, session.signingKeys.size, session.drafts.size, session.wiped]).toEqual([
      0,
      0,
      0,
      true,
    ]);
  });

  it('wipes the old key when the password changes, and what a removal forgets', () => {
    const oldKey = filled(32);
    const session = new VaultSession(oldKey);
    session.replaceKey(filled(32, 1));
    expect(allZero(oldKey)).toBe(true);
    expect(allZero(session.key)).toBe(false);
    const privateKey = filled(32);
    const payload = filled(33);
    session.signingKeys.set('a', privateKey);
    session.payloads.set('s', payload);
    session.forget('a', ['s']);
    expect(allZero(privateKey) && allZero(payload)).toBe(true);
  });

  it(`keeps at most ${MAX_DRAFTS} draft phrases, wiping the oldest`, () => {
    const session = new VaultSession(filled(32));
    const drafts = Array.from({ length: MAX_DRAFTS + 1 }, () => filled(20));
    drafts.forEach((payload, i) => session.addDraft(`d${i}`, { payload, checkPositions: [1] }));
    expect(session.drafts.size).toBe(MAX_DRAFTS);
    expect(allZero(drafts[0]!)).toBe(true);
    expect(session.drafts.has('d0')).toBe(false);
  });

  it('the vault wipes its session on lock, idle lock included', async () => {
    const wipe = vi.spyOn(VaultSession.prototype, 'wipe');
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    try {
      const vault: Vault = await fx.open();
      await vault.create({ password: PASSWORD });
      await vault.importKey({ key: vector('koilib-key-1').wif_compressed, name: 'K' });
      vault.lock();
      expect(wipe).toHaveBeenCalledTimes(1);
      await vault.unlock({ password: PASSWORD });
      fx.clock.advance(5 * 60_000);
      expect(wipe).toHaveBeenCalledTimes(2);
    } finally {
      wipe.mockRestore();
      await fx.cleanup();
    }
  });
});
