// The line an encrypted-backup import ends with: accounts added, already there, upgraded; contacts added and why the
// others were skipped; networks added; the warnings after it.
import { describe, expect, it } from 'vitest';
import type { BackupImportSummary } from '../../src-main/ipc/contract.ts';
import { backupSummaryText } from '../../src-renderer/lib/backupSummary.ts';

const NO_CONTACTS = { added: 0, invalid: 0, duplicate: 0, overLimit: 0, unknownNetwork: 0 };
const summary = (patch: Partial<BackupImportSummary>): BackupImportSummary => ({
  addedAccountIds: [],
  upgradedAccountIds: [],
  alreadyPresent: 0,
  contacts: NO_CONTACTS,
  warnings: [],
  ...patch,
});

describe('the backup import summary', () => {
  it('says what was added and why contacts were skipped', () => {
    expect(
      backupSummaryText(
        summary({
          addedAccountIds: ['a', 'b'],
          alreadyPresent: 1,
          contacts: { ...NO_CONTACTS, added: 3, unknownNetwork: 1 },
        }),
      ),
    ).toBe(
      '2 accounts added, 1 already in the wallet; 3 contacts added, 1 skipped: its network is not in this wallet.',
    );
    expect(
      backupSummaryText(
        summary({
          addedAccountIds: ['a'],
          upgradedAccountIds: ['w'],
          contacts: { ...NO_CONTACTS, duplicate: 2, unknownNetwork: 1, invalid: 1 },
        }),
      ),
    ).toBe(
      '1 account added, 1 watch-only account can sign now; 0 contacts added, 4 skipped ' +
        '(1 on a network this wallet does not have, 2 already in the address book, 1 not valid).',
    );
    expect(backupSummaryText(summary({ alreadyPresent: 4 }))).toBe('0 accounts added, 4 already in the wallet.');
    expect(
      backupSummaryText(summary({ addedAccountIds: ['a'], contacts: { ...NO_CONTACTS, added: 2, networksAdded: 1 } })),
    ).toBe('1 account added; 2 contacts added; 1 network added (without an API key).');
    expect(backupSummaryText(summary({ contacts: { ...NO_CONTACTS, notesAdded: 3 } }))).toBe(
      '0 accounts added; 3 notes added.',
    );
  });

  it('ends with the warnings', () => {
    expect(
      backupSummaryText(
        summary({ addedAccountIds: ['a'], warnings: ['The accounts were imported, but not the contacts.'] }),
      ),
    ).toBe('1 account added. The accounts were imported, but not the contacts.');
  });
});
