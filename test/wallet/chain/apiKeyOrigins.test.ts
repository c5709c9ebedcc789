// API keys bound to the origins they were entered for (security review 3, M5 and I3): a network moved to another server
// loses its key, a redirect is never followed (with a key or without), a key in an address's query moves into the key
// store, and the transport refuses to attach a key for another origin - all against real HTTP servers on port 0.
import { execFile, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../../src-main/ipc/argumentParsers.ts';
import { MemoryApiKeyStore } from '../../../src-main/wallet/chain/apiKeyStore.ts';
import {
  CHAIN_SETTINGS_FILE,
  FileChainSettings,
  MemoryChainSettings,
} from '../../../src-main/wallet/chain/chainSettings.ts';
import { exchange } from '../../../src-main/wallet/chain/httpTransport.ts';
import { JsonRpcClient } from '../../../src-main/wallet/chain/jsonRpcClient.ts';
import { NetworkService, originsOf } from '../../../src-main/wallet/chain/networks.ts';
import { decodeStoredApiKey, encodeStoredApiKey } from '../../../src-main/wallet/vault/apiKeys.ts';
import { NO_SECRET_SERVICE, PASSWORD, vaultFixture } from '../vault/helpers.ts';
import { onCleanup, recordingProxy, tempDir, testDevnet, testServer, type TestServer } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const KEY = 'KEY-A-7f3c91d2';

/** Whether any request `server` received carried an API key header. */
const sawKey = (server: TestServer) =>
  server.headers.some((h) => h['apikey'] !== undefined || h['x-api-key'] !== undefined);

function service(settings = new MemoryChainSettings()) {
  const apiKeys = new MemoryApiKeyStore();
  return { apiKeys, networks: new NetworkService({ settings, apiKeys, timeoutMs: 5000 }) };
}

describe('API keys bound to origins', () => {
  it('drops the key when the addresses move to another server, and the next poll there sends none', async () => {
    const keyed = await testDevnet({ apiKey: KEY });
    const open = await testDevnet();
    const elsewhere = await recordingProxy(open.url);
    const { apiKeys, networks } = service();
    const net = await networks.add({
      name: 'Provider',
      jsonRpcUrl: `${keyed.url}/jsonrpc`,
      restUrl: keyed.url,
      apiKey: KEY,
    });
    expect((await networks.head(net.id)).chainId).toBe(keyed.chainId);
    expect((await apiKeys.get(net.id))?.origins).toEqual([keyed.url]);

    const moved = await networks.update(net.id, { jsonRpcUrl: `${elsewhere.url}/jsonrpc`, restUrl: elsewhere.url });
    expect(moved.hasApiKey).toBe(false);
    expect(await apiKeys.get(net.id)).toBeUndefined();
    expect((await networks.head(net.id)).chainId).toBe(open.chainId);
    expect(elsewhere.requests.length).toBeGreaterThan(0);
    expect(sawKey(elsewhere)).toBe(false);
  });

  it('drops the key when only the REST address moves to another server', async () => {
    const keyed = await testDevnet({ apiKey: KEY });
    const elsewhere = await recordingProxy(keyed.url);
    const { networks } = service();
    const net = await networks.add({ name: 'Provider', jsonRpcUrl: `${keyed.url}/jsonrpc`, apiKey: KEY });
    expect((await networks.update(net.id, { restUrl: elsewhere.url })).hasApiKey).toBe(false);
    expect((await expectWalletError(networks.head(net.id))).code).toBe('NODE_UNAUTHORIZED'); // the REST head, asked without a key
    expect(sawKey(elsewhere)).toBe(false);
  });

  it('keeps the key for another address on the same origin, and sends it there', async () => {
    const keyed = await testDevnet({ apiKey: KEY });
    const proxy = await recordingProxy(keyed.url);
    const { networks } = service();
    const net = await networks.add({ name: 'Provider', jsonRpcUrl: `${proxy.url}/jsonrpc`, apiKey: KEY });
    const same = await networks.update(net.id, { jsonRpcUrl: `${proxy.url}/via/jsonrpc`, restUrl: `${proxy.url}/via` });
    expect(same).toMatchObject({ hasApiKey: true, jsonRpcUrl: `${proxy.url}/via/jsonrpc` });
    const before = proxy.headers.length;
    // The devnet behind the proxy refuses requests without the key, so a head proves it was sent.
    expect((await networks.head(net.id)).chainId).toBe(keyed.chainId);
    expect(proxy.headers.slice(before).every((h) => h['apikey'] === KEY || h['x-api-key'] === KEY)).toBe(true);
    // The default port is the same origin as no port.
    expect(
      originsOf({ jsonRpcUrl: 'https://api.example.com:443/jsonrpc', restUrl: 'https://api.example.com' }),
    ).toEqual(['https://api.example.com']);
  });

  it('keeps a key given in the same call, bound to the new origin', async () => {
    const first = await testDevnet({ apiKey: KEY });
    const second = await testDevnet({ apiKey: 'KEY-B-55aa01' });
    const { apiKeys, networks } = service();
    const net = await networks.add({ name: 'Provider', jsonRpcUrl: `${first.url}/jsonrpc`, apiKey: KEY });
    const moved = await networks.update(net.id, {
      jsonRpcUrl: `${second.url}/jsonrpc`,
      restUrl: second.url,
      apiKey: 'KEY-B-55aa01',
    });
    expect(moved.hasApiKey).toBe(true);
    expect(await apiKeys.get(net.id)).toEqual({ key: 'KEY-B-55aa01', origins: [second.url] });
    expect((await networks.head(net.id)).chainId).toBe(second.chainId);
  });

  it('binds a key stored without origins (the CLI, older wallets) to the addresses it is used with', async () => {
    const keyed = await testDevnet({ apiKey: KEY });
    const open = await testDevnet();
    const elsewhere = await recordingProxy(open.url);
    const { apiKeys, networks } = service();
    const net = await networks.add({ name: 'Provider', jsonRpcUrl: `${keyed.url}/jsonrpc` });
    await apiKeys.set(net.id, KEY);
    expect((await networks.head(net.id)).chainId).toBe(keyed.chainId);
    await networks.update(net.id, { jsonRpcUrl: `${elsewhere.url}/jsonrpc` });
    await networks.head(net.id);
    expect(sawKey(elsewhere)).toBe(false);
  });
});

describe('redirects', () => {
  /** A node answering every request with 307 to `location`. */
  const redirecting = (location: string) =>
    testServer((_req, res) => {
      res.writeHead(307, { location });
      res.end();
    });

  it('follows no redirect of a request with a key: the second server never hears from the wallet, and the error names it', async () => {
    const second = await testServer((_req, res) => res.end('{}'));
    const port = new URL(second.url).port;
    const first = await redirecting(`http://someone:pw-123@127.0.0.1:${port}/jsonrpc?apikey=LEAKED-9`);
    const { networks } = service();
    const net = await networks.add({ name: 'Redirecting', jsonRpcUrl: `${first.url}/jsonrpc`, apiKey: KEY });
    const error = await expectWalletError(networks.head(net.id));
    expect(error.code).toBe('NODE_ERROR');
    expect(error.shortMessage).toContain(`redirect (HTTP 307) to http://127.0.0.1:${port}/jsonrpc`);
    expect(error.shortMessage).toContain('the API key was not sent there');
    for (const secret of [KEY, 'pw-123', 'someone', 'LEAKED-9'])
      expect(`${error.message} ${error.details}`).not.toContain(secret);
    expect(second.requests).toHaveLength(0);
    expect(first.headers[0]!['apikey']).toBe(KEY); // the configured node itself got it, as it should
  });

  it('follows no redirect without a key either', async () => {
    const second = await testServer((_req, res) => res.end('{}'));
    const first = await redirecting(`${second.url}/jsonrpc`);
    const error = await expectWalletError(
      new JsonRpcClient({ url: `${first.url}/jsonrpc` }).call('chain.get_chain_id', {}),
    );
    expect(error.shortMessage).toBe(
      `The node at ${first.url}/jsonrpc answered with a redirect (HTTP 307) to ${second.url}/jsonrpc. The wallet does not follow redirects. ` +
        "If you trust that address, make it this network's address.",
    );
    expect(second.requests).toHaveLength(0);
  });

  const openssl = spawnSync('openssl', ['version']).status === 0;
  it.skipIf(!openssl)('does not follow a redirect from https to http, and says it was a downgrade', async () => {
    const dir = await tempDir();
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    const plain = await testServer((_req, res) => res.end('{}'));
    const secure = createHttpsServer(
      { key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) },
      (req, res) => {
        req.resume();
        res.writeHead(307, { location: `${plain.url}/jsonrpc` });
        res.end();
      },
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    onCleanup(async () => {
      secure.closeAllConnections();
      await new Promise<void>((resolve) => secure.close(() => resolve()));
    });
    // The certificate is made here and trusted by nobody; the wallet's transport takes no CA per request, so for this
    // test only.
    const previous = process.env['NODE_TLS_REJECT_UNAUTHORIZED'];
    process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = '0';
    onCleanup(async () => {
      if (previous === undefined) delete process.env['NODE_TLS_REJECT_UNAUTHORIZED'];
      else process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = previous;
    });
    const url = `https://127.0.0.1:${(secure.address() as AddressInfo).port}/jsonrpc`;
    for (const apiKey of [undefined, KEY]) {
      const error = await expectWalletError(new JsonRpcClient({ url, apiKey }).call('chain.get_chain_id', {}));
      expect(error.code).toBe('NODE_ERROR');
      expect(error.shortMessage).toContain(`to ${plain.url}/jsonrpc, an unencrypted http:// address`);
    }
    expect(plain.requests).toHaveLength(0);
  });
});

describe('an API key in an address', () => {
  it('moves ?apikey= into the key store: not in networks:list, not in chain-settings.json, sent as a header', async () => {
    const keyed = await testDevnet({ apiKey: KEY });
    const dir = await tempDir();
    const { apiKeys, networks } = service(new FileChainSettings(dir) as unknown as MemoryChainSettings);
    const [input] = parseArguments('networks:add', [
      { name: 'Pasted', jsonRpcUrl: `${keyed.url}/jsonrpc?apikey=${KEY}`, restUrl: `${keyed.url}/?api_key=${KEY}` },
    ]);
    const net = await networks.add(input);
    expect(net).toMatchObject({ jsonRpcUrl: `${keyed.url}/jsonrpc`, restUrl: `${keyed.url}/`, hasApiKey: true });
    expect(JSON.stringify(await networks.list())).not.toContain(KEY);
    expect(await readFile(join(dir, CHAIN_SETTINGS_FILE), 'utf8')).not.toContain(KEY);
    expect(await apiKeys.get(net.id)).toEqual({ key: KEY, origins: [keyed.url] });
    expect((await networks.head(net.id)).chainId).toBe(keyed.chainId);

    // The same through networks:update, to another server: the key in the address is the key given in the same call.
    const other = await testDevnet({ apiKey: 'KEY-C-0c0c0c' });
    const moved = await networks.update(net.id, {
      jsonRpcUrl: `${other.url}/jsonrpc?APIKEY=KEY-C-0c0c0c`,
      restUrl: '',
    });
    expect(moved).toMatchObject({ jsonRpcUrl: `${other.url}/jsonrpc`, hasApiKey: true });
    expect(await apiKeys.get(net.id)).toEqual({ key: 'KEY-C-0c0c0c', origins: [other.url] });
    expect((await networks.head(net.id)).chainId).toBe(other.chainId);
    expect(await readFile(join(dir, CHAIN_SETTINGS_FILE), 'utf8')).not.toContain('KEY-C-0c0c0c');
  });

  it('refuses two different keys, other credentials in the query, and a user:password', async () => {
    const { networks } = service();
    const two = await expectWalletError(
      networks.add({ name: 'x', jsonRpcUrl: 'https://a.example/?apikey=ONE-111', apiKey: 'TWO-222' }),
    );
    expect(two.shortMessage).toBe('expected one API key, got 2 different ones in the API key field and the addresses');
    const token = await expectWalletError(networks.add({ name: 'x', jsonRpcUrl: 'https://a.example/?token=T-333' }));
    expect(token.shortMessage).toContain('got a "token" parameter');
    expect(token.shortMessage).not.toContain('T-333');
    expect((await expectWalletError(networks.add({ name: 'x', jsonRpcUrl: 'https://u:p-444@a.example/' }))).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await networks.list()).networks.filter((n) => n.kind === 'custom')).toEqual([]);
  });

  it('moves a key that an older settings file kept in an address, and never lists it', async () => {
    const keyed = await testDevnet({ apiKey: KEY });
    const dir = await tempDir();
    const file = join(dir, CHAIN_SETTINGS_FILE);
    const old = { id: 'custom-old', name: 'Old', jsonRpcUrl: `${keyed.url}/jsonrpc?apikey=${KEY}` };
    await writeFile(file, JSON.stringify({ version: 1, customNetworks: [old], lastChainIds: {}, tokens: {} }));
    const { apiKeys, networks } = service(new FileChainSettings(dir) as unknown as MemoryChainSettings);
    expect((await networks.get('custom-old')).jsonRpcUrl).toBe(`${keyed.url}/jsonrpc`);
    expect(JSON.stringify(await networks.list())).not.toContain(KEY);
    expect((await networks.head('custom-old')).chainId).toBe(keyed.chainId);
    expect(await readFile(file, 'utf8')).not.toContain(KEY);
    expect(await apiKeys.get('custom-old')).toEqual({ key: KEY, origins: [keyed.url] });
  });
});

