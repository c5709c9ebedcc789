// Vitest: two projects in one `npm test`. "unit" is every test under test/ but the browser suite; "e2e" drives the
// built renderer in the system Chromium against the browser shell and a real devnet, one file at a time (two cores,
// one browser), with timeouts long enough for blocks, an idle lock and a build of the renderer when it is stale.
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
          globalSetup: ['test/e2e/buildRenderer.ts'],
          fileParallelism: false,
          // After the unit project, so that browsers and blocks do not compete with the devnet tests for two cores.
          sequence: { groupOrder: 1 },
          testTimeout: 240_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
