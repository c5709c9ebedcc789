// The JSON-RPC load client the devnet benchmarks share: a devnet server in its own process (so the load generator
// does not share its event loop), keep-alive JSON-RPC calls, and latency percentiles.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What devnetServer.ts prints on its first line. */
export interface ServerInfo {
  url: string;
  chainId: string;
  koin: string;
  accounts: { address: string; wif: string }[];
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export function rpcBody(method: string, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

/** One JSON-RPC call over a keep-alive connection; resolves the result or rejects with the error object. */
export function rpc(url: string, method: string, params: object | string): Promise<any> {
  const body = typeof params === 'string' ? params : rpcBody(method, params);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/jsonrpc`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const reply = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (reply.error)
            reject(new Error(`${method}: ${reply.error.message} ${JSON.stringify(reply.error.data ?? '')}`));
          else resolve(reply.result);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function latencies(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms (${samples.length} calls)`;
}

/**
 * Starts devnetServer.ts in a child process; `env` overrides its settings (BENCH_ACCOUNTS, BENCH_BLOCK_TIME).
 * BENCH_PROFILE=<dir> writes the server's CPU profile there (node --cpu-prof) when it stops.
 */
export async function startServer(env: Record<string, string> = {}): Promise<{
  info: ServerInfo;
  stop: () => Promise<void>;
  cpuMs: () => number | undefined;
  threadsCpuMs: () => Map<number, number> | undefined;
  threadsWaitMs: () => Map<number, number> | undefined;
  pid: number | undefined;
}> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
  const { first, stop, pid } = await startProcess('./devnetServer.ts', profile, env);
  return {
    info: JSON.parse(first) as ServerInfo,
    cpuMs: () => processCpuMs(pid),
    threadsCpuMs: () => threadCpuMs(pid),
    threadsWaitMs: () => threadWaitMs(pid),
    pid,
    stop,
  };
}

/**
 * Starts floorServer.ts in a child process: a server that answers every request with `answer` once it has parsed the
 * body, the floor under the devnet's latency on this machine. Resolves its URL and how to stop it.
 */
export async function startFloorServer(answer: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const { first, stop } = await startProcess('./floorServer.ts', [], { FLOOR_ANSWER: answer });
  return { url: (JSON.parse(first) as { url: string }).url, stop };
}

/** Starts a benchmark server of this folder under tsx, and resolves the first line it prints. */
async function startProcess(
  file: string,
  nodeOptions: string[],
  env: Record<string, string>,
): Promise<{ first: string; stop: () => Promise<void>; pid: number | undefined }> {
  const entry = fileURLToPath(new URL(file, import.meta.url));
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', entry], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return {
    first,
    pid: child.pid,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux); undefined elsewhere. On a machine
 * shared with other work this is steadier than wall time: it counts only the server's own work.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : statCpuMs(`/proc/${pid}/stat`);
}

/**
 * CPU time each thread of a process has used so far, in ms, by thread id (the main thread's id is the process id), from
 * /proc (Linux); undefined elsewhere. A submission's tail waits on the busiest thread, not on the process's total.
 */
export function threadCpuMs(pid: number | undefined): Map<number, number> | undefined {
  return perThread(pid, (tid) => statCpuMs(`/proc/${pid}/task/${tid}/stat`));
}

/**
 * How long each thread of a process has waited so far for a core while it was ready to run, in ms, by thread id (the
 * kernel's run-queue wait, schedstat in proc(5)); undefined where the kernel does not keep it. A request waits for its
 * thread's turn on a core on top of the thread's work: on a machine whose cores the other threads keep busy, that wait
 * is part of every answer.
 */
export function threadWaitMs(pid: number | undefined): Map<number, number> | undefined {
  return perThread(pid, (tid) => {
    try {
      // schedstat: time on a core, time waiting on a run queue (both in ns), timeslices run.
      const waited = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
      return Number.isFinite(waited) ? waited : undefined;
    } catch {
      return undefined;
    }
  });
}

