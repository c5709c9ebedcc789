// The one place the chain services are wired together: networks, tokens, the pending transactions and their follower,
// Send, the offline flow, history and the dashboard. The app (walletApp.ts), the CLI (cli/chainContext.ts) and the
// tests (test/wallet/chain/services.ts) differ only in what they hand in: where settings, API keys and pending
// transactions are kept, who signs, and who approves.
import type { ApprovalQueue } from '../approvals/approvalQueue.ts';
import type { TransactionSigner } from '../signer.ts';
import type { ApiKeyStore } from './apiKeyStore.ts';
import type { ChainSettingsStore } from './chainSettings.ts';
import { DashboardService } from './dashboard.ts';
import { HistoryService } from './history.ts';
import { NetworkService } from './networks.ts';
import { OfflineService } from './offline.ts';
import type { SharerOverrides } from './payer.ts';
import { PendingTransactions } from './pendingTransactions.ts';
import { SendService } from './send.ts';
import { TokenService } from './tokens.ts';
import { TransactionFollower } from './transactionFollower.ts';
import type { KnownAddresses } from './types.ts';

export interface ChainServicesOptions {
  settings: ChainSettingsStore;
  apiKeys: ApiKeyStore;
  /** The address of the Local network (the embedded devnet's, or the default one for the CLI). */
  localDevnetUrl: () => Promise<string>;
  /** The gate every signature passes. */
  approvals: ApprovalQueue;
  /** Who signs once approved (the vault, or keys read from files). */
  signer: TransactionSigner;
  /** This wallet's own transactions not irreversible yet (default: a new in-memory list). */
  pending?: PendingTransactions;
  /** Between two polls of followed transactions (default 1 s). */
  followIntervalMs?: number;
  /** A node's request timeout (tests). */
  timeoutMs?: number;
  /** Where the free mana sharer is on networks the wallet cannot find it by itself (network id → address). */
  sharers?: SharerOverrides;
  /** The addresses a transfer's recipient is compared with in Send and offline (the app's accounts and address book). */
  knownAddresses?: KnownAddresses;
}

export interface ChainServices {
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  send: SendService;
  offline: OfflineService;
  history: HistoryService;
  dashboard: DashboardService;
}

/**
 * The chain services over one set of stores, sharing one pending list, one follower and one approval queue, so that
 * every transaction sent through any of them counts in the next one's nonce and mana.
 * @example
 * const chain = createChainServices({ settings, apiKeys, localDevnetUrl, approvals, signer: vault });
 * const review = await chain.send.prepare({ from, to, token: 'koin', amount: '1' });
 */
export function createChainServices(options: ChainServicesOptions): ChainServices {
  const { settings, apiKeys, approvals, signer } = options;
  const networks = new NetworkService({
    settings,
    apiKeys,
    localDevnetUrl: options.localDevnetUrl,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const tokens = new TokenService({ networks, settings });
  const pending = options.pending ?? new PendingTransactions();
  const follower = new TransactionFollower({
    networks,
    pending,
    ...(options.followIntervalMs !== undefined ? { intervalMs: options.followIntervalMs } : {}),
  });
  // What Send and the offline flow both take: they prepare, sign and submit transfers the same way.
  const transfers = {
    networks,
    tokens,
    pending,
    follower,
    signer,
    approvals,
    sharers: options.sharers ?? {},
    ...(options.knownAddresses ? { knownAddresses: options.knownAddresses } : {}),
  };
  return {
    networks,
    tokens,
    pending,
    follower,
    send: new SendService(transfers),
    offline: new OfflineService(transfers),
    history: new HistoryService({ networks, tokens, pending }),
    dashboard: new DashboardService({ networks, tokens, pending }),
  };
}
