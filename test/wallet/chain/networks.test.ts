// Networks, their persistence and API keys, the embedded devnet's lifecycle, the head watcher, and tokens.
import { readFile, writeFile } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { MemoryApiKeyStore } from '../../../src-main/wallet/chain/apiKeyStore.ts';
import { FileChainSettings, MemoryChainSettings } from '../../../src-main/wallet/chain/chainSettings.ts';
import { EmbeddedDevnet } from '../../../src-main/wallet/chain/embeddedDevnet.ts';
import { HeadWatcher } from '../../../src-main/wallet/chain/headWatcher.ts';
import { NetworkService } from '../../../src-main/wallet/chain/networks.ts';
import { TokenService } from '../../../src-main/wallet/chain/tokens.ts';
import type { WalletError } from '../../../src-main/koinos/errors.ts';
import type { HeadInfo } from '../../../src-main/ipc/contract.ts';
import type { DevnetNode } from '../../../src-main/devnet/types.ts';
import { KOIN, key, koinTx, submit } from '../../devnet/helpers.ts';
import { wat } from '../../devnet/vm/wat.ts';
import { onCleanup, tempDir, testDevnet } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import { until } from '../../helpers/until.ts';

describe('NetworkService', () => {
  it('lists Local, Testnet and Mainnet with Local selected on first run, and keeps custom networks in an atomic file without their API keys', async () => {
    const dir = await tempDir();
    const apiKeys = new MemoryApiKeyStore();
    const networks = new NetworkService({
      settings: new FileChainSettings(dir),
      apiKeys,
      localDevnetUrl: async () => 'http://127.0.0.1:9',
    });
    const first = await networks.list();
    expect(first.selectedId).toBe('local');
    expect(first.networks.map((n) => [n.id, n.kind])).toEqual([
      ['local', 'local'],
      ['testnet', 'testnet'],
      ['mainnet', 'mainnet'],
    ]);
    expect(first.networks.find((n) => n.id === 'mainnet')!.jsonRpcUrl).toBe('https://api.koinos.io');
    expect(first.networks.find((n) => n.id === 'testnet')!.jsonRpcUrl).toBe('https://harbinger-api.koinos.io');

    const added = await networks.add({
      name: 'My node',
      jsonRpcUrl: 'https://node.example.com/jsonrpc',
      apiKey: 'secret-key-42',
    });
    expect(added).toMatchObject({ kind: 'custom', hasApiKey: true, name: 'My node' });
    await networks.select(added.id);
    const file = await readFile(new FileChainSettings(dir).path, 'utf8');
    expect(file).toContain('https://node.example.com/jsonrpc');
    expect(file).not.toContain('secret-key-42');

    // A second service on the same folder (a restart) sees the same networks and selection.
    const again = new NetworkService({
      settings: new FileChainSettings(dir),
      apiKeys,
      localDevnetUrl: async () => 'http://127.0.0.1:9',
    });
    const listed = await again.list();
    expect(listed.selectedId).toBe(added.id);
    expect(listed.settingsKeptAside).toBeUndefined();
    const renamed = await again.update(added.id, { name: 'Renamed', apiKey: null });
    expect(renamed).toMatchObject({ name: 'Renamed', hasApiKey: false });
    expect((await expectWalletError(again.update('mainnet', { jsonRpcUrl: 'https://x.io' }))).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await expectWalletError(again.remove('mainnet'))).code).toBe('INVALID_ARGUMENT');
    expect((await expectWalletError(again.add({ name: 'x', jsonRpcUrl: 'ftp://x' }))).code).toBe('INVALID_ARGUMENT');
    expect((await expectWalletError(again.add({ name: 'x', jsonRpcUrl: 'https://u:p@x.io' }))).code).toBe(
      'INVALID_ARGUMENT',
    );
    const left = await again.remove(added.id);
    expect(left.map((n) => n.id)).toEqual(['local', 'testnet', 'mainnet']);
    expect((await again.list()).selectedId).toBe('local');
    expect((await expectWalletError(again.get('nope'))).code).toBe('NOT_FOUND');
    // Selecting the removed network (a window that still lists it) says so in a sentence, and keeps the selection.
    const gone = await expectWalletError(again.select(added.id), 'NOT_FOUND');
    expect(gone.shortMessage).toMatch(/^That network is no longer in the wallet/);
    expect(gone.details).toMatch(/^expected one of the networks local, testnet, mainnet, got "custom-/);
    expect((await again.list()).selectedId).toBe('local');
  });

  it('lists what a damaged settings file holds and names the copy of the file as it was', async () => {
    const dir = await tempDir();
    const settings = new FileChainSettings(dir);
    const good = { id: 'custom-1', name: 'Mine', jsonRpcUrl: 'https://node.example.com/jsonrpc' };
    const content = JSON.stringify({ version: 1, customNetworks: [good, { id: 'custom-2', name: 'No address' }] });
    await writeFile(settings.path, content);
    const networks = new NetworkService({ settings, apiKeys: new MemoryApiKeyStore() });
    const list = await networks.list();
    expect(list.networks.map((n) => n.id)).toEqual(['testnet', 'mainnet', 'custom-1']);
    expect(list.settingsKeptAside).toMatch(/chain-settings\.json\.damaged-[0-9a-f]{12}$/);
    expect(await readFile(list.settingsKeptAside!, 'utf8')).toBe(content);
  });

  it("keeps a damaged settings file's copy without the API keys an older wallet left in its addresses", async () => {
    const dir = await tempDir();
    const settings = new FileChainSettings(dir);
    const keyed = (query: string) => ({
      id: 'custom-1',
      name: 'Mine',
      jsonRpcUrl: `https://node.example.com/jsonrpc?${query}`,
    });
    // Cut short after a network whose address carries its key, and one with a user and password (as text: not JSON).
    const content = `{"version":1,"customNetworks":[${JSON.stringify(keyed('apikey=SECRET-1&x=1'))},{"id":"custom-2","jsonRpcUrl":"https://me:SECRET-2@b.example.com/?API_KEY=SECRET-3`;
    await writeFile(settings.path, content);
    const list = await new NetworkService({ settings, apiKeys: new MemoryApiKeyStore() }).list();
    const copy = await readFile(list.settingsKeptAside!, 'utf8');
    expect(copy).toBe(
      content
        .replace('apikey=SECRET-1', 'apikey=[redacted]')
        .replace('me:SECRET-2@', '[redacted]@')
        .replace('API_KEY=SECRET-3', 'API_KEY=[redacted]'),
    );
    expect(copy).not.toMatch(/SECRET/);
  });

  it('uses the API key stored for a custom network against an API-key devnet: wrong key refused, right key works', async () => {
    const devnet = await testDevnet({ apiKey: 'the-right-key-0001' });
    const apiKeys = new MemoryApiKeyStore();
    const networks = new NetworkService({ settings: new MemoryChainSettings(), apiKeys });
    const net = await networks.add({
      name: 'Keyed',
      jsonRpcUrl: `${devnet.url}/jsonrpc`,
      restUrl: devnet.url,
      apiKey: 'a-wrong-key-0002',
    });
    const refused = await expectWalletError(networks.head(net.id));
    expect(refused.code).toBe('NODE_UNAUTHORIZED');
    expect(refused.message).not.toContain('a-wrong-key-0002');
    await networks.update(net.id, { apiKey: 'the-right-key-0001' });
    expect((await networks.head(net.id)).chainId).toBe(devnet.chainId);
  });
});

