// The devnet in a worker thread: the wallet's embedded Local network runs here, off the wallet's main thread, so
// that no contract (an endless loop runs to the block's compute limit) can stall the wallet. Messages: see
// wallet/chain/devnetThread.ts, the one client of this file.
import type { NodeMethod } from '../methods.ts';
import { parentPort, workerData } from 'node:worker_threads';
import { WalletError, causeText, type WalletErrorJson } from '../../koinos/errors.ts';
import { startDevnet, type Devnet, type StartDevnetOptions } from './startDevnet.ts';
import { toWireError } from './wireError.ts';

/** A request of the wallet's side: a node method, a reset, or stop. */
export type DevnetThreadRequest =
  | { id: number; op: 'call'; method: string; request: object }
  | { id: number; op: 'reset' }
  | { id: number; op: 'stop' };

/**
 * An error as it crosses the thread: a WalletError as its toJSON() (revived by WalletError.fromJSON), or the node's
 * refusal of a call as the JSON-RPC wire would carry it (message and data, from server/wireError.ts), which the wallet
 * maps as it maps any node's answer.
 */
export type ThreadError = { walletError: WalletErrorJson } | { nodeAnswer: { message: string; data?: string } };

/** What the worker posts: started (or failed to start), a log line, or the answer to request `id`. */
export type DevnetThreadMessage =
  | {
      type: 'started';
      url: string;
      chainId: Uint8Array;
      koinAddress: string;
      accounts: { index: number; address: string; wif: string }[];
    }
  | { type: 'log'; line: string }
  | { type: 'answer'; id: number; value?: unknown; error?: ThreadError };

/** Serializable options: the devnet's own, without the callbacks (logs come back as messages). */
export type DevnetThreadOptions = Omit<StartDevnetOptions, 'log' | 'onBlock'>;

/** The one serializer of the worker's errors (see ThreadError); anything unexpected crosses as an INTERNAL WalletError. */
function threadError(error: unknown): ThreadError {
  if (error instanceof WalletError) return { walletError: error.toJSON() };
  const wire = toWireError(error);
  if (wire.kind === 'node')
    return { nodeAnswer: { message: wire.message, ...(wire.data !== undefined ? { data: wire.data } : {}) } };
  return { walletError: new WalletError('INTERNAL', causeText(error), { cause: error }).toJSON() };
}

function nodeFacts(devnet: Devnet) {
  return {
    chainId: devnet.node.chainId,
    accounts: devnet.node.accounts.map((a) => ({ index: a.index, address: a.address, wif: a.wif })),
  };
}

async function serve(port: NonNullable<typeof parentPort>, options: DevnetThreadOptions): Promise<void> {
  const post = (message: DevnetThreadMessage) => port.postMessage(message);
  let devnet: Devnet;
  try {
    devnet = await startDevnet({ ...options, log: (line) => post({ type: 'log', line }) });
  } catch (error) {
    post({ type: 'answer', id: 0, error: threadError(error) });
    port.close();
    return;
  }
  post({ type: 'started', url: devnet.url, koinAddress: devnet.koinAddress, ...nodeFacts(devnet) });
  port.on('message', (request: DevnetThreadRequest) => {
    const run = async (): Promise<unknown> => {
      // node.call checks the name at run time (an unknown one is a WalletError INVALID_ARGUMENT) and the request against its message.
      if (request.op === 'call') return devnet.node.call(request.method as NodeMethod, request.request as never);
      if (request.op === 'reset') {
        await devnet.node.reset();
        return nodeFacts(devnet);
      }
      await devnet.stop();
      return undefined;
    };
    run().then(
      (value) => {
        post({ type: 'answer', id: request.id, value });
        if (request.op === 'stop') port.close();
      },
      (error: unknown) => post({ type: 'answer', id: request.id, error: threadError(error) }),
    );
  });
}

if (parentPort) void serve(parentPort, workerData as DevnetThreadOptions);
