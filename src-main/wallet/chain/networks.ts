// The networks the wallet knows (the embedded Local devnet, Harbinger testnet, Mainnet, and custom ones), the selected
// one, a node client for each, and the head as the dashboard shows it - with a plain notice when a network's chain ID
// is not the one last seen there (a testnet restart). An API key belongs to the origins it was entered for: moving a
// network to another server drops it. Every node request of the wallet goes to an address configured here.
import { randomUUID } from 'node:crypto';
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import type { HeadInfo, NetworkInfo, NetworkInput, NetworkList } from './types.ts';
import type { ApiKeyStore } from './apiKeyStore.ts';
import type { ChainSettingsStore, CustomNetwork } from './chainSettings.ts';
import { originOf } from './httpTransport.ts';
import { KoinosNode } from './koinosNode.ts';
import { isSecretQueryName } from './redactUrl.ts';

/** A head block time this far behind the clock means the chain or the node is stuck (blocks come every ~3 s). */
const STALE_AFTER_MS = 3 * 60_000;

export const LOCAL_NETWORK_ID = 'local';
export const TESTNET_NETWORK_ID = 'testnet';
export const MAINNET_NETWORK_ID = 'mainnet';

/** The public endpoints (protocol facts §5): JSON-RPC only, as the wallet needs nothing else. */
const BUILT_IN_NETWORKS: readonly Omit<NetworkInfo, 'hasApiKey'>[] = [
  {
    id: TESTNET_NETWORK_ID,
    name: 'Testnet (Harbinger)',
    kind: 'testnet',
    jsonRpcUrl: 'https://harbinger-api.koinos.io',
  },
  { id: MAINNET_NETWORK_ID, name: 'Mainnet', kind: 'mainnet', jsonRpcUrl: 'https://api.koinos.io' },
];

export interface NetworkServiceOptions {
  settings: ChainSettingsStore;
  apiKeys: ApiKeyStore;
  /**
   * The base URL of the embedded devnet (`http://127.0.0.1:8080`), starting it on first use; absent: no Local network
   * (the CLI pointed elsewhere).
   */
  localDevnetUrl?: () => Promise<string>;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Clock for the head's lag (tests). */
  now?: () => number;
}

/** Query parameters that carry an API key (`?apikey=K`, as some providers document): moved into the key store. */
const API_KEY_QUERY = /^api[-_]?key$/i;
/** As the IPC contract allows for an API key. */
const MAX_API_KEY_CHARS = 1024;

/** An address as stored (no credentials in it) and the API key its query carried, if any. */
interface CheckedUrl {
  url: string;
  apiKey?: string;
}

/**
 * Checks an address and takes the API key out of its query. A user:password is refused rather than moved: it is a
 * pair for HTTP Basic, not one key the wallet could send as `apikey`, and the refusal says where a key goes. Other
 * credential-like parameters (`token=`, `password=`) are refused too, so no settings file or list holds a credential.
 */
function checkUrl(raw: unknown, what: string): CheckedUrl {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new WalletError('INVALID_ARGUMENT', `expected ${what} as an http(s) URL, got ${describe(raw)}`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected ${what} as an http(s) URL such as https://api.koinos.io, got text that is not a URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WalletError('INVALID_ARGUMENT', `expected ${what} as an http(s) URL, got a ${url.protocol} URL`);
  }
  if (url.username || url.password) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected ${what} without a user name or password in it; put an API key in the network's API key field instead`,
    );
  }
  let apiKey: string | undefined;
  for (const name of new Set(url.searchParams.keys())) {
    if (API_KEY_QUERY.test(name)) {
      for (const value of url.searchParams.getAll(name)) {
        if (value.length > MAX_API_KEY_CHARS) {
          throw new WalletError(
            'INVALID_ARGUMENT',
            `expected the API key in ${what} to have at most ${MAX_API_KEY_CHARS} characters, got ${value.length}`,
          );
        }
        apiKey = oneKey(what, apiKey, value || undefined);
      }
      url.searchParams.delete(name);
    } else if (isSecretQueryName(name)) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected ${what} without a credential in its query, got a "${name.slice(0, 40)}" parameter; put an API key in the network's API key field instead`,
      );
    }
  }
  return { url: url.toString(), ...(apiKey !== undefined ? { apiKey } : {}) };
}

