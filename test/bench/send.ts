// Benchmark of the wallet's Send service on a devnet with blockTimeMs 0 (its own process, over HTTP): latency from
// "confirm" to the node's receipt (sign + submit), and of the whole prepare (checks, chain ID, nonce, mana, signed dry
// run) + confirm. Goal (issue 8): receipt under 100 ms at p50.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parsePrivateKey } from '../../src-main/koinos/keys.ts';
import { MemoryApiKeyStore } from '../../src-main/wallet/chain/apiKeyStore.ts';
import { MemoryChainSettings } from '../../src-main/wallet/chain/chainSettings.ts';
import { NetworkService } from '../../src-main/wallet/chain/networks.ts';
import { PendingTransactions } from '../../src-main/wallet/chain/pendingTransactions.ts';
import { PrivateKeySigner } from '../../src-main/wallet/chain/privateKeySigner.ts';
import { SendService } from '../../src-main/wallet/chain/send.ts';
import { ApprovalQueue } from '../../src-main/wallet/approvals/approvalQueue.ts';
import { TokenService } from '../../src-main/wallet/chain/tokens.ts';
import { TransactionFollower } from '../../src-main/wallet/chain/transactionFollower.ts';

interface ServerInfo {
  url: string;
  accounts: { address: string; wif: string }[];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function benchSend(
  count = 200,
): Promise<{ confirmP50: number; confirmP99: number; totalP50: number; totalP99: number }> {
  const entry = fileURLToPath(new URL('./devnetServer.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_BLOCK_TIME: '0', BENCH_ACCOUNTS: '2' },
  });
  try {
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`devnet server exited with ${code}`)));
    });
    const info = JSON.parse(first) as ServerInfo;
    const settings = new MemoryChainSettings();
    const networks = new NetworkService({
      settings,
      apiKeys: new MemoryApiKeyStore(),
      localDevnetUrl: async () => info.url,
    });
    const tokens = new TokenService({ networks, settings });
    const pending = new PendingTransactions();
    const follower = new TransactionFollower({ networks, pending, intervalMs: 60_000 });
    const signer = new PrivateKeySigner(info.accounts.map((a) => parsePrivateKey(a.wif).privateKey));
    // The person approves at once: the figures are the wallet's own work around the approval.
    const approvals = new ApprovalQueue({ approver: { mode: 'dialog', decide: async () => true } });
    const send = new SendService({ networks, tokens, pending, follower, signer, approvals });
    const [a, b] = info.accounts;
    const confirm: number[] = [];
    const total: number[] = [];
    for (let i = 0; i < count + 10; i++) {
      const start = performance.now();
      const review = await send.prepare({ from: a!.address, to: b!.address, token: 'koin', amount: '0.001' });
      const confirmed = performance.now();
      await send.confirm(review.reviewId);
      const end = performance.now();
      // With blockTimeMs 0 the transaction is in a block already; the follower is not needed here.
      for (const p of pending.all()) pending.remove(p.id);
      if (i < 10) continue; // warm-up
      confirm.push(end - confirmed);
      total.push(end - start);
    }
    follower.stop();
    confirm.sort((x, y) => x - y);
    total.sort((x, y) => x - y);
    return {
      confirmP50: percentile(confirm, 50),
      confirmP99: percentile(confirm, 99),
      totalP50: percentile(total, 50),
      totalP99: percentile(total, 99),
    };
  } finally {
    child.kill('SIGTERM');
  }
}
