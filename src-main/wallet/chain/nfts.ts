// NFT collections (KCS-5) per network, as tokens.ts keeps KCS-4 tokens: added by contract address once the contract
// answers as the standard says (name, symbol, uri, get_tokens_by_owner), remembered per network; the tokens an account
// owns in each (get_tokens_by_owner, paged), with name and description from the token's metadata (on chain through
// metadata_of, else KCS-2's `${uri}/${tokenId}`); and each token's image, fetched by main only (nftImages.ts).
import { BTYPE, bytesFromJson, bytesToJson } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { MAX_JSON_DEPTH, jsonDepth } from '../../koinos/jsonDepth.ts';
import type { NftCollectionInfo, NftImageSettings, NftItem, NftOwned } from './types.ts';
import { DEFAULT_NFT_IMAGES, type ChainSettingsStore } from './chainSettings.ts';
import { KCS5_ABI, type Kcs5Method } from './kcs5.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import { readPages, type PageLimits } from './pages.ts';
import {
  MAX_METADATA_BYTES,
  fetchImage,
  fetchMetadata,
  mediaUrl,
  parseMetadata,
  type MediaFetchOptions,
} from './nftImages.ts';
import {
  AddedContracts,
  checkContractReached,
  contractAddress,
  isMissingContract,
  isTransportError,
  nodeSaid,
  whatItDid,
} from './standardContracts.ts';

/** Token ids asked for per get_tokens_by_owner call. */
const PAGE = 100;
/** Most tokens listed per collection and account: a screen of thousands helps nobody and costs a read each. */
const MAX_TOKENS_PER_COLLECTION = 500;
/** Longest token id accepted (koinosbox's collections allow 32 bytes; the standard sets no bound). */
const MAX_TOKEN_ID_BYTES = 128;
/** Metadata read at once (each may be a fetch). */
const METADATA_CONCURRENCY = 8;
/** Off-chain metadata documents kept (each at most MAX_METADATA_BYTES). */
const METADATA_CACHE_SIZE = 1000;
/** Data URLs kept, by total length: images come back on every visit without a new download. */
const IMAGE_CACHE_CHARS = 32 * 1024 * 1024;

const CHECK_METHODS = ['name', 'symbol', 'uri', 'get_tokens_by_owner'] as const;

/** A read-only call of a KCS-5 method, its result as JSON (the standard's types). */
export async function readKcs5(
  node: Pick<KoinosNode, 'readContract'>,
  contract: Uint8Array,
  name: Kcs5Method,
  args: unknown = {},
): Promise<Record<string, unknown>> {
  const method = KCS5_ABI.method(name);
  const bytes = await node.readContract(contract, method.entryPoint, KCS5_ABI.encodeArguments(method, args));
  return KCS5_ABI.decodeResult(method, bytes) as Record<string, unknown>;
}

/**
 * The ids of the tokens `owner` holds in a collection (get_tokens_by_owner), page after page from the last id of the
 * last page, each id once, up to `limits.most`; a page that adds no new id (a collection that lists an id twice, or
 * ignores `start`) ends the list, as a short page does (pages.ts). `cut` when the collection had more.
 */
export function readOwnedTokenIds(
  node: Pick<KoinosNode, 'readContract'>,
  contract: Uint8Array,
  owner: string,
  limits: PageLimits,
): Promise<{ entries: string[]; cut: boolean }> {
  return readPages<string>(
    async (last) => {
      const answer = await readKcs5(node, contract, 'get_tokens_by_owner', {
        owner,
        ...(last ? { start: last } : {}),
        limit: limits.page,
      });
      return Array.isArray(answer['token_ids']) ? answer['token_ids'].map(String) : [];
    },
    (id) => id,
    limits,
  );
}

/**
 * A token id as typed or sent by the renderer: "0x" and hex digits, 1 to {@link MAX_TOKEN_ID_BYTES} bytes; returned
 * in the chain's HEX JSON form (lowercase).
 * @throws WalletError INVALID_ARGUMENT saying what is wrong.
 */
export function tokenIdOf(text: string): { bytes: Uint8Array; id: string } {
  let bytes: Uint8Array;
  try {
    bytes = bytesFromJson(text, BTYPE.HEX, 'token id');
  } catch (cause) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected an NFT token id as "0x" and hex digits, got ${describe(text)}`,
      { cause },
    );
  }
  if (bytes.length === 0 || bytes.length > MAX_TOKEN_ID_BYTES) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected an NFT token id of 1 to ${MAX_TOKEN_ID_BYTES} bytes, got ${bytes.length}`,
    );
  }
  return { bytes, id: bytesToJson(bytes, BTYPE.HEX) };
}

