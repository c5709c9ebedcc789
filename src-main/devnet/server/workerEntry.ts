// Where a worker thread of this folder starts from, in every way the code runs: the TypeScript source under tsx and
// vitest, the built file of electron-vite's main output otherwise.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WalletError } from '../../koinos/errors.ts';

/** The worker entries of devnet/server. */
export type WorkerName = 'devnetWorker' | 'httpWorker';

/**
 * The `Worker` arguments of entry `name`: under tsx and vitest, code that loads `name.ts` through tsx's API (Node 20
 * does not apply `--import tsx` to a worker's own imports); built, `name.js` next to the entry or one level up from a
 * chunk.
 * @throws WalletError INTERNAL when the built file is missing.
 */
export function workerEntry(name: WorkerName): { url: URL | string; eval?: boolean } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const source = new URL(`./${name}.ts`, here).href;
    return {
      url: `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`,
      eval: true,
    };
  }
  const dir = dirname(fileURLToPath(here));
  for (const candidate of [join(dir, `${name}.js`), join(dir, '..', `${name}.js`)]) {
    if (existsSync(candidate)) return { url: pathToFileURL(candidate) };
  }
  throw new WalletError(
    'INTERNAL',
    `expected the worker ${name}.js beside ${dir}, found none; rebuild with npm run build`,
  );
}
