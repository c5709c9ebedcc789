// The wallet's Local network: a devnet kept in the app's data folder, started on first use (so that its chain,
// balances and history survive a restart), reset on request (a new chain ID, like a testnet restart), and stopped on
// quit. It listens on loopback, on the usual port when free (other tools find it there), else on any free port. It runs
// in a worker thread (devnetThread.ts), so that no contract can stall the wallet's main thread.
import { join } from 'node:path';
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import type { DevnetStatus } from './types.ts';
import { DEFAULT_PORT } from '../../devnet/server/startDevnet.ts';
import type { ShapeName } from '../../devnet/chain/shapes.ts';
import { DevnetThread, type DevnetThreadOptions } from './devnetThread.ts';

export interface EmbeddedDevnetOptions {
  /** The app's data folder; the chain lives in `<dataDir>/devnet`. */
  dataDir: string;
  /** Preferred port (default 8080; 0 for any free one, as tests do). When taken, any free port is used. */
  port?: number;
  /** Passed on to the devnet (tests: blockTimeMs 0, a few accounts); callbacks do not cross the thread. */
  devnet?: Omit<DevnetThreadOptions, 'dataDir' | 'port' | 'host' | 'reset'> & { log?: unknown };
  /** Where start-up notices go (default console.warn). */
  log?: (line: string) => void;
}

/** A development account the Local network funds, with its key, for `devnet:importAccount`. Development only. */
export interface DevelopmentAccount {
  index: number;
  address: string;
  /** Compressed WIF; hand it to the vault only, never to the renderer. */
  wif: string;
}

/**
 * The embedded devnet's lifecycle.
 * @example
 * const local = new EmbeddedDevnet({ dataDir: app.getPath('userData') });
 * const url = await local.url(); // starts it on first use
 * await local.stop();
 */
export class EmbeddedDevnet {
  private readonly options: EmbeddedDevnetOptions;
  private running: Promise<DevnetThread> | undefined;
  private boundPort: number | undefined;
  /** Set by close(): the wallet is quitting, so nothing may start the devnet again (see close). */
  private closed = false;

  constructor(options: EmbeddedDevnetOptions) {
    this.options = options;
  }

  /** Where the chain is stored. */
  get chainDir(): string {
    return join(this.options.dataDir, 'devnet');
  }

  private async launch(fresh?: { like: ShapeName; before?: Promise<void> }): Promise<DevnetThread> {
    await fresh?.before;
    const log = this.options.log ?? ((line: string) => console.warn(`[devnet] ${line}`));
    const { log: _ignored, ...devnet } = this.options.devnet ?? {};
    // A chain keeps the shape it was made with; a new shape is a new chain (reset), never a change of a running one.
    const base: DevnetThreadOptions = {
      ...devnet,
      host: '127.0.0.1',
      dataDir: this.chainDir,
      ...(fresh ? { shape: { like: fresh.like }, reset: true } : {}),
    };
    // After a stop the devnet comes back on the port it had, so the Local network's address does not change; when that
    // port is taken (or not allowed), the devnet itself falls back to any free one (it sees the listen error's code).
    const preferred = this.boundPort ?? this.options.port ?? DEFAULT_PORT;
    return DevnetThread.start({ ...base, port: preferred, anyPortWhenTaken: true }, log);
  }

  /**
   * The running devnet, started on first use.
   * @throws WalletError NODE_UNREACHABLE when it cannot start (the data folder is used by another devnet, ...), or
   *   after close().
   */
  start(fresh?: { like: ShapeName; before?: Promise<void> }): Promise<DevnetThread> {
    if (this.closed) {
      return Promise.reject(new WalletError('NODE_UNREACHABLE', 'the local devnet is stopped: the wallet is closing'));
    }
    if (!this.running) {
      const starting = this.launch(fresh).then((devnet) => {
        this.boundPort = Number(new URL(devnet.url).port);
        return devnet;
      });
      starting.catch(() => {
        if (this.running === starting) this.running = undefined; // the next use tries again
      });
      this.running = starting;
    }
    return this.running.catch((cause: unknown) => {
      if (cause instanceof WalletError && cause.code !== 'INTERNAL') throw cause;
      throw new WalletError(
        'NODE_UNREACHABLE',
        'The local devnet did not start. Close other wallets or devnets that use its data folder, then try again.',
        {
          cause,
        },
      );
    });
  }

  /** Base URL (`http://127.0.0.1:PORT`); starts the devnet on first use. */
  async url(): Promise<string> {
    return (await this.start()).url;
  }

  /** Whether it runs, where, its chain ID and head height, and its development accounts. */
  async status(): Promise<DevnetStatus> {
    if (!this.running) return { running: false, accounts: [] };
    const devnet = await this.start();
    const head = (await devnet.call('chain.get_head_info', {})) as { head_topology?: { height?: bigint } };
    const shape = await fetch(`${devnet.url}/v1/chain/shape`).then(
      async (answer) => ((await answer.json()) as { like?: ShapeName }).like,
      () => undefined,
    );
    return {
      running: true,
      ...(shape ? { shape } : {}),
      url: devnet.url,
      // Read from the node, not from start-up: a reset changes both.
      chainId: bytesToJson(devnet.chainId, BTYPE.BASE64),
      headHeight: (head.head_topology?.height ?? 0n).toString(),
      accounts: devnet.accounts.map((a) => ({ index: a.index, address: a.address })),
    };
  }

  /**
   * Replaces the chain with a new one (new chain ID, fresh balances, as a testnet restart does) while it keeps running on
   * the same address (the devnet's own `devnet.reset`); starts it first when it was not running.
   */
  async reset(): Promise<DevnetStatus> {
    const devnet = await this.start();
    await devnet.reset();
    return this.status();
  }

  /**
   * Replaces the chain with a new one shaped like `like` (system and community contracts at that network's addresses;
   * `plain` for the devnet's own): the devnet restarts on the same address with a new chain ID.
   */
  async setShape(like: ShapeName): Promise<DevnetStatus> {
    // The old chain is stopped inside the new start, so that a use meanwhile (the head poller asks for the URL every few
    // hundred ms) waits for the new chain: between a separate stop and start it would restart the old one, unshaped.
    const previous = this.running;
    this.running = undefined;
    await this.start({
      like,
      before: previous
        ? previous.then(
            (d) => d.stop(),
            () => undefined,
          )
        : undefined,
    });
    return this.status();
  }

  /**
   * Development account `index` with its key (development only: anyone can spend from it).
   * @throws WalletError NOT_FOUND when the devnet funds no account of that index.
   */
  async developmentAccount(index: number): Promise<DevelopmentAccount> {
    const devnet = await this.start();
    const account = devnet.accounts.find((a) => a.index === index);
    if (!account) {
      throw new WalletError(
        'NOT_FOUND',
        `expected a development account index from 0 to ${devnet.accounts.length - 1}, got ${index}`,
      );
    }
    return { index: account.index, address: account.address, wif: account.wif };
  }

  /**
   * Stops it for good, as the wallet quits: a use that arrives meanwhile (a poller's request already under way) is
   * refused instead of starting the devnet again, which would hold the data folder after the wallet closed and keep the
   * next wallet on that folder from starting its own. Safe to call twice.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  /** Stops it (closing its storage); the next use starts it again. Safe to call when it never started or twice. */
  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running)
      await running.then(
        (d) => d.stop(),
        () => undefined,
      );
  }
}
