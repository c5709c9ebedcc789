// The sentence an encrypted-backup import ends with: what it added, what the wallet had already, the watch-only
// accounts that can sign now, the contacts it added and why it skipped the others, the networks it added, then any
// warning.
import type { BackupImportSummary } from '../../src-main/ipc/contract.ts';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why contacts were skipped: one reason in full, several as counts. */
function skipped(contacts: BackupImportSummary['contacts']): string | undefined {
  const reasons: [number, string, string][] = [
    [contacts.unknownNetwork, 'its network is not in this wallet', 'on a network this wallet does not have'],
    [contacts.duplicate, 'already in the address book', 'already in the address book'],
    [contacts.invalid, 'not a valid contact', 'not valid'],
    [contacts.overLimit, 'the address book is full (5,000 contacts)', 'over the 5,000 the address book holds'],
  ];
  const present = reasons.filter(([n]) => n > 0);
  const total = present.reduce((sum, [n]) => sum + n, 0);
  if (total === 0) return undefined;
  if (present.length === 1) {
    const [[n, one]] = present as [[number, string, string]];
    // "1 skipped: its network is not in this wallet", "2 skipped: their network is not in this wallet".
    return `${n} skipped: ${n === 1 ? one : one.replace(/^its /, 'their ')}`;
  }
  return `${total} skipped (${present.map(([n, , many]) => `${n} ${many}`).join(', ')})`;
}

/**
 * One line for the import's status.
 * @example
 * backupSummaryText(summary); // '2 accounts added, 1 already in the wallet; 3 contacts added, 1 skipped: its network is not in this wallet.'
 */
export function backupSummaryText(summary: BackupImportSummary): string {
  const accounts = [count(summary.addedAccountIds.length, 'account added', 'accounts added')];
  if (summary.alreadyPresent > 0) accounts.push(`${summary.alreadyPresent} already in the wallet`);
  if (summary.upgradedAccountIds.length > 0)
    accounts.push(
      `${count(summary.upgradedAccountIds.length, 'watch-only account', 'watch-only accounts')} can sign now`,
    );
  const parts = [accounts.join(', ')];
  const why = skipped(summary.contacts);
  if (summary.contacts.added > 0 || why)
    parts.push([count(summary.contacts.added, 'contact added', 'contacts added'), why].filter(Boolean).join(', '));
  const networks = summary.contacts.networksAdded ?? 0;
  if (networks > 0) parts.push(`${count(networks, 'network added', 'networks added')} (without an API key)`);
  const notes = summary.contacts.notesAdded ?? 0;
  if (notes > 0) parts.push(count(notes, 'note added', 'notes added'));
  return [`${parts.join('; ')}.`, ...summary.warnings].join(' ');
}
