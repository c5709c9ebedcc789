// The devnet as a library: opens the chain (service layer) and serves it over HTTP, JSON-RPC and REST on one port.
// Tests use port 0; the CLI and the wallet's embedded network use the same function.
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { openNode } from '../node.ts';
import { nodeBackend } from './backend.ts';
import { httpFront, type HttpFront } from './httpServer.ts';
import { startHttpThread } from './httpThread.ts';
import type { DevAccount, DevnetConfig, DevnetNode } from '../types.ts';

/** What onBlock is given: the CLI prints it (cli/blockLines.ts). */
export type { ProducedBlockInfo } from '../types.ts';

/** Options of {@link startDevnet}: the chain's config plus where and how to serve it. */
export interface StartDevnetOptions extends DevnetConfig {
  /** TCP port (default 8080; 0 picks a free one, as tests do). */
  port?: number;
  /**
   * When `port` is in use or not allowed (EADDRINUSE, EACCES), listen on any free port instead and say so in the log
   * (the wallet's Local network: its usual port when free). Default false: the start fails.
   */
  anyPortWhenTaken?: boolean;
  /** Interface to bind (default 127.0.0.1: the devnet is not reachable from other machines unless asked). */
  host?: string;
  /** When set, every HTTP request must carry this key. */
  apiKey?: string;
  /**
   * Serve HTTP from a worker thread of its own (default false): the node's thread then spends its time on the chain
   * alone and answers more requests a second, for one more thread. The CLI's devnet turns it on.
   */
  httpThread?: boolean;
  /** Receives the chain's warnings and one entry per unexpected server error (default: stderr). */
  log?: (line: string) => void;
}

/** A running devnet. */
export interface Devnet {
  /** Base URL, `http://host:port`; JSON-RPC at `${url}/jsonrpc` (and `${url}/`), REST under `${url}/v1`. */
  url: string;
  /** Chain ID as the gateway renders it (URL-safe base64); devnet.reset changes it, so read it when needed. */
  readonly chainId: string;
  /** The pre-funded development accounts (deterministic; development only); devnet.reset may change how many. */
  readonly accounts: DevAccount[];
  /** The published development mnemonic the accounts derive from. */
  mnemonic: string;
  /** Address of the KOIN contract. */
  koinAddress: string;
  /**
   * The service layer, for tests and the wallet's embedded use: `node.call(method, request)` and the developer
   * methods `node.produceBlocks()`, `advanceTime()`, `setBalance()`, `createToken()`, `snapshot()`, `revert()`, `reset()`.
   */
  node: DevnetNode;
  /** Stops serving (closing idle and open connections) and closes the chain's storage. Safe to call twice. */
  stop(): Promise<void>;
}

/** Port of the real JSON-RPC gateway, so that tools configured for a local node find the devnet. */
export const DEFAULT_PORT = 8080;
/** Loopback only: other machines cannot reach the devnet unless `host` says so. */
export const DEFAULT_HOST = '127.0.0.1';
/** How long stop() lets requests in progress finish before closing their connections. */
const STOP_GRACE_MS = 2000;

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Why the server could not listen, in words a user can act on. */
function listenError(cause: unknown, host: string, port: number): WalletError {
  const code = (cause as NodeJS.ErrnoException).code;
  const message =
    code === 'EADDRINUSE'
      ? `port ${port} on ${host} is already in use; choose another port (--port), or 0 for any free one`
      : code === 'EACCES'
        ? `port ${port} on ${host} is not allowed for this user; choose a port above 1023 (--port)`
        : code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine; bind 127.0.0.1 (the default) or another local address (--host)`
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? `host name ${host} cannot be resolved; give an IP address (--host)`
            : `cannot listen on ${host} port ${port}`;
  return new WalletError('INTERNAL', message, { details: code ?? String(cause), cause });
}

/**
 * Starts a devnet: opens (or creates) the chain and listens for HTTP.
 * @throws WalletError INVALID_ARGUMENT for a bad port; INTERNAL when the port cannot be bound (in use, not allowed),
 *   after closing the chain again. Errors of opening the chain propagate as the service layer raises them.
 * @example
 * const devnet = await startDevnet({ port: 0, manual: true });
 * await fetch(`${devnet.url}/v1/chain/id`); // { value: 'EiB…' }
 * await devnet.stop();
 */
export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const {
    port = DEFAULT_PORT,
    host = DEFAULT_HOST,
    apiKey,
    log,
    anyPortWhenTaken = false,
    httpThread = false,
    ...config
  } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new WalletError('INVALID_ARGUMENT', `expected a port from 0 to 65535, got ${port}`);
  }
  if (apiKey !== undefined && apiKey.length === 0) {
    throw new WalletError('INVALID_ARGUMENT', 'expected a non-empty API key, got an empty string');
  }

  const node = await openNode({ ...config, log });
  const logLine = log ?? ((line: string) => console.error(line));
  const backend = nodeBackend(node, logLine);
  let front: HttpFront | undefined;
  let tried = port;
  let bound: number;
  try {
    front = httpThread
      ? startHttpThread(backend, apiKey === undefined ? {} : { apiKey }, logLine)
      : httpFront(backend, { apiKey, log: logLine });
    try {
      bound = await front.listen(port, host);
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (!anyPortWhenTaken || port === 0 || (code !== 'EADDRINUSE' && code !== 'EACCES')) throw cause;
      (log ?? ((line: string) => console.warn(line)))(
        `port ${port} on ${host} is not free (${code}), listening on any free port`,
      );
      tried = 0;
      bound = await front.listen(0, host);
    }
  } catch (cause) {
    // This error is the one to report; the chain's folder is left free for the next start.
    await front?.stop(0).catch(() => {});
    await node.close().catch(() => {});
    // A WalletError already says what went wrong (the HTTP worker's built file missing); a system error is the port's.
    throw cause instanceof WalletError ? cause : listenError(cause, host, tried);
  }
  const serving = front;

  let stopping: Promise<void> | undefined;
  return {
    url: formatUrl(host, bound),
    get chainId() {
      return bytesToJson(node.chainId, BTYPE.BASE64);
    },
    get accounts() {
      return node.accounts;
    },
    mnemonic: node.mnemonic,
    koinAddress: node.koinAddress,
    node,
    stop() {
      stopping ??= (async () => {
        // Stop accepting, let the requests being answered finish (briefly), then drop every connection.
        await serving.stop(STOP_GRACE_MS);
        await node.close();
      })();
      return stopping;
    },
  };
}