/** A reading of each thread of a process by thread id, undefined when the process's threads cannot be listed. */
function perThread(
  pid: number | undefined,
  read: (tid: string) => number | undefined,
): Map<number, number> | undefined {
  if (pid === undefined) return undefined;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const threads = new Map<number, number>();
  for (const tid of tids) {
    const value = read(tid);
    if (value !== undefined) threads.set(Number(tid), value); // undefined: the thread ended since the listing
  }
  return threads;
}

/**
 * How the CPU a run took (threadCpuMs before and after it) split among a process's threads: its main thread (the
 * node's), the busiest of the others (and its id), and all the others together (with the HTTP thread, V8's compiler
 * and GC helpers).
 */
export function threadSplit(
  before: Map<number, number>,
  after: Map<number, number>,
  pid: number,
): { main: number; busiestOther: number; busiestOtherId: number | undefined; others: number } {
  let main = 0;
  let busiestOther = 0;
  let busiestOtherId: number | undefined;
  let others = 0;
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0);
    if (tid === pid) main = used;
    else {
      if (busiestOtherId === undefined || used > busiestOther) {
        busiestOther = used;
        busiestOtherId = tid;
      }
      others += used;
    }
  }
  return { main, busiestOther, busiestOtherId, others };
}

/** How much thread `tid` of a reading (threadWaitMs, threadCpuMs) grew between two readings, undefined if unknown. */
export function threadGrowth(
  before: Map<number, number> | undefined,
  after: Map<number, number> | undefined,
  tid: number | undefined,
): number | undefined {
  if (tid === undefined) return undefined;
  const end = after?.get(tid);
  return end === undefined ? undefined : end - (before?.get(tid) ?? 0);
}