/**
 * Name, symbol and uri of the KCS-5 collection at `contract`, once it answers the standard's reads (its
 * get_tokens_by_owner is asked for one token of the contract's own address: any collection answers, a KCS-4 token
 * does not have the entry point).
 * @throws WalletError NOT_FOUND (no contract there), UNKNOWN_COLLECTION (not a KCS-5 collection, saying what it answered
 *   and refused), transport errors as they are.
 * @example
 * await readCollectionInfo(node, addressFromString('1Nft...')); // { contract: '1Nft...', name: 'My NFT', symbol: 'NFT', uri: '' }
 */
export async function readCollectionInfo(node: KoinosNode, contract: Uint8Array): Promise<NftCollectionInfo> {
  const address = bytesToJson(contract, BTYPE.ADDRESS);
  const reads = await Promise.allSettled(
    CHECK_METHODS.map((name) =>
      readKcs5(node, contract, name, name === 'get_tokens_by_owner' ? { owner: address, limit: 1 } : {}),
    ),
  );
  checkContractReached(address, reads);
  const answered: string[] = [];
  const refused: string[] = [];
  const text: Record<string, string> = {};
  CHECK_METHODS.forEach((name, i) => {
    const read = reads[i]!;
    if (read.status === 'rejected') {
      const reason =
        read.reason instanceof WalletError && !read.reason.details ? read.reason.shortMessage : nodeSaid(read.reason);
      refused.push(`${name} (${reason})`);
      return;
    }
    if (name === 'get_tokens_by_owner') return answered.push(name);
    const value = read.value['value'] ?? '';
    text[name] = typeof value === 'string' ? value : '';
    answered.push(`${name} ${describe(value)}`);
  });
  const symbol = (text['symbol'] ?? '').trim();
  if (refused.length === 0 && symbol !== '')
    return { contract: address, name: text['name'] || symbol, symbol, uri: (text['uri'] ?? '').trim() };
  const flaws = [refused.length === 0 && symbol === '' ? 'has an empty symbol' : ''];
  throw new WalletError(
    'UNKNOWN_COLLECTION',
    `expected a KCS-5 NFT collection at ${address} (answering name, symbol, uri and get_tokens_by_owner), found a contract that ${whatItDid(answered, refused, flaws)}. Only KCS-5 collections can be added: check the address (a KCS-4 token is added on the Dashboard).`,
  );
}

export interface NftServiceOptions {
  networks: NetworkService;
  settings: ChainSettingsStore;
  /** Cap and timeout of image and metadata fetches (tests make them small). */
  media?: MediaFetchOptions;
}

/**
 * Collections per network, the NFTs an account owns in them, and their images.
 * @example
 * await nfts.add('testnet', '1Nft...');
 * const owned = await nfts.owned('testnet', '1Abc...');
 * const { dataUrl } = await nfts.image('testnet', owned.collections[0].collection.contract, owned.collections[0].tokens[0].tokenId);
 */
export class NftService {
  private readonly networks: NetworkService;
  private readonly settings: ChainSettingsStore;
  private readonly media: MediaFetchOptions;
  /** `network contract tokenId` -> the image address found in the token's metadata by the last listing. */
  private readonly imageUrls = new Map<string, string>();
  private readonly images = new Map<string, string>();
  private readonly fetchedMetadata = new Map<string, Record<string, unknown>>();
  private imageChars = 0;
  private readonly added: AddedContracts<NftCollectionInfo>;

  constructor(options: NftServiceOptions) {
    this.networks = options.networks;
    this.settings = options.settings;
    this.media = options.media ?? {};
    this.added = new AddedContracts({ ...options, lists: (d) => d.nftCollections, read: readCollectionInfo });
  }

  /** The collections added on a network, in the order added (no node needed). */
  list(networkId: string): Promise<NftCollectionInfo[]> {
    return this.added.stored(networkId);
  }

  /**
   * What the contract at `contract` says of itself now, checked against KCS-5, without remembering it.
   * @throws WalletError INVALID_ADDRESS, NOT_FOUND, UNKNOWN_COLLECTION.
   */
  inspect(networkId: string, contract: string): Promise<NftCollectionInfo> {
    return this.added.inspect(networkId, contract);
  }

  /**
   * Adds a collection after checking it against KCS-5 on the chain (an added one is answered as it is).
   * @throws WalletError INVALID_ADDRESS, NOT_FOUND, UNKNOWN_COLLECTION.
   */
  add(networkId: string, contract: string): Promise<NftCollectionInfo> {
    return this.added.add(networkId, contract);
  }

  /** Removes a collection from a network's list. */
  async remove(networkId: string, contract: string): Promise<NftCollectionInfo[]> {
    await this.added.remove(networkId, contractAddress(contract).address);
    return this.list(networkId);
  }

