// Where a worker thread of this folder starts from, in every way the code runs: the TypeScript source under tsx and
// vitest, the built file of electron-vite's main output otherwise, or a build named by KOINOS_WALLET_BUILT_WORKERS.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WalletError } from '../../koinos/errors.ts';

/** The worker entries of devnet/server. */
export type WorkerName = 'devnetWorker' | 'httpWorker';

/**
 * The folder of a build (out/main) whose workers the sources start instead of their own. The tests set it to the build
 * they keep fresh (test/helpers/builtApp.ts): a worker started from the TypeScript sources runs tsx in its thread,
 * which costs a third more CPU to start a devnet, and a test run starts about sixty.
 */
export const BUILT_WORKERS_ENV = 'KOINOS_WALLET_BUILT_WORKERS';

/**
 * The `Worker` arguments of entry `name`: under tsx and vitest, code that loads `name.ts` through tsx's API (Node 20
 * does not apply `--import tsx` to a worker's own imports), unless {@link BUILT_WORKERS_ENV} names a build; built,
 * `name.js` next to the entry or one level up from a chunk.
 * @throws WalletError INTERNAL when the built file is missing.
 */
export function workerEntry(
  name: WorkerName,
  env: NodeJS.ProcessEnv = process.env,
): { url: URL | string; eval?: boolean } {
  const here = import.meta.url;
  const fromSources = here.endsWith('.ts');
  const builtDir = fromSources ? env[BUILT_WORKERS_ENV] : dirname(fileURLToPath(here));
  if (!builtDir) {
    const source = new URL(`./${name}.ts`, here).href;
    return {
      url: `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`,
      eval: true,
    };
  }
  for (const candidate of [join(builtDir, `${name}.js`), join(builtDir, '..', `${name}.js`)]) {
    if (existsSync(candidate)) return { url: pathToFileURL(candidate) };
  }
  throw new WalletError(
    'INTERNAL',
    `expected the worker ${name}.js beside ${builtDir}, found none; rebuild with npm run build`,
  );
}