/** The one key among those given (the API key field, the addresses' queries); two different ones are a mistake. */
function oneKey(where: string, ...keys: (string | undefined)[]): string | undefined {
  const given = [...new Set(keys.filter((k): k is string => k !== undefined && k !== ''))];
  if (given.length > 1)
    throw new WalletError('INVALID_ARGUMENT', `expected one API key, got ${given.length} different ones in ${where}`);
  return given[0];
}

/**
 * The origins of a network's addresses, to which its API key is bound.
 * @example
 * originsOf({ jsonRpcUrl: 'https://a.io/jsonrpc', restUrl: 'https://a.io' }); // ['https://a.io']
 */
export function originsOf(network: { jsonRpcUrl: string; restUrl?: string }): string[] {
  return [...new Set([network.jsonRpcUrl, ...(network.restUrl ? [network.restUrl] : [])].map(originOf))];
}

/** The API key in an address's query, if any. */
function keyInUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return [...url.searchParams].find(([name, value]) => API_KEY_QUERY.test(name) && value !== '')?.[1];
  } catch {
    return undefined;
  }
}

/** An address as shown: without an API key a settings file from before keys left addresses may still hold. */
function withoutUrlKey(raw: string): string {
  try {
    const url = new URL(raw);
    const names = [...url.searchParams.keys()].filter((n) => API_KEY_QUERY.test(n));
    if (names.length === 0) return raw;
    for (const name of names) url.searchParams.delete(name);
    return url.toString();
  } catch {
    return raw;
  }
}

function checkName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '' || raw.trim().length > 60) {
    throw new WalletError('INVALID_ARGUMENT', `expected a network name of 1 to 60 characters, got ${describe(raw)}`);
  }
  return raw.trim();
}

/**
 * The networks, their selection and their nodes.
 * @example
 * const networks = new NetworkService({ settings: new MemoryChainSettings(), apiKeys: new MemoryApiKeyStore(), localDevnetUrl: () => devnet.url() });
 * const head = await networks.head(); // the selected network's head
 */
export class NetworkService {
  private readonly settings: ChainSettingsStore;
  private readonly apiKeys: ApiKeyStore;
  private readonly localDevnetUrl?: () => Promise<string>;
  private readonly timeoutMs?: number;
  private readonly now: () => number;
  /**
   * The client of each network, reused while the network's addresses and API key stay as they were when it was built
   * (`fingerprint`); node() builds a new one when either changed, remove() drops it.
   */
  private readonly clients = new Map<string, { fingerprint: string; node: KoinosNode }>();
  /** Who is told of each change of the list or the selection (onChange). */
  private readonly listeners = new Set<() => void>();

  constructor(options: NetworkServiceOptions) {
    this.settings = options.settings;
    this.apiKeys = options.apiKeys;
    this.localDevnetUrl = options.localDevnetUrl;
    this.timeoutMs = options.timeoutMs;
    this.now = options.now ?? Date.now;
  }

  /**
   * Calls `listener` after each change of the networks or of the selection made here (select, add, update, remove): the
   * `networks:changed` push, which keeps every window's list and network picker as main has them. Returns the
   * unsubscribe.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private async hasKey(id: string): Promise<boolean> {
    return this.apiKeys.has ? this.apiKeys.has(id) : (await this.apiKeys.get(id)) !== undefined;
  }

  private async describeNetwork(base: Omit<NetworkInfo, 'hasApiKey'>): Promise<NetworkInfo> {
    return { ...base, hasApiKey: await this.hasKey(base.id) };
  }

  private localEntry(): Omit<NetworkInfo, 'hasApiKey'>[] {
    // The URL is filled when the devnet runs; until then the entry shows where it will listen by default.
    return this.localDevnetUrl
      ? [{ id: LOCAL_NETWORK_ID, name: 'Local (devnet)', kind: 'local', jsonRpcUrl: 'http://127.0.0.1:8080/jsonrpc' }]
      : [];
  }

  private defaultId(): string {
    return this.localDevnetUrl ? LOCAL_NETWORK_ID : MAINNET_NETWORK_ID;
  }

  /**
   * Every network (Local, Testnet, Mainnet, then custom ones in the order added), the selected one's id, and where the
   * settings file is kept when it could not be read whole.
   */
  async list(): Promise<NetworkList> {
    const data = await this.settings.load();
    const custom = data.customNetworks.map((n) => ({
      ...n,
      kind: 'custom' as const,
      jsonRpcUrl: withoutUrlKey(n.jsonRpcUrl),
      ...(n.restUrl ? { restUrl: withoutUrlKey(n.restUrl) } : {}),
    }));
    const all = [...this.localEntry(), ...BUILT_IN_NETWORKS, ...custom];
    const networks = await Promise.all(all.map((n) => this.describeNetwork(n)));
    if (this.localDevnetUrl) {
      const local = networks.find((n) => n.id === LOCAL_NETWORK_ID)!;
      try {
        const url = await this.localDevnetUrl();
        local.jsonRpcUrl = `${url}/jsonrpc`;
        local.restUrl = url;
      } catch {
        // not started (yet): the default address stays
      }
    }
    const selected =
      data.selectedNetworkId && networks.some((n) => n.id === data.selectedNetworkId)
        ? data.selectedNetworkId
        : this.defaultId();
    const settingsKeptAside = this.settings.keptAside;
    return { networks, selectedId: selected, ...(settingsKeptAside ? { settingsKeptAside } : {}) };
  }

