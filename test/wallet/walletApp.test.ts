// The wallet facade's own rules, through its handler table: the settings and the network selection stay one, a
// built-in network takes an API key (and only that) even when a form sends its other fields back unchanged, account
// ids that are not the wallet's are refused, the accounts' KOIN balances come in one light call, networks:changed follows
// each change of the networks, a backup brings its custom networks with their contacts, an imported phrase brings the
// accounts the selected network saw used, a note on a transaction shows on its record and in the export, and head:new
// comes from polling the selected network while someone listens.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HeadInfo, IpcEvents } from '../../src-main/ipc/contract.ts';
import { WalletError } from '../../src-main/koinos/errors.ts';
import { createWalletApp, type WalletApp } from '../../src-main/wallet/walletApp.ts';
import { openBackup } from '../../src-main/wallet/vault/backupFile.ts';
import { KEYTAR, PASSWORD, TEST_SCRYPT, removeService, uniqueService } from './vault/helpers.ts';
import { until } from '../helpers/until.ts';
import { rpc } from '../devnet/httpHelpers.ts';
import { deriveAccount } from '../../src-main/wallet/vault/secretPayload.ts';

async function rejection(promise: Promise<unknown>): Promise<WalletError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletError);
  return error as WalletError;
}

describe('wallet facade', () => {
  const opened: { wallet: WalletApp; dataDir: string; service: string }[] = [];
  afterEach(async () => {
    for (const { wallet, dataDir, service } of opened.splice(0)) {
      await wallet.close();
      await rm(dataDir, { recursive: true, force: true });
      await removeService(service).catch(() => undefined);
    }
  });

  /** Opens the wallet of `dataDir` (a new temporary folder by default). */
  async function open(dataDir?: string): Promise<WalletApp> {
    dataDir ??= await mkdtemp(join(tmpdir(), 'koinos-facade-'));
    const service = uniqueService();
    const wallet = await createWalletApp({
      dataDir,
      keychain: KEYTAR,
      vault: { keychainService: service, scryptCost: TEST_SCRYPT },
      devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 2 } },
      polling: { headMs: 50 },
      log: () => {},
    });
    opened.push({ wallet, dataDir, service });
    return wallet;
  }

  it('keeps the settings and the network selection as one', async () => {
    const { handlers: h } = await open();
    expect((await h['settings:get']()).selectedNetworkId).toBe('local');
    expect((await h['settings:update']({ selectedNetworkId: 'testnet' })).selectedNetworkId).toBe('testnet');
    expect((await h['networks:list']()).selectedId).toBe('testnet');
    await h['networks:select']({ id: 'mainnet' });
    expect((await h['settings:get']()).selectedNetworkId).toBe('mainnet');
    const error = await rejection(h['settings:update']({ selectedNetworkId: 'nowhere', theme: 'dark' }));
    expect(error.code).toBe('NOT_FOUND');
    expect(await h['settings:get']()).toMatchObject({ selectedNetworkId: 'mainnet', theme: 'system' });
    const refused = await rejection(h['settings:update']({ selectedNetworkId: 'testnet', autoLockMinutes: 0 }));
    expect(refused.code).toBe('INVALID_ARGUMENT');
    expect(await h['settings:get']()).toMatchObject({ selectedNetworkId: 'mainnet', autoLockMinutes: 5 });
  });

  it('keeps the network selection of a wallet.json written when the vault also stored it, and moves it to the chain settings', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'koinos-facade-'));
    const old = {
      version: 1,
      revision: 3,
      settings: { autoLockMinutes: 7, theme: 'dark', selectedNetworkId: 'testnet' },
    };
    await writeFile(join(dataDir, 'wallet.json'), JSON.stringify(old));
    const { handlers: h } = await open(dataDir);
    expect(await h['settings:get']()).toEqual({ autoLockMinutes: 7, theme: 'dark', selectedNetworkId: 'testnet' });
    expect((await h['networks:list']()).selectedId).toBe('testnet');
    expect(JSON.parse(await readFile(join(dataDir, 'chain-settings.json'), 'utf8'))).toMatchObject({
      selectedNetworkId: 'testnet',
    });
    const written = JSON.parse(await readFile(join(dataDir, 'wallet.json'), 'utf8'));
    expect(written).toMatchObject({ revision: 4, settings: { autoLockMinutes: 7, theme: 'dark' } });
    expect(written.settings).not.toHaveProperty('selectedNetworkId');
  });

  it("keeps the chain settings' network selection over the one an old wallet.json carries", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'koinos-facade-'));
    await writeFile(
      join(dataDir, 'wallet.json'),
      JSON.stringify({ version: 1, settings: { autoLockMinutes: 5, theme: 'system', selectedNetworkId: 'testnet' } }),
    );
    await writeFile(join(dataDir, 'chain-settings.json'), JSON.stringify({ selectedNetworkId: 'mainnet' }));
    const { handlers: h } = await open(dataDir);
    expect((await h['settings:get']()).selectedNetworkId).toBe('mainnet');
    expect(await readFile(join(dataDir, 'wallet.json'), 'utf8')).not.toContain('selectedNetworkId');
  });

  it('takes an API key for a built-in network when the form sends its other fields back unchanged, and nothing else', async () => {
    const { handlers: h } = await open();
    await h['vault:create']({ password: 'a long enough password' });
    const testnet = (await h['networks:list']()).networks.find((n) => n.id === 'testnet')!;
    const updated = await h['networks:update']({
      id: 'testnet',
      name: testnet.name,
      jsonRpcUrl: testnet.jsonRpcUrl,
      apiKey: 'k-1',
    });
    expect(updated).toMatchObject({ id: 'testnet', name: testnet.name, hasApiKey: true });
    await h['vault:lock']();
    // Whether a key is stored is known while locked; the key itself is never part of a network's description.
    expect((await h['networks:list']()).networks.find((n) => n.id === 'testnet')).toMatchObject({ hasApiKey: true });
    await h['vault:unlock']({ password: 'a long enough password' });
    expect((await rejection(h['networks:update']({ id: 'testnet', name: 'My testnet' }))).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it("refuses account ids that are not the wallet's, before asking any node", async () => {
    const { handlers: h } = await open();
    for (const call of [
      h['dashboard:get']({ accountId: 'nobody' }),
      h['history:page']({ accountId: 'nobody', limit: 5, ascending: true, irreversibleOnly: false }),
      h['send:maxAmount']({ fromAccountId: 'nobody', token: 'koin' }),
      h['offline:sign']({ input: 'AA', accountId: 'nobody' }),
    ]) {
      expect((await rejection(call)).code).toBe('ACCOUNT_NOT_FOUND');
    }
  });

  it("adds a phrase's accounts up to the last one the selected network saw used, looking 5 unused ones past it", async () => {
    const { handlers: h } = await open();
    await h['vault:create']({ password: PASSWORD });
    const phrase = `${'abandon '.repeat(11)}about`;
    const main = await h['accounts:importPhrase']({ phrase, name: 'Main' });
    const phraseId = main.phraseId!;
    // A new chain: nothing of the phrase was used, and five indexes after the first are looked at.
    expect(await h['accounts:discover']({ phraseId })).toEqual({
      networkName: 'Local (devnet)',
      added: [],
      checkedFrom: 1,
      checkedThrough: 5,
    });

    // Index 3 and index 8 (four unused between them) hold KOIN; index 14 too, past five unused after 8.
    const { url } = await h['devnet:status']();
    const addressAt = (index: number) => {
      const { privateKey, address } = deriveAccount(phrase, index);
      privateKey.fill(0);
      return address;
    };
    for (const index of [3, 8, 14])
      await rpc(url!, 'devnet.set_balance', { account: addressAt(index), value: '100000000' });
    const found = await h['accounts:discover']({ phraseId });
    expect(found).toMatchObject({ networkName: 'Local (devnet)', checkedFrom: 1, checkedThrough: 13 });
    // Every index up to the last used is added, the unused ones between too (the wallet that made them had them).
    expect(found.added.map((a) => [a.derivationIndex, a.address, a.name])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((index) => [index, addressAt(index), `Account ${index + 1}`]),
    );
    expect((await h['accounts:list']()).map((a) => a.derivationIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // Looked at again: from the next index, nothing new; "Next account of a phrase" goes on after the last added.
    expect(await h['accounts:discover']({ phraseId })).toMatchObject({ added: [], checkedFrom: 9, checkedThrough: 13 });
    expect((await h['accounts:deriveNext']({ phraseId, name: 'Tenth' })).derivationIndex).toBe(9);
    expect((await rejection(h['accounts:discover']({ phraseId: 'nobody' }))).code).toBe('NOT_FOUND');
  });

  it('looks on the network it is given, whichever is selected (the first run asks where the phrase was used)', async () => {
    const { handlers: h } = await open();
    await h['vault:create']({ password: PASSWORD });
    const phrase = `${'abandon '.repeat(11)}about`;
    const { phraseId } = await h['accounts:importPhrase']({ phrase, name: 'Main' });
    await h['networks:head']({ id: 'local' }); // the Local devnet starts on first use
    const { url } = await h['devnet:status']();
    const { privateKey, address } = deriveAccount(phrase, 2);
    privateKey.fill(0);
    await rpc(url!, 'devnet.set_balance', { account: address, value: '100000000' });
    // Harbinger is selected (this machine may have no internet): the network named is the one asked.
    await h['networks:select']({ id: 'testnet' });
    const found = await h['accounts:discover']({ phraseId: phraseId!, networkId: 'local' });
    expect(found).toMatchObject({ networkName: 'Local (devnet)', checkedFrom: 1, checkedThrough: 7 });
    expect(found.added.map((a) => a.address).at(-1)).toBe(address);
    expect((await h['settings:get']()).selectedNetworkId).toBe('testnet');
    const unknown = await rejection(h['accounts:discover']({ phraseId: phraseId!, networkId: 'nowhere' }));
    expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', expect.stringContaining('"nowhere"')]);
    expect((await h['accounts:list']()).map((a) => a.derivationIndex)).toEqual([0, 1, 2]);
  });

  it("keeps the person's note on a transaction: on its History record and in the export, until removed", async () => {
    const { handlers: h } = await open();
    await h['vault:create']({ password: PASSWORD });
    const from = await h['devnet:importAccount']({ index: 0, watchOnly: false });
    const { accounts } = await h['devnet:status']();
    const review = await h['send:prepare']({
      fromAccountId: from.id,
      to: accounts[1]!.address,
      token: 'koin',
      amount: '1',
    });
    const confirmed = h['send:confirm']({ reviewId: review.reviewId });
    const request = await until('the approval', async () => (await h['approvals:list']()).pending[0]);
    await h['approvals:answer']({ requestId: request.id, approve: true, password: PASSWORD });
    const { transactionId } = await confirmed;
    const query = { accountId: from.id, limit: 10, ascending: false, irreversibleOnly: false };
    const recordOf = async () =>
      (await h['history:page'](query)).records.find((r) => r.transactionId === transactionId);
    await until('the transfer in the history', recordOf);
    expect((await recordOf())?.note).toBeUndefined();

    expect(await h['history:setNote']({ networkId: 'local', transactionId, note: 'rent,\nMarch' })).toEqual({
      note: 'rent, March',
    });
    expect((await recordOf())?.note).toBe('rent, March');
    const exported = await h['history:export']({ accountId: from.id, format: 'json', exportId: 'e1' });
    const rows = (JSON.parse(exported.content) as { rows: { transaction_id: string; note: string }[] }).rows;
    expect(rows.filter((r) => r.transaction_id === transactionId).map((r) => r.note)).toEqual(['rent, March']);
    // Another network's records do not take it; an empty note removes it.
    await h['history:setNote']({ networkId: 'testnet', transactionId, note: 'elsewhere' });
    expect(await h['history:setNote']({ networkId: 'local', transactionId, note: '' })).toEqual({ note: '' });
    expect((await recordOf())?.note).toBeUndefined();
  });

  it('answers the KOIN balance of every account in one call, the same figure as its dashboard', async () => {
    const { handlers: h } = await open();
    await h['vault:create']({ password: 'a long enough password' });
    const dev = await h['devnet:importAccount']({ index: 0, watchOnly: true });
    const empty = await h['accounts:addWatch']({ address: '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs', name: 'Empty' });
    const { token, balances } = await h['accounts:koinBalances']();
    expect(token).toMatchObject({ system: 'koin', symbol: 'KOIN', decimals: 8 });
    const dashboard = await h['dashboard:get']({ accountId: dev.id });
    const koin = dashboard.balances.find((b) => b.token.system === 'koin')?.balance;
    expect(koin).toMatch(/^[1-9]\d*$/);
    expect(balances).toEqual([
      { accountId: dev.id, balance: koin },
      { accountId: empty.id, balance: '0' },
    ]);
  });

  it('pushes networks:changed, the list as networks:list answers it, after each add, change, selection and removal', async () => {
    const wallet = await open();
    const h = wallet.handlers;
    // The Networks screen is the unlocked wallet's: without a Secret Service, a removed network's API key is in the
    // vault.
    await h['vault:create']({ password: 'a long enough password' });
    const pushed: IpcEvents['networks:changed'][] = [];
    const off = wallet.events.on('networks:changed', (list) => pushed.push(list));
    const names = (list: IpcEvents['networks:changed']) => list.networks.map((n) => n.name);
    const next = async (count: number) => {
      const list = await until(`push ${count} of networks:changed`, () => pushed[count - 1]);
      expect(pushed).toHaveLength(count);
      return list;
    };

    const added = await h['networks:add']({ name: 'Team node', jsonRpcUrl: 'https://team.example.com/jsonrpc' });
    expect(names(await next(1))).toContain('Team node');
    await h['networks:update']({ id: added.id, name: 'Team node 2' });
    expect(names(await next(2))).toContain('Team node 2');
    await h['networks:select']({ id: added.id });
    expect((await next(3)).selectedId).toBe(added.id);
    await h['settings:update']({ selectedNetworkId: 'testnet' });
    expect((await next(4)).selectedId).toBe('testnet');
    await h['networks:remove']({ id: added.id });
    const last = await next(5);
    expect(names(last)).not.toContain('Team node 2');
    expect(last).toEqual(await h['networks:list']());
    // A network added and removed right away: the last push has it gone.
    const quick = await h['networks:add']({ name: 'Quick node', jsonRpcUrl: 'https://quick.example.com/jsonrpc' });
    await h['networks:remove']({ id: quick.id });
    expect(names(await next(7))).not.toContain('Quick node');
    // Reads push nothing: the next push is the next change's.
    await h['networks:list']();
    await h['settings:get']();
    await h['networks:select']({ id: 'mainnet' });
    expect((await next(8)).selectedId).toBe('mainnet');
    off();
  });

  it("brings a backup's custom networks with the contacts and notes on them, without their API keys, once", async () => {
    const BOB = '1NsQbH5AhQXgtSNg1ejpFqTi2hmCWz1eQS';
    const [TX1, TX2] = ['1', '2'].map((d) => `0x1220${d.repeat(64)}`) as [string, string];
    const from = (await open()).handlers;
    await from['vault:create']({ password: 'a long enough password' });
    const team = await from['networks:add']({
      name: 'Team node',
      jsonRpcUrl: 'https://team.example.com/jsonrpc',
      apiKey: 'team-api-key-1234',
    });
    await from['contacts:add']({ label: 'Bob at work', address: BOB, networkId: team.id });
    await from['contacts:add']({ label: 'Bob', address: BOB, networkId: 'mainnet' });
    await from['history:setNote']({ networkId: team.id, transactionId: TX1, note: 'at work' });
    await from['history:setNote']({ networkId: 'mainnet', transactionId: TX2, note: 'lunch' });
    // A note on a network removed since stays in the file and goes in the backup, where no network is its own.
    const old = await from['networks:add']({ name: 'Old node', jsonRpcUrl: 'https://old.example.com/jsonrpc' });
    await from['history:setNote']({ networkId: old.id, transactionId: TX2, note: 'nowhere' });
    await from['networks:remove']({ id: old.id });
    expect((await rejection(from['history:setNote']({ networkId: old.id, transactionId: TX1, note: 'x' }))).code).toBe(
      'NOT_FOUND',
    );
    const backup = await from['vault:exportBackup']({
      password: 'a long enough password',
      backupPassword: 'the backup password',
    });
    const sealed = await openBackup(backup.content, 'the backup password', { minScryptN: TEST_SCRYPT.N });
    expect(sealed.networks).toEqual([
      { id: team.id, name: 'Team node', jsonRpcUrl: 'https://team.example.com/jsonrpc' },
    ]);
    expect(JSON.stringify(sealed)).not.toContain('team-api-key-1234');

    const to = (await open()).handlers;
    await to['vault:create']({ password: 'a long enough password' });
    // A note this wallet has on a transaction stays: the backup's on the same one is not taken.
    await to['history:setNote']({ networkId: 'mainnet', transactionId: TX2, note: 'mine' });
    const args = { content: backup.content, backupPassword: 'the backup password' };
    expect((await to['vault:importBackup'](args)).summary.contacts).toEqual({
      added: 2,
      invalid: 0,
      duplicate: 0,
      overLimit: 0,
      unknownNetwork: 0,
      networksAdded: 1,
      notesAdded: 1,
    });
    const added = (await to['networks:list']()).networks.find((n) => n.name === 'Team node')!;
    expect(added).toMatchObject({ kind: 'custom', jsonRpcUrl: 'https://team.example.com/jsonrpc', hasApiKey: false });
    expect(added.id).not.toBe(team.id); // an id of this wallet's own
    expect((await to['contacts:list']({ networkId: added.id })).contacts.map((c) => c.label)).toEqual(['Bob at work']);
    const notesOf = async (handlers: WalletApp['handlers']) =>
      (
        await openBackup(
          (
            await handlers['vault:exportBackup']({
              password: 'a long enough password',
              backupPassword: 'the backup password',
            })
          ).content,
          'the backup password',
          { minScryptN: TEST_SCRYPT.N },
        )
      ).notes;
    expect(await notesOf(to)).toEqual([
      { networkId: 'mainnet', transactionId: TX2, note: 'mine' },
      { networkId: added.id, transactionId: TX1, note: 'at work' },
    ]);
    // Again: the network is found by its address, and the contacts are there already.
    expect((await to['vault:importBackup'](args)).summary.contacts).toEqual({
      added: 0,
      invalid: 0,
      duplicate: 2,
      overLimit: 0,
      unknownNetwork: 0,
    });
    expect((await to['networks:list']()).networks.filter((n) => n.name === 'Team node')).toHaveLength(1);
  });

  it('polls the head for head:new listeners: the Local devnet starts and its head arrives', async () => {
    const wallet = await open();
    expect((await wallet.handlers['devnet:status']()).running).toBe(false);
    const heads: HeadInfo[] = [];
    const off = wallet.events.on('head:new', (head) => heads.push(head));
    await until('a head:new', () => heads[0]);
    off();
    off(); // a second call changes nothing
    const status = await wallet.handlers['devnet:status']();
    expect(heads[0]).toMatchObject({
      networkId: 'local',
      chainId: status.chainId,
      height: expect.stringMatching(/^\d+$/),
    });
  });
});
