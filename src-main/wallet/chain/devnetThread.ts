// The wallet's side of the devnet worker (devnet/server/devnetWorker.ts): starts the devnet in a worker thread and talks to
// it by messages, so that a contract running to its compute limit blocks the worker, never the wallet's main thread.
import { Worker } from 'node:worker_threads';
import { WalletError } from '../../koinos/errors.ts';
import { nodeErrorToWalletError } from './nodeError.ts';
import { workerEntry } from '../../devnet/server/workerEntry.ts';
import type {
  DevnetThreadMessage,
  DevnetThreadOptions,
  DevnetThreadRequest,
  ThreadError,
} from '../../devnet/server/devnetWorker.ts';

export type { DevnetThreadOptions } from '../../devnet/server/devnetWorker.ts';

/** A development account with its key, as the worker reports it (development only). */
export interface ThreadAccount {
  index: number;
  address: string;
  wif: string;
}

/**
 * The worker's error (devnetWorker.ts `threadError`) on this side: a WalletError revived as it was, or the node's refusal
 * of `what` mapped as any node's JSON-RPC answer is (nodeError.ts).
 */
function rebuild(error: ThreadError, what: string): WalletError {
  if ('walletError' in error) return WalletError.fromJSON(error.walletError);
  return nodeErrorToWalletError({ rpcCode: -32603, ...error.nodeAnswer }, what, 'the local devnet');
}

/** A devnet running in a worker thread. */
export class DevnetThread {
  readonly url: string;
  readonly koinAddress: string;
  /** The worker's thread id (never the wallet's main thread, 0). */
  readonly threadId: number;
  #chainId: Uint8Array;
  #accounts: ThreadAccount[];
  readonly #worker: Worker;
  readonly #pending = new Map<number, { what: string; resolve(value: unknown): void; reject(error: Error): void }>();
  #nextId = 1;
  #exited: Promise<void>;

  private constructor(
    worker: Worker,
    started: Extract<DevnetThreadMessage, { type: 'started' }>,
    exited: Promise<void>,
  ) {
    this.#worker = worker;
    this.threadId = worker.threadId;
    this.url = started.url;
    this.koinAddress = started.koinAddress;
    this.#chainId = started.chainId;
    this.#accounts = started.accounts;
    this.#exited = exited;
    worker.on('message', (message: DevnetThreadMessage) => {
      if (message.type !== 'answer') return;
      const waiting = this.#pending.get(message.id);
      if (!waiting) return;
      this.#pending.delete(message.id);
      if (message.error) waiting.reject(rebuild(message.error, waiting.what));
      else waiting.resolve(message.value);
    });
    void exited.then(() => {
      for (const waiting of this.#pending.values())
        waiting.reject(new WalletError('NODE_UNREACHABLE', 'the local devnet stopped'));
      this.#pending.clear();
    });
  }

  /**
   * Starts a devnet in a new worker thread; resolves once it serves.
   * @throws the devnet's own start error (WalletError), e.g. its port in use or its data folder taken.
   */
  static start(options: DevnetThreadOptions, log: (line: string) => void): Promise<DevnetThread> {
    const entry = workerEntry('devnetWorker');
    const worker = new Worker(entry.url, { workerData: options, eval: entry.eval });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    return new Promise<DevnetThread>((resolve, reject) => {
      const onMessage = (message: DevnetThreadMessage) => {
        if (message.type === 'log') log(message.line);
        else if (message.type === 'started') {
          worker.off('error', reject);
          resolve(new DevnetThread(worker, message, exited));
        } else if (message.error) reject(rebuild(message.error, 'start'));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      void exited.then(() => reject(new WalletError('NODE_UNREACHABLE', 'the local devnet stopped while starting')));
    });
  }

  get chainId(): Uint8Array {
    return this.#chainId;
  }

  get accounts(): ThreadAccount[] {
    return this.#accounts;
  }

  #send<T>(
    request: DevnetThreadRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never,
  ): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, {
        what: request.op === 'call' ? request.method : request.op,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.#worker.postMessage({ ...request, id });
    });
  }

  /** A node method (JSON-RPC's, in its protobuf form), answered by the worker's node. */
  call(method: string, request: object): Promise<Record<string, unknown>> {
    return this.#send({ op: 'call', method, request });
  }

  /** devnet.reset: a new chain (new chain ID); the accounts are read again. */
  async reset(): Promise<void> {
    const facts = await this.#send<{ chainId: Uint8Array; accounts: ThreadAccount[] }>({ op: 'reset' });
    this.#chainId = facts.chainId;
    this.#accounts = facts.accounts;
  }

  /** Stops serving, closes the chain's storage, and ends the worker. Safe to call twice. */
  async stop(): Promise<void> {
    await this.#send({ op: 'stop' }).catch(() => undefined);
    // The storage is closed by now; ending the thread also ends whatever timer the devnet left behind.
    await this.#worker.terminate();
    await this.#exited;
  }
}
