// A devnet of the test's own (not the wallet's embedded one) that can be stopped and started again on the same port
// and data folder, for the offline flow, API keys and a node that is down.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';

export interface TestDevnet {
  /** JSON-RPC endpoint, stable across restarts. */
  jsonRpcUrl: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its data. */
  dispose(): Promise<void>;
}

/** Starts a devnet on a free port; restarts reuse that port and the chain on disk. */
export async function startTestDevnet(options: { apiKey?: string } = {}): Promise<TestDevnet> {
  const dataDir = await mkdtemp(join(tmpdir(), 'koinos-e2e-devnet-'));
  const config = {
    dataDir,
    blockTimeMs: 200,
    accounts: 3,
    log: () => {},
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  };
  let devnet: Devnet | undefined = await startDevnet({ ...config, port: 0 });
  const port = Number(new URL(devnet.url).port);
  const jsonRpcUrl = `${devnet.url}/jsonrpc`;
  return {
    jsonRpcUrl,
    async stop() {
      await devnet?.stop();
      devnet = undefined;
    },
    async start() {
      devnet ??= await startDevnet({ ...config, port });
    },
    async dispose() {
      await devnet?.stop();
      devnet = undefined;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
