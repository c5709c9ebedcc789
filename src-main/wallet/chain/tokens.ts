// The tokens of each network: KOIN everywhere and VHP where the chain has it (both resolved by system name, as the
// chain does), plus any KCS-4 token added by contract address (name, symbol and decimals read from the contract).
// What was found is remembered per network, so that offline signing can show amounts with the right decimals.
import { BTYPE, bytesToJson, decode, encode } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { KOIN_METHODS } from '../../koinos/koin.ts';
import { tokenEventType } from '../../koinos/tokenEvents.ts';
import type { EventData } from '../../koinos/types.ts';
import type { TokenInfo } from './types.ts';
import type { ChainSettingsStore } from './chainSettings.ts';
import { decodeAnswer, type KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import { AddedContracts, checkContractReached, contractAddress, nodeSaid, whatItDid } from './standardContracts.ts';

/** The system tokens, by the name the chain's name service knows them. */
const SYSTEM_TOKENS = ['koin', 'vhp'] as const;
export type SystemToken = (typeof SYSTEM_TOKENS)[number];

/** How long resolved system token addresses are reused before asking the node again. */
const SYSTEM_CACHE_MS = 60_000;
/** More decimals than any token uses; a contract claiming more is not treated as a token. */
const MAX_DECIMALS = 30;

const EMPTY = new Uint8Array();
const INFO_METHODS = ['name', 'symbol', 'decimals'] as const;

/**
 * Name, symbol and decimals of the KCS-4 token at `contract`, read from the contract now (koinos-contracts-as
 * `contracts/token`: the three read-only entry points every KCS-4 token has).
 * @throws WalletError NOT_FOUND when no contract is uploaded there; UNKNOWN_TOKEN when the contract does not answer them
 * as a token does (saying what it answered); transport errors as they are.
 * @example
 * await readTokenInfo(node, addressFromString('1Abc...')); // { contract: '1Abc...', name: 'My Token', symbol: 'TKN', decimals: 8 }
 */
async function readTokenInfo(node: KoinosNode, contract: Uint8Array): Promise<TokenInfo> {
  const address = bytesToJson(contract, BTYPE.ADDRESS);
  const reads = await Promise.allSettled(
    INFO_METHODS.map((name) => node.readContract(contract, KOIN_METHODS[name].entryPoint, EMPTY)),
  );
  checkContractReached(address, reads);
  const answered: string[] = [];
  const refused: string[] = [];
  const values: { name?: string; symbol?: string; decimals?: number } = {};
  INFO_METHODS.forEach((name, i) => {
    const read = reads[i]!;
    if (read.status === 'rejected') {
      refused.push(`${name} (${nodeSaid(read.reason)})`);
      return;
    }
    try {
      const value = decode(KOIN_METHODS[name].resultType, read.value).value;
      (values as Record<string, unknown>)[name] = value;
      answered.push(`${name} ${typeof value === 'number' ? value : describe(value)}`);
    } catch (cause) {
      refused.push(
        `${name} (an answer that is not a ${name === 'decimals' ? 'number' : 'text'}: ${cause instanceof WalletError ? cause.shortMessage : describe(cause)})`,
      );
    }
  });
  const { name = '', symbol = '', decimals = 0 } = values;
  if (refused.length === 0 && symbol.trim() !== '' && decimals <= MAX_DECIMALS)
    return { contract: address, name: name || symbol, symbol, decimals };
  const flaws = [
    refused.length === 0 && symbol.trim() === '' ? 'has an empty symbol' : '',
    refused.length === 0 && decimals > MAX_DECIMALS ? `claims more than ${MAX_DECIMALS} decimals` : '',
  ];
  throw new WalletError(
    'UNKNOWN_TOKEN',
    `expected a KCS-4 token at ${address} (answering name, symbol and decimals), found a contract that ${whatItDid(answered, refused, flaws)}. Only KCS-4 tokens can be added: check the address.`,
  );
}

/**
 * `known`, then the KCS-4 tokens of the contracts whose token events are among `events` and that `known` lacks, read
 * from those contracts all at once (one round trip, however many there are), marked `unlisted`. A contract that does
 * not answer as a token is left out: its amounts stay in base units.
 * @example
 * const tokens = await withEventTokens(node, receipt.events, await tokenService.list(networkId));
 */
export async function withEventTokens(
  node: KoinosNode,
  events: Iterable<EventData>,
  known: readonly TokenInfo[],
): Promise<TokenInfo[]> {
  const sources = new Set<string>();
  for (const event of events) if (tokenEventType(event.name)) sources.add(bytesToJson(event.source, BTYPE.CONTRACT_ID));
  const unknown = [...sources].filter((source) => !known.some((token) => token.contract === source));
  const read = await Promise.allSettled(unknown.map((source) => readTokenInfo(node, addressFromString(source))));
  return [
    ...known,
    ...read.flatMap((result) => (result.status === 'fulfilled' ? [{ ...result.value, unlisted: true as const }] : [])),
  ];
}

export interface TokenServiceOptions {
  networks: NetworkService;
  settings: ChainSettingsStore;
}

/**
 * Tokens per network, and balances.
 * @example
 * const koin = await tokens.resolve('local', 'koin');
 * const balance = await tokens.balanceOf('local', koin, '1Abc...');
 */
export class TokenService {
  private readonly networks: NetworkService;
  private readonly settings: ChainSettingsStore;
  private readonly systemCache = new Map<string, { at: number; tokens: TokenInfo[] }>();
  private readonly added: AddedContracts<TokenInfo>;

  constructor(options: TokenServiceOptions) {
    this.networks = options.networks;
    this.settings = options.settings;
    this.added = new AddedContracts({ ...options, lists: (d) => d.tokens, read: readTokenInfo });
  }

  /** The tokens remembered for a network (no node needed): what offline signing decodes amounts with. */
  known(networkId: string): Promise<TokenInfo[]> {
    return this.added.stored(networkId);
  }

  /** Forgets the resolved KOIN and VHP of a network: its chain was replaced (a new shape puts them elsewhere). */
  forgetSystemTokens(networkId: string): void {
    this.systemCache.delete(networkId);
  }

  /** KOIN and VHP of this network as the node resolves them now (cached for a minute), remembered for offline use. */
  async systemTokens(networkId: string): Promise<TokenInfo[]> {
    const cached = this.systemCache.get(networkId);
    if (cached && Date.now() - cached.at < SYSTEM_CACHE_MS) return cached.tokens;
    const { node } = await this.networks.node(networkId);
    const found: TokenInfo[] = [];
    for (const name of SYSTEM_TOKENS) {
      const address = await node.systemContract(name);
      if (!address) continue;
      found.push({ ...(await readTokenInfo(node, address)), system: name });
    }
    if (!found.some((t) => t.system === 'koin')) {
      throw new WalletError(
        'NODE_ERROR',
        'The node does not name a KOIN contract (system name "koin"). Check that the network is a Koinos chain.',
      );
    }
    this.systemCache.set(networkId, { at: Date.now(), tokens: found });
    await this.settings.update((d) => {
      const others = (d.tokens[networkId] ?? []).filter(
        (t) => !t.system && !found.some((f) => f.contract === t.contract),
      );
      d.tokens[networkId] = [...found, ...others];
    });
    return found;
  }

  /** KOIN, VHP where present, then the tokens the user added, in the order added. */
  async list(networkId: string): Promise<TokenInfo[]> {
    const system = await this.systemTokens(networkId);
    const added = (await this.known(networkId)).filter(
      (t) => !t.system && !system.some((s) => s.contract === t.contract),
    );
    return [...system, ...added];
  }

  /**
   * A token by `koin`, `vhp` or contract address; a contract not added yet is read from the chain (not remembered).
   * @throws WalletError NOT_FOUND (no VHP on this chain), INVALID_ADDRESS, UNKNOWN_TOKEN.
   */
  async resolve(networkId: string, token: string): Promise<TokenInfo> {
    const wanted = token.trim();
    const lower = wanted.toLowerCase();
    if ((SYSTEM_TOKENS as readonly string[]).includes(lower)) {
      const found = (await this.systemTokens(networkId)).find((t) => t.system === lower);
      if (!found)
        throw new WalletError(
          'NOT_FOUND',
          `This network has no ${lower.toUpperCase()} contract. Choose KOIN or a token contract address.`,
        );
      return found;
    }
    const contract = addressFromString(wanted);
    const address = bytesToJson(contract, BTYPE.ADDRESS);
    const all = await this.list(networkId);
    const known = all.find((t) => t.contract === address);
    if (known) return known;
    const { node } = await this.networks.node(networkId);
    return readTokenInfo(node, contract);
  }

  /**
   * What the contract at `contract` says of itself now, on this network, without remembering it: for the user to
   * confirm before adding. KOIN and VHP come back with `system` set.
   * @throws WalletError INVALID_ADDRESS, NOT_FOUND (no contract there), UNKNOWN_TOKEN (not a KCS-4 token).
   */
  async inspect(networkId: string, contract: string): Promise<TokenInfo> {
    const { address } = contractAddress(contract);
    const system = (await this.systemTokens(networkId)).find((t) => t.contract === address);
    if (system) return system;
    return this.added.inspect(networkId, contract);
  }

  /**
   * Adds a KCS-4 token by contract address, after reading its name, symbol and decimals from the chain.
   * @throws WalletError INVALID_ADDRESS, NOT_FOUND (no contract there), UNKNOWN_TOKEN (not a KCS-4 token).
   */
  add(networkId: string, contract: string): Promise<TokenInfo> {
    return this.added.add(networkId, contract, (id) => this.list(id)); // KOIN and VHP are answered as they are
  }

  /**
   * Removes a token the user added (KOIN and VHP stay).
   * @throws WalletError INVALID_ARGUMENT for a system token.
   */
  async remove(networkId: string, contract: string): Promise<TokenInfo[]> {
    const { address } = contractAddress(contract);
    const stored = await this.known(networkId);
    if (stored.some((t) => t.contract === address && t.system)) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected a token you added, got the system token ${address}, which every account shows`,
      );
    }
    await this.added.remove(networkId, address);
    return this.list(networkId);
  }

  /** Balance of `owner` (base58) in `token`, base units. */
  async balanceOf(networkId: string, token: TokenInfo, owner: string): Promise<bigint> {
    const { node } = await this.networks.node(networkId);
    return tokenBalance(node, token, addressFromString(owner));
  }
}

/** `balance_of(owner)` of a token contract (a missing result is 0, as the node omits default values). */
export async function tokenBalance(node: KoinosNode, token: TokenInfo, owner: Uint8Array): Promise<bigint> {
  const m = KOIN_METHODS.balance_of;
  const bytes = await node.readContract(addressFromString(token.contract), m.entryPoint, encode(m.argsType, { owner }));
  return decodeAnswer(m.resultType, bytes, node.rpc.displayUrl, `balance_of of ${token.symbol}`).value;
}
