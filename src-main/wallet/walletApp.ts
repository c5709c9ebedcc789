// The wallet's one composition root: builds the vault and chain services from a data folder and a keychain, maps
// account ids to addresses and signers, and implements every channel of the IPC contract. The Electron shell, the
// browser shell and the tests all start the wallet through createWalletApp().
import { join } from 'node:path';
import { DEFAULT_PORT, startDevnet, type Devnet } from '../devnet/startDevnet.ts';
import { WalletError, describe } from '../koinos/errors.ts';
import type { DevnetStatus } from '../ipc/contract.ts';
import { notAvailableYet, type IpcHandlers } from '../ipc/dispatcher.ts';
import { createEventHub, type IpcEventSource } from '../ipc/eventHub.ts';

export interface WalletAppOptions {
  /** The app's data folder: settings, the devnet's chain, the file store when no keychain answers. */
  dataDir: string;
  /** The embedded devnet: its port (default 8080, any free one when taken; 0 for any) and block time. */
  devnet?: { port?: number; blockTimeMs?: number };
  /** Receives log lines (default: console.error). Never given a secret. */
  log?: (line: string) => void;
}

export interface WalletApp {
  /** Every channel of the contract. */
  readonly handlers: IpcHandlers;
  /** Push events: head:new, vault:lockState, tx:update. */
  readonly events: IpcEventSource;
  /** Records user activity: restarts the vault's idle timer. */
  touch(): void;
  /** Locks the vault now (the machine sleeps, the screen locks). */
  lock(): Promise<void>;
  /** Stops polling and the embedded devnet, and locks. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the wallet: opens the data folder and prepares the embedded devnet (started on first use).
 * @example
 * const wallet = await createWalletApp({ dataDir: app.getPath('userData') });
 * const status = await wallet.handlers['devnet:status']();
 * await wallet.close();
 */
export async function createWalletApp(options: WalletAppOptions): Promise<WalletApp> {
  const log = options.log ?? ((line: string) => console.error(line));
  const events = createEventHub(log);
  let devnet: Promise<Devnet> | undefined;
  let closing: Promise<void> | undefined;

  /** The embedded devnet, started once on first use. */
  function embeddedDevnet(): Promise<Devnet> {
    if (closing) return Promise.reject(new WalletError('INTERNAL', 'The wallet is shutting down.'));
    devnet ??= startEmbeddedDevnet(join(options.dataDir, 'devnet'), options.devnet ?? {}, log);
    return devnet;
  }

  async function devnetStatus(): Promise<DevnetStatus> {
    let node: Devnet;
    try {
      node = await embeddedDevnet();
    } catch (cause) {
      devnet = undefined; // the next call tries again
      if (cause instanceof WalletError) throw cause;
      throw new WalletError('NODE_ERROR', 'The local devnet did not start. Try again, or restart the wallet.', { details: String(cause), cause });
    }
    const head = (await node.node.call('chain.get_head_info', {})) as { head_topology?: { height?: bigint | string } };
    const height = head.head_topology?.height ?? 0n;
    if (typeof height !== 'bigint' && (typeof height !== 'string' || !/^\d+$/.test(height))) {
      throw new WalletError('NODE_ERROR', 'The local devnet reported a head height that is not a number.', { details: `head_topology.height is ${describe(height)}` });
    }
    return {
      running: true,
      url: node.url,
      chainId: node.chainId,
      headHeight: String(height),
      accounts: node.accounts.map((a) => ({ index: a.index, address: a.address })),
    };
  }

  const handlers: IpcHandlers = {
    'vault:status': notAvailableYet('vault:status'),
    'vault:create': notAvailableYet('vault:create'),
    'vault:unlock': notAvailableYet('vault:unlock'),
    'vault:lock': notAvailableYet('vault:lock'),
    'vault:changePassword': notAvailableYet('vault:changePassword'),
    'vault:exportBackup': notAvailableYet('vault:exportBackup'),
    'vault:importBackup': notAvailableYet('vault:importBackup'),
    'settings:get': notAvailableYet('settings:get'),
    'settings:update': notAvailableYet('settings:update'),
    'accounts:list': notAvailableYet('accounts:list'),
    'accounts:newPhrase': notAvailableYet('accounts:newPhrase'),
    'accounts:confirmPhrase': notAvailableYet('accounts:confirmPhrase'),
    'accounts:importPhrase': notAvailableYet('accounts:importPhrase'),
    'accounts:importKey': notAvailableYet('accounts:importKey'),
    'accounts:addWatch': notAvailableYet('accounts:addWatch'),
    'accounts:deriveNext': notAvailableYet('accounts:deriveNext'),
    'accounts:rename': notAvailableYet('accounts:rename'),
    'accounts:reorder': notAvailableYet('accounts:reorder'),
    'accounts:remove': notAvailableYet('accounts:remove'),
    'accounts:reveal': notAvailableYet('accounts:reveal'),
    'networks:list': notAvailableYet('networks:list'),
    'networks:select': notAvailableYet('networks:select'),
    'networks:add': notAvailableYet('networks:add'),
    'networks:update': notAvailableYet('networks:update'),
    'networks:remove': notAvailableYet('networks:remove'),
    'networks:head': notAvailableYet('networks:head'),
    'devnet:status': devnetStatus,
    'devnet:reset': notAvailableYet('devnet:reset'),
    'devnet:importAccount': notAvailableYet('devnet:importAccount'),
    'tokens:list': notAvailableYet('tokens:list'),
    'tokens:add': notAvailableYet('tokens:add'),
    'tokens:remove': notAvailableYet('tokens:remove'),
    'dashboard:get': notAvailableYet('dashboard:get'),
    'history:page': notAvailableYet('history:page'),
    'send:maxAmount': notAvailableYet('send:maxAmount'),
    'send:prepare': notAvailableYet('send:prepare'),
    'send:confirm': notAvailableYet('send:confirm'),
    'offline:exportUnsigned': notAvailableYet('offline:exportUnsigned'),
    'offline:inspect': notAvailableYet('offline:inspect'),
    'offline:sign': notAvailableYet('offline:sign'),
    'offline:submit': notAvailableYet('offline:submit'),
  };

  return {
    handlers,
    events,
    touch() {},
    async lock() {},
    close() {
      closing ??= (async () => {
        const node = await devnet?.catch(() => undefined);
        await node?.stop();
      })();
      return closing;
    },
  };
}

/**
 * The wallet's default network: a devnet kept in the data folder, so its chain survives a restart. It listens on
 * loopback, on the usual port when free (other tools find it there), else on any free port.
 */
async function startEmbeddedDevnet(dataDir: string, config: { port?: number; blockTimeMs?: number }, log: (line: string) => void): Promise<Devnet> {
  const options = { host: '127.0.0.1', dataDir, blockTimeMs: config.blockTimeMs, log };
  const port = config.port ?? DEFAULT_PORT;
  try {
    return await startDevnet({ ...options, port });
  } catch (error) {
    if (port === 0) throw error;
    log(`[devnet] port ${port} is not free, using another: ${error instanceof Error ? error.message : String(error)}`);
    return startDevnet({ ...options, port: 0 });
  }
}
