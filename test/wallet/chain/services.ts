// The chain services wired together as a shell would, over a devnet's URL, with in-memory settings and API keys and a
// real signer holding the devnet's development keys.
import type { Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { parsePrivateKey } from '../../../src-main/koinos/keys.ts';
import { MemoryApiKeyStore } from '../../../src-main/wallet/chain/apiKeyStore.ts';
import { MemoryChainSettings, type ChainSettingsStore } from '../../../src-main/wallet/chain/chainSettings.ts';
import { NetworkService } from '../../../src-main/wallet/chain/networks.ts';
import { PendingTransactions } from '../../../src-main/wallet/chain/pendingTransactions.ts';
import { PrivateKeySigner } from '../../../src-main/wallet/chain/privateKeySigner.ts';
import { SendService } from '../../../src-main/wallet/chain/send.ts';
import { OfflineService } from '../../../src-main/wallet/chain/offline.ts';
import { HistoryService } from '../../../src-main/wallet/chain/history.ts';
import { DashboardService } from '../../../src-main/wallet/chain/dashboard.ts';
import { TokenService } from '../../../src-main/wallet/chain/tokens.ts';
import { TransactionFollower } from '../../../src-main/wallet/chain/transactionFollower.ts';
import { ApprovalQueue } from '../../../src-main/wallet/approvals/approvalQueue.ts';
import type { ApprovalRequest } from '../../../src-main/ipc/contract.ts';
import type { SharerOverrides } from '../../../src-main/wallet/chain/payer.ts';
import { onCleanup } from './helpers.ts';

/**
 * The person in front of the wallet, for tests: answers every signing request the way `decision` says (approve by
 * default) and keeps the requests it was shown, so a test can check what the review said.
 */
export interface TestPerson {
  decision: 'approve' | 'reject';
  seen: ApprovalRequest[];
}

export interface TestServices {
  settings: ChainSettingsStore;
  apiKeys: MemoryApiKeyStore;
  networks: NetworkService;
  tokens: TokenService;
  pending: PendingTransactions;
  follower: TransactionFollower;
  signer: PrivateKeySigner;
  send: SendService;
  offline: OfflineService;
  history: HistoryService;
  dashboard: DashboardService;
  approvals: ApprovalQueue;
  person: TestPerson;
}

/** Services whose Local network is `devnet` (or whatever `localUrl` returns), signing with its development keys. */
export function testServices(
  devnet: Devnet | { localUrl: () => Promise<string>; wifs: string[] },
  options: { timeoutMs?: number; settings?: ChainSettingsStore; sharers?: SharerOverrides } = {},
): TestServices {
  const localUrl = 'localUrl' in devnet ? devnet.localUrl : async () => devnet.url;
  const wifs = 'wifs' in devnet ? devnet.wifs : devnet.accounts.map((a) => a.wif);
  const settings = options.settings ?? new MemoryChainSettings();
  const apiKeys = new MemoryApiKeyStore();
  const networks = new NetworkService({ settings, apiKeys, localDevnetUrl: localUrl, timeoutMs: options.timeoutMs });
  const tokens = new TokenService({ networks, settings });
  const pending = new PendingTransactions();
  const follower = new TransactionFollower({ networks, pending, intervalMs: 50 });
  onCleanup(async () => follower.stop());
  const signer = new PrivateKeySigner(wifs.map((w) => parsePrivateKey(w).privateKey));
  const person: TestPerson = { decision: 'approve', seen: [] };
  const approvals = new ApprovalQueue({
    approver: {
      mode: 'dialog',
      decide: async (request) => {
        person.seen.push(request);
        return person.decision === 'approve';
      },
    },
  });
  const sharers = options.sharers ?? {};
  const send = new SendService({ networks, tokens, pending, follower, signer, approvals, sharers });
  const offline = new OfflineService({ networks, tokens, pending, follower, signer, approvals, sharers });
  const history = new HistoryService({ networks, tokens, pending });
  const dashboard = new DashboardService({ networks, tokens, pending });
  return { settings, apiKeys, networks, tokens, pending, follower, signer, send, offline, history, dashboard, approvals, person };
}
