// Where the devnet's worker threads start from: the build that KOINOS_WALLET_BUILT_WORKERS names (the tests name
// theirs, test/helpers/builtApp.ts), or, when none is named, the TypeScript sources through tsx. Both start a devnet
// that answers over HTTP; a named folder without the build is refused with what was expected.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { BUILT_WORKERS_ENV, workerEntry } from '../../src-main/devnet/server/workerEntry.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';
import { tempDir } from '../helpers/tempDir.ts';
import { rpc } from './httpHelpers.ts';

const BUILD = join(import.meta.dirname, '../../out/main');
const started: Devnet[] = [];

afterAll(async () => {
  await Promise.all(started.map((devnet) => devnet.stop()));
});

/** A devnet whose HTTP layer runs on a worker thread, started with `env` as the process's environment. */
async function threadedDevnet(env: NodeJS.ProcessEnv): Promise<Devnet> {
  const saved = process.env[BUILT_WORKERS_ENV];
  if (env[BUILT_WORKERS_ENV] === undefined) delete process.env[BUILT_WORKERS_ENV];
  else process.env[BUILT_WORKERS_ENV] = env[BUILT_WORKERS_ENV];
  try {
    const devnet = await startDevnet({ port: 0, manual: true, accounts: 1, httpThread: true, log: () => {} });
    started.push(devnet);
    return devnet;
  } finally {
    if (saved === undefined) delete process.env[BUILT_WORKERS_ENV];
    else process.env[BUILT_WORKERS_ENV] = saved;
  }
}

describe('the worker entry', () => {
  it('is the named build when KOINOS_WALLET_BUILT_WORKERS is set, and that worker serves', async () => {
    const entry = workerEntry('httpWorker', { [BUILT_WORKERS_ENV]: BUILD });
    expect(entry.eval).toBeUndefined();
    expect(fileURLToPath(entry.url)).toBe(join(BUILD, 'httpWorker.js'));
    const devnet = await threadedDevnet({ [BUILT_WORKERS_ENV]: BUILD });
    expect((await rpc(devnet.url, 'chain.get_chain_id')).chain_id).toBe(devnet.chainId);
  });

  it('is the TypeScript source through tsx when no build is named, and that worker serves too', async () => {
    const entry = workerEntry('devnetWorker', {});
    expect(entry.eval).toBe(true);
    expect(String(entry.url)).toContain("import('tsx/esm/api')");
    expect(String(entry.url)).toContain(
      JSON.stringify(new URL('../../src-main/devnet/server/devnetWorker.ts', import.meta.url).href),
    );
    const devnet = await threadedDevnet({});
    expect((await rpc(devnet.url, 'chain.get_chain_id')).chain_id).toBe(devnet.chainId);
  });

  it('refuses a named folder that holds no build, saying where it looked', async () => {
    const empty = await tempDir('no-build-');
    const error = expectWalletError(() => workerEntry('devnetWorker', { [BUILT_WORKERS_ENV]: empty }), 'INTERNAL');
    expect(error.message).toBe(
      `expected the worker devnetWorker.js beside ${empty}, found none; rebuild with npm run build`,
    );
  });
});
