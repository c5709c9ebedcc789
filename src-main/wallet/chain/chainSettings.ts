// What the chain services remember between runs, none of it secret: custom networks, the selected network, the last
// chain ID seen on each network (only to notice a change), each network's tokens and NFT collections, and how NFT
// images are fetched. Kept in one JSON file written
// atomically, or in memory (tests, the CLI).
import { join } from 'node:path';
import type { NftCollectionInfo, NftImageSettings, TokenInfo } from './types.ts';
import { JsonFileStore } from '../jsonFileStore.ts';
import { redactUrlsInText } from './redactUrl.ts';

export interface CustomNetwork {
  id: string;
  name: string;
  jsonRpcUrl: string;
  restUrl?: string;
}

export interface ChainSettingsData {
  selectedNetworkId?: string;
  customNetworks: CustomNetwork[];
  /** Network id -> chain ID (base64) last seen there. */
  lastChainIds: Record<string, string>;
  /**
   * Network id -> the chain ID change noticed there (a restart of the network) that the user has not dismissed yet:
   * kept so that the notice survives a restart of the wallet.
   */
  chainIdChanges: Record<string, { previous: string; current: string }>;
  /** Network id -> tokens known there (system tokens as resolved, and the ones the user added). */
  tokens: Record<string, TokenInfo[]>;
  /** Network id -> the KCS-5 collections the user added there. */
  nftCollections: Record<string, NftCollectionInfo[]>;
  /** Whether NFT images are fetched at all, and the gateway `ipfs://` addresses go through. */
  nftImages: NftImageSettings;
}

/** Images on, through the public gateway Kondor and Konio use. */
export const DEFAULT_NFT_IMAGES: Readonly<NftImageSettings> = Object.freeze({
  enabled: true,
  ipfsGateway: 'https://ipfs.io/ipfs/',
});

/** Where the data is kept: `load` once, `update` for every change (serialized; each update is one atomic write). */
export interface ChainSettingsStore {
  load(): Promise<ChainSettingsData>;
  update(change: (data: ChainSettingsData) => void): Promise<ChainSettingsData>;
  /** Where the stored file is kept as it was, once `load` found more in it than it could read. */
  readonly keptAside?: string | undefined;
}

/** The file name inside the data folder. */
export const CHAIN_SETTINGS_FILE = 'chain-settings.json';

function empty(): ChainSettingsData {
  return {
    customNetworks: [],
    lastChainIds: {},
    chainIdChanges: {},
    tokens: {},
    nftCollections: {},
    nftImages: { ...DEFAULT_NFT_IMAGES },
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the stored data, keeping only well-formed parts (a damaged entry is dropped, never a reason to fail). */
function readData(json: unknown): ChainSettingsData {
  const data = empty();
  if (!isRecord(json)) return data;
  if (typeof json['selectedNetworkId'] === 'string') data.selectedNetworkId = json['selectedNetworkId'];
  if (Array.isArray(json['customNetworks'])) {
    for (const n of json['customNetworks']) {
      if (
        isRecord(n) &&
        typeof n['id'] === 'string' &&
        typeof n['name'] === 'string' &&
        typeof n['jsonRpcUrl'] === 'string'
      ) {
        data.customNetworks.push({
          id: n['id'],
          name: n['name'],
          jsonRpcUrl: n['jsonRpcUrl'],
          ...(typeof n['restUrl'] === 'string' ? { restUrl: n['restUrl'] } : {}),
        });
      }
    }
  }
  if (isRecord(json['lastChainIds'])) {
    for (const [k, v] of Object.entries(json['lastChainIds'])) if (typeof v === 'string') data.lastChainIds[k] = v;
  }
  if (isRecord(json['chainIdChanges'])) {
    for (const [k, v] of Object.entries(json['chainIdChanges'])) {
      if (isRecord(v) && typeof v['previous'] === 'string' && typeof v['current'] === 'string')
        data.chainIdChanges[k] = { previous: v['previous'], current: v['current'] };
    }
  }
  if (isRecord(json['tokens'])) {
    for (const [k, list] of Object.entries(json['tokens'])) {
      if (!Array.isArray(list)) continue;
      data.tokens[k] = list.filter(
        (t): t is TokenInfo =>
          isRecord(t) &&
          typeof t['contract'] === 'string' &&
          typeof t['name'] === 'string' &&
          typeof t['symbol'] === 'string' &&
          typeof t['decimals'] === 'number',
      );
    }
  }
  if (isRecord(json['nftCollections'])) {
    for (const [k, list] of Object.entries(json['nftCollections'])) {
      if (!Array.isArray(list)) continue;
      data.nftCollections[k] = list.filter(
        (c): c is NftCollectionInfo =>
          isRecord(c) &&
          typeof c['contract'] === 'string' &&
          typeof c['name'] === 'string' &&
          typeof c['symbol'] === 'string' &&
          typeof c['uri'] === 'string',
      );
    }
  }
  const images = json['nftImages'];
  if (isRecord(images) && typeof images['enabled'] === 'boolean' && typeof images['ipfsGateway'] === 'string') {
    data.nftImages = { enabled: images['enabled'], ipfsGateway: images['ipfsGateway'] };
  }
  return data;
}

/** Kept in memory only. */
export class MemoryChainSettings implements ChainSettingsStore {
  private data: ChainSettingsData;

  constructor(initial: Partial<ChainSettingsData> = {}) {
    this.data = { ...empty(), ...structuredClone(initial) };
  }

  async load(): Promise<ChainSettingsData> {
    return structuredClone(this.data);
  }

  async update(change: (data: ChainSettingsData) => void): Promise<ChainSettingsData> {
    const next = structuredClone(this.data);
    change(next);
    this.data = next;
    return structuredClone(next);
  }
}

/**
 * Kept in `<dataDir>/chain-settings.json`; every update rewrites it atomically, so a crash leaves the old or the new file.
 * @example
 * const settings = new FileChainSettings(app.getPath('userData'));
 * await settings.update((d) => { d.selectedNetworkId = 'testnet'; });
 */
export class FileChainSettings implements ChainSettingsStore {
  readonly path: string;
  // A damaged file starts over with the built-in networks; tokens are found again, and a file the wallet cannot read
  // whole is kept beside it as it was (JsonFileStore).
  private readonly store: JsonFileStore<ChainSettingsData>;

  constructor(dataDir: string) {
    this.path = join(dataDir, CHAIN_SETTINGS_FILE);
    this.store = new JsonFileStore(this.path, {
      read: readData,
      what: 'the network settings',
      code: 'INTERNAL',
      // Addresses of an older wallet carried API keys in their query: the copy keeps everything else byte for byte.
      keptAs: (bytes) => Buffer.from(redactUrlsInText(Buffer.from(bytes).toString('latin1')), 'latin1'),
    });
  }

  async load(): Promise<ChainSettingsData> {
    return structuredClone(await this.store.read());
  }

  get keptAside(): string | undefined {
    return this.store.keptAside;
  }

  update(change: (data: ChainSettingsData) => void): Promise<ChainSettingsData> {
    return this.store.update((next) => {
      change(next);
      return structuredClone(next);
    });
  }
}
