// Vitest: two projects. "unit" is every test under test/ but the browser suite; "e2e" drives the built renderer in the
// system Chromium against the browser shell and a real devnet, one file at a time in one worker (one browser for the
// run, the wallet's modules loaded once), with timeouts long enough for blocks, an idle lock and a build of the
// renderer when it is stale. `npm test` (test/run.ts) runs the two as two vitest processes side by side; `npx vitest
// run` runs them one after the other.
import { availableParallelism } from 'node:os';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        // Compiles the renderer's rune modules (*.svelte.ts) that test/renderer imports; other files pass untouched.
        plugins: [svelte()],
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**'],
          // Vitest's default leaves a core free: one file at a time on two cores. The unit files wait on devnets, child
          // processes and the keychain as much as they compute, so every core runs one (two at least).
          maxWorkers: Math.max(2, availableParallelism()),
          testTimeout: 30_000,
          hookTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/buildRenderer.ts', 'test/e2e/sharedChromium.ts'],
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
