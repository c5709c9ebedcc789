// What `koinos-wallet devnet` prints for a block: from a real devnet's block (a transfer, and one that reverts in the
// block), and the logs of a receipt quoted whatever a contract wrote into them.
import { describe, expect, it } from 'vitest';
import { blockLines } from '../../src-main/cli/blockLines.ts';
import type { ProducedBlockInfo } from '../../src-main/devnet/server/startDevnet.ts';
import { BTYPE, bytesToJson } from '../../src-main/koinos/codec.ts';
import { formatAmount } from '../../src-main/koinos/amounts.ts';
import { balanceOf, key, submit, testNodes, transferTx } from '../devnet/helpers.ts';

describe('blockLines', () => {
  const node = testNodes();

  it('prints a block with its transactions, the mana and resources they used, and a reversion with its message', async () => {
    const blocks: ProducedBlockInfo[] = [];
    const n = await node({ onBlock: (block) => blocks.push(block) });
    await n.produceBlock();
    expect(blockLines(blocks.at(-1)!)).toEqual([]); // an empty block prints nothing
    // Two transfers of more than half the sender's balance: each passes at submission, the second reverts in the block.
    const [sender, other] = [key(1), key(2)];
    const value = (await balanceOf(n, sender.addressBytes)) / 2n + 1n;
    const first = await submit(n, await transferTx(n, sender, other, value));
    const second = await submit(n, await transferTx(n, sender, other, value));
    await n.produceBlock();
    const block = blocks.at(-1)!;
    const [a, b] = block.transactions;
    expect([a!.reverted, b!.reverted]).toEqual([false, true]);
    expect(b!.logs.at(-1)).toMatch(/^transaction reverted: /);
    const lines = blockLines(block);
    const mana = formatAmount(a!.rcUsed + b!.rcUsed);
    expect(lines[0]).toBe(
      `Block ${block.height}  ${bytesToJson(block.id, BTYPE.BLOCK_ID)}  2 transactions, 1 reverted  mana ${mana} ` +
        `(disk ${(a!.disk + b!.disk).toLocaleString('en-US')} B, network ${(a!.network + b!.network).toLocaleString('en-US')} B, ` +
        `compute ${(a!.compute + b!.compute).toLocaleString('en-US')})`,
    );
    expect(a!.network).toBeGreaterThan(0n);
    expect(lines.slice(1)).toEqual([
      `  0x${a!.id}  mana ${formatAmount(a!.rcUsed)}`,
      `  0x${b!.id}  reverted  mana ${formatAmount(b!.rcUsed)}`,
      ...b!.logs.map((log) => `    log ${JSON.stringify(log)}`),
    ]);
    // The ids are the transactions' own; the submission's receipt said nothing of the reversion to come.
    expect(second.reverted ?? false).toBe(false);
    expect([first.id, second.id].map((id) => bytesToJson(id, BTYPE.TRANSACTION_ID))).toEqual([
      `0x${a!.id}`,
      `0x${b!.id}`,
    ]);
  });

  it("quotes each log (no escape sequence or line break of a contract's reaches the terminal), cut to 300 characters and 20 logs", () => {
    const logs = [
      '\u001b[2J\u001b[31mred\nsecond line',
      'é'.repeat(301),
      ...Array.from({ length: 20 }, (_, i) => `log ${i}`),
    ];
    const lines = blockLines({
      id: new Uint8Array(34),
      height: 7n,
      timestamp: 0n,
      transactionCount: 1,
      transactions: [{ id: 'ab', rcUsed: 150000000n, reverted: false, logs, disk: 0n, network: 1234n, compute: 5678n }],
    });
    expect(lines[0]).toMatch(/^Block 7  0x\S+  1 transaction  mana 1\.5 \(disk 0 B, network 1,234 B, compute 5,678\)$/);
    expect(lines[1]).toBe('  0xab  mana 1.5');
    expect(lines[2]).toBe('    log "\\u001b[2J\\u001b[31mred\\nsecond line"');
    expect(lines[3]).toBe(`    log "${'é'.repeat(300)}…"`);
    expect(lines.slice(4)).toEqual([
      ...Array.from({ length: 18 }, (_, i) => `    log "log ${i}"`),
      '    … and 2 more logs',
    ]);
    expect(lines.every((line) => !/[\u0000-\u001f]/.test(line))).toBe(true);
  });
});
