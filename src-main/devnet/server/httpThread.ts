// The node's side of the HTTP worker (httpWorker.ts): starts it, answers the requests it reads with the node's backend
// in this thread, and orders it to listen and to stop. The worker does the HTTP work (a third of a busy node's thread:
// parsing, headers, socket writes and their garbage) on another core, so this thread runs the chain alone.
import { Worker } from 'node:worker_threads';
import { batchedPost, type BackendAnswer, type HttpBackend, type HttpFront } from './httpServer.ts';
import type { FromHttpWorker, HttpWorkerData, ThreadAnswer, ThreadRequest, ToHttpWorker } from './httpWorker.ts';
import { describeInternalError } from './wireError.ts';
import { workerEntry } from './workerEntry.ts';

/** The last-resort answer, as the in-thread server gives it when the backend fails (the cause goes to the log). */
const UNKNOWN_ERROR: BackendAnswer = { status: 500, text: JSON.stringify({ error: 'unknown error' }) };

/** An order to the worker (listen, stop) before its id is given. */
type Order =
  Exclude<ToHttpWorker, { type: 'answers' }> extends infer O ? (O extends unknown ? Omit<O, 'id'> : never) : never;

/**
 * How this thread sends answers to the HTTP worker: in one message per batch, sent as soon as the node has answered
 * (the promise jobs of the requests have run), not at the end of the event loop's turn. A block being planned gives way
 * between slices of about 1 ms with setImmediate (node.ts), so an answer sent at the end of the turn waited behind the
 * next slice. At 3,000 transfers/s on two cores (lean client, two pairs alternated): answers' p50 1.6-1.7 ms against
 * 2.6-3.4, answers more than 10 ms after they were due 5,907 and 4,375 of 60,000 against 14,111 and 8,462; the HTTP
 * thread, woken once per batch, spends 12 µs more a transfer. Answered sooner, clients send sooner: under a load above
 * what blocks include, the node's admission (chain/admission.ts) keeps the mempool from outgrowing the blocks.
 */
export function answerSender(post: (answers: ThreadAnswer[]) => void): (answer: ThreadAnswer) => void {
  return batchedPost(post, (flush) => process.nextTick(flush));
}

/**
 * Starts the HTTP worker for `backend`; every request it reads is answered by `backend` in this thread.
 * `log` receives the worker's log lines and the backend's unexpected failures.
 */
export function startHttpThread(backend: HttpBackend, data: HttpWorkerData, log: (line: string) => void): HttpFront {
  const entry = workerEntry('httpWorker');
  const worker = new Worker(entry.url, { eval: entry.eval, workerData: data });
  const orders = new Map<number, (reply: FromHttpWorker | undefined) => void>();
  let nextId = 1;
  let exited = false;
  const gone = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      for (const settle of orders.values()) settle(undefined);
      orders.clear();
      resolve();
    }),
  );
  worker.on('error', (error) => log(`the HTTP thread failed: ${describeInternalError(error)}`));

  const reply = answerSender((answers) => {
    if (!exited) worker.postMessage({ type: 'answers', answers } satisfies ToHttpWorker);
  });
  const answer = (request: ThreadRequest) => {
    const asked =
      request.kind === 'jsonrpc'
        ? backend.jsonRpc(request.body)
        : backend.rest(request.method, request.path, request.query, request.body);
    asked
      .catch((error: unknown) => {
        log(`http ${request.method} ${request.path} failed: ${describeInternalError(error)}`);
        return UNKNOWN_ERROR;
      })
      .then((answered) => reply({ id: request.id, answer: answered }));
  };

  worker.on('message', (message: FromHttpWorker) => {
    if (message.type === 'requests') message.requests.forEach(answer);
    else if (message.type === 'log') log(message.line);
    else {
      const settle = orders.get(message.id);
      orders.delete(message.id);
      settle?.(message);
    }
  });

  const order = (what: Order): Promise<FromHttpWorker | undefined> => {
    if (exited) return Promise.resolve(undefined);
    const id = nextId++;
    return new Promise((resolve) => {
      orders.set(id, resolve);
      worker.postMessage({ ...what, id } satisfies ToHttpWorker);
    });
  };

  return {
    async listen(port, host) {
      const reply = await order({ type: 'listen', port, host });
      if (reply?.type === 'listened') return reply.port;
      const failed = reply?.type === 'failed' ? reply : { message: 'the HTTP thread stopped before listening' };
      throw Object.assign(new Error(failed.message), 'code' in failed ? { code: failed.code } : {});
    },
    async stop(graceMs) {
      await order({ type: 'stop', graceMs });
      await worker.terminate();
      await gone;
    },
  };
}
