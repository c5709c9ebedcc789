// Changing the password: every key stays readable with the old or the new password whatever write fails (a crash or a
// full disk at step k, for every k), and the wallet knows which password is current. Run in both stores.
import { afterEach, describe, expect, it } from 'vitest';
import type { RevealedSecret } from '../../../src-main/ipc/contract.ts';
import { WalletError } from '../../../src-main/koinos/errors.ts';
import type { StoredApiKey } from '../../../src-main/wallet/chain/apiKeyStore.ts';
import type { Keychain } from '../../../src-main/wallet/vault/secretStore.ts';
import type { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { vector } from '../../vectors.ts';
import { PASSWORD, STORES, WriteFaults, storedEntries, vaultFixture } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const NEW_PASSWORD = 'a new and longer password';
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

async function filled(keychain: Keychain) {
  const faults = new WriteFaults();
  const fx = await vaultFixture({ keychain: faults.keychain(keychain), writeFile: faults.writeFile() });
  const vault = await fx.open();
  await vault.create({ password: PASSWORD });
  const phrase = await vault.importPhrase({ phrase: PHRASE, name: 'P0' });
  await vault.deriveNext({ phraseId: phrase.phraseId!, name: 'P1' });
  await vault.importKey({ key: vector('koilib-key-1').wif_compressed, name: 'K' });
  await vault.apiKeys.set('custom', 'the-api-key');
  return { fx, faults, vault };
}

async function entryCount(fx: Awaited<ReturnType<typeof vaultFixture>>, kind: 'keychain' | 'file'): Promise<number> {
  return (await storedEntries(fx, kind)).length;
}

async function opens(vault: Vault, password: string): Promise<boolean> {
  try {
    await vault.unlock({ password });
    return true;
  } catch (error) {
    expect((error as WalletError).code).toBe('WRONG_PASSWORD');
    return false;
  }
}

async function secrets(vault: Vault, password: string): Promise<(RevealedSecret | StoredApiKey | undefined)[]> {
  const out: (RevealedSecret | StoredApiKey | undefined)[] = [];
  for (const a of vault.listAccounts()) out.push(await vault.reveal({ id: a.id, password }));
  out.push(await vault.apiKeys.get('custom'));
  return out;
}

for (const store of STORES) {
  describe.skipIf(store.skip)(`change password (${store.name})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    it('re-encrypts every entry: the new password opens them all, the old one nothing', async () => {
      const { fx, vault } = await filled(store.keychain);
      cleanups.push(fx.cleanup);
      const before = await secrets(vault, PASSWORD);
      await expectWalletError(
        vault.changePassword({ oldPassword: 'wrong password', newPassword: NEW_PASSWORD }),
        'WRONG_PASSWORD',
      );
      await expectWalletError(vault.changePassword({ oldPassword: PASSWORD, newPassword: 'short' }), 'WEAK_PASSWORD');
      await vault.changePassword({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(vault.status().unlocked).toBe(true);
      expect(await vault.apiKeys.get('custom')).toEqual({ key: 'the-api-key' });
      await expectWalletError(vault.reveal({ id: vault.listAccounts()[0]!.id, password: PASSWORD }), 'WRONG_PASSWORD');
      expect(await secrets(vault, NEW_PASSWORD)).toEqual(before);
      expect(await entryCount(fx, store.kind)).toBe(3);
      vault.lock();
      const reopened = await fx.open({ keychain: store.keychain });
      expect(await opens(reopened, PASSWORD)).toBe(false);
      expect(await opens(reopened, NEW_PASSWORD)).toBe(true);
      expect(await secrets(reopened, NEW_PASSWORD)).toEqual(before);
      reopened.lock();
    });

    // A full disk fails write k alone, and the change cleans up after itself; a crash fails every write from k on; a
    // write that lands and then reports a failure (the folder's sync after the rename) leaves its result in place.
    // Each mode makes a new wallet for every write k of the change (7 to 9 of them): more work than the 30 s a test
    // gets allows on a loaded 2-core machine.
    for (const mode of ['fails', 'crash', 'lands'] as const) {
      const crash = mode === 'crash';
      const what = {
        fails: 'write k alone fails',
        crash: 'the process dies at write k',
        lands: 'write k lands and then reports a failure',
      }[mode];
      it(`leaves every key readable with exactly one of the passwords when ${what}, for every k`, async () => {
        const kind = store.kind;
        let sawOld = false;
        let sawNew = false;
        for (let k = 1; ; k++) {
          const step = `${crash ? 'crash' : 'failure'} at write ${k}`;
          const { fx, faults, vault } = await filled(store.keychain);
          cleanups.push(fx.cleanup);
          const before = await secrets(vault, PASSWORD);
          faults.step = 0;
          faults.failAt = k;
          faults.crash = crash;
          faults.lands = mode === 'lands';
          const failed = await vault.changePassword({ oldPassword: PASSWORD, newPassword: NEW_PASSWORD }).then(
            () => undefined,
            (error: unknown) => error as WalletError,
          );
          const reachedEnd = faults.step < k;
          if (failed) {
            expect(['STORAGE_FAILED', 'KEYCHAIN_UNAVAILABLE']).toContain(failed.code);
            expect(failed.message).not.toContain(PASSWORD);
            expect(failed.message).not.toContain(NEW_PASSWORD);
          }
          // The process and its memory are gone now; a new one starts from what is stored.
          vault.lock();
          const reopened = await fx.open({ keychain: store.keychain, writeFile: undefined });
          const oldWorks = await opens(reopened, PASSWORD);
          const newWorks = oldWorks ? false : await opens(reopened, NEW_PASSWORD);
          expect(oldWorks !== newWorks, `${step}: exactly one password opens the wallet`).toBe(true);
          // A reported failure means nothing changed; a success means the new password is the one.
          expect(oldWorks, step).toBe(failed !== undefined);
          expect(await secrets(reopened, oldWorks ? PASSWORD : NEW_PASSWORD), step).toEqual(before);
          // The unlock removed what the interrupted change left behind (in the background: wait for it).
          await reopened.settled();
          expect(await entryCount(fx, kind), step).toBe(3);
          reopened.lock();
          await fx.cleanup();
          cleanups.pop();
          sawOld ||= oldWorks;
          sawNew ||= !oldWorks;
          if (reachedEnd) break;
          expect(k).toBeLessThan(50);
        }
        expect(sawOld && sawNew).toBe(true);
      }, 120_000);
    }
  });
}
