// End to end: the wallet locks itself after the idle time set on the Settings screen, asks for the password, and leaves
// nothing secret on the page (no phrase, no revealed key, no password), then unlocks again. On its way, a backup is
// exported with its password typed twice. The vault's clock is driven
// by hand, so that the minute passes at once; the browser and the pushes to it are real.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openBackup } from '../../src-main/wallet/vault/backupFile.ts';
import { ManualClock } from '../wallet/vault/helpers.ts';
import {
  chromiumMissing,
  createWallet,
  go,
  importDevAccount,
  PASSWORD,
  startE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();
const BACKUP_PASSWORD = 'the backup file password';

describe.skipIf(missing !== undefined)('the idle lock in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('locks after the idle time and keeps no secret on the page', async () => {
    const clock = new ManualClock();
    e2e = await startE2eWallet({ name: 'idle-lock', clock });
    const { page, shots } = e2e;
    const words = await createWallet(page);
    await importDevAccount(page, 0);

    await go(page, 'Accounts');
    await page.getByRole('button', { name: 'Reveal the secret of Devnet account 0' }).click();
    await page.getByLabel('Wallet password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Reveal', exact: true }).click();
    const secret = page.getByLabel('Revealed secret').getByRole('code');
    await secret.waitFor();
    const wif = ((await secret.textContent()) ?? '').trim();
    expect(wif).toMatch(/^[5KL][1-9A-HJ-NP-Za-km-z]{50,51}$/);
    await shots.take(page, 'secret-revealed');

    // The backup password is typed twice: a typo would show only when the backup is needed, after the machine is gone.
    await page.getByRole('button', { name: 'Export backup' }).click();
    await page.getByLabel('Backup password').fill(BACKUP_PASSWORD);
    await page.getByLabel('Confirm the password').fill(`${BACKUP_PASSWORD}x`);
    await page.getByText('The two passwords differ: type the same password twice.').waitFor();
    expect(await page.getByRole('button', { name: 'Create backup' }).count()).toBe(0);
    await shots.take(page, 'backup-passwords-differ');
    await page.getByLabel('Confirm the password').fill(BACKUP_PASSWORD);
    await page.getByLabel('Wallet password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create backup' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save backup file' }).click(),
    ]);
    const content = await readFile(await download.path(), 'utf8');
    const { kdf } = JSON.parse(content) as { kdf: { N: number } };
    const payload = await openBackup(content, BACKUP_PASSWORD, { minScryptN: kdf.N });
    expect(payload.accounts.map((a) => a.name)).toEqual(['Account 1', 'Devnet account 0']);

    await go(page, 'Settings');
    await page.getByLabel('Lock after this many minutes without use').fill('1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'locks after 1 minute without use' }).waitFor();

    // One second short of the minute the wallet is still open; at the minute it locks and the page shows it.
    clock.advance(59_000);
    expect((await e2e.wallet.handlers['vault:status']()).unlocked).toBe(true);
    await expect(page.getByRole('navigation', { name: 'Screens' }).isVisible()).resolves.toBe(true);
    clock.advance(1_000);
    expect((await e2e.wallet.handlers['vault:status']()).unlocked).toBe(false);
    await page.getByRole('heading', { name: 'Wallet locked' }).waitFor();
    await shots.take(page, 'locked');

    const html = await page.content();
    const values = await page
      .locator('input, textarea')
      .evaluateAll((fields) => fields.map((f) => (f as unknown as { value: string }).value));
    const everything = `${html}\n${values.join('\n')}`;
    expect(everything).not.toContain(wif);
    expect(everything).not.toContain(PASSWORD);
    for (let i = 0; i + 3 <= words.length; i++) expect(everything).not.toContain(words.slice(i, i + 3).join(' '));
    expect(everything).not.toContain('Devnet account 0');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await shots.take(page, 'unlocked-again');
  });
});