describe('the transport', () => {
  it('refuses to attach a key for another origin, and takes credentials only as a bound key', async () => {
    const server = await testServer((_req, res) => res.end('{}'));
    const wrong = await expectWalletError(
      new JsonRpcClient({ url: server.url, apiKey: KEY, apiKeyOrigins: ['https://api.example.com'] }).call(
        'chain.get_chain_id',
        {},
      ),
    );
    expect(wrong.code).toBe('NODE_UNAUTHORIZED');
    expect(wrong.shortMessage).toContain(
      `given for https://api.example.com, not for ${server.url}, so it was not sent`,
    );
    expect(wrong.message).not.toContain(KEY);
    const raw = { url: server.url, method: 'GET', kind: 'read', timeoutMs: 1000, what: 'test' } as const;
    for (const name of ['apikey', 'X-API-KEY', 'Authorization']) {
      expect((await expectWalletError(exchange({ ...raw, headers: { [name]: KEY } }))).code).toBe('INTERNAL');
    }
    expect(
      (await expectWalletError(exchange({ ...raw, url: server.url.replace('//', '//u:p@'), headers: {} }))).code,
    ).toBe('INVALID_ARGUMENT');
    expect(server.requests).toHaveLength(0);
  });
});

describe('the vault as ApiKeyStore', () => {
  it('stores each key with its origins in the vault, and reads a bare key from before as unbound', async () => {
    expect(decodeStoredApiKey(encodeStoredApiKey(KEY, ['https://a.example', 'https://b.example:8443']))).toEqual({
      key: KEY,
      origins: ['https://a.example', 'https://b.example:8443'],
    });
    expect(decodeStoredApiKey('{"format":"koinos-wallet/api-key@1" but not JSON')).toEqual({
      key: '{"format":"koinos-wallet/api-key@1" but not JSON',
    });
    expect(
      (await expectWalletError(Promise.resolve().then(() => encodeStoredApiKey(KEY, ['https://' + 'a'.repeat(5000)]))))
        .code,
    ).toBe('INVALID_ARGUMENT');

    const fx = await vaultFixture({ keychain: NO_SECRET_SERVICE });
    onCleanup(() => fx.cleanup());
    const vault = await fx.open();
    await vault.create({ password: PASSWORD });
    const store = vault.apiKeys;
    await store.set('custom-1', KEY, ['https://a.example']);
    await store.set('custom-2', 'BARE-KEY-1');
    expect(await store.get('custom-1')).toEqual({ key: KEY, origins: ['https://a.example'] });
    expect(await store.get('custom-2')).toEqual({ key: 'BARE-KEY-1' });
    await store.set('custom-1', null);
    expect(await store.has('custom-1')).toBe(false);
  });
});
