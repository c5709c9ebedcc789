// The record of approval decisions kept beside a wallet: one JSON line per decision (approved, rejected, expired), owner
// only, no secret in any line. The app and the CLI (with --data-dir) append to the same file.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalRecord } from './approvalQueue.ts';

/** The file's name inside a data folder. */
const APPROVALS_LOG = 'approvals.log';

/**
 * The `record` of an ApprovalQueue that appends each decision to `<dataDir>/approvals.log`.
 * @example
 * new ApprovalQueue({ approver, record: approvalsLog(dataDir) });
 */
export function approvalsLog(dataDir: string): (entry: ApprovalRecord) => void {
  return (entry) => appendFileSync(join(dataDir, APPROVALS_LOG), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
}
