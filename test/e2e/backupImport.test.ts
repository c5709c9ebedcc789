// End to end: an encrypted backup imported on the Accounts screen says what it did in one status line (accounts added
// and already there, contacts added and skipped: one is on a custom network of the other wallet) and selects the first
// account it added; the first run's restore step goes back to the welcome, refuses a file too large before reading it,
// and shows the summary before the wallet opens. The backup is sealed here, as "Export encrypted backup" writes it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sealBackup, type BackupPayload } from '../../src-main/wallet/vault/backupFile.ts';
import { phraseAccounts } from '../../src-main/wallet/vault/secretPayload.ts';
import { TEST_SCRYPT } from '../helpers/constants.ts';
import { chromiumMissing, go, PASSWORD, startE2eWallet, useE2eWallet, type E2eWallet } from './harness.ts';

const missing = chromiumMissing();
const BACKUP_PASSWORD = 'the backup file password';
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const CAROL = '1DFF1akeStY8SfomzFsSYsZPesQcbnF1vR';

/** A backup file of two accounts of PHRASE, a watch-only `watched`, and a contact on Local and on a custom network. */
async function backupFile(dir: string, watched: string): Promise<string> {
  const { accountAt, wipe } = phraseAccounts(PHRASE);
  const payload: BackupPayload = {
    phrases: [{ ref: 'p', phrase: PHRASE, nextIndex: 2 }],
    accounts: [
      { name: 'Restored 0', kind: 'phrase', address: accountAt(0).address, phraseRef: 'p', derivationIndex: 0 },
      { name: 'Restored 1', kind: 'phrase', address: accountAt(1).address, phraseRef: 'p', derivationIndex: 1 },
      { name: 'Watched there', kind: 'watch', address: watched },
    ],
    contacts: [
      { label: 'Carol', address: CAROL, networkId: 'local' },
      { label: 'Carol on my node', address: CAROL, networkId: 'custom-5f0c6c2e-1f7e-4d0e-9a57-3f1c4a0b7d21' },
    ],
  };
  wipe();
  const path = join(dir, 'koinos-wallet-backup.json');
  await writeFile(path, await sealBackup(payload, BACKUP_PASSWORD, TEST_SCRYPT, new Date()));
  return path;
}

describe.skipIf(missing !== undefined)('the encrypted backup import in the browser', () => {
  let e2e: E2eWallet | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('says what the import did and selects the first account it added', async () => {
    dir = await mkdtemp(join(tmpdir(), 'koinos-backup-e2e-'));
    const ready = await useE2eWallet({ name: 'backup-import', devAccounts: [0] });
    e2e = ready;
    const { page, shots } = ready;
    const file = await backupFile(dir, ready.dev[0]!);
    await go(page, 'Accounts');
    await page
      .getByRole('region', { name: 'Encrypted backup' })
      .getByRole('button', { name: 'Import backup', exact: true })
      .click();
    const form = page.locator('form').filter({ has: page.getByLabel('Backup password') });
    await page.getByLabel('Backup file').setInputFiles(file);
    await page.getByText('Loaded koinos-wallet-backup.json.').waitFor();
    await page.getByLabel('Backup password').fill(BACKUP_PASSWORD);
    await form.getByRole('button', { name: 'Decrypt and import', exact: true }).click();
    const status = page
      .getByRole('status')
      .filter({ hasText: '2 accounts added, 1 already in the wallet; 1 contact added, 1 skipped' });
    await status.waitFor();
    expect(await status.textContent()).toBe(
      '2 accounts added, 1 already in the wallet; 1 contact added, 1 skipped: its network is not in this wallet.',
    );
    // The first account the backup added is selected, not the wallet's first.
    await page.getByRole('listitem', { name: 'Restored 0' }).getByText('selected', { exact: true }).waitFor();
    expect(await page.getByRole('listitem', { name: 'Account 1' }).getByText('selected', { exact: true }).count()).toBe(
      0,
    );
    // Two phrases now: each account's badge says which, then its index in it.
    for (const [name, badge] of [
      ['Account 1', 'phrase 1, #0'],
      ['Restored 0', 'phrase 2, #0'],
      ['Restored 1', 'phrase 2, #1'],
    ] as const) {
      expect(await page.getByRole('listitem', { name }).getByText(badge, { exact: true }).count(), name).toBe(1);
    }
    await shots.take(page, 'backup-imported');
    // The summary is of that import: it goes when the next backup action starts (here an export).
    await page
      .getByRole('region', { name: 'Encrypted backup' })
      .getByRole('button', { name: 'Export backup', exact: true })
      .click();
    await expect.poll(() => status.count()).toBe(0);
  });

  it('goes back from the restore step, refuses a file too large before reading it, and shows the summary', async () => {
    dir = await mkdtemp(join(tmpdir(), 'koinos-backup-e2e-'));
    e2e = await startE2eWallet({ name: 'backup-restore' });
    const { page, shots } = e2e;
    const file = await backupFile(dir, CAROL);
    await page.getByRole('button', { name: 'Restore an encrypted backup' }).click();
    await page.getByLabel('Wallet password').fill(PASSWORD);
    await page.getByLabel('Confirm the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create wallet' }).click();
    await page.getByRole('heading', { name: 'Restore an encrypted backup' }).waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('heading', { name: 'Welcome to Koinos Wallet' }).waitFor();
    await page.getByRole('button', { name: 'Restore an encrypted backup' }).click();
    await page.getByRole('heading', { name: 'Restore an encrypted backup' }).waitFor();

    await page.getByLabel('Backup file').setInputFiles({
      name: 'photo.json',
      mimeType: 'application/json',
      buffer: Buffer.alloc(5 * 1024 * 1024, 0x20),
    });
    const alert = page.getByRole('alert').filter({ hasText: 'Expected a file of at most' });
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Expected a file of at most 4.0 MB, but photo.json is 5.0 MB. Choose the right file.',
    );
    expect(await page.getByRole('button', { name: 'Decrypt and import', exact: true }).isDisabled()).toBe(true);
    await shots.take(page, 'backup-too-large');

    await page.getByLabel('Backup file').setInputFiles(file);
    await page.getByText('Loaded koinos-wallet-backup.json.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByLabel('Backup password').fill(BACKUP_PASSWORD);
    await page.getByRole('button', { name: 'Decrypt and import', exact: true }).click();
    await page.getByRole('heading', { name: 'Backup restored' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe(
      '3 accounts added; 1 contact added, 1 skipped: its network is not in this wallet.',
    );
    await shots.take(page, 'backup-restored');
    await page.getByRole('button', { name: 'Open the wallet' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  });
});
