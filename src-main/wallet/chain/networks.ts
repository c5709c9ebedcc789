// The networks the wallet knows (the embedded Local devnet, Harbinger testnet, Mainnet, and custom ones), the selected
// one, a node client for each, and the head as the dashboard shows it - with a plain notice when a network's chain ID
// is not the one last seen there (a testnet restart).
import { randomUUID } from 'node:crypto';
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import type { HeadInfo, NetworkInfo, NetworkInput } from '../../ipc/contract.ts';
import type { ApiKeyStore } from './apiKeyStore.ts';
import type { ChainSettingsStore, CustomNetwork } from './chainSettings.ts';
import { KoinosNode } from './koinosNode.ts';

/** A head block time this far behind the clock means the chain or the node is stuck (blocks come every ~3 s). */
export const STALE_AFTER_MS = 3 * 60_000;

export const LOCAL_NETWORK_ID = 'local';
export const TESTNET_NETWORK_ID = 'testnet';
export const MAINNET_NETWORK_ID = 'mainnet';

/** The public endpoints (protocol facts §5): JSON-RPC only, as the wallet needs nothing else. */
export const BUILT_IN_NETWORKS: readonly Omit<NetworkInfo, 'hasApiKey'>[] = [
  { id: TESTNET_NETWORK_ID, name: 'Testnet (Harbinger)', kind: 'testnet', jsonRpcUrl: 'https://harbinger-api.koinos.io' },
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

function checkUrl(raw: unknown, what: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new WalletError('INVALID_ARGUMENT', `expected ${what} as an http(s) URL, got ${describe(raw)}`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WalletError('INVALID_ARGUMENT', `expected ${what} as an http(s) URL such as https://api.koinos.io, got text that is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WalletError('INVALID_ARGUMENT', `expected ${what} as an http(s) URL, got a ${url.protocol} URL`);
  }
  if (url.username || url.password) {
    throw new WalletError('INVALID_ARGUMENT', `expected ${what} without a user name or password in it; put an API key in the network's API key field instead`);
  }
  return url.toString();
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
  /** Chain ID changes noticed in this run, reported with the head until the wallet restarts. */
  private readonly changes = new Map<string, { previous: string; current: string }>();

  constructor(options: NetworkServiceOptions) {
    this.settings = options.settings;
    this.apiKeys = options.apiKeys;
    this.localDevnetUrl = options.localDevnetUrl;
    this.timeoutMs = options.timeoutMs;
    this.now = options.now ?? Date.now;
  }

  private async describeNetwork(base: Omit<NetworkInfo, 'hasApiKey'>): Promise<NetworkInfo> {
    return { ...base, hasApiKey: this.apiKeys.has ? await this.apiKeys.has(base.id) : (await this.apiKeys.get(base.id)) !== undefined };
  }

  private localEntry(): Omit<NetworkInfo, 'hasApiKey'>[] {
    // The URL is filled when the devnet runs; until then the entry shows where it will listen by default.
    return this.localDevnetUrl ? [{ id: LOCAL_NETWORK_ID, name: 'Local (devnet)', kind: 'local', jsonRpcUrl: 'http://127.0.0.1:8080/jsonrpc' }] : [];
  }

  private defaultId(): string {
    return this.localDevnetUrl ? LOCAL_NETWORK_ID : MAINNET_NETWORK_ID;
  }

  /** Every network (Local, Testnet, Mainnet, then custom ones in the order added) and the selected one's id. */
  async list(): Promise<{ networks: NetworkInfo[]; selectedId: string }> {
    const data = await this.settings.load();
    const all = [...this.localEntry(), ...BUILT_IN_NETWORKS, ...data.customNetworks.map((n) => ({ ...n, kind: 'custom' as const }))];
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
    const selected = data.selectedNetworkId && networks.some((n) => n.id === data.selectedNetworkId) ? data.selectedNetworkId : this.defaultId();
    return { networks, selectedId: selected };
  }

  /**
   * One network; the selected one when `id` is absent.
   * @throws WalletError NOT_FOUND for an unknown id.
   */
  async get(id?: string): Promise<NetworkInfo> {
    const { networks, selectedId } = await this.list();
    const wanted = id ?? selectedId;
    const network = networks.find((n) => n.id === wanted);
    if (!network) throw new WalletError('NOT_FOUND', `expected one of the networks ${networks.map((n) => n.id).join(', ')}, got ${describe(wanted)}`);
    return network;
  }

  async select(id: string): Promise<NetworkInfo> {
    const network = await this.get(id);
    await this.settings.update((d) => {
      d.selectedNetworkId = network.id;
    });
    return network;
  }

  /** Adds a custom network (its API key goes to the ApiKeyStore, never to the settings file). */
  async add(input: NetworkInput): Promise<NetworkInfo> {
    const entry: CustomNetwork = {
      id: `custom-${randomUUID()}`,
      name: checkName(input.name),
      jsonRpcUrl: checkUrl(input.jsonRpcUrl, 'the JSON-RPC address'),
      ...(input.restUrl ? { restUrl: checkUrl(input.restUrl, 'the REST address') } : {}),
    };
    if (typeof input.apiKey === 'string' && input.apiKey !== '') await this.apiKeys.set(entry.id, input.apiKey);
    await this.settings.update((d) => {
      d.customNetworks.push(entry);
    });
    return this.get(entry.id);
  }

  /**
   * Changes a custom network; of a built-in one only the API key can change.
   * @throws WalletError NOT_FOUND, INVALID_ARGUMENT.
   */
  async update(id: string, patch: Partial<NetworkInput>): Promise<NetworkInfo> {
    const data = await this.settings.load();
    const custom = data.customNetworks.find((n) => n.id === id);
    if (!custom) {
      await this.get(id); // NOT_FOUND when it is no network at all
      if (patch.name !== undefined || patch.jsonRpcUrl !== undefined || patch.restUrl !== undefined) {
        throw new WalletError('INVALID_ARGUMENT', `expected only an API key change for the built-in network ${id}; add a custom network for another address`);
      }
    }
    const next: CustomNetwork | undefined = custom && {
      ...custom,
      ...(patch.name !== undefined ? { name: checkName(patch.name) } : {}),
      ...(patch.jsonRpcUrl !== undefined ? { jsonRpcUrl: checkUrl(patch.jsonRpcUrl, 'the JSON-RPC address') } : {}),
    };
    if (next && patch.restUrl !== undefined) {
      if (patch.restUrl === '') delete next.restUrl;
      else next.restUrl = checkUrl(patch.restUrl, 'the REST address');
    }
    if (patch.apiKey !== undefined) await this.apiKeys.set(id, patch.apiKey === '' ? null : patch.apiKey);
    if (next) {
      await this.settings.update((d) => {
        d.customNetworks = d.customNetworks.map((n) => (n.id === id ? next : n));
        if (next.jsonRpcUrl !== custom!.jsonRpcUrl) delete d.lastChainIds[id];
      });
    }
    return this.get(id);
  }

  /** Removes a custom network, its API key and its tokens; the selection falls back to the default. */
  async remove(id: string): Promise<NetworkInfo[]> {
    const data = await this.settings.load();
    if (!data.customNetworks.some((n) => n.id === id)) {
      await this.get(id);
      throw new WalletError('INVALID_ARGUMENT', `expected a custom network, got the built-in network ${id}, which cannot be removed`);
    }
    await this.apiKeys.set(id, null);
    await this.settings.update((d) => {
      d.customNetworks = d.customNetworks.filter((n) => n.id !== id);
      delete d.lastChainIds[id];
      delete d.tokens[id];
      if (d.selectedNetworkId === id) delete d.selectedNetworkId;
    });
    return (await this.list()).networks;
  }

  /** A client for the network's node (the Local devnet is started on first use). */
  async node(id?: string): Promise<{ network: NetworkInfo; node: KoinosNode }> {
    let network = await this.get(id);
    if (network.kind === 'local' && this.localDevnetUrl) {
      const url = await this.localDevnetUrl();
      network = { ...network, jsonRpcUrl: `${url}/jsonrpc`, restUrl: url };
    }
    const apiKey = await this.apiKeys.get(network.id);
    const node = new KoinosNode({
      jsonRpc: { url: network.jsonRpcUrl, apiKey, timeoutMs: this.timeoutMs },
      ...(network.restUrl ? { rest: { url: network.restUrl, apiKey, timeoutMs: this.timeoutMs } } : {}),
    });
    return { network, node };
  }

  /**
   * Fetches the chain ID now and compares it with the one last seen on this network; remembers the new one.
   * Returns the change when there is one (a testnet restart): anything signed for `previous` cannot be submitted.
   */
  async observeChainId(networkId: string, chainId: Uint8Array): Promise<{ previous: string; current: string } | undefined> {
    const current = bytesToJson(chainId, BTYPE.BASE64);
    const data = await this.settings.load();
    const previous = data.lastChainIds[networkId];
    if (previous !== current) {
      await this.settings.update((d) => {
        d.lastChainIds[networkId] = current;
      });
      if (previous !== undefined) this.changes.set(networkId, { previous, current });
    }
    const change = this.changes.get(networkId);
    return change && change.current === current ? change : undefined;
  }

  /** The head of a network (the selected one when `id` is absent) with its lag and any chain ID change. */
  async head(id?: string): Promise<HeadInfo> {
    const { network, node } = await this.node(id);
    const [chainId, head] = await Promise.all([node.chainId(), node.head()]);
    const change = await this.observeChainId(network.id, chainId);
    const lag = BigInt(Math.floor(this.now())) - head.time;
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
