// What the CLI's network commands share: `--network local|testnet|mainnet|URL` and `--api-key-file F` turned into the
// wallet's own chain services (the same ones the app uses, with in-memory settings), and a signer from `--wif-file`.
import { WalletError } from '../koinos/errors.ts';
import type { Transaction } from '../koinos/types.ts';
import type { TransactionSigner } from '../wallet/signer.ts';
import { ApprovalQueue, type Approval, type Approver } from '../wallet/approvals/approvalQueue.ts';
import { MemoryApiKeyStore } from '../wallet/chain/apiKeyStore.ts';
import { MemoryChainSettings } from '../wallet/chain/chainSettings.ts';
import { DashboardService } from '../wallet/chain/dashboard.ts';
import { HistoryService } from '../wallet/chain/history.ts';
import { LOCAL_NETWORK_ID, MAINNET_NETWORK_ID, NetworkService, TESTNET_NETWORK_ID } from '../wallet/chain/networks.ts';
import { OfflineService } from '../wallet/chain/offline.ts';
import { PendingTransactions } from '../wallet/chain/pendingTransactions.ts';
import { SendService } from '../wallet/chain/send.ts';
import { TokenService } from '../wallet/chain/tokens.ts';
import { TransactionFollower } from '../wallet/chain/transactionFollower.ts';
import { LOCAL_DEVNET_URL } from './chainUsage.ts';
import { requireAllowed } from './riskGate.ts';
import { UsageError, readSecret, stringOption, type OptionSpec, type ParsedArgs } from './io.ts';

/** The options every network command takes. */
export const NETWORK_OPTIONS: Record<string, OptionSpec> = {
  network: { type: 'string' },
  'api-key-file': { type: 'string' },
};

/**
 * The CLI's approver: the command the user typed is the approval, so an unflagged request is approved as asked; a
 * flagged one needs `--allow-risk NAME` for each of its flags, and is refused naming the ones missing.
 */
export function commandLineApprover(allowedRisks: readonly string[]): Approver {
  return {
    mode: 'dialog',
    async decide(request) {
      requireAllowed(request.review.risks, allowedRisks);
      return true;
    },
  };
}

/** A signer with no keys: the commands that must not sign (balance, --unsigned, tx submit) get this one. */
const NO_SIGNER: TransactionSigner = {
  async signTransaction(address: string, _tx: Transaction, _approval: Approval): Promise<Transaction> {
    throw new WalletError('INVALID_ARGUMENT', `no key was given to sign as ${address}: pass --wif-file FILE`);
  },
};

export interface ChainContext {
  networkId: string;
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  send: SendService;
  offline: OfflineService;
  history: HistoryService;
  dashboard: DashboardService;
  /** Stops the follower's polling so the process can exit. */
  close(): void;
}

/**
 * Builds the chain services for one command from its `--network` and `--api-key-file` options.
 * @throws UsageError for a `--network` that is neither a known name nor an http(s) URL.
 */
export async function chainContext(args: ParsedArgs, signer: TransactionSigner = NO_SIGNER, allowedRisks: readonly string[] = []): Promise<ChainContext> {
  const choice = stringOption(args, 'network') ?? LOCAL_NETWORK_ID;
  const settings = new MemoryChainSettings();
  const apiKeys = new MemoryApiKeyStore();
  const networks = new NetworkService({ settings, apiKeys, localDevnetUrl: async () => LOCAL_DEVNET_URL });
  let networkId: string;
  if (choice === LOCAL_NETWORK_ID || choice === TESTNET_NETWORK_ID || choice === MAINNET_NETWORK_ID) {
    networkId = choice;
  } else if (/^https?:\/\//i.test(choice)) {
    networkId = (await networks.add({ name: 'Command line node', jsonRpcUrl: choice })).id;
  } else {
    throw new UsageError('--network expects local, testnet, mainnet or an http(s) URL of a JSON-RPC node');
  }
  const keyFile = stringOption(args, 'api-key-file');
  if (keyFile !== undefined) {
    if (keyFile === '-') throw new UsageError('--api-key-file needs a file (stdin is kept for the command\'s input)');
    await apiKeys.set(networkId, await readSecret(keyFile, 'an API key'));
  }
  await networks.select(networkId);
  const tokens = new TokenService({ networks, settings });
  const pending = new PendingTransactions();
  const follower = new TransactionFollower({ networks, pending, intervalMs: 500 });
  const approvals = new ApprovalQueue({ approver: commandLineApprover(allowedRisks) });
  return {
    networkId,
    networks,
    tokens,
    pending,
    follower,
    send: new SendService({ networks, tokens, pending, follower, signer, approvals }),
    offline: new OfflineService({ networks, tokens, pending, follower, signer, approvals }),
    history: new HistoryService({ networks, tokens, pending }),
    dashboard: new DashboardService({ networks, tokens, pending }),
    close: () => follower.stop(),
  };
}
