// Benchmark helper: runs a devnet in its own process (so the load generator does not share its event loop)
// and prints one JSON line with its URL, chain ID, KOIN address and accounts. Stops on SIGTERM, saying on stderr how
// often garbage collection paused its main thread: the pauses are what a submission's p99 waits for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { startDevnet } from '../../src-main/devnet/server/startDevnet.ts';

const pauses: number[] = [];
/**
 * Pauses over 3 ms by kind: a young-generation scavenge copies what lives, a full collection marks the whole heap.
 * At 3,000 transfers/s the node's thread scavenges every 40-70 ms and promotes about 1.1 MB each time (--trace-gc;
 * what lives that long was not measured apart); still about 1 MB in process after b63859c. The figures that follow
 * were measured before it, while the block timer was starved (test/bench/devnet.ts says how). Measured, not adopted
 * (the CLI's devnet runs on its process's main thread, whose young generation is sized at start): this server under
 * `--max-semi-space-size=8` had 31-65 pauses over 3 ms against 59-123 (16, the default) in nine alternated pairs, but
 * its longest pause was longer in four (up to 28 ms) and the p99 from due was better in four pairs, worse in two and
 * the same in three. Sizes 2 and 32 did worse (earlier passes); 4 and 12, one run each, no better.
 */
const KINDS = new Map([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'young-generation'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'full'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental marking'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
]);
const longByKind = new Map<string, number>();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pauses.push(entry.duration);
    if (entry.duration <= 3) continue;
    const kind = KINDS.get((entry as { detail?: { kind?: number } }).detail?.kind ?? -1) ?? 'other';
    longByKind.set(kind, (longByKind.get(kind) ?? 0) + 1);
  }
}).observe({ entryTypes: ['gc'] });

/**
 * BENCH_STORE=level keeps the chain in LevelDB, in a new temporary folder removed at the end, as the wallet's embedded
 * devnet keeps its chain (in the wallet's data folder); the default, memory, is the CLI's `devnet` without --data-dir.
 * Measured on one idle machine, the same day: LevelDB in two runs had 199 and 257 collections over 3 ms and a p99 from
 * due of 85.0 and 187.8 ms; memory in two, 113 and 204, and 81.3 and 179.5 ms. The wallet's store is no better, if
 * anything worse; the goal is measured in memory.
 */
function storeFolder(): string | undefined {
  const store = process.env.BENCH_STORE ?? 'memory';
  if (store === 'memory') return undefined;
  if (store === 'level') return mkdtempSync(join(tmpdir(), 'koinos-bench-devnet-'));
  throw new Error(`BENCH_STORE: expected memory or level, got ${JSON.stringify(store)}`);
}
const dataDir = storeFolder();

const devnet = await startDevnet({
  port: 0,
  accounts: Number(process.env.BENCH_ACCOUNTS ?? 17),
  blockTimeMs: Number(process.env.BENCH_BLOCK_TIME ?? 1000),
  // The benchmark sends thousands of transactions per account before they are included.
  pendingTransactionLimit: 1_000_000_000,
  irreversibleDepth: 0,
  ...(dataDir ? { dataDir } : {}),
  // As the CLI's devnet serves: HTTP on a thread of its own (BENCH_HTTP_THREAD=0 measures the single-thread server).
  httpThread: process.env.BENCH_HTTP_THREAD !== '0',
  ...(process.env.BENCH_SIGNATURE_THREADS ? { signatureThreads: Number(process.env.BENCH_SIGNATURE_THREADS) } : {}),
}).catch((error: unknown) => {
  // A devnet that did not start leaves no temporary folder behind either.
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  throw error;
});
console.log(
  JSON.stringify({ url: devnet.url, chainId: devnet.chainId, koin: devnet.koinAddress, accounts: devnet.accounts }),
);
const stop = () => {
  const long = pauses.filter((ms) => ms > 3);
  const total = pauses.reduce((sum, ms) => sum + ms, 0);
  const kinds = [...longByKind].map(([kind, n]) => `${n} ${kind}`).join(', ');
  console.error(
    `devnet server, whole run: ${pauses.length} GC pauses of its main thread, ${long.length} over 3 ms (${kinds || 'none'}), longest ${Math.max(0, ...pauses).toFixed(1)} ms, ${(total / 1000).toFixed(2)} s in all`,
  );
  // The folder goes whether or not the devnet stopped cleanly; a failed stop then ends the process with its error.
  void devnet
    .stop()
    .finally(() => {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    })
    .then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