  /**
   * One network; the selected one when `id` is absent.
   * @throws WalletError NOT_FOUND for an unknown id.
   */
  async get(id?: string): Promise<NetworkInfo> {
    const { networks, selectedId } = await this.list();
    const wanted = id ?? selectedId;
    const network = networks.find((n) => n.id === wanted);
    if (!network)
      throw new WalletError(
        'NOT_FOUND',
        `expected one of the networks ${networks.map((n) => n.id).join(', ')}, got ${describe(wanted)}`,
      );
    return network;
  }

  /**
   * Makes `id` the network in use.
   * @throws WalletError NOT_FOUND when it is not in the list (removed meanwhile, in another window or by the CLI), with
   * a sentence saying so; the network in use stays.
   */
  async select(id: string): Promise<NetworkInfo> {
    const network = await this.get(id).catch((error: unknown) => {
      if (!(error instanceof WalletError) || error.code !== 'NOT_FOUND') throw error;
      throw new WalletError(
        'NOT_FOUND',
        'That network is no longer in the wallet (it may have been removed in another window); the network in use stays.',
        {
          details: error.shortMessage,
          metaMessages: ['Pick another network, or add it again on the Networks screen.'],
        },
      );
    });
    await this.settings.update((d) => {
      d.selectedNetworkId = network.id;
    });
    this.changed();
    return network;
  }

  /**
   * Adds a custom network. Its API key (given as `apiKey` or as `?apikey=` in an address) goes to the ApiKeyStore,
   * bound to the origins of the network's addresses, never to the settings file.
   * @throws WalletError INVALID_ARGUMENT.
   */
  async add(input: NetworkInput): Promise<NetworkInfo> {
    const rpc = checkUrl(input.jsonRpcUrl, 'the JSON-RPC address');
    const rest = input.restUrl ? checkUrl(input.restUrl, 'the REST address') : undefined;
    const entry: CustomNetwork = {
      id: `custom-${randomUUID()}`,
      name: checkName(input.name),
      jsonRpcUrl: rpc.url,
      ...(rest ? { restUrl: rest.url } : {}),
    };
    const key = oneKey(
      'the API key field and the addresses',
      typeof input.apiKey === 'string' ? input.apiKey : undefined,
      rpc.apiKey,
      rest?.apiKey,
    );
    if (key !== undefined) await this.apiKeys.set(entry.id, key, originsOf(entry));
    await this.settings.update((d) => {
      d.customNetworks.push(entry);
    });
    this.changed();
    return this.get(entry.id);
  }

