// Build of the three processes: main (the Electron entry and the `koinos-wallet` CLI), the sandboxed preload
// (CommonJS), and the Svelte renderer. Entries are named here rather than found by electron-vite's defaults.
import { chmod } from 'node:fs/promises';
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const fromRoot = (path: string): string => resolve(import.meta.dirname, path);

const isCliEntry = (chunk: { isEntry: boolean; name: string }): boolean => chunk.isEntry && chunk.name === 'cli';

/**
 * Makes out/main/cli.js the `koinos-wallet` bin: a `#!/usr/bin/env node` first line (unless the source already
 * has one, which rolldown keeps) and the executable bit, so that it runs straight from a checkout.
 */
function cliBin(): Plugin {
  return {
    name: 'koinos:cli-bin',
    apply: 'build',
    renderChunk(code, chunk) {
      return isCliEntry(chunk) && !code.startsWith('#!') ? `#!/usr/bin/env node\n${code}` : null;
    },
    async writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && isCliEntry(chunk) && options.dir) {
          await chmod(resolve(options.dir, chunk.fileName), 0o755);
        }
      }
    },
  };
}

/**
 * The dev server injects component styles as <style> elements, which the strict CSP of index.html forbids;
 * development alone relaxes style-src (built apps load styles from a file).
 */
function devInlineStyles(): Plugin {
  return {
    name: 'koinos:dev-inline-styles',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  };
}

export default defineConfig({
  main: {
    build: {
      // The CLI runs on plain Node (engines >= 20.19) as well as inside Electron's newer Node.
      target: 'node20',
      // package.json dependencies stay in node_modules, loaded at run time (electron and builtins are external too).
      externalizeDeps: true,
      rolldownOptions: {
        input: {
          index: fromRoot('src-main/shells/electron/main.ts'),
          cli: fromRoot('src-main/cli/main.ts'),
          // `npm run start:browser`: the same wallet served to a browser on loopback (plain Node, no Electron).
          browser: fromRoot('src-main/shells/browser/main.ts'),
          // The embedded devnet's worker thread (wallet/chain/devnetThread.ts finds it beside the entries).
          devnetWorker: fromRoot('src-main/devnet/server/devnetWorker.ts'),
          // The devnet's HTTP thread, when it serves HTTP from a worker (the CLI's devnet; httpThread.ts finds it).
          httpWorker: fromRoot('src-main/devnet/server/httpWorker.ts'),
        },
      },
    },
    plugins: [cliBin()],
  },
  preload: {
    build: {
      // A sandboxed preload can require only electron and a few builtins, so everything else is bundled in.
      externalizeDeps: false,
      rolldownOptions: {
        input: {
          index: fromRoot('src-main/shells/electron/preload.ts'),
          // The dApp windows' preload (kondor-js pages): shares no chunk with the wallet's, as a sandboxed preload
          // cannot require one.
          dapp: fromRoot('src-main/shells/electron/dappPreload.ts'),
        },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: fromRoot('src-renderer'),
    build: {
      // electron-vite leaves the renderer unminified; minified it loads faster (goal: under 150 KB gzipped).
      minify: true,
      rolldownOptions: {
        input: { index: fromRoot('src-renderer/index.html') },
        // V8's explicit compile hint (Chromium 136 and later): the bundle's functions are compiled as it loads, on
        // Chromium's streaming thread, instead of each on its first call, so that a screen's first open does not
        // compile its code. The History screen's first open took 43-58 ms to its painted rows without it and 33-40 ms
        // with it (its bench), with no slower load. After minification, which would drop the comment.
        output: { postBanner: '//# allFunctionsCalledOnLoad' },
      },
    },
    plugins: [svelte(), devInlineStyles()],
  },
});
