// The history export: several transfers on a devnet, the CSV read back and checked row by row against the chain's
// own account history (events decoded here, block times read from the block store), memos included; a date range;
// progress; JSON; and RFC 4180 quoting of fields a name, a memo or a token symbol may bring.
import { describe, expect, it } from 'vitest';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { formatAmount } from '../../../src-main/koinos/amounts.ts';
import { BTYPE, bytesToJson, decode } from '../../../src-main/koinos/codec.ts';
import { KoinosNode } from '../../../src-main/wallet/chain/koinosNode.ts';
import {
  EXPORT_COLUMNS,
  csvField,
  exportHistory,
  rowsToCsv,
  type ExportRow,
} from '../../../src-main/wallet/chain/historyExport.ts';
import { parseCsv } from './csv.ts';
import { testDevnet } from './helpers.ts';
import { uploadCollection } from './nftFixtures.ts';
import type { DevAccount } from '../../../src-main/devnet/types.ts';
import { sendPaidBy, testServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

describe('history export', () => {
  it('writes a CSV whose every row matches the chain: time, block, id, kind, token, amount, counterparty and its name, memo, mana', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b, c] = devnet.accounts.map((x) => x.address) as [string, string, string];
    const sent: string[] = [];
    // A memo is anyone's text: one that a spreadsheet would run as a formula is defused in the CSV, kept in the JSON.
    const memos: Record<number, string> = { 1: 'rent, "March"', 3: '=HYPERLINK("http://x")' };
    for (const [i, [from, to, amount]] of (
      [
        [a, b, '1.5'],
        [b, a, '0.25'],
        [a, c, '2'],
        [c, a, '0.00000001'],
      ] as const
    ).entries()) {
      const memo = memos[i];
      const review = await s.send.prepare({ from, to, token: 'koin', amount, ...(memo ? { memo } : {}) });
      sent.push((await s.send.confirm(review.reviewId)).transactionId);
      await s.follower.waitFor(sent.at(-1)!, ['included', 'irreversible'], 10_000);
    }

    const names: Record<string, string> = { [b]: 'Bob, "the builder"' };
    const progress: { scanned: number; total: number; done: boolean }[] = [];
    const { content, rows } = await exportHistory(s.history, {
      address: a,
      format: 'csv',
      nameOf: (x) => names[x],
      onProgress: (p) => progress.push(p),
    });
    expect(content.endsWith('\r\n')).toBe(true);
    // No field here holds a line break, so every line end is a record's: CRLF, none bare.
    expect(content.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const [header, ...lines] = parseCsv(content);
    expect(header).toEqual([...EXPORT_COLUMNS]);
    expect(lines).toHaveLength(rows);
    const csv = lines.map((line) => Object.fromEntries(EXPORT_COLUMNS.map((col, i) => [col, line[i]])) as ExportRow);
    expect(progress.at(-1)).toMatchObject({ done: true });
    expect(progress.at(-1)!.scanned).toBeGreaterThanOrEqual(4);

    // The chain's side: account history, the transfer events decoded here, the block of each transaction.
    const node = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });
    const history = await node.accountHistory({
      address: addressFromString(a),
      limit: 100n,
      ascending: true,
      irreversible: false,
    });
    const withTx = history.filter((v) => v.trx?.transaction);
    const found = await node.transactionsById(withTx.map((v) => v.trx!.transaction!.id));
    const blocks = await node.blocksById(found.map((f) => f.containing_blocks[0]!));
    const expected: Partial<ExportRow>[] = [];
    for (const v of withTx) {
      const tx = v.trx!.transaction!;
      const block = blocks[found.findIndex((f) => hex(f.transaction!.id) === hex(tx.id))]!;
      let first = true;
      for (const event of v.trx!.receipt!.events) {
        if (!event.name.endsWith('transfer_event')) continue;
        const data = decode('koinos.contracts.token.transfer_event', event.data);
        const from = bytesToJson(data.from, BTYPE.ADDRESS);
        const to = bytesToJson(data.to, BTYPE.ADDRESS);
        const counterparty = from === a ? to : from;
        expected.push({
          time: new Date(Number(block.block!.header!.timestamp)).toISOString(),
          block: block.block_height.toString(),
          transaction_id: hex(tx.id),
          kind: from === a ? 'sent' : 'received',
          token: 'KOIN',
          token_contract: bytesToJson(event.source, BTYPE.CONTRACT_ID),
          amount: formatAmount(data.value, 8),
          counterparty,
          counterparty_name: names[counterparty] ?? '',
          memo: data.memo.startsWith('=') ? `'${data.memo}` : data.memo,
          // The mana is on the payer's rows alone: a's history holds the transfers b and c paid for.
          mana_used:
            first && bytesToJson(tx.header!.payer, BTYPE.ADDRESS) === a ? formatAmount(v.trx!.receipt!.rc_used, 8) : '',
        });
        first = false;
      }
    }
    expect(expected.map((e) => e.transaction_id)).toEqual(sent);
    const transfers = csv.filter((row) => row.kind === 'sent' || row.kind === 'received');
    expect(transfers).toHaveLength(expected.length);
    transfers.forEach((row, i) => expect(row).toMatchObject(expected[i]!));
    expect(transfers.map((r) => r.amount)).toEqual(['1.5', '0.25', '2', '0.00000001']);
    expect(transfers[0]!.counterparty_name).toBe('Bob, "the builder"');
    expect(transfers.map((r) => r.memo)).toEqual(['', 'rent, "March"', '', `'=HYPERLINK("http://x")`]);

    // A range: from the second transfer's time (inclusive) to the fourth's (exclusive).
    const from = BigInt(Date.parse(expected[1]!.time!));
    const to = BigInt(Date.parse(expected[3]!.time!));
    const ranged = await exportHistory(s.history, { address: a, format: 'json', from, to, nameOf: (x) => names[x] });
    const json = JSON.parse(ranged.content) as { rows: ExportRow[] };
    const inRange = expected.filter((e) => BigInt(Date.parse(e.time!)) >= from && BigInt(Date.parse(e.time!)) < to);
    expect(json.rows.map((r) => r.transaction_id)).toEqual(inRange.map((e) => e.transaction_id));
    json.rows.forEach((row, i) =>
      expect(row).toMatchObject({ ...inRange[i]!, memo: inRange[i]!.memo!.replace(/^'=/, '=') }),
    );

    expect(
      (await expectWalletError(exportHistory(s.history, { address: a, format: 'csv', from: to, to: from }))).code,
    ).toBe('INVALID_ARGUMENT');
  });

  it('writes the movement of a transfer an account paid for in token units, and the mana on the payer rows only', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b, c] = devnet.accounts.map((x) => x.address) as [string, string, string];
    const transactionId = await sendPaidBy(s, { from: a, to: b, amount: '1.5', payer: c });
    await s.follower.waitFor(transactionId, ['included', 'irreversible'], 10_000);
    const rowsOf = async (address: string) =>
      (
        JSON.parse((await exportHistory(s.history, { address, format: 'json' })).content) as { rows: ExportRow[] }
      ).rows.filter((r) => r.transaction_id === transactionId);
    const [payer] = await rowsOf(c);
    expect(payer).toMatchObject({ kind: 'event', token: 'KOIN', amount: '1.5' });
    expect(BigInt(payer!.mana_used.replace('.', ''))).toBeGreaterThan(0n);
    expect((await rowsOf(a)).map((r) => [r.kind, r.amount, r.mana_used])).toEqual([['sent', '1.5', '']]);
  });

  it('writes an NFT minted to the account with its token id and collection, and no amount', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, funder] = devnet.accounts as [DevAccount, DevAccount];
    const collection = await uploadCollection(
      `${devnet.url}/jsonrpc`,
      devnet.koinAddress,
      funder,
      'export nft collection',
    );
    await collection.mint(a.address, '0x0a0b');
    const { rows } = JSON.parse((await exportHistory(s.history, { address: a.address, format: 'json' })).content) as {
      rows: ExportRow[];
    };
    expect(rows.filter((r) => r.token_contract === collection.address)).toEqual([
      expect.objectContaining({ kind: 'minted', token: 'NFT 0x0a0b', amount: '', counterparty: '' }),
    ]);
  });

  it('quotes every field per RFC 4180 and defuses spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('"plain"');
    // Quoted, a symbol stays one cell where a spreadsheet splits at semicolons (Excel in many European languages).
    expect(csvField('x;=1+1')).toBe('"x;=1+1"');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    const row = {
      ...Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, ''])),
      kind: 'received',
      token: 'T,"K"\nN',
      counterparty_name: '+1',
    } as ExportRow;
    const text = rowsToCsv([row]);
    expect(text.split('\r\n')).toHaveLength(3); // header, the row (its LF inside quotes), and the empty rest
    expect(parseCsv(text)[1]).toEqual(
      EXPORT_COLUMNS.map((c) =>
        c === 'kind' ? 'received' : c === 'token' ? 'T,"K"\nN' : c === 'counterparty_name' ? "'+1" : '',
      ),
    );
  });
});
