// Recipient names on a network: `@name` through the nicknames contract (get_address, as Kondor resolves it) and
// `alice.koin` through KAP (get_name), and the other way, the names of an address (nicknames get_main_token, checked
// forward; KAP get_names). Which contracts a network has is known by network (mainnet, harbinger) or, for the Local
// and custom networks, by where the chain's name service puts KOIN. Addresses: shared research §1 and §3.
import { bytesToUtf8, equalBytes } from '../../koinos/bytes.ts';
import { BTYPE, bytesToJson, encode } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { readRecipientText, shownBesideAddress } from '../../koinos/recipientName.ts';
import type { AddressNames, NameSource, ResolvedName } from './types.ts';
import { decodeAnswer, type KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import { chainCodeOf } from './nodeError.ts';
import { isMissingContract, isTransportError } from './standardContracts.ts';
import type { TokenService } from './tokens.ts';

/** Entry points (sha256 of the name, first 4 bytes) of the two name contracts. */
const NAME_ENTRY_POINTS = {
  nicknames_get_address: 0xa61ae5e8,
  nicknames_get_main_token: 0x3ecda7bf,
  kap_get_name: 0xe5070a16,
  kap_get_names: 0xcd5c6518,
} as const;

const NICK = 'koinos.contracts.nicknames.';
const KAP = 'koinos.contracts.kap.';

/** Where the name contracts are, for a family of networks. */
interface NameContracts {
  nicknames?: string;
  kap?: string;
}

/** Mainnet: kondor src/ts/storage.ts:70-71, koinos-rest app.config.ts:19-20. */
const MAINNET_NAMES: NameContracts = {
  nicknames: '1KD9Es7LBBjA1FY3ViCgQJ7e6WH1ipKbhz',
  kap: '13tmzDmfqCsbYT26C4CmKxq86d33senqH3',
};
/** Harbinger: kondor storage.ts:93. It has no KAP (Kondor and Konio resolve KAP on mainnet only). */
const HARBINGER_NAMES: NameContracts = { nicknames: '1KXsC2bSnKAMAZ51gq3xxKBo74a7cDJjkR' };

/**
 * A chain's KOIN address tells which family it belongs to (a devnet shaped like mainnet places KOIN at mainnet's
 * address, and the nicknames contract too): mainnet's KOIN now and before the 2025-04 upgrade, harbinger's.
 */
const FAMILY_BY_KOIN: Record<string, NameContracts> = {
  '19GYjDBVXU7keLbYvMLazsGQn3GTWHjHkK': MAINNET_NAMES,
  '15DJN4a8SgrbGhhGksSBASiSYjGnMU8dGL': MAINNET_NAMES,
  '1FaSvLjQJsCJKq5ybmGsMMQs8RQYyVv8ju': HARBINGER_NAMES,
};

/** How long the names of an address are reused (history pages ask again on every new block). */
const REVERSE_CACHE_MS = 30_000;
/** At most this many KAP names are shown for one address. */
const KAP_NAMES_SHOWN = 3n;

const SERVICE = { nickname: 'nicknames contract', kap: 'KAP name service' } as const;

export interface NameServiceOptions {
  networks: NetworkService;
  tokens: TokenService;
}

/**
 * Resolves recipient names and finds the names of addresses, on one network at a time.
 * @example
 * const names = new NameResolver({ networks, tokens });
 * await names.resolve('mainnet', '@koin'); // { address: '19GYj…', name: '@koin', source: 'nickname', flags: { … } }
 */
export class NameResolver {
  private readonly networks: NetworkService;
  private readonly tokens: TokenService;
  private readonly reverseCache = new Map<string, { at: number; names: AddressNames }>();

  constructor(options: NameServiceOptions) {
    this.networks = options.networks;
    this.tokens = options.tokens;
  }

  /** The name contracts of a network: by its kind for the public networks, by where KOIN is for the others. */
  async contracts(networkId: string): Promise<NameContracts> {
    const network = await this.networks.get(networkId);
    if (network.kind === 'mainnet') return MAINNET_NAMES;
    if (network.kind === 'testnet') return HARBINGER_NAMES;
    const koin = await this.tokens.resolve(networkId, 'koin');
    return FAMILY_BY_KOIN[koin.contract] ?? {};
  }

  /**
   * The address a typed `@nickname` or KAP name points to on this network, with what the contract says about it.
   * @throws WalletError INVALID_ARGUMENT (not a name: an address or malformed text), NAME_SERVICE_UNAVAILABLE (the
   *   network has no such contract), NAME_NOT_FOUND (nobody holds the name, or it expired); node errors as they are.
   */
  async resolve(networkId: string, text: string): Promise<ResolvedName> {
    const read = readRecipientText(text);
    if (read.kind === 'invalid') throw new WalletError('INVALID_ARGUMENT', `That is not a name: ${read.reason}.`);
    if (read.kind === 'address')
      throw new WalletError(
        'INVALID_ARGUMENT',
        'expected an @nickname or a name such as alice.koin, got text that is meant as an address',
      );
    const source: NameSource = read.kind;
    const { node, network } = await this.networks.node(networkId);
    const contract = (await this.contracts(networkId))[source === 'nickname' ? 'nicknames' : 'kap'];
    const shown = read.kind === 'nickname' ? `@${read.nickname}` : read.name;
    if (!contract) throw unavailable(source, network.name);
    if (read.kind === 'nickname') {
      const bytes = await readName(
        node,
        contract,
        NAME_ENTRY_POINTS.nicknames_get_address,
        encode(`${NICK}str`, { value: read.nickname }),
        source,
        shown,
        network.name,
      );
      const data = decodeAnswer(`${NICK}address_data`, bytes, node.rpc.displayUrl, `get_address of ${shown}`);
      if (!data.value || data.value.length === 0) throw notFound(shown, network.name);
      const permanent = data.permanent_address === true;
      const governance = data.address_modifiable_only_by_governance === true;
      return {
        address: bytesToJson(data.value, BTYPE.ADDRESS),
        name: shown,
        source,
        contract,
        // Kondor's reading of the flags: an address that is neither permanent nor held by governance can be moved by
        // the nickname's owner at any time, so what is sent next week may go elsewhere.
        flags: {
          permanentAddress: permanent,
          modifiableOnlyByGovernance: governance,
          ownerCanChange: !permanent && !governance,
        },
      };
    }
    const bytes = await readName(
      node,
      contract,
      NAME_ENTRY_POINTS.kap_get_name,
      encode(`${KAP}get_name_arguments`, { name: read.name }),
      source,
      shown,
      network.name,
    );
    const object = decodeAnswer(`${KAP}name_object`, bytes, node.rpc.displayUrl, `get_name of ${shown}`);
    if (!object.owner || object.owner.length === 0) throw notFound(shown, network.name);
    // KAP still answers a name in its grace period: its holder let it lapse, and once the period ends anyone may take
    // it. Sending to it now is sending to a name nobody keeps.
    const expiration = object.expiration ?? 0n;
    if (expiration > 0n && expiration <= (await node.head()).time)
      throw new WalletError(
        'NAME_NOT_FOUND',
        `${shown} expired on ${day(expiration)} on ${network.name}. Its holder may renew it until ${day(object.grace_period_end ?? expiration)}; after that anyone can take it. Ask the recipient for their address, or for a name that has not expired.`,
      );
    return {
      address: bytesToJson(object.owner, BTYPE.ADDRESS),
      name: shown,
      source,
      contract,
      // A KAP name follows its NFT: whoever owns the name can transfer it, so the address can change.
      flags: {
        permanentAddress: false,
        modifiableOnlyByGovernance: false,
        ownerCanChange: true,
        ...(object.expiration ? { expiration: object.expiration.toString() } : {}),
      },
    };
  }

  /**
   * The names of each address on this network: its main nickname (only when that nickname points back to it) and up
   * to three KAP names. A network without a contract gives no names of that kind; a contract that refuses a read
   * gives none either. Node errors on the way are thrown.
   */
  async reverse(networkId: string, addresses: string[]): Promise<AddressNames[]> {
    const contracts = await this.contracts(networkId);
    if (!contracts.nicknames && !contracts.kap) return addresses.map((address) => ({ address, kap: [] }));
    const { node } = await this.networks.node(networkId);
    // The chain's time, not this machine's: a name is expired when the head block is past its expiration.
    const now = contracts.kap ? (await node.head()).time : 0n;
    return Promise.all(
      [...new Set(addresses)].map((address) => this.namesOf(networkId, node, contracts, address, now)),
    );
  }

  private async namesOf(
    networkId: string,
    node: KoinosNode,
    contracts: NameContracts,
    address: string,
    now: bigint,
  ): Promise<AddressNames> {
    const key = `${networkId}\n${address}`;
    const cached = this.reverseCache.get(key);
    if (cached && Date.now() - cached.at < REVERSE_CACHE_MS) return cached.names;
    const owner = addressFromString(address);
    const names: AddressNames = { address, kap: [] };
    if (contracts.nicknames) {
      const token = await quietly(() =>
        node.readContract(
          addressFromString(contracts.nicknames!),
          NAME_ENTRY_POINTS.nicknames_get_main_token,
          encode(`${NICK}address`, { value: owner }),
        ),
      );
      const id = token
        ? decodeAnswer(`${NICK}token`, token, node.rpc.displayUrl, 'get_main_token').token_id
        : undefined;
      if (id && id.length > 0) {
        const nickname = bytesToUtf8(id);
        // The main token is the owner's choice, but the nickname may point elsewhere: shown only when it resolves here.
        const forward = await quietly(() =>
          node.readContract(
            addressFromString(contracts.nicknames!),
            NAME_ENTRY_POINTS.nicknames_get_address,
            encode(`${NICK}str`, { value: nickname }),
          ),
        );
        const target = forward
          ? decodeAnswer(`${NICK}address_data`, forward, node.rpc.displayUrl, 'get_address').value
          : undefined;
        if (target && equalBytes(target, owner) && shownBesideAddress(nickname)) names.nickname = `@${nickname}`;
      }
    }
    if (contracts.kap) {
      const args = encode(`${KAP}get_names_arguments`, { owner, limit: KAP_NAMES_SHOWN });
      const bytes = await quietly(() =>
        node.readContract(addressFromString(contracts.kap!), NAME_ENTRY_POINTS.kap_get_names, args),
      );
      const list = bytes
        ? (decodeAnswer(`${KAP}get_names_result`, bytes, node.rpc.displayUrl, 'get_names').names ?? [])
        : [];
      // A look-alike name beside an address would vouch for it as someone else's: only plain names are shown. A name
      // in its grace period (KAP lists it still) is no longer the holder's to show.
      names.kap = list
        .filter((n) => !n.expiration || n.expiration > now)
        .map((n) => `${n.name}.${n.domain}`)
        .filter(shownBesideAddress);
    }
    this.reverseCache.set(key, { at: Date.now(), names });
    if (this.reverseCache.size > 5_000) this.reverseCache.clear();
    return names;
  }
}

/** A read of a name contract; the contract's refusals and a missing contract become the field's words. */
async function readName(
  node: KoinosNode,
  contract: string,
  entryPoint: number,
  args: Uint8Array,
  source: NameSource,
  shown: string,
  networkName: string,
): Promise<Uint8Array> {
  try {
    return await node.readContract(addressFromString(contract), entryPoint, args);
  } catch (error) {
    if (isMissingContract(error)) throw unavailable(source, networkName, error);
    if (!isContractRefusal(error)) throw error;
    // nicknames: "nickname does not exist" (Nicknames.ts get_address); any other refusal is the contract's word on the name.
    const said = error instanceof WalletError ? (error.details ?? error.shortMessage) : String(error);
    if (/does not exist/.test(said)) throw notFound(shown, networkName, error);
    throw new WalletError(
      'NAME_NOT_FOUND',
      `The ${SERVICE[source]} refused to resolve ${shown}. Check the name, or paste the address.`,
      { details: said, cause: error },
    );
  }
}

/** A read whose refusal means "no name" (reverse names decorate an address; they are never needed to send). */
async function quietly(read: () => Promise<Uint8Array>): Promise<Uint8Array | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!isContractRefusal(error) && !isMissingContract(error)) throw error;
    return undefined;
  }
}