/** utime + stime of a stat(5) file in ms, or undefined when it cannot be read. */
function statCpuMs(path: string): number | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Polls until transaction `id` is in a block, with a deadline. */
export async function waitIncluded(url: string, id: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await rpc(url, 'transaction_store.get_transactions_by_id', { transaction_ids: [id] });
    if (found.transactions?.[0]?.containing_blocks?.length) return;
    if (Date.now() > deadline) throw new Error(`transaction ${id} was not included within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One keep-alive HTTP/1.1 connection that sends JSON-RPC requests built before the clock starts and reads the answers
 * with as little client work as possible, so that on a machine the node shares, the figures measure the node and not
 * the load generator: node:http's client costs about 0.15 ms of CPU a call, several times this, and a client that
 * makes garbage collects it while the node works (on two cores its collector's threads took the node's CPU in about a
 * quarter of the slow answers of one measured run, and its marking steps land in the times it measures). So the socket
 * reads into one buffer of the connection's (net's `onread`), the answer is gathered in another that is reused, its
 * Content-Length read from its head, and its body handed over unparsed. It reads only what the devnet writes (a
 * Content-Length body, never chunked).
 */
class LeanConnection {
  private readonly socket: Socket;
  /** The answer being read, in `received[0, length)`; grown when an answer does not fit, never shrunk. */
  private received = Buffer.alloc(1 << 17);
  private length = 0;
  private waiting: { resolve: (body: Buffer) => void; reject: (error: Error) => void } | undefined;
  private readonly head: string;

  private constructor(socket: Socket, host: string) {
    this.socket = socket;
    this.head = `POST /jsonrpc HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: `;
    socket.setNoDelay(true);
    const fail = (error: Error) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the devnet closed the connection')));
  }

  static open(url: string): Promise<LeanConnection> {
    const { hostname, port, host } = new URL(url);
    return new Promise((resolve, reject) => {
      let connection: LeanConnection | undefined;
      const socket = connect({
        port: Number(port),
        host: hostname,
        onread: {
          buffer: Buffer.alloc(1 << 16),
          callback: (size, buffer) => {
            // The devnet says nothing before it is asked: the connection exists by the first byte.
            connection!.take(buffer, size);
            return true;
          },
        },
      });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        connection = new LeanConnection(socket, host);
        resolve(connection);
      });
    });
  }

  /** The whole request for a JSON-RPC body: head and body, ready to write. */
  request(body: string): Buffer {
    return Buffer.from(`${this.head}${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  /** Appends `size` bytes the socket read, and resolves the answer once it is whole. */
  private take(chunk: Uint8Array, size: number): void {
    if (this.length + size > this.received.length) {
      const grown = Buffer.alloc(Math.max(this.received.length * 2, this.length + size));
      this.received.copy(grown, 0, 0, this.length);
      this.received = grown;
    }
    this.received.set(chunk.subarray(0, size), this.length);
    this.length += size;
    const waiting = this.waiting;
    if (!waiting) return;
    const end = this.received.subarray(0, this.length).indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = /\r\ncontent-length: *(\d+)/i.exec(this.received.toString('latin1', 0, end));
    if (!length) {
      this.waiting = undefined;
      waiting.reject(
        new Error(`expected an answer with a Content-Length, got: ${this.received.toString('latin1', 0, end)}`),
      );
      return;
    }
    const total = end + 4 + Number(length[1]);
    if (this.length < total) return;
    // One request is in flight at a time: nothing follows the answer.
    this.length = 0;
    this.waiting = undefined;
    waiting.resolve(this.received.subarray(end + 4, total));
  }

  /**
   * Sends one request (see {@link request}) and resolves the answer's body, unparsed: a view into the connection's
   * buffer, valid until the next request of this connection.
   */
  send(request: Buffer): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.end();
  }
}

/** How every answer with a result begins (the devnet writes `jsonrpc` first, then `result` or `error`). */
const RESULT_START = Buffer.from('{"jsonrpc":"2.0","result":');

/** Throws the JSON-RPC error of an answer that holds no result; parses only such answers. */
function checkAnswer(method: string, body: Buffer): void {
  if (body.subarray(0, RESULT_START.length).equals(RESULT_START)) return;
  const reply = JSON.parse(body.toString('utf8'));
  if (reply.error || !('result' in reply))
    throw new Error(`${method}: ${reply.error?.message} ${JSON.stringify(reply.error?.data ?? '')}`);
}

/** The receipt id of a submit_transaction answer. */
function receiptId(body: Buffer): string {
  return JSON.parse(body.toString('utf8')).result.receipt.id;
}

/**
 * A queue's requests in one buffer (one array object for the collector to meet, not one per request): request k is
 * `at(k)`, a view made when it is sent.
 */
class RequestQueue {
  private readonly bytes: Buffer;
  private readonly ends: Uint32Array;

  constructor(connection: LeanConnection, bodies: string[]) {
    const requests = bodies.map((body) => connection.request(body));
    this.ends = new Uint32Array(requests.length);
    let end = 0;
    requests.forEach((request, k) => (this.ends[k] = end += request.length));
    this.bytes = Buffer.concat(requests, end);
  }

  get count(): number {
    return this.ends.length;
  }

  at(k: number): Buffer {
    return this.bytes.subarray(k === 0 ? 0 : this.ends[k - 1]!, this.ends[k]!);
  }
}

/**
 * Opens one connection per queue and builds each queue's requests, then collects the client's garbage: all before
 * the caller's clock starts.
 */
async function openQueues(
  url: string,
  queues: string[][],
): Promise<{ connection: LeanConnection; requests: RequestQueue }[]> {
  const connections = await Promise.all(queues.map(() => LeanConnection.open(url)));
  const lanes = connections.map((connection, q) => ({
    connection,
    requests: new RequestQueue(connection, queues[q]!),
  }));
  collectClientGarbage();
  return lanes;
}

/**
 * Collects the client's garbage before a measured run (a full collection of its own heap, `global.gc` opened for
 * the purpose), once what the run sends is built: the collector then neither takes the cores the node runs on nor
 * pauses the client while it is measured (measured before: a major collection of 20 ms in every 10 s at 3,000/s,
 * started by the 30 MB of requests built after the previous collection).
 */
function collectClientGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Times `count` calls of `method` one after another on one connection, the i-th with `params(i)`: from the request
 * sent to the answer's last byte read. `check` gets each answer's bytes after its time is taken, unparsed: a client
 * that parses every answer (a 50-record history page is 75 KB of JSON) collects its garbage between the calls, and
 * its collector's marking steps land in the times measured (measured: one every ~110 ms, 5-10 ms each).
 */
export async function timeCalls(
  url: string,
  method: string,
  count: number,
  params: (i: number) => object,
  check: (answer: Buffer) => void = () => {},
): Promise<number[]> {
  const connection = await LeanConnection.open(url);
  const latency: number[] = [];
  collectClientGarbage();
  try {
    for (let i = 0; i < count; i++) {
      const request = connection.request(rpcBody(method, params(i)));
      const t = performance.now();
      const answer = await connection.send(request);
      latency.push(performance.now() - t);
      checkAnswer(method, answer);
      check(answer);
    }
  } finally {
    connection.close();
  }
  return latency;
}

/** How many times `key` occurs in an answer's JSON as a key (`"key":`), read without parsing it. */
export function keyCount(answer: Buffer, key: string): number {
  const needle = Buffer.from(`"${key}":`);
  let count = 0;
  for (let at = answer.indexOf(needle); at >= 0; at = answer.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * Submits each queue's bodies in order on one connection, the queues concurrently (one per sender, so nonces
 * arrive in order); returns the submit latencies, the id of the last one accepted and the elapsed ms.
 */
export async function submitQueues(
  url: string,
  queues: string[][],
): Promise<{ latency: number[]; lastId: string; elapsed: number }> {
  const lanes = await openQueues(url, queues);
  const latency: number[] = [];
  let last: Buffer | undefined;
  const start = performance.now();
  try {
    await Promise.all(
      lanes.map(async ({ connection, requests }) => {
        for (let k = 0; k < requests.count; k++) {
          const t = performance.now();
          const answer = await connection.send(requests.at(k));
          latency.push(performance.now() - t);
          checkAnswer('chain.submit_transaction', answer);
          if (k === requests.count - 1) last = Buffer.from(answer);
        }
      }),
    );
  } finally {
    for (const { connection } of lanes) connection.close();
  }
  const elapsed = performance.now() - start;
  return { latency, lastId: last ? receiptId(last) : '', elapsed };
}

/**
 * Submits the queues at a steady `perSecond` in all (open loop: transfer i of the round-robin order is due at
 * start + i / perSecond, whatever the node answers), each queue in order on its own connection. A transfer's latency
 * runs from when it was due if its connection was still waiting for the previous answer then (the time the node
 * made it wait counts, as wrk2 counts it), else from when it was sent (a timer firing late is the client's, not the
 * node's). At a rate the node sustains, this is the latency a client sees at that rate; at saturation (submitQueues)
 * every request also waits behind the other senders' by construction. `response` holds each transfer's time from sent
 * to answered: what a lone client waits, without the wait for its connection that one slow answer causes the queue's
 * next transfers (at 3,000/s over 16 connections a transfer is due on each every 5.3 ms). `lastAnswer` is the body of
 * the last answer (the one `lastId` is read from), as it came: what the floor server gives back (startFloorServer).
 */
export async function submitAtRate(
  url: string,
  queues: string[][],
  perSecond: number,
): Promise<{ latency: number[]; response: number[]; lastId: string; lastAnswer: string; elapsed: number }> {
  const lanes = await openQueues(url, queues);
  const total = queues.reduce((sum, queue) => sum + queue.length, 0);
  const latency = new Float64Array(total);
  const response = new Float64Array(total);
  let answered = 0;
  let last: Buffer | undefined;
  const start = performance.now();
  const due = (q: number, k: number) => start + ((k * queues.length + q) * 1000) / perSecond;
  try {
    await Promise.all(
      lanes.map(async ({ connection, requests }, q) => {
        for (let k = 0; k < requests.count; k++) {
          const at = due(q, k);
          const overdue = performance.now() >= at;
          if (!overdue) await new Promise((resolve) => setTimeout(resolve, at - performance.now()));
          const sent = performance.now();
          const from = overdue ? at : sent;
          const answer = await connection.send(requests.at(k));
          const now = performance.now();
          latency[answered] = now - from;
          response[answered++] = now - sent;
          checkAnswer('chain.submit_transaction', answer);
          if (k === requests.count - 1) last = Buffer.from(answer);
        }
      }),
    );
  } finally {
    for (const { connection } of lanes) connection.close();
  }
  const elapsed = performance.now() - start;
  return {
    latency: [...latency],
    response: [...response],
    lastId: last ? receiptId(last) : '',
    lastAnswer: last ? last.toString('utf8') : '',
    elapsed,
  };
}
