// The JSON-RPC load client the devnet benchmarks share: a devnet server in its own process (so the load generator
// does not share its event loop), keep-alive JSON-RPC calls, and latency percentiles.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';

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
export async function startServer(
  env: Record<string, string> = {},
): Promise<{ info: ServerInfo; stop: () => Promise<void>; cpuMs: () => number | undefined }> {
  const entry = fileURLToPath(new URL('./devnetServer.ts', import.meta.url));
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`devnet server exited with ${code}`)));
  });
  return {
    info: JSON.parse(first) as ServerInfo,
    cpuMs: () => processCpuMs(child.pid),
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
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
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
 * One keep-alive HTTP/1.1 connection that sends a JSON-RPC body and reads the answer with as little client work as
 * possible (a fixed request head, the answer's Content-Length read from its head), so that on a machine the node
 * shares, the figures measure the node and not the load generator: node:http's client costs about 0.15 ms of CPU a
 * call, several times this. It reads only what the devnet writes (a Content-Length body, never chunked).
 */
class LeanConnection {
  private readonly socket: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (body: string) => void; reject: (error: Error) => void } | undefined;
  private readonly head: string;

  private constructor(socket: Socket, host: string) {
    this.socket = socket;
    this.head = `POST /jsonrpc HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: `;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.readAnswer();
    });
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
      const socket = connect(Number(port), hostname, () => {
        socket.off('error', reject);
        resolve(new LeanConnection(socket, host));
      });
      socket.once('error', reject);
    });
  }

  private readAnswer(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.buffer.toString('latin1', 0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    const waiting = this.waiting;
    if (!length) {
      this.waiting = undefined;
      waiting.reject(new Error(`expected an answer with a Content-Length, got: ${head}`));
      return;
    }
    const total = end + 4 + Number(length[1]);
    if (this.buffer.length < total) return;
    const body = this.buffer.toString('utf8', end + 4, total);
    this.buffer = this.buffer.subarray(total);
    this.waiting = undefined;
    waiting.resolve(body);
  }

  /** Sends one body and resolves the JSON-RPC result; rejects with the error object's message. */
  call(method: string, body: string): Promise<any> {
    return new Promise<string>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(`${this.head}${Buffer.byteLength(body)}\r\n\r\n${body}`);
    }).then((text) => {
      const reply = JSON.parse(text);
      if (reply.error) throw new Error(`${method}: ${reply.error.message} ${JSON.stringify(reply.error.data ?? '')}`);
      return reply.result;
    });
  }

  close(): void {
    this.socket.end();
  }
}

/**
 * Submits each queue's bodies in order on one connection, the queues concurrently (one per sender, so nonces
 * arrive in order); returns the submit latencies, the id of the last one accepted and the elapsed ms.
 */
export async function submitQueues(
  url: string,
  queues: string[][],
): Promise<{ latency: number[]; lastId: string; elapsed: number }> {
  const connections = await Promise.all(queues.map(() => LeanConnection.open(url)));
  const latency: number[] = [];
  let lastId = '';
  const start = performance.now();
  try {
    await Promise.all(
      queues.map(async (queue, q) => {
        for (const body of queue) {
          const t = performance.now();
          const result = await connections[q]!.call('chain.submit_transaction', body);
          latency.push(performance.now() - t);
          lastId = result.receipt.id;
        }
      }),
    );
  } finally {
    for (const connection of connections) connection.close();
  }
  return { latency, lastId, elapsed: performance.now() - start };
}

/**
 * Submits the queues at a steady `perSecond` in all (open loop: transfer i of the round-robin order is due at
 * start + i / perSecond, whatever the node answers), each queue in order on its own connection. A transfer's latency
 * runs from when it was due if its connection was still waiting for the previous answer then (the time the node
 * made it wait counts, as wrk2 counts it), else from when it was sent (a timer firing late is the client's, not the
 * node's). At a rate the node sustains, this is the latency a client sees at that rate; at saturation (submitQueues)
 * every request also waits behind the other senders' by construction. `response` holds each transfer's time from sent
 * to answered: what a lone client waits, without the wait for its connection that one slow answer causes the queue's
 * next transfers (at 3,000/s over 16 connections a transfer is due on each every 5.3 ms).
 */
export async function submitAtRate(
  url: string,
  queues: string[][],
  perSecond: number,
): Promise<{ latency: number[]; response: number[]; lastId: string; elapsed: number }> {
  const connections = await Promise.all(queues.map(() => LeanConnection.open(url)));
  const latency: number[] = [];
  const response: number[] = [];
  let lastId = '';
  const start = performance.now();
  const due = (q: number, k: number) => start + ((k * queues.length + q) * 1000) / perSecond;
  try {
    await Promise.all(
      queues.map(async (queue, q) => {
        for (let k = 0; k < queue.length; k++) {
          const at = due(q, k);
          const overdue = performance.now() >= at;
          if (!overdue) await new Promise((resolve) => setTimeout(resolve, at - performance.now()));
          const sent = performance.now();
          const from = overdue ? at : sent;
          const result = await connections[q]!.call('chain.submit_transaction', queue[k]!);
          const answered = performance.now();
          latency.push(answered - from);
          response.push(answered - sent);
          lastId = result.receipt.id;
        }
      }),
    );
  } finally {
    for (const connection of connections) connection.close();
  }
  return { latency, response, lastId, elapsed: performance.now() - start };
}
