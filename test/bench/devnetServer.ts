// Benchmark helper: runs a devnet in its own process (so the load generator does not share its event loop)
// and prints one JSON line with its URL, chain ID, KOIN address and accounts. Stops on SIGTERM.
import { startDevnet } from '../../src-main/devnet/server/startDevnet.ts';

const devnet = await startDevnet({
  port: 0,
  accounts: Number(process.env.BENCH_ACCOUNTS ?? 17),
  blockTimeMs: Number(process.env.BENCH_BLOCK_TIME ?? 1000),
  // The benchmark sends thousands of transactions per account before they are included.
  pendingTransactionLimit: 1_000_000_000,
  irreversibleDepth: 0,
});
console.log(
  JSON.stringify({ url: devnet.url, chainId: devnet.chainId, koin: devnet.koinAddress, accounts: devnet.accounts }),
);
const stop = () => void devnet.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