describe('NetworkService.node', () => {
  it('keeps one client per network, and builds a new one when the network moves or its API key changes', async () => {
    const apiKeys = new MemoryApiKeyStore();
    const networks = new NetworkService({
      settings: new MemoryChainSettings(),
      apiKeys,
      localDevnetUrl: async () => 'http://127.0.0.1:9',
    });
    const net = await networks.add({ name: 'Mine', jsonRpcUrl: 'https://node.example.com/jsonrpc' });
    const first = (await networks.node(net.id)).node;
    expect((await networks.node(net.id)).node).toBe(first);
    expect((await networks.node('testnet')).node).not.toBe(first);
    expect((await networks.node('testnet')).node).toBe((await networks.node('testnet')).node);

    await networks.update(net.id, { apiKey: 'key-one-0001' });
    const keyed = (await networks.node(net.id)).node;
    expect(keyed).not.toBe(first);
    expect((await networks.node(net.id)).node).toBe(keyed);
    await networks.update(net.id, { apiKey: 'key-two-0002' });
    const rekeyed = (await networks.node(net.id)).node;
    expect(rekeyed).not.toBe(keyed);

    await networks.update(net.id, { jsonRpcUrl: 'https://node.example.com/v2/jsonrpc' });
    const moved = (await networks.node(net.id)).node;
    expect(moved).not.toBe(rekeyed);
    expect(moved.rpc.url).toBe('https://node.example.com/v2/jsonrpc');
    await networks.update(net.id, { restUrl: 'https://node.example.com' });
    const withRest = (await networks.node(net.id)).node;
    expect(withRest).not.toBe(moved);
    expect(withRest.rest).toBeDefined();
    // A key stored behind the service's back (another window) is seen too: the key is read on every call.
    await apiKeys.set(net.id, null);
    expect((await networks.node(net.id)).node).not.toBe(withRest);
  });
});

