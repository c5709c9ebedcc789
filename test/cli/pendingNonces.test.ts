// The CLI sends through the wallet's one submission pipeline: with --data-dir it counts and records the pending
// transactions of that data folder (the app's pending-transactions.json) and logs its approvals there. Two transfers in
// a row, the second started while the first waits for its block, take consecutive nonces even from a node that does
// not tell its mempool's pending nonce (the first's nonce comes from the folder). Processes against a devnet over HTTP.
// A command reads what became of the entries it found (included, dropped) and writes it back: none stays pending.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PENDING_TRANSACTIONS_FILE } from '../../src-main/wallet/chain/pendingTransactions.ts';
import { tempDir, testDevnet, testServer } from '../wallet/chain/helpers.ts';
import { runCli, spawnCli } from '../helpers/cli.ts';
import { until } from '../helpers/until.ts';

/** The data folder's pending entries (nonce, status), or [] while the file does not exist. */
function pendingEntries(dir: string): { nonce: string; status: string; id: string }[] {
  try {
    return JSON.parse(readFileSync(join(dir, PENDING_TRANSACTIONS_FILE), 'utf8')).entries;
  } catch {
    return [];
  }
}

describe("the CLI and the wallet's pending transactions", () => {
  it(
    'gives two transfers in a row consecutive nonces: the second counts the first, still waiting for its block, from the data folder',
    { timeout: 180_000 },
    async () => {
      const devnet = await testDevnet({ manual: true });
      const [a, b] = devnet.accounts;
      // A node that does not tell its mempool's figures (as some public API nodes refuse mempool calls): only the data
      // folder knows that the first transfer holds a nonce.
      const node = await testServer((_req, res, body) => {
        const request = JSON.parse(body) as { id: unknown; method: string };
        if (request.method === 'mempool.get_pending_nonce' || request.method === 'mempool.get_reserved_account_rc') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'method not found' } }),
          );
          return;
        }
        void fetch(`${devnet.url}/jsonrpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        });
      });
      const dir = await tempDir();
      const keyFile = join(dir, '..', `${dir.split('/').at(-1)}-a.wif`);
      writeFileSync(keyFile, `${a!.wif}\n`, { mode: 0o600 });
      const transfer = (amount: string) =>
        spawnCli([
          'transfer',
          '--from',
          a!.address,
          '--to',
          b!.address,
          '--amount',
          amount,
          '--wif-file',
          keyFile,
          '--network',
          node.url,
          '--data-dir',
          dir,
        ]);

      const first = transfer('1');
      const [one] = await until(
        'the first pending entry',
        () => (pendingEntries(dir).length === 1 ? pendingEntries(dir) : undefined),
        60_000,
      );
      const second = transfer('2');
      const both = await until(
        'both pending entries',
        () => (pendingEntries(dir).length === 2 ? pendingEntries(dir) : undefined),
        60_000,
      );
      expect(both.map((e) => e.status)).toEqual(['pending', 'pending']);
      expect(BigInt(both[1]!.nonce)).toBe(BigInt(one!.nonce) + 1n);

      await devnet.node.produceBlocks(1);
      const [sentFirst, sentSecond] = await Promise.all([first, second]);
      expect(sentFirst.status, sentFirst.stderr).toBe(0);
      expect(sentSecond.status, sentSecond.stderr).toBe(0);
      expect(JSON.parse(sentFirst.stdout).receipt.transactionId).toBe(one!.id);
      expect(JSON.parse(sentSecond.stdout).receipt.transactionId).toBe(both[1]!.id);
      const balance = await spawnCli(['balance', b!.address, '--network', node.url]);
      expect(JSON.parse(balance.stdout).balance).toBe('1000003');

      // Each signature passed the command line's approval queue, and the decisions are in the folder's log as the app's are.
      const log = readFileSync(join(dir, 'approvals.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(log).toEqual([
        expect.objectContaining({ decision: 'approved', kind: 'send', signer: a!.address, nonce: one!.nonce }),
        expect.objectContaining({ decision: 'approved', kind: 'send', signer: a!.address, nonce: both[1]!.nonce }),
      ]);
    },
  );

  it('writes back what became of the entries it found: an included one no longer counts as pending', async () => {
    const devnet = await testDevnet();
    const [a, b] = devnet.accounts;
    const dir = await tempDir();
    const keyFile = join(dir, '..', `${dir.split('/').at(-1)}-a.wif`);
    writeFileSync(keyFile, `${a!.wif}\n`, { mode: 0o600 });
    const transfer = async (amount: string) => {
      const r = await runCli([
        ...['transfer', '--from', a!.address, '--to', b!.address, '--amount', amount],
        ...['--wif-file', keyFile, '--network', `${devnet.url}/jsonrpc`, '--data-dir', dir],
      ]);
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { status: string; receipt: { transactionId: string } };
    };
    const first = await transfer('1');
    expect(first.status).toMatch(/included|irreversible/);
    // Recorded when it was sent, before its block: the folder was given up then, for the next command.
    expect(pendingEntries(dir).map((e) => [e.id, e.status])).toEqual([[first.receipt.transactionId, 'pending']]);
    const second = await transfer('2');
    const entries = new Map(pendingEntries(dir).map((e) => [e.id, e.status]));
    expect(entries.get(first.receipt.transactionId) ?? 'gone').not.toBe('pending');
    expect(entries.get(second.receipt.transactionId)).toBe('pending');
  });
});
