// The devnet's HTTP layer in a worker thread (started by httpThread.ts): this thread reads and writes HTTP (parsing,
// CORS, the API key, the body limit, the socket writes) and hands each request's body to the node's thread, which
// answers it with text ready for the wire. The node's thread then spends its time on the chain alone.
//
// Measured and not kept: this thread recovering the signers of the transactions a body submits, sent along with the
// request for the node's cache of recovered keys (secp256k1Recovery.ts). On two cores at 3,000 KOIN transfers/s the
// node's thread spent 55-112 µs less a transfer and this one 72-110 µs more. The submissions' p99 from due did not
// follow: in three alternated benchmark pairs it was 192, 281 and 218 ms against 237, 73 and 41 ms without it; in eight
// more pairs a later pass took (the keys sent as bytes, then as latin1 text), better in four and worse in four, while
// the node's thread had more collections over 3 ms in seven of the eight (81-191 against 74-153 in a run). Nor did the
// saturation throughput (2,923, 3,382 and 3,827 against 3,213, 4,229 and 3,467 /s). The node's thread waited for a
// core less than a tenth of its working time (the benchmark prints it), so it is not the cores: the answers' tail
// follows the node's thread's collections as much as its load.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { batchedPost, httpFront, type BackendAnswer, type HttpBackend } from './httpServer.ts';

/** A request read here for the node's thread: a JSON-RPC body or a REST call (`path` under /v1, `query` of the URL). */
export interface ThreadRequest {
  id: number;
  kind: 'jsonrpc' | 'rest';
  method: string;
  path: string;
  query: string;
  body: string;
}

/** The answer to request `id`. */
export interface ThreadAnswer {
  id: number;
  answer: BackendAnswer;
}

/** What the node's thread posts: answers to requests, or an order to listen or stop (with its own `id`). */
export type ToHttpWorker =
  | { type: 'answers'; answers: ThreadAnswer[] }
  | { type: 'listen'; id: number; port: number; host: string }
  | { type: 'stop'; id: number; graceMs: number };

/** What this thread posts: requests (those read in one turn of its event loop), a log line, or how an order went. */
export type FromHttpWorker =
  | { type: 'requests'; requests: ThreadRequest[] }
  | { type: 'log'; line: string }
  | { type: 'listened'; id: number; port: number }
  | { type: 'failed'; id: number; code?: string; message: string }
  | { type: 'stopped'; id: number };

/** The worker's data: the API key every request must carry, when set. */
export interface HttpWorkerData {
  apiKey?: string;
}

function serve(port: MessagePort, data: HttpWorkerData): void {
  const post = (message: FromHttpWorker) => port.postMessage(message);
  const waiting = new Map<number, (answer: BackendAnswer) => void>();
  let nextId = 1;
  const request = batchedPost<ThreadRequest>((requests) => post({ type: 'requests', requests }));
  const ask = (kind: ThreadRequest['kind'], method: string, path: string, query: string, body: string) =>
    new Promise<BackendAnswer>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      request({ id, kind, method, path, query, body });
    });
  const backend: HttpBackend = {
    jsonRpc: (body) => ask('jsonrpc', 'POST', '/jsonrpc', '', body),
    rest: (method, path, query, body) => ask('rest', method, path, query, body),
  };
  const front = httpFront(backend, { apiKey: data.apiKey, log: (line) => post({ type: 'log', line }) });
  port.on('message', (message: ToHttpWorker) => {
    if (message.type === 'answers') {
      for (const { id, answer } of message.answers) {
        const resolve = waiting.get(id);
        waiting.delete(id);
        resolve?.(answer);
      }
    } else if (message.type === 'listen') {
      front.listen(message.port, message.host).then(
        (bound) => post({ type: 'listened', id: message.id, port: bound }),
        (error: NodeJS.ErrnoException) =>
          post({ type: 'failed', id: message.id, code: error.code, message: String(error.message) }),
      );
    } else {
      void front.stop(message.graceMs).then(() => {
        post({ type: 'stopped', id: message.id });
        port.close();
      });
    }
  });
}

if (parentPort) serve(parentPort, workerData as HttpWorkerData);