describe('EmbeddedDevnet', () => {
  it('starts on first use in the data folder, keeps its chain across restarts, and resets to a new chain ID on the same port', async () => {
    const dir = await tempDir();
    const local = new EmbeddedDevnet({
      dataDir: dir,
      port: 0,
      devnet: { blockTimeMs: 0, accounts: 2, signatureThreads: 0, log: () => {} },
    });
    onCleanup(() => local.stop());
    expect(await local.status()).toEqual({ running: false, accounts: [] });
    const url = await local.url();
    const first = await local.status();
    expect(first).toMatchObject({ running: true, url });
    expect(first.accounts).toHaveLength(2);
    const account = await local.developmentAccount(1);
    expect(account.address).toBe(first.accounts[1]!.address);
    expect((await expectWalletError(local.developmentAccount(5))).code).toBe('NOT_FOUND');

    await local.stop();
    const again = new EmbeddedDevnet({
      dataDir: dir,
      port: 0,
      devnet: { blockTimeMs: 0, accounts: 2, signatureThreads: 0, log: () => {} },
    });
    onCleanup(() => again.stop());
    await again.start();
    expect((await again.status()).chainId).toBe(first.chainId);
    const againUrl = await again.url();
    const reset = await again.reset();
    expect(reset.chainId).not.toBe(first.chainId);
    expect(reset.url).toBe(againUrl);
  });

  it('once closed, refuses a late use instead of starting again, so that the next wallet on its folder can start', async () => {
    const options = {
      dataDir: await tempDir(),
      port: 0,
      devnet: { blockTimeMs: 0, accounts: 2, signatureThreads: 0, log: () => {} },
    };
    const local = new EmbeddedDevnet(options);
    onCleanup(() => local.stop());
    await local.start();
    await local.close();
    // A poller's request that was under way as the wallet quit asks for the devnet after the close.
    const late = await expectWalletError(local.url());
    expect(late.code).toBe('NODE_UNREACHABLE');
    expect(late.shortMessage).toMatch(/wallet is closing/);
    const next = new EmbeddedDevnet(options);
    onCleanup(() => next.stop());
    expect((await next.status()).running).toBe(false);
    await next.start();
    expect((await next.status()).running).toBe(true);
  });
});

