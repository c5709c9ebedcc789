// The dashboard of one account on one network: balances of its tokens, mana (current, maximum = KOIN balance, held by
// this wallet's pending transactions, time until full), and the head with its lag, the network's name and chain ID.
import { addressFromString } from '../../koinos/address.ts';
import { WalletError } from '../../koinos/errors.ts';
import type { Dashboard, ManaInfo, TokenBalance, TokenInfo } from './types.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';
import type { PendingTransactions } from './pendingTransactions.ts';
import { isMissingContract, isTransportError } from './standardContracts.ts';
import { tokenBalance, type TokenService } from './tokens.ts';

/** Mana regenerates from 0 to the full KOIN balance in 5 days (protocol facts §3.10). */
export const MANA_REGEN_MS = 432_000_000n;

/**
 * Milliseconds until mana is full again: the chain adds `balance * elapsed / 5 days` (rounded down), so the missing
 * part takes `ceil(missing * 5 days / balance)`.
 * @example
 * msUntilFullMana(0n, 100n); // 432000000n (5 days)
 */
export function msUntilFullMana(current: bigint, max: bigint): bigint {
  if (max <= 0n || current >= max) return 0n;
  const missing = max - current;
  return (missing * MANA_REGEN_MS + max - 1n) / max;
}

/**
 * The balance of `owner` in `token`; for a token the user added whose contract is gone (a test network restarted) or
 * refuses `balance_of`, what happened instead, so that one such token does not hide the others.
 * @throws node errors, and any error of KOIN or VHP.
 */
async function balanceOrProblem(node: KoinosNode, token: TokenInfo, owner: Uint8Array): Promise<TokenBalance> {
  try {
    return { token, balance: (await tokenBalance(node, token, owner)).toString() };
  } catch (error) {
    if (token.system || isTransportError(error)) throw error;
    if (isMissingContract(error)) {
      return {
        token,
        problem: `No contract answers at ${token.contract} on this network any more (a restart of a test network removes its contracts). Remove ${token.symbol}, or add it again at its new address.`,
      };
    }
    const said = error instanceof WalletError ? (error.details ?? error.shortMessage) : String(error);
    return {
      token,
      problem: `The contract of ${token.symbol} did not answer balance_of as a KCS-4 token does (${said}). Remove the token if it is not one.`,
    };
  }
}

/**
 * When mana is full again, as a person reads it: "full again in about 2 h", "mana is full", or that none grows back
 * without KOIN.
 * @example
 * manaRefillText(0n, 100n); // 'full again in about 5 d'
 */
export function manaRefillText(current: bigint, max: bigint): string {
  if (max <= 0n) return 'no mana grows back without KOIN';
  const ms = msUntilFullMana(current, max);
  if (ms === 0n) return 'mana is full';
  const minutes = (ms + 59_999n) / 60_000n;
  if (minutes < 60n) return `full again in about ${minutes} min`;
  const hours = (minutes + 30n) / 60n;
  if (hours < 48n) return `full again in about ${hours} h`;
  return `full again in about ${(hours + 12n) / 24n} d`;
}

export interface DashboardServiceOptions {
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
}

/**
 * @example
 * const view = await dashboard.get({ address: '1Abc...', accountId: 'acc-1' });
 */
export class DashboardService {
  private readonly deps: DashboardServiceOptions;

  constructor(options: DashboardServiceOptions) {
    this.deps = options;
  }

  /**
   * The dashboard of `address` on `networkId` (the selected network when absent); `accountId` is echoed for the shell.
   * @throws WalletError INVALID_ADDRESS, and node errors.
   */
  async get(request: { address: string; accountId?: string; networkId?: string }): Promise<Dashboard> {
    const owner = addressFromString(request.address);
    const { network, node } = await this.deps.networks.node(request.networkId);
    const [head, tokens, rc] = await Promise.all([
      this.deps.networks.head(network.id),
      this.deps.tokens.list(network.id),
      node.rc(owner),
    ]);
    const balances: TokenBalance[] = await Promise.all(tokens.map((token) => balanceOrProblem(node, token, owner)));
    const koin = balances.find((b) => b.token.system === 'koin');
    const max = koin?.balance ? BigInt(koin.balance) : 0n;
    const mana: ManaInfo = {
      current: rc.toString(),
      max: max.toString(),
      pending: this.deps.pending.heldMana(network.id, request.address).toString(),
      fullInMs: msUntilFullMana(rc, max).toString(),
    };
    return {
      networkId: network.id,
      networkName: network.name,
      accountId: request.accountId ?? request.address,
      address: request.address,
      head,
      balances,
      mana,
    };
  }
}