  /**
   * Changes a custom network; of a built-in one only the API key can change. A stored API key stays only while the
   * addresses stay on the origins they had: an address on another server (scheme, host or port) drops it, unless a key
   * is given in the same call, which is then bound to the new origins.
   * @throws WalletError NOT_FOUND, INVALID_ARGUMENT; VAULT_LOCKED when a key must be dropped or stored while locked
   *   (nothing is changed then).
   */
  async update(id: string, patch: Partial<NetworkInput>): Promise<NetworkInfo> {
    await this.moveUrlKeys(id);
    const data = await this.settings.load();
    const custom = data.customNetworks.find((n) => n.id === id);
    const current = custom ?? (await this.get(id)); // NOT_FOUND when it is no network at all
    if (!custom && (patch.name !== undefined || patch.jsonRpcUrl !== undefined || patch.restUrl !== undefined)) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected only an API key change for the built-in network ${id}; add a custom network for another address`,
      );
    }
    const rpc = patch.jsonRpcUrl !== undefined ? checkUrl(patch.jsonRpcUrl, 'the JSON-RPC address') : undefined;
    const rest =
      patch.restUrl !== undefined && patch.restUrl !== '' ? checkUrl(patch.restUrl, 'the REST address') : undefined;
    const next: CustomNetwork | undefined = custom && {
      ...custom,
      ...(patch.name !== undefined ? { name: checkName(patch.name) } : {}),
      ...(rpc ? { jsonRpcUrl: rpc.url } : {}),
    };
    if (next && patch.restUrl !== undefined) {
      if (rest) next.restUrl = rest.url;
      else delete next.restUrl;
    }
    const given = oneKey(
      'the API key field and the addresses',
      typeof patch.apiKey === 'string' ? patch.apiKey : undefined,
      rpc?.apiKey,
      rest?.apiKey,
    );
    const before = originsOf(current);
    const after = next ? originsOf(next) : before;
    // The key store changes first: if that fails (locked), the addresses stay where the key belongs.
    if (given !== undefined) await this.apiKeys.set(id, given, after);
    else if (patch.apiKey === null || patch.apiKey === '') await this.apiKeys.set(id, null);
    else if (after.some((origin) => !before.includes(origin)) && (await this.hasKey(id)))
      await this.apiKeys.set(id, null);
    if (next) {
      await this.settings.update((d) => {
        d.customNetworks = d.customNetworks.map((n) => (n.id === id ? next : n));
        if (next.jsonRpcUrl !== custom!.jsonRpcUrl) {
          delete d.lastChainIds[id];
          delete d.chainIdChanges[id];
        }
      });
    }
    this.changed();
    return this.get(id);
  }

  /**
   * Moves an API key that a custom network's stored address still carries (`?apikey=`, kept by wallets before keys left
   * addresses) into the key store, bound to the network's origins, and stores the address without it.
   */
  private async moveUrlKeys(id: string): Promise<void> {
    const stored = (await this.settings.load()).customNetworks.find((n) => n.id === id);
    if (!stored) return;
    const moved = {
      ...stored,
      jsonRpcUrl: withoutUrlKey(stored.jsonRpcUrl),
      ...(stored.restUrl ? { restUrl: withoutUrlKey(stored.restUrl) } : {}),
    };
    if (moved.jsonRpcUrl === stored.jsonRpcUrl && moved.restUrl === stored.restUrl) return;
    const key = [stored.jsonRpcUrl, stored.restUrl]
      .map((u) => (u ? keyInUrl(u) : undefined))
      .find((k) => k !== undefined);
    if (key !== undefined && !(await this.hasKey(id))) await this.apiKeys.set(id, key, originsOf(moved));
    await this.settings.update((d) => {
      d.customNetworks = d.customNetworks.map((n) => (n.id === id ? moved : n));
    });
  }

  /** Removes a custom network, its API key and its tokens; the selection falls back to the default. */
  async remove(id: string): Promise<NetworkInfo[]> {
    const data = await this.settings.load();
    if (!data.customNetworks.some((n) => n.id === id)) {
      await this.get(id);
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected a custom network, got the built-in network ${id}, which cannot be removed`,
      );
    }
    await this.apiKeys.set(id, null);
    await this.settings.update((d) => {
      d.customNetworks = d.customNetworks.filter((n) => n.id !== id);
      delete d.lastChainIds[id];
      delete d.chainIdChanges[id];
      delete d.tokens[id];
      if (d.selectedNetworkId === id) delete d.selectedNetworkId;
    });
    this.clients.delete(id);
    this.changed();
    return (await this.list()).networks;
  }

  /**
   * A client for the network's node (the Local devnet is started on first use). This is the only way the wallet builds
   * a node client, so main fetches only the addresses of configured networks; `id` is a network's id, never a URL.
   * One client per network, reused until the network's addresses or its API key (or the key's origins) change.
   */
  async node(id?: string): Promise<{ network: NetworkInfo; node: KoinosNode }> {
    let network = await this.get(id);
    if (network.kind === 'local' && this.localDevnetUrl) {
      const url = await this.localDevnetUrl();
      network = { ...network, jsonRpcUrl: `${url}/jsonrpc`, restUrl: url };
    }
    let addresses: { jsonRpcUrl: string; restUrl?: string } = network;
    if (network.kind === 'custom') {
      // Locked with file storage the key cannot move yet; it then stays in the address it came in, sent only there.
      await this.moveUrlKeys(network.id).catch(() => undefined);
      addresses = (await this.settings.load()).customNetworks.find((n) => n.id === network.id) ?? network;
    }
    const stored = await this.apiKeys.get(network.id);
    // A key stored before keys were bound to origins is bound to the addresses as they are.
    const key = stored && { apiKey: stored.key, apiKeyOrigins: stored.origins ?? originsOf(addresses) };
    const fingerprint = JSON.stringify([
      addresses.jsonRpcUrl,
      addresses.restUrl ?? null,
      key?.apiKey ?? null,
      key?.apiKeyOrigins ?? null,
    ]);
    const cached = this.clients.get(network.id);
    if (cached?.fingerprint === fingerprint) return { network, node: cached.node };
    const node = new KoinosNode({
      jsonRpc: { url: addresses.jsonRpcUrl, ...key, timeoutMs: this.timeoutMs },
      ...(addresses.restUrl ? { rest: { url: addresses.restUrl, ...key, timeoutMs: this.timeoutMs } } : {}),
    });
    this.clients.set(network.id, { fingerprint, node });
    return { network, node };
  }

  /** The chain ID last seen on this network (base64), without asking its node: undefined when none was seen yet. */
  async lastChainId(networkId: string): Promise<string | undefined> {
    return (await this.settings.load()).lastChainIds[networkId];
  }

  /**
   * The network last seen with this chain ID (base64), without asking any node: `preferredId`'s when it was, else the
   * first other one that was; undefined when none was.
   */
  async seenWith(chainId: string, preferredId?: string): Promise<NetworkInfo | undefined> {
    const [{ networks }, { lastChainIds }] = await Promise.all([this.list(), this.settings.load()]);
    const preferred = networks.find((n) => n.id === preferredId);
    return [...(preferred ? [preferred] : []), ...networks].find((n) => lastChainIds[n.id] === chainId);
  }

  /**
   * Fetches the chain ID now and compares it with the one last seen on this network; remembers the new one.
   * Returns the change when there is one (a testnet restart): anything signed for `previous` cannot be submitted. The
   * change is kept in the settings file and reported on every call until dismissChainIdChange() (or the next change).
   */
  async observeChainId(
    networkId: string,
    chainId: Uint8Array,
  ): Promise<{ previous: string; current: string } | undefined> {
    const current = bytesToJson(chainId, BTYPE.BASE64);
    let data = await this.settings.load();
    const previous = data.lastChainIds[networkId];
    if (previous !== current) {
      data = await this.settings.update((d) => {
        d.lastChainIds[networkId] = current;
        if (previous !== undefined) d.chainIdChanges[networkId] = { previous, current };
      });
    }
    const change = data.chainIdChanges[networkId];
    return change && change.current === current ? change : undefined;
  }

  /**
   * The user has read the notice of a chain ID change on this network: it is no longer reported.
   * @throws WalletError NOT_FOUND when no network has this id.
   */
  async dismissChainIdChange(networkId: string): Promise<void> {
    await this.get(networkId);
    await this.settings.update((d) => {
      delete d.chainIdChanges[networkId];
    });
  }

  /** The head of a network (the selected one when `id` is absent) with its lag and any chain ID change. */
  async head(id?: string): Promise<HeadInfo> {
    const { network, node } = await this.node(id);
    const [chainId, head] = await Promise.all([node.chainId(), node.head()]);
    const change = await this.observeChainId(network.id, chainId);
    // A chain with no block yet (a fresh devnet that makes blocks on demand) has a genesis head without a time: it
    // has not fallen behind, it has not started.
    const lag = head.height === 0n ? 0n : BigInt(Math.floor(this.now())) - head.time;
    const lagMs = lag > 0n ? lag : 0n;
    return {
      networkId: network.id,
      chainId: bytesToJson(chainId, BTYPE.BASE64),
      height: head.height.toString(),
      time: head.time.toString(),
      lastIrreversible: head.lastIrreversible.toString(),
      lagMs: lagMs.toString(),
      stale: lagMs > BigInt(STALE_AFTER_MS),
      ...(change ? { chainIdChanged: change } : {}),
    };
  }
}