/**
 * The contract itself refused the read (System.require / a failure, which the node answers with the chain's error
 * code in its data), as opposed to a node that did not answer or refused the request as such.
 */
function isContractRefusal(error: unknown): boolean {
  if (!(error instanceof WalletError) || (isTransportError(error) && error.code !== 'NODE_ERROR')) return false;
  return chainCodeOf(error) !== undefined;
}

function unavailable(source: NameSource, networkName: string, cause?: unknown): WalletError {
  const what = source === 'nickname' ? '@nicknames' : 'KAP names (name.koin)';
  return new WalletError(
    'NAME_SERVICE_UNAVAILABLE',
    `${networkName} has no ${SERVICE[source]}, so ${what} cannot be resolved here. Paste the address instead.`,
    {
      ...causeOf(cause),
    },
  );
}

/** A time of the chain (ms since 1970) as its day, 2026-11-28. */
function day(ms: bigint): string {
  return new Date(Number(ms)).toISOString().slice(0, 10);
}

function notFound(shown: string, networkName: string, cause?: unknown): WalletError {
  return new WalletError(
    'NAME_NOT_FOUND',
    `Nobody holds the name ${shown} on ${networkName}. Check the spelling, or paste the address.`,
    {
      ...causeOf(cause),
    },
  );
}

/** The cause of a name error and the node's words, when there was one. */
function causeOf(cause: unknown): { cause?: unknown; details?: string } {
  if (cause === undefined) return {};
  return cause instanceof WalletError && cause.details !== undefined ? { cause, details: cause.details } : { cause };
}
