// What the wallet remembers across a restart on the same data folder: a sent transaction that is not irreversible yet
// is followed on to irreversible by the next run (from pending-transactions.json, which holds no secret).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcEvents } from '../../src-main/ipc/contract.ts';
import { PENDING_TRANSACTIONS_FILE } from '../../src-main/wallet/chain/pendingTransactions.ts';
import { createWalletApp, type WalletApp } from '../../src-main/wallet/walletApp.ts';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { testServices } from './chain/services.ts';
import { KEYTAR, PASSWORD, TEST_SCRYPT, removeService, uniqueService } from './vault/helpers.ts';
import { until } from '../helpers/until.ts';

type TxUpdate = IpcEvents['tx:update'];

describe('a wallet reopened on the same data folder', () => {
  const service = uniqueService();
  let dataDir = '';
  const open: WalletApp[] = [];
  afterEach(async () => {
    for (const w of open.splice(0)) await w.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await removeService(service).catch(() => undefined);
  });

  async function start(): Promise<{ wallet: WalletApp; updates: TxUpdate[] }> {
    const wallet = await createWalletApp({
      dataDir,
      keychain: KEYTAR,
      vault: { keychainService: service, scryptCost: TEST_SCRYPT },
      // Two blocks on top make a block irreversible; one block per transaction, so each transfer moves the chain on.
      devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 2, irreversibleDepth: 2 } },
      polling: { headMs: 50, transactionsMs: 50 },
      approver: { mode: 'dialog', decide: async () => true },
      log: () => {},
    });
    open.push(wallet);
    const updates: TxUpdate[] = [];
    wallet.events.on('tx:update', (u) => updates.push(u));
    return { wallet, updates };
  }

  async function transfer(wallet: WalletApp, fromAccountId: string, to: string, amount: string): Promise<string> {
    const review = await wallet.handlers['send:prepare']({ fromAccountId, to, token: 'koin', amount });
    return (await wallet.handlers['send:confirm']({ reviewId: review.reviewId })).transactionId;
  }

  it('follows a transaction sent before the restart on to irreversible, and forgets it then', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'koinos-restart-'));
    const first = await start();
    await first.wallet.handlers['vault:create']({ password: PASSWORD });
    const payer = await first.wallet.handlers['devnet:importAccount']({ index: 0, watchOnly: false });
    const other = await first.wallet.handlers['devnet:importAccount']({ index: 1, watchOnly: false });
    const id = await transfer(first.wallet, payer.id, other.address, '1.25');
    await until('the first run sees it included', () =>
      first.updates.find((u) => u.transactionId === id && u.status === 'included'),
    );
    await first.wallet.close();
    open.splice(0);

    // Closed before it became irreversible: it is in the file, with nothing secret beside the signed transaction.
    const kept = JSON.parse(await readFile(join(dataDir, PENDING_TRANSACTIONS_FILE), 'utf8')) as {
      entries: { id: string; status: string; nonce: string }[];
    };
    expect(kept.entries.map((e) => [e.id, e.status])).toEqual([[id, 'included']]);
    expect(first.updates.some((u) => u.transactionId === id && u.status === 'irreversible')).toBe(false);

    // Locked, and sending nothing itself: only the file tells the second run what to follow.
    const second = await start();
    // Two more blocks, made by another sender on the same devnet, put the earlier transaction two blocks deep.
    await second.wallet.handlers['networks:head']({}); // starts the embedded devnet, if following has not yet
    const { url } = await second.wallet.handlers['devnet:status']();
    const elsewhere = testServices({ localUrl: async () => url!, wifs: [devKey(1).wif] });
    for (const amount of ['0.5', '0.25']) {
      const review = await elsewhere.send.prepare({ from: other.address, to: payer.address, token: 'koin', amount });
      await elsewhere.send.confirm(review.reviewId);
    }
    const done = await until('the second run follows it to irreversible', () =>
      second.updates.find((u) => u.transactionId === id && u.status === 'irreversible'),
    );
    expect(done).toMatchObject({ networkId: 'local', blockHeight: expect.stringMatching(/^\d+$/) });

    await until('the file forgets it once irreversible', async () => {
      const now = JSON.parse(await readFile(join(dataDir, PENDING_TRANSACTIONS_FILE), 'utf8')) as {
        entries: { id: string }[];
      };
      return now.entries.some((e) => e.id === id) ? undefined : true;
    });
  });
});
