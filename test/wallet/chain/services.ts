// The chain services wired together as a shell would (createChainServices, as the app and the CLI do), over a devnet's URL, with in-memory settings and API keys and a
// real signer holding the devnet's development keys.
import type { Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { parsePrivateKey } from '../../../src-main/koinos/keys.ts';
import { MemoryApiKeyStore } from '../../../src-main/wallet/chain/apiKeyStore.ts';
import { MemoryChainSettings, type ChainSettingsStore } from '../../../src-main/wallet/chain/chainSettings.ts';
import { PrivateKeySigner } from '../../../src-main/wallet/chain/privateKeySigner.ts';
import { ApprovalQueue } from '../../../src-main/wallet/approvals/approvalQueue.ts';
import { createChainServices, type ChainServices } from '../../../src-main/wallet/chain/chainServices.ts';
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

export interface TestServices extends ChainServices {
  settings: ChainSettingsStore;
  apiKeys: MemoryApiKeyStore;
  signer: PrivateKeySigner;
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
  const chain = createChainServices({
    settings,
    apiKeys,
    localDevnetUrl: localUrl,
    approvals,
    signer,
    followIntervalMs: 50,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.sharers ? { sharers: options.sharers } : {}),
  });
  const { follower } = chain;
  onCleanup(async () => follower.stop());
  const { networks, tokens, pending, send, offline, history, dashboard } = chain;
  return {
    settings,
    apiKeys,
    networks,
    tokens,
    pending,
    follower,
    signer,
    send,
    offline,
    history,
    dashboard,
    approvals,
    person,
  };
}

/** A KOIN transfer from `from` to `to` whose mana another account of the wallet, `payer`, pays; confirmed, its id. */
export async function sendPaidBy(
  s: TestServices,
  { from, to, amount, payer }: { from: string; to: string; amount: string; payer: string },
): Promise<string> {
  const review = await s.send.prepare({ from, to, token: 'koin', amount, payer: { kind: 'account', address: payer } });
  return (await s.send.confirm(review.reviewId)).transactionId;
}