  async imageSettings(): Promise<NftImageSettings> {
    return (await this.settings.load()).nftImages;
  }

  /**
   * Changes whether images are fetched and the IPFS gateway (an http(s) URL; a missing final "/" is added).
   * @throws WalletError INVALID_ARGUMENT for a gateway that is not an http(s) URL without credentials.
   */
  async updateImageSettings(patch: Partial<NftImageSettings>): Promise<NftImageSettings> {
    let gateway = patch.ipfsGateway;
    if (gateway !== undefined) {
      let url: URL | undefined;
      try {
        url = new URL(gateway.trim());
      } catch {
        url = undefined;
      }
      if (
        !url ||
        (url.protocol !== 'https:' && url.protocol !== 'http:') ||
        url.username !== '' ||
        url.password !== '' ||
        url.search !== '' ||
        url.hash !== ''
      ) {
        throw new WalletError(
          'INVALID_ARGUMENT',
          `expected the IPFS gateway as an http(s) address such as "https://ipfs.io/ipfs/", got ${describe(gateway.slice(0, 80))}`,
        );
      }
      gateway = url.href.endsWith('/') ? url.href : `${url.href}/`;
    }
    const data = await this.settings.update((d) => {
      if (patch.enabled !== undefined) d.nftImages.enabled = patch.enabled;
      if (gateway !== undefined) d.nftImages.ipfsGateway = gateway;
    });
    this.images.clear(); // another gateway may serve other bytes
    this.imageChars = 0;
    return data.nftImages;
  }

  /** Whether images are fetched on this network: never on the offline-only local devnet, nor when turned off. */
  private async imageMode(networkId: string): Promise<{ mode: NftOwned['images']; settings: NftImageSettings }> {
    const network = await this.networks.get(networkId);
    const settings = await this.imageSettings();
    if (network.kind === 'local') return { mode: 'off-local', settings };
    return { mode: settings.enabled ? 'on' : 'off-setting', settings };
  }

  /**
   * The NFTs `owner` holds in every collection added on the network: up to {@link MAX_TOKENS_PER_COLLECTION} per
   * collection, each with the name and description of its metadata. A collection that cannot be read is listed with
   * its problem; a token whose metadata cannot be read, with its own.
   */
  async owned(networkId: string, owner: string): Promise<NftOwned> {
    const { network, node } = await this.networks.node(networkId);
    const { mode, settings } = await this.imageMode(network.id);
    const collections: NftOwned['collections'] = [];
    for (const collection of await this.list(network.id)) {
      try {
        const ids = await this.tokenIds(node, collection, owner);
        const tokens: NftItem[] = [];
        for (let i = 0; i < ids.length; i += METADATA_CONCURRENCY) {
          tokens.push(
            ...(await Promise.all(
              ids
                .slice(i, i + METADATA_CONCURRENCY)
                .map((id) => this.item(network.id, node, collection, id, mode === 'on' ? settings : undefined)),
            )),
          );
        }
        collections.push({ collection, tokens });
      } catch (error) {
        if (!(error instanceof WalletError) || isTransportError(error)) throw error;
        const problem = isMissingContract(error)
          ? `No contract answers at ${collection.contract} on this network any more (a restart of a test network removes its contracts). Remove ${collection.symbol}, or add it again at its new address.`
          : `${collection.symbol} did not list the account's tokens: ${nodeSaid(error)}`;
        collections.push({ collection, tokens: [], problem });
      }
    }
    return { networkId: network.id, collections, images: mode };
  }

  /** The collection's tokens `owner` holds, up to the cap (readOwnedTokenIds). */
  private async tokenIds(node: KoinosNode, collection: NftCollectionInfo, owner: string): Promise<string[]> {
    const contract = contractAddress(collection.contract).bytes;
    return (await readOwnedTokenIds(node, contract, owner, { page: PAGE, most: MAX_TOKENS_PER_COLLECTION })).entries;
  }

  /** One token with what its metadata says; `fetching` absent: nothing is fetched from outside the chain. */
  private async item(
    networkId: string,
    node: KoinosNode,
    collection: NftCollectionInfo,
    tokenId: string,
    fetching: NftImageSettings | undefined,
  ): Promise<NftItem> {
    const base: NftItem = { contract: collection.contract, tokenId, hasImage: false };
    let metadata: Record<string, unknown> | undefined;
    try {
      metadata = await this.metadata(node, collection, tokenId, fetching);
    } catch (error) {
      if (!(error instanceof WalletError) || isTransportError(error)) throw error;
      return { ...base, problem: error.shortMessage };
    }
    if (!metadata) return base;
    const text = (key: string) => (typeof metadata[key] === 'string' ? metadata[key].trim().slice(0, 500) : undefined);
    const name = text('name');
    const description = text('description');
    const image = text('image');
    let hasImage = false;
    if (image) {
      try {
        mediaUrl(image, DEFAULT_NFT_IMAGES.ipfsGateway); // only its kind is checked here: the gateway applies when fetched
        // Kept whatever the mode, so that turning images on needs no new listing; fetched only by image().
        this.imageUrls.set(`${networkId} ${collection.contract} ${tokenId}`, image);
        hasImage = true;
      } catch {
        hasImage = false; // an address of another kind (data:, javascript:) is never fetched nor shown
      }
    }
    return { ...base, ...(name ? { name } : {}), ...(description ? { description } : {}), hasImage };
  }

