// No password, phrase, private key or API key in any error the vault throws (message, details, hints, stack, causes),
// in anything it returns other than reveal and newPhrase, or on the console.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WalletError } from '../../../src-main/koinos/errors.ts';
import type { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { vector } from '../../vectors.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from './helpers.ts';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const WRONG_GUESS = 'my-other-secret-password';
const API_KEY = 'secret-api-key-0123456789';

/** Everything an error carries that could reach a log or a screen. */
function everything(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as Error).cause, depth++) {
    const w = e as WalletError;
    parts.push(
      String(w.message),
      String(w.stack),
      String(w.shortMessage),
      String(w.details),
      JSON.stringify(w.metaMessages ?? []),
      JSON.stringify(w),
    );
  }
  return parts.join('\n');
}

describe('secrets stay out of errors, results and logs', () => {
  let fx: Awaited<ReturnType<typeof vaultFixture>>;
  let vault: Vault;
  const logged: string[] = [];
  beforeEach(async () => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation(
        (...args: unknown[]) => void logged.push(args.map(String).join(' ')),
      );
    }
    fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    vault = await fx.open();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    vault.lock();
    await fx.cleanup();
  });

  it('never puts a secret in an error, a result or the console', async () => {
    const v = vector('koilib-key-1');
    const wif: string = v.wif_compressed;
    const hex: string = v.private_key_hex;
    const secrets = [
      PASSWORD,
      WRONG_GUESS,
      PHRASE,
      wif,
      hex,
      API_KEY,
      wif.slice(1, 15),
      hex.slice(2, 18),
      PHRASE.split(' ').slice(0, 4).join(' '),
    ];
    const results: unknown[] = [];
    const errors: unknown[] = [];
    const attempt = async (work: () => Promise<unknown>) => {
      try {
        results.push(await work());
      } catch (error) {
        errors.push(error);
      }
    };

    await attempt(() => vault.create({ password: WRONG_GUESS.slice(0, 5) }));
    results.push(await vault.create({ password: PASSWORD }));
    const key = await vault.importKey({ key: wif, name: 'K' });
    const phrase = await vault.importPhrase({ phrase: PHRASE, name: 'P' });
    results.push(key, phrase, vault.listAccounts(), vault.status(), vault.getSettings());
    await attempt(() => vault.apiKeys.set('n', API_KEY));
    await attempt(() => vault.apiKeys.set('n', API_KEY.repeat(400)));
    await attempt(() => vault.unlock({ password: WRONG_GUESS }));
    await attempt(() =>
      vault.importKey({ key: wif.slice(0, 20) + (wif[20] === 'a' ? 'b' : 'a') + wif.slice(21), name: 'x' }),
    );
    await attempt(() => vault.importKey({ key: wif.slice(0, -3), name: 'x' }));
    await attempt(() => vault.importKey({ key: hex.slice(0, 30) + 'g' + hex.slice(31), name: 'x' }));
    await attempt(() => vault.importKey({ key: hex + 'ab', name: 'x' }));
    await attempt(() => vault.importKey({ key: hex, name: 'x' }));
    await attempt(() => vault.importPhrase({ phrase: PHRASE.replace('yellow', 'legal'), name: 'x' }));
    await attempt(() => vault.importPhrase({ phrase: PHRASE.replace('yellow', 'yelow'), name: 'x' }));
    await attempt(() => vault.importPhrase({ phrase: PHRASE, name: 'x' }));
    await attempt(() => vault.reveal({ id: key.id, password: WRONG_GUESS }));
    await attempt(() => vault.removeAccount({ id: key.id, password: WRONG_GUESS }));
    await attempt(() => vault.changePassword({ oldPassword: WRONG_GUESS, newPassword: PASSWORD }));
    await attempt(() => vault.changePassword({ oldPassword: PASSWORD, newPassword: WRONG_GUESS.slice(0, 6) }));
    await attempt(() => vault.exportBackup({ password: WRONG_GUESS, backupPassword: PASSWORD }));
    // Five wrong passwords above started the throttle's wait (the last two were refused unchecked): let it pass.
    fx.clock.advance(10_000);
    const backup = await vault.exportBackup({ password: PASSWORD, backupPassword: WRONG_GUESS });
    results.push(backup);
    await attempt(() => vault.importBackup({ content: backup.content, backupPassword: PASSWORD }));
    const draft = await vault.newPhrase({ words: 12 });
    await attempt(() =>
      vault.confirmPhrase({
        draftId: draft.draftId,
        name: 'x',
        checks: draft.checkPositions.map((position) => ({ position, word: 'zoo' })),
      }),
    );
    vault.lock();
    // Without an approval, and locked: refused either way, and the error carries no secret.
    await attempt(() =>
      vault.signTransaction(
        v.address_compressed,
        { id: new Uint8Array(), operations: [], signatures: [] },
        undefined as never,
      ),
    );
    await attempt(() => vault.apiKeys.get('n'));

    expect(errors.length).toBeGreaterThanOrEqual(18);
    for (const error of errors) {
      expect(error).toBeInstanceOf(WalletError);
      const text = everything(error);
      for (const secret of [...secrets, ...draft.words.slice(0, 3).map((w, i) => `${w} ${draft.words[i + 1]}`)]) {
        expect(text, `${(error as WalletError).code} leaks a secret`).not.toContain(secret);
      }
    }
    const returned = JSON.stringify(results);
    for (const secret of secrets) expect(returned).not.toContain(secret);
    expect(logged).toEqual([]);
  });
});
