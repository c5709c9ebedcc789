// Vitest: "unit" is every test under test/ but the browser suite (the few files that need a fresh module graph are in
// "unit-isolated", run alongside); "e2e" drives the built renderer in the system Chromium against the browser shell
// and a real devnet, one file at a time in one worker (one browser for the worker, the wallet's modules loaded once), with
// timeouts long enough for blocks, an idle lock and a build of the renderer when it is stale. `npm test` (test/run.ts)
// runs the two as two vitest processes side by side; `npx vitest run` runs them one after the other.
import { availableParallelism } from 'node:os';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { DurationSequencer } from './test/durationSequencer.ts';

/**
 * Unit files that need a fresh module graph: a vi.mock of a module that others load too, spies on shared prototypes,
 * and libraries that change process-wide hooks; and one that a long-lived worker's V8 slows. Each runs in a new process
 * of its own (~1 s of CPU).
 */
const NEEDS_ISOLATION = [
  'test/devnet/coreSignatureBudget.test.ts',
  'test/wallet/vault/vaultSession.test.ts',
  'test/wallet/vault/secretHygiene.test.ts',
  // Counts node:crypto's pbkdf2Sync and wraps the backup merge through mocks: the vault modules must load after them.
  'test/wallet/vault/backupMergeTurns.test.ts',
  // Its dApp client sets DISABLE_GLOBAL_CORE in the environment for the rest of the process.
  'test/wallet/dapps/walletConnect.test.ts',
  // Its BIP39 and BIP32 tests run noble's SHA-512 in plain JavaScript for about a second. In a worker that had run
  // changePassword.test.ts and then kondorBridge.test.ts's last test (about half of the clean-clone runs), V8 dropped
  // that function's optimised code and never optimised it again (invocations counted, no profiler tick): the file
  // took 13-17 CPU-seconds there and 41-79 s of a run, against 0.6-1.3 alone or in a fresh worker.
  'test/koinos/keys.test.ts',
];

/** The options both unit projects share (one group: their files run side by side on the same workers). */
const UNIT = {
  // Vitest's default leaves a core free: one file at a time on two cores. The unit files wait on devnets, child
  // processes and the keychain as much as they compute, so there is one more than there are cores (three at least).
  maxWorkers: Math.max(3, availableParallelism() + 1),
  testTimeout: 30_000,
  hookTimeout: 30_000,
  sequence: { groupOrder: 0 },
};

export default defineConfig({
  test: {
    // Longest files first on a clean checkout too (vitest alone knows only this machine's earlier runs).
    sequence: { sequencer: DurationSequencer },
    projects: [
      {
        plugins: [svelte()],
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', ...NEEDS_ISOLATION],
          // The spawned CLI runs the build (test/helpers/builtApp.ts), made again first when a source is newer.
          globalSetup: ['test/helpers/builtApp.ts'],
          // A worker keeps its modules from file to file: loading the wallet, the devnet and their libraries again
          // for each of 150 files was a third of the unit CPU, and the devnet's compiled contracts carry over. A file
          // that mocks a module or keeps state in a module's scope goes in NEEDS_ISOLATION instead.
          isolate: false,
          ...UNIT,
        },
      },
      {
        plugins: [svelte()],
        test: { name: 'unit-isolated', include: NEEDS_ISOLATION, ...UNIT },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/helpers/builtApp.ts'],
          fileParallelism: false,
          // The files share the worker's module graph: every file starts its own wallet, devnet, shell and browser
          // context and stops them, so nothing but compiled code and the browser connection carries over.
          isolate: false,
          // After the unit project when both run in one vitest process (vitest 4 cannot run two groups at once).
          sequence: { groupOrder: 1 },
          testTimeout: 240_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