describe('EmbeddedDevnet in a worker thread', () => {
  it('runs the devnet off the main thread: an endless contract loop in it leaves the wallet side turning', async () => {
    const dir = await tempDir();
    const local = new EmbeddedDevnet({
      dataDir: dir,
      port: 0,
      devnet: { blockTimeMs: 0, accounts: 3, signatureThreads: 0 },
    });
    onCleanup(() => local.stop());
    const thread = await local.start();
    expect(thread.threadId).not.toBe(threadId);
    expect(thread.threadId).toBeGreaterThan(0);
    // The same devnet calls the devnet tests make, answered by the worker's node.
    const node = {
      chainId: thread.chainId,
      koinAddress: thread.koinAddress,
      call: (m: string, r: object) => thread.call(m, r),
    } as unknown as DevnetNode;
    const [a, c] = [key(0), key(2)];
    const endless = await wat('(module (memory 1) (func (export "_start") (loop $l br $l)))');
    const upload = {
      contract_id: c.addressBytes,
      bytecode: endless,
      abi: '',
      authorizes_call_contract: false,
      authorizes_transaction_application: false,
      authorizes_upload_contract: false,
    };
    await submit(node, await koinTx(node, c, 'transfer', {}, { operations: [{ upload_contract: upload }] }));
    await thread.call('devnet.produce_block', {});
    const loop = await koinTx(
      node,
      a,
      'transfer',
      {},
      {
        rcLimit: 10n * KOIN,
        operations: [{ call_contract: { contract_id: c.addressBytes, entry_point: 1, args: new Uint8Array() } }],
      },
    );

    // The loop runs to the block's 287,500,000 compute in one synchronous stretch of the devnet's thread. Counted
    // here meanwhile: turns of the main thread's event loop, which a devnet on this thread would hold still.
    let turns = 0;
    let done = false;
    const spin = () => {
      turns += 1;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const outcome = await submit(node, loop).then(
      () => 'accepted',
      // The chain's refusal crosses the thread as the node's answer and is read as any node's answer is (nodeError.ts).
      (error: WalletError) => `${error.code}: ${error.details ?? ''}`,
    );
    done = true;
    expect(outcome).toMatch(/^TRANSACTION_REVERTED: .*compute bandwidth limit exceeded/);
    expect(turns).toBeGreaterThan(100);
    // And the devnet keeps serving.
    expect((await local.status()).running).toBe(true);
  });
});

describe('HeadWatcher', () => {
  it('pushes new heads while someone listens and stops polling when nobody does', async () => {
    const devnet = await testDevnet({ blockTimeMs: 0 });
    const networks = new NetworkService({
      settings: new MemoryChainSettings(),
      apiKeys: new MemoryApiKeyStore(),
      localDevnetUrl: async () => devnet.url,
    });
    const watcher = new HeadWatcher({ networks, intervalMs: 20 });
    expect(watcher.active).toBe(false);
    const heads: HeadInfo[] = [];
    const unsubscribe = watcher.subscribe((h) => heads.push(h));
    await until('a first head', () => (heads.length >= 1 ? true : undefined), 5000);
    await devnet.node.produceBlock();
    await until(
      'a new head',
      () => (heads.some((h) => BigInt(h.height) > BigInt(heads[0]!.height)) ? true : undefined),
      5000,
    );
    expect(new Set(heads.map((h) => h.height)).size).toBe(heads.length); // one event per new head, not per poll
    unsubscribe();
    await until('the watcher to stop', () => (watcher.active ? undefined : true), 5000);
  });
});

describe('TokenService', () => {
  it('resolves KOIN and VHP by system name, and refuses a contract that is not a token', async () => {
    const devnet = await testDevnet();
    const settings = new MemoryChainSettings();
    const networks = new NetworkService({
      settings,
      apiKeys: new MemoryApiKeyStore(),
      localDevnetUrl: async () => devnet.url,
    });
    const tokens = new TokenService({ networks, settings });
    const list = await tokens.list('local');
    expect(list[0]).toMatchObject({ contract: devnet.koinAddress, symbol: 'KOIN', decimals: 8, system: 'koin' });
    expect((await tokens.known('local')).map((t) => t.symbol)).toContain('KOIN'); // remembered for offline use
    expect(list[1]).toMatchObject({ symbol: 'VHP', name: 'Virtual Hash Power', decimals: 8, system: 'vhp' });
    expect(await tokens.resolve('local', 'VHP')).toEqual(list[1]);
    const noContract = await expectWalletError(tokens.add('local', devnet.accounts[0]!.address));
    expect(noContract.code).toBe('NOT_FOUND');
    expect(noContract.shortMessage).toContain(`There is no contract at ${devnet.accounts[0]!.address} on this network`);
    expect((await expectWalletError(tokens.add('local', 'not-an-address'))).code).toBe('INVALID_ADDRESS');
    expect((await expectWalletError(tokens.remove('local', devnet.koinAddress))).code).toBe('INVALID_ARGUMENT');
    expect(await tokens.balanceOf('local', list[0]!, devnet.accounts[0]!.address)).toBeGreaterThan(0n);
  });
});