  /** On-chain metadata_of first (KCS-5), else KCS-2's `${uri}/${tokenId}` when fetching is on; undefined when neither has any. */
  private async metadata(
    node: KoinosNode,
    collection: NftCollectionInfo,
    tokenId: string,
    fetching: NftImageSettings | undefined,
  ): Promise<Record<string, unknown> | undefined> {
    const contract = contractAddress(collection.contract).bytes;
    let onChain = '';
    try {
      const value = (await readKcs5(node, contract, 'metadata_of', { token_id: tokenId }))['value'];
      onChain = typeof value === 'string' ? value : '';
    } catch (error) {
      if (isTransportError(error)) throw error; // a collection without metadata_of keeps its metadata off chain
    }
    if (onChain.trim() !== '') {
      if (onChain.length > MAX_METADATA_BYTES || jsonDepth(onChain) > MAX_JSON_DEPTH)
        throw new WalletError(
          'IMAGE_REFUSED',
          `The metadata of ${tokenId} on chain is larger than ${MAX_METADATA_BYTES} bytes.`,
        );
      return parseMetadata(onChain, `metadata_of(${tokenId})`);
    }
    if (collection.uri === '' || !fetching) return undefined;
    const url = mediaUrl(`${collection.uri.replace(/\/+$/, '')}/${tokenId}`, fetching.ipfsGateway);
    const cached = this.fetchedMetadata.get(url.href);
    if (cached) return cached;
    const metadata = await fetchMetadata(url, this.media);
    // Off-chain metadata is fetched once per address (KCS-2 metadata does not change): the screen lists on every visit.
    if (this.fetchedMetadata.size >= METADATA_CACHE_SIZE)
      this.fetchedMetadata.delete(this.fetchedMetadata.keys().next().value!);
    this.fetchedMetadata.set(url.href, metadata);
    return metadata;
  }

  /**
   * The image of a token as a data: URL, fetched by main and checked to be PNG, JPEG, GIF or WebP by its bytes.
   * @throws WalletError IMAGE_REFUSED (images off on this network, no image in the metadata, or the fetch refused),
   *   INVALID_ARGUMENT (token id), transport errors of the node.
   */
  async image(networkId: string, contract: string, tokenId: string): Promise<{ dataUrl: string }> {
    const { mode, settings } = await this.imageMode(networkId);
    if (mode === 'off-local')
      throw new WalletError('IMAGE_REFUSED', 'Images are not fetched on the local network: it works offline.');
    if (mode === 'off-setting') throw new WalletError('IMAGE_REFUSED', 'Images are turned off in the NFT settings.');
    const { address } = contractAddress(contract);
    const { id } = tokenIdOf(tokenId);
    const key = `${networkId} ${address} ${id}`;
    let image = this.imageUrls.get(key);
    if (image === undefined) {
      const collection = (await this.list(networkId)).find((c) => c.contract === address);
      if (!collection)
        throw new WalletError(
          'NOT_FOUND',
          `expected a collection added on this network, got ${address}. Add it first.`,
        );
      const { node } = await this.networks.node(networkId);
      const metadata = await this.metadata(node, collection, id, settings);
      image = typeof metadata?.['image'] === 'string' ? metadata['image'] : '';
    }
    if (image === '') throw new WalletError('IMAGE_REFUSED', `The metadata of ${id} names no image.`);
    const url = mediaUrl(image, settings.ipfsGateway);
    const cached = this.images.get(url.href);
    if (cached) return { dataUrl: cached };
    const dataUrl = await fetchImage(url, this.media);
    this.remember(url.href, dataUrl);
    return { dataUrl };
  }

  private remember(key: string, dataUrl: string): void {
    if (dataUrl.length > IMAGE_CACHE_CHARS) return;
    this.images.set(key, dataUrl);
    this.imageChars += dataUrl.length;
    for (const [k, v] of this.images) {
      if (this.imageChars <= IMAGE_CACHE_CHARS) break;
      this.images.delete(k);
      this.imageChars -= v.length;
    }
  }
}
