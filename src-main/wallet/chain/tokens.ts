// The tokens of each network: KOIN everywhere and VHP where the chain has it (both resolved by system name, as the
// chain does), plus any KCS-4 token added by contract address (name, symbol and decimals read from the contract).
// What was found is remembered per network, so that offline signing can show amounts with the right decimals.
import { BTYPE, bytesToJson, encode } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import { KOIN_METHODS } from '../../koinos/koin.ts';
import type { TokenInfo } from '../../ipc/contract.ts';
import type { ChainSettingsStore } from './chainSettings.ts';
import { decodeAnswer, type KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';

/** The system tokens, by the name the chain's name service knows them. */
export const SYSTEM_TOKENS = ['koin', 'vhp'] as const;
export type SystemToken = (typeof SYSTEM_TOKENS)[number];

/** How long resolved system token addresses are reused before asking the node again. */
const SYSTEM_CACHE_MS = 60_000;
/** More decimals than any token uses; a contract claiming more is not treated as a token. */
const MAX_DECIMALS = 30;

const EMPTY = new Uint8Array();

async function readString(node: KoinosNode, contract: Uint8Array, method: 'name' | 'symbol'): Promise<string> {
  const m = KOIN_METHODS[method];
  const bytes = await node.readContract(contract, m.entryPoint, EMPTY);
  return decodeAnswer<{ value: string }>(m.resultType, bytes, node.rpc.displayUrl, `${method} of ${bytesToJson(contract, BTYPE.ADDRESS)}`).value;
}

/**
 * Name, symbol and decimals of the KCS-4 token at `contract`, read from the contract.
 * @throws WalletError UNKNOWN_TOKEN when the contract does not answer them as a token does; transport errors as they are.
 */
export async function readTokenInfo(node: KoinosNode, contract: Uint8Array): Promise<TokenInfo> {
  const address = bytesToJson(contract, BTYPE.ADDRESS);
  try {
    const m = KOIN_METHODS.decimals;
    const [name, symbol, decimalsBytes] = await Promise.all([
      readString(node, contract, 'name'),
      readString(node, contract, 'symbol'),
      node.readContract(contract, m.entryPoint, EMPTY),
    ]);
    const { value: decimals } = decodeAnswer<{ value: number }>(m.resultType, decimalsBytes, node.rpc.displayUrl, `decimals of ${address}`);
    if (symbol.trim() === '' || decimals > MAX_DECIMALS) {
      throw new WalletError('UNKNOWN_TOKEN', `The contract ${address} does not describe itself as a token (symbol ${describe(symbol)}, ${decimals} decimals). Check the address.`);
    }
    return { contract: address, name: name || symbol, symbol, decimals };
  } catch (error) {
    if (error instanceof WalletError && ['NODE_UNREACHABLE', 'NODE_TIMEOUT', 'NODE_UNAUTHORIZED', 'UNKNOWN_TOKEN'].includes(error.code)) throw error;
    throw new WalletError(
      'UNKNOWN_TOKEN',
      `The contract ${address} does not answer name, symbol and decimals as a KCS-4 token does, so it cannot be added. Check the address and the network.`,
      { details: error instanceof WalletError ? (error.details ?? error.shortMessage) : String(error), cause: error },
    );
  }
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

  constructor(options: TokenServiceOptions) {
    this.networks = options.networks;
    this.settings = options.settings;
  }

  /** The tokens remembered for a network (no node needed): what offline signing decodes amounts with. */
  async known(networkId: string): Promise<TokenInfo[]> {
    return (await this.settings.load()).tokens[networkId] ?? [];
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
      throw new WalletError('NODE_ERROR', 'The node does not name a KOIN contract (system name "koin"). Check that the network is a Koinos chain.');
    }
    this.systemCache.set(networkId, { at: Date.now(), tokens: found });
    await this.settings.update((d) => {
      const others = (d.tokens[networkId] ?? []).filter((t) => !t.system && !found.some((f) => f.contract === t.contract));
      d.tokens[networkId] = [...found, ...others];
    });
    return found;
  }

  /** KOIN, VHP where present, then the tokens the user added, in the order added. */
  async list(networkId: string): Promise<TokenInfo[]> {
    const system = await this.systemTokens(networkId);
    const added = (await this.known(networkId)).filter((t) => !t.system && !system.some((s) => s.contract === t.contract));
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
      if (!found) throw new WalletError('NOT_FOUND', `This network has no ${lower.toUpperCase()} contract. Choose KOIN or a token contract address.`);
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
   * Adds a KCS-4 token by contract address, after reading its name, symbol and decimals from the chain.
   * @throws WalletError INVALID_ADDRESS, UNKNOWN_TOKEN (the contract does not answer as a token).
   */
  async add(networkId: string, contract: string): Promise<TokenInfo> {
    const bytes = addressFromString(contract.trim());
    const address = bytesToJson(bytes, BTYPE.ADDRESS);
    const existing = (await this.list(networkId)).find((t) => t.contract === address);
    if (existing) return existing;
    const { node } = await this.networks.node(networkId);
    const info = await readTokenInfo(node, bytes);
    await this.settings.update((d) => {
      d.tokens[networkId] = [...(d.tokens[networkId] ?? []).filter((t) => t.contract !== address), info];
    });
    return info;
  }

  /**
   * Removes a token the user added (KOIN and VHP stay).
   * @throws WalletError INVALID_ARGUMENT for a system token.
   */
  async remove(networkId: string, contract: string): Promise<TokenInfo[]> {
    const address = bytesToJson(addressFromString(contract.trim()), BTYPE.ADDRESS);
    const stored = await this.known(networkId);
    if (stored.some((t) => t.contract === address && t.system)) {
      throw new WalletError('INVALID_ARGUMENT', `expected a token you added, got the system token ${address}, which every account shows`);
    }
    await this.settings.update((d) => {
      d.tokens[networkId] = (d.tokens[networkId] ?? []).filter((t) => t.contract !== address);
    });
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
  return decodeAnswer<{ value: bigint }>(m.resultType, bytes, node.rpc.displayUrl, `balance_of of ${token.symbol}`).value;
}
