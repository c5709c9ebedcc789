// An account's history between two times as a file: CSV (RFC 4180) or JSON, one row per movement or call of a
// transaction, amounts with their token's decimals as decimal strings. Pages through HistoryService, newest first,
// and reports its progress, so that a long history shows a progress bar and stops at the start of the range.
import { formatAmount, KOIN_DECIMALS } from '../../koinos/amounts.ts';
import { WalletError } from '../../koinos/errors.ts';
import type { HistoryExportProgress, HistoryKind, HistoryRecord } from './types.ts';
import { MAX_HISTORY_PAGE, type HistoryService } from './history.ts';

/** The columns, in file order (CSV header and JSON keys). */
export const EXPORT_COLUMNS = [
  'time',
  'block',
  'transaction_id',
  'kind',
  'token',
  'token_contract',
  'amount',
  'counterparty',
  'counterparty_name',
  'memo',
  'note',
  'mana_used',
  'status',
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string> & { kind: HistoryKind };

export interface HistoryExportRequest {
  networkId?: string;
  address: string;
  format: 'csv' | 'json';
  /** Epoch milliseconds, inclusive; absent: from the first record. */
  from?: bigint;
  /** Epoch milliseconds, exclusive; absent: up to the newest. */
  to?: bigint;
  /** The name the wallet gives an address (its own accounts), for the counterparty_name column. */
  nameOf?: (address: string) => string | undefined;
  /** The person's note on a transaction, for the note column. */
  noteOf?: (transactionId: string) => string | undefined;
  onProgress?: (progress: Omit<HistoryExportProgress, 'exportId'>) => void;
}

/**
 * The rows of one record of `address`: one per entry, oldest entry first. The mana a transaction used is on its first
 * row only, and only in the history of the account that paid it, so that a sum of the column is the mana it spent.
 */
function recordRows(
  record: HistoryRecord,
  address: string,
  nameOf: (address: string) => string | undefined = () => undefined,
  noteOf: (transactionId: string) => string | undefined = () => undefined,
): ExportRow[] {
  const note = record.transactionId === undefined ? '' : (noteOf(record.transactionId) ?? '');
  const entries = record.entries.length > 0 ? record.entries : [{ kind: 'call' as const, name: 'transaction' }];
  return entries.map((entry, index) => {
    const decimals = entry.token?.decimals;
    const amount =
      entry.amount === undefined
        ? ''
        : decimals === undefined
          ? entry.amount
          : formatAmount(BigInt(entry.amount), decimals);
    return {
      time: record.time === undefined ? '' : new Date(Number(record.time)).toISOString(),
      block: record.blockHeight ?? '',
      transaction_id: record.transactionId ?? '',
      kind: entry.kind,
      // Calls and other events name themselves here: what was called, or which event. A token nobody listed claims
      // its symbol (any contract can call itself KOIN): it is marked, so that a sum by symbol leaves it out. An NFT
      // is named with its token id (its collection in token_contract), with no amount.
      token: entry.token
        ? `${entry.token.symbol}${entry.token.unlisted ? ' (unlisted)' : ''}`
        : entry.tokenId !== undefined
          ? `NFT ${entry.tokenId}`
          : entry.allNfts
            ? 'every NFT'
            : entry.kind === 'call' || entry.kind === 'event'
              ? (entry.name ?? '')
              : '',
      token_contract: entry.token?.contract ?? entry.contract ?? '',
      amount,
      counterparty: entry.counterparty ?? '',
      counterparty_name: entry.counterparty ? (nameOf(entry.counterparty) ?? '') : '',
      memo: entry.memo ?? '',
      note,
      mana_used:
        index === 0 && record.rcUsed !== undefined && record.payer === address
          ? formatAmount(BigInt(record.rcUsed), KOIN_DECIMALS)
          : '',
      status: record.reverted ? 'reverted' : record.status,
    };
  });
}

/**
 * One CSV field (RFC 4180), always quoted, with quotes doubled: a spreadsheet that splits at semicolons (Excel in many
 * European languages) keeps `x;=1+1` one cell. A field a spreadsheet would run as a formula (it starts with = + - @ or
 * a tab) gets a leading apostrophe: token symbols and names come from contracts anyone can deploy (OWASP's CSV
 * injection advice). No column the wallet writes itself starts so.
 * @example
 * csvField('a,b'); // '"a,b"'
 * csvField('=HYPERLINK("x")'); // '"\'=HYPERLINK(""x"")"'
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** The rows as CSV: a header line, then one line per row, every line ended by CRLF (RFC 4180). */
export function rowsToCsv(rows: readonly ExportRow[]): string {
  const lines = [EXPORT_COLUMNS.join(','), ...rows.map((row) => EXPORT_COLUMNS.map((c) => csvField(row[c])).join(','))];
  return lines.map((line) => `${line}\r\n`).join('');
}

/**
 * The history of `address` from `from` to `to` as a file's text, oldest first. Records not in a block yet (this
 * wallet's pending transactions) are left out: they have no time on the chain.
 * @throws WalletError INVALID_ARGUMENT when `to` is not after `from`; node errors as HistoryService gives them.
 * @example
 * const { content, rows } = await exportHistory(history, { address, format: 'csv', from: 1767225600000n });
 */
export async function exportHistory(
  history: HistoryService,
  request: HistoryExportRequest,
): Promise<{ content: string; rows: number }> {
  const { from, to } = request;
  if (from !== undefined && to !== undefined && to <= from) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected the end of the range after its start, got ${new Date(Number(to)).toISOString()} before ${new Date(Number(from)).toISOString()}`,
    );
  }
  const picked: HistoryRecord[] = [];
  let seqNum: string | undefined;
  let total = 0;
  let scanned = 0;
  for (;;) {
    const page = await history.page({
      ...(request.networkId ? { networkId: request.networkId } : {}),
      address: request.address,
      limit: MAX_HISTORY_PAGE,
      ...(seqNum !== undefined ? { seqNum } : {}),
      ascending: false,
      irreversibleOnly: false,
    });
    const records = page.records.filter((r) => r.seqNum !== undefined);
    if (total === 0 && records[0]) total = Number(records[0].seqNum) + 1;
    scanned += records.length;
    let before = false;
    for (const record of records) {
      const time = record.time === undefined ? undefined : BigInt(record.time);
      if (time !== undefined && from !== undefined && time < from) {
        before = true;
        break;
      }
      if (time !== undefined && to !== undefined && time >= to) continue;
      if (time === undefined && (from !== undefined || to !== undefined)) continue;
      picked.push(record);
    }
    const done = before || page.next === undefined;
    request.onProgress?.({ scanned, total: Math.max(total, scanned), done });
    if (done) break;
    seqNum = page.next;
  }
  picked.reverse();
  const rows = picked.flatMap((r) => recordRows(r, request.address, request.nameOf, request.noteOf));
  const content =
    request.format === 'csv'
      ? rowsToCsv(rows)
      : `${JSON.stringify({ address: request.address, columns: EXPORT_COLUMNS, rows }, null, 2)}\n`;
  return { content, rows: rows.length };
}
