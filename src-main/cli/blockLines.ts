// What the CLI's devnet prints for a block that carries transactions: one line for the block (its transactions, how
// many reverted, the mana and the resources they used), one per transaction, and the logs of its receipt quoted (a
// contract's System.log lines, a reversion's message), as local-koinos prints each block's disk, network and compute.
import { formatAmount } from '../koinos/amounts.ts';
import { BTYPE, bytesToJson } from '../koinos/codec.ts';
import type { ProducedBlockInfo } from '../devnet/server/startDevnet.ts';

/** Logs printed per transaction, and characters per log: a contract may log as much as its mana pays for. */
const MAX_LOGS = 20;
const MAX_LOG_CHARS = 300;

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
const grouped = (value: bigint): string => value.toLocaleString('en-US');

/**
 * The lines for `block`: none for an empty block. A log is printed as a JSON string, so that a contract cannot move the
 * terminal's cursor, colour it or break a line.
 * @example
 * blockLines(block);
 * // ['Block 12  0x1220…  2 transactions, 1 reverted  mana 0.02 (disk 0 B, network 604 B, compute 123,456)',
 * //  '  0x1220…  mana 0.01', '  0x1220…  reverted  mana 0.01', '    log "transaction reverted: …"']
 */
export function blockLines(block: ProducedBlockInfo): string[] {
  const { transactions } = block;
  if (transactions.length === 0) return [];
  const total = (pick: (t: (typeof transactions)[number]) => bigint) =>
    transactions.reduce((sum, t) => sum + pick(t), 0n);
  const reverted = transactions.filter((t) => t.reverted).length;
  const lines = [
    `Block ${block.height}  ${bytesToJson(block.id, BTYPE.BLOCK_ID)}  ${plural(transactions.length, 'transaction')}` +
      `${reverted > 0 ? `, ${reverted} reverted` : ''}  mana ${formatAmount(total((t) => t.rcUsed))} ` +
      `(disk ${grouped(total((t) => t.disk))} B, network ${grouped(total((t) => t.network))} B, ` +
      `compute ${grouped(total((t) => t.compute))})`,
  ];
  for (const t of transactions) {
    lines.push(`  0x${t.id}  ${t.reverted ? 'reverted  ' : ''}mana ${formatAmount(t.rcUsed)}`);
    for (const log of t.logs.slice(0, MAX_LOGS)) {
      const shown = [...log].length > MAX_LOG_CHARS ? `${[...log].slice(0, MAX_LOG_CHARS).join('')}…` : log;
      lines.push(`    log ${JSON.stringify(shown)}`);
    }
    if (t.logs.length > MAX_LOGS) lines.push(`    … and ${plural(t.logs.length - MAX_LOGS, 'more log')}`);
  }
  return lines;
}
