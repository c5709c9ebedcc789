// `koinos-wallet balance | history | transfer | tx submit` run in process (main with captured streams) against a real
// devnet over HTTP, and the whole offline flow as from a shell: transfer --unsigned, tx sign, tx submit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cutBalanceUnderWaiting, testDevnet } from '../wallet/chain/helpers.ts';
import { runCli, spawnCli, type CliResult } from '../helpers/cli.ts';
import { EXPORT_COLUMNS } from '../../src-main/wallet/chain/historyExport.ts';
import { AddressBook } from '../../src-main/wallet/addressBook.ts';
import { FileChainSettings } from '../../src-main/wallet/chain/chainSettings.ts';
import { lookalikeAddress } from '../helpers/lookalike.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from '../wallet/vault/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'koinos-cli-chain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ok(r: CliResult): any {
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

describe('network commands of the CLI', () => {
  it('balance, transfer with a key, and history, against a devnet given by URL', async () => {
    const devnet = await testDevnet();
    const [a, b] = devnet.accounts;
    const net = ['--network', `${devnet.url}/jsonrpc`];
    const balance = ok(await runCli(['balance', a!.address, ...net]));
    expect(balance).toMatchObject({ address: a!.address, token: { symbol: 'KOIN', decimals: 8 }, balance: '1000000' });
    expect(balance.mana.current).toBe('1000000');

    const keyFile = file('a.wif', `${a!.wif}\n`);
    // The key file as "key new" writes it, as the README's example passes it.
    const jsonKeyFile = file('a.json', `${JSON.stringify({ address: a!.address, wif: a!.wif })}\n`);
    const transfer = ['transfer', '--from', a!.address, '--to', b!.address, '--amount'];
    // A value is what follows its option, a negative number too, and an empty one is refused: each says what it got.
    const negative = await runCli([...transfer, '-1', '--unsigned', ...net]);
    expect([negative.status, negative.stderr]).toEqual([1, expect.stringMatching(/cannot be negative|without a sign/)]);
    const emptyLimit = await runCli([...transfer, '1', '--rc-limit=', '--unsigned', ...net]);
    expect([emptyLimit.status, emptyLimit.stderr]).toEqual([
      2,
      expect.stringContaining('--rc-limit expects mana in base units: a whole number from 1 to 2^64-1, got nothing'),
    ]);
    // The wallet's sentence names mana in whole units; the typed limit is in base units, and the CLI says both.
    const tooMuch = await runCli([...transfer, '1', '--rc-limit', '100000000000000000', '--unsigned', ...net]);
    expect([tooMuch.status, tooMuch.stderr]).toEqual([
      1,
      expect.stringMatching(
        /mana limit 1000000000 is more than[^]*--rc-limit counts base units of mana \(8 decimals\): 100000000000000000 is 1000000000 mana\./,
      ),
    ]);
    const sent = ok(await runCli([...transfer, '1.5', '--memo', 'rent, March', '--wif-file', jsonKeyFile, ...net]));
    expect(sent.receipt.reverted).toBe(false);
    expect(['included', 'irreversible']).toContain(sent.status);
    expect(sent.block_height).toBeDefined();
    expect(ok(await runCli(['balance', b!.address, '--token', 'koin', ...net])).balance).toBe('1000001.5');

    const history = ok(await runCli(['history', a!.address, '--limit', '5', ...net]));
    expect(history.records[0].entries[0]).toMatchObject({
      kind: 'sent',
      amount: '150000000',
      counterparty: b!.address,
      memo: 'rent, March',
    });
    // The export is written to the process's stdout as it is (not through the CLI's io), so it runs as a process.
    const exported = await spawnCli(['history', a!.address, '--format', 'csv', '--from', '2000-01-01', ...net]);
    expect(exported.status, exported.stderr).toBe(0);
    const [header, ...rows] = exported.stdout.split('\r\n');
    expect(header).toBe(EXPORT_COLUMNS.join(','));
    expect(rows.at(-1)).toBe(''); // the last line ends with CRLF too
    expect(rows.filter((r) => r.includes(',"sent",'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `,"sent","KOIN","\\w+","1\\.5","${b!.address}","","rent, March","","0\\.\\d+","(included|irreversible)"$`,
        ),
      ),
    ]);
    expect((await spawnCli(['history', a!.address, '--format', 'csv', '--from', '2100-01-01', ...net])).stdout).toBe(
      `${header}\r\n`,
    );
    const badDate = await runCli(['history', a!.address, '--format', 'csv', '--to', 'yesterday', ...net]);
    expect(badDate.status).not.toBe(0);
    expect(badDate.stderr).toMatch(/--to expects a date such as 2026-01-31/);

    const wrongKey = await runCli([
      'transfer',
      '--from',
      b!.address,
      '--to',
      a!.address,
      '--amount',
      '1',
      '--wif-file',
      keyFile,
      ...net,
    ]);
    expect(wrongKey.status).toBe(1);
    expect(wrongKey.stderr).toMatch(/not the key of --from/);
    expect(wrongKey.stderr).not.toContain(a!.wif);
  }, 180_000);

  it('runs the offline flow from a shell: transfer --unsigned, tx sign, tx submit --dry-run, tx submit', async () => {
    const devnet = await testDevnet();
    const [a, b] = devnet.accounts;
    const net = ['--network', `${devnet.url}/jsonrpc`];
    const exported = await runCli([
      'transfer',
      '--from',
      a!.address,
      '--to',
      b!.address,
      '--amount',
      '2',
      '--unsigned',
      '--rc-limit',
      '30000000',
      ...net,
    ]);
    const unsigned = ok(exported);
    expect(typeof unsigned).toBe('string');
    // The nonce it fixes, and what takes it: said on stderr, since the export is valid only until then.
    expect(exported.stderr).toContain(
      `warning: the export uses nonce 1 of ${a!.address}: submit it before any other transaction of that account`,
    );
    const signed = ok(await runCli(['tx', 'sign', unsigned, '--wif-file', file('a2.wif', a!.wif)]));
    const dry = ok(await runCli(['tx', 'submit', signed, '--dry-run', ...net]));
    expect(dry.broadcast).toBe(false);
    const receipt = ok(await runCli(['tx', 'submit', ...net], JSON.stringify(signed)));
    expect(receipt.broadcast).toBe(true);
    expect(receipt.rcLimit).toBe('30000000');
    expect(ok(await runCli(['balance', b!.address, ...net])).balance).toBe('1000002');
  }, 180_000);

  it("transfers with another account paying: the sender's key alone signs for the payer's tx sign; both keys sign and send", async () => {
    const devnet = await testDevnet();
    const [a, b, c] = devnet.accounts;
    const net = ['--network', `${devnet.url}/jsonrpc`];
    const senderKey = file('payee-b.wif', b!.wif);
    const payerKey = file('payer-a.wif', a!.wif);
    const half = await runCli([
      'transfer',
      '--from',
      b!.address,
      '--to',
      c!.address,
      '--amount',
      '1',
      '--payer',
      a!.address,
      '--wif-file',
      senderKey,
      ...net,
    ]);
    const bySender = ok(half);
    expect(half.stderr).toContain(`still needs the signature of ${a!.address}`);
    expect(ok(await runCli(['tx', 'decode', bySender]))).toMatchObject({
      signatures_present: [b!.address],
      signatures_needed: [a!.address],
    });
    const byBoth = ok(await runCli(['tx', 'sign', bySender, '--wif-file', payerKey]));
    const decoded = ok(await runCli(['tx', 'decode', byBoth]));
    expect([decoded.signatures_present, decoded.signatures_needed]).toEqual([[a!.address, b!.address], []]);
    expect(decoded.transaction.header).toMatchObject({ payer: a!.address, payee: b!.address });
    expect(ok(await runCli(['tx', 'submit', byBoth, ...net])).broadcast).toBe(true);

    const sent = ok(
      await runCli([
        'transfer',
        '--from',
        b!.address,
        '--to',
        c!.address,
        '--amount',
        '1',
        '--payer',
        a!.address,
        '--wif-file',
        senderKey,
        '--payer-key-file',
        payerKey,
        ...net,
      ]),
    );
    expect(sent.receipt.reverted).toBe(false);
    expect(['included', 'irreversible']).toContain(sent.status);
    expect(ok(await runCli(['balance', c!.address, ...net])).balance).toBe('1000002');

    const wrongPayerKey = await runCli([
      'transfer',
      '--from',
      b!.address,
      '--to',
      c!.address,
      '--amount',
      '1',
      '--payer',
      a!.address,
      '--wif-file',
      senderKey,
      '--payer-key-file',
      senderKey,
      ...net,
    ]);
    expect(wrongPayerKey.stderr).toMatch(/not the key of --payer/);
  }, 240_000);

  it("with --data-dir, flags a recipient that looks like one of that wallet's accounts or contacts", async () => {
    const devnet = await testDevnet();
    const [a, b, c] = devnet.accounts;
    const jsonRpcUrl = `${devnet.url}/jsonrpc`;
    // A wallet's data folder: account "Savings" (c), contact Dana (b) on its custom network at the devnet's address.
    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    try {
      const vault = await fx.open();
      await vault.create({ password: PASSWORD });
      await vault.importKey({ key: c!.wif, name: 'Savings' });
      await new FileChainSettings(fx.dataDir).update((d) => {
        d.customNetworks.push({ id: 'custom-dev', name: 'Dev', jsonRpcUrl });
      });
      await new AddressBook(fx.dataDir).addContact({ label: 'Dana', address: b!.address, networkId: 'custom-dev' });
      const keyFile = file('lookalike.wif', `${a!.wif}\n`);
      const send = (to: string, ...more: string[]) =>
        runCli([
          'transfer',
          ...['--from', a!.address, '--to', to, '--amount', '1', '--wif-file', keyFile],
          ...['--network', jsonRpcUrl, '--data-dir', fx.dataDir, ...more],
        ]);
      for (const [real, name] of [
        [b!.address, 'your contact Dana'],
        [c!.address, 'your account Savings'],
      ] as const) {
        const poser = lookalikeAddress(real);
        const refused = await send(poser);
        expect([refused.status, refused.stdout]).toEqual([1, '']);
        expect(refused.stderr).toContain(`It transfers to ${poser}, not ${name} (${real})`);
        expect(refused.stderr).toContain('--allow-risk lookalike-recipient');
        expect(ok(await send(poser, '--allow-risk', 'lookalike-recipient')).receipt.reverted).toBe(false);
      }
      // The contact itself, and the look-alike without the data folder (nothing to compare with), are sent as asked.
      expect(ok(await send(b!.address)).receipt.reverted).toBe(false);
      const noFolder = await runCli([
        ...['transfer', '--from', a!.address, '--to', lookalikeAddress(b!.address), '--amount', '1'],
        ...['--wif-file', keyFile, '--network', jsonRpcUrl],
      ]);
      expect(ok(noFolder).receipt.reverted).toBe(false);
    } finally {
      await fx.cleanup();
    }
  });

  it('exits with an error that says why when the chain includes the transfer but reverts it', async () => {
    const devnet = await testDevnet({ manual: true });
    const [a, b] = devnet.accounts;
    const sending = runCli([
      'transfer',
      '--from',
      a!.address,
      '--to',
      b!.address,
      '--amount',
      '1',
      '--wif-file',
      file('reverted.wif', `${a!.wif}\n`),
      '--network',
      `${devnet.url}/jsonrpc`,
    ]);
    await cutBalanceUnderWaiting(devnet, a!.address);
    const reverted = await sending;
    expect(reverted.status).toBe(1);
    expect(reverted.stdout).toBe('');
    expect(reverted.stderr).toMatch(
      /Included in block \d+, but the chain reverted it: account 'from' has insufficient balance\. Nothing was changed but the mana it used\./,
    );
  });

  it('reports an unreachable node, a wrong API key and a bad --network as one line each', async () => {
    const devnet = await testDevnet({ apiKey: 'cli-right-key-77' });
    const a = devnet.accounts[0]!;
    const wrong = await runCli([
      'balance',
      a.address,
      '--network',
      `${devnet.url}/jsonrpc`,
      '--api-key-file',
      file('wrong.key', 'cli-wrong-key-88'),
    ]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/refused the API key/);
    expect(wrong.stderr).not.toContain('cli-wrong-key-88');
    const right = ok(
      await runCli([
        'balance',
        a.address,
        '--network',
        `${devnet.url}/jsonrpc`,
        '--api-key-file',
        file('right.key', 'cli-right-key-77'),
      ]),
    );
    expect(right.balance).toBe('1000000');
    const down = await runCli(['balance', a.address, '--network', 'http://127.0.0.1:1/jsonrpc']);
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(/Cannot connect to the node/);
    const bad = await runCli(['balance', a.address, '--network', 'moon']);
    expect(bad.status).toBe(2);
  }, 180_000);
});
