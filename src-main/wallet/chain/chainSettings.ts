// What the chain services remember between runs, none of it secret: custom networks, the selected network, the last
// chain ID seen on each network (only to notice a change), each network's tokens and NFT collections, and how NFT
// images are fetched. Kept in one JSON file written
// atomically, or in memory (tests, the CLI).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WalletError } from '../../koinos/errors.ts';
import type { NftCollectionInfo, NftImageSettings, TokenInfo } from '../../ipc/contract.ts';
import { writeFileAtomic } from '../atomicFile.ts';

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
export const DEFAULT_NFT_IMAGES: Readonly<NftImageSettings> = Object.freeze({ enabled: true, ipfsGateway: 'https://ipfs.io/ipfs/' });

/** Where the data is kept: `load` once, `update` for every change (serialized; each update is one atomic write). */
export interface ChainSettingsStore {
  load(): Promise<ChainSettingsData>;
  update(change: (data: ChainSettingsData) => void): Promise<ChainSettingsData>;
}

/** The file name inside the data folder. */
export const CHAIN_SETTINGS_FILE = 'chain-settings.json';

function empty(): ChainSettingsData {
  return { customNetworks: [], lastChainIds: {}, chainIdChanges: {}, tokens: {}, nftCollections: {}, nftImages: { ...DEFAULT_NFT_IMAGES } };
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
      if (isRecord(n) && typeof n['id'] === 'string' && typeof n['name'] === 'string' && typeof n['jsonRpcUrl'] === 'string') {
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
      if (isRecord(v) && typeof v['previous'] === 'string' && typeof v['current'] === 'string') data.chainIdChanges[k] = { previous: v['previous'], current: v['current'] };
    }
  }
  if (isRecord(json['tokens'])) {
    for (const [k, list] of Object.entries(json['tokens'])) {
      if (!Array.isArray(list)) continue;
      data.tokens[k] = list.filter(
        (t): t is TokenInfo =>
          isRecord(t) && typeof t['contract'] === 'string' && typeof t['name'] === 'string' && typeof t['symbol'] === 'string' && typeof t['decimals'] === 'number',
      );
    }
  }
  if (isRecord(json['nftCollections'])) {
    for (const [k, list] of Object.entries(json['nftCollections'])) {
      if (!Array.isArray(list)) continue;
      data.nftCollections[k] = list.filter(
        (c): c is NftCollectionInfo => isRecord(c) && typeof c['contract'] === 'string' && typeof c['name'] === 'string' && typeof c['symbol'] === 'string' && typeof c['uri'] === 'string',
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
  private cached: ChainSettingsData | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.path = join(dataDir, CHAIN_SETTINGS_FILE);
  }

  async load(): Promise<ChainSettingsData> {
    if (!this.cached) {
      let text: string | undefined;
      try {
        text = await readFile(this.path, 'utf8');
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') {
          throw new WalletError('INTERNAL', `Cannot read the network settings in ${this.path}. Check the folder's permissions.`, { cause });
        }
      }
      let json: unknown;
      try {
        json = text === undefined ? undefined : JSON.parse(text);
      } catch {
        json = undefined; // a damaged file starts over with the built-in networks; tokens are found again
      }
      this.cached = readData(json);
    }
    return structuredClone(this.cached);
  }

  update(change: (data: ChainSettingsData) => void): Promise<ChainSettingsData> {
    const run = this.tail.then(async () => {
      const next = await this.load();
      change(next);
      await writeFileAtomic(this.path, JSON.stringify({ version: 1, ...next }, null, 2));
      this.cached = next;
      return structuredClone(next);
    });
    this.tail = run.catch(() => {});
    return run;
  }
}
