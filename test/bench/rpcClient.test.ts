// The benchmark's CPU readings from /proc: the whole process's, and each thread's by id (its CPU and its wait for a
// core), the main thread's id being the process id (what the devnet benchmarks use to tell the node's thread from the
// others). And the floor server that the steady submission latency is read beside, driven by the benchmark's own
// open-loop client.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  processCpuMs,
  rpcBody,
  startFloorServer,
  submitAtRate,
  threadCpuMs,
  threadGrowth,
  threadSplit,
  threadWaitMs,
} from './rpcClient.ts';

describe.skipIf(process.platform !== 'linux')("the benchmark's CPU readings", () => {
  it("count this thread's work under the process id, within the process's total", () => {
    const before = threadCpuMs(process.pid)!;
    expect(before.has(process.pid)).toBe(true);
    // Compute until the reading moves (it counts in 10-ms ticks): wait for the state, not for a time.
    let after = threadCpuMs(process.pid)!;
    let spin = 0;
    while (after.get(process.pid)! < before.get(process.pid)! + 20) {
      for (let i = 0; i < 1e6; i++) spin = (spin + i) % 7919;
      after = threadCpuMs(process.pid)!;
    }
    const total = processCpuMs(process.pid)!;
    expect(after.get(process.pid)!).toBeLessThanOrEqual(total);
    expect([...after.values()].reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(total + 10 * after.size);
  });

  it("splits a run's CPU into the main thread's, the busiest other's and all the others'", () => {
    // Thread 7 is the main thread (the process id); 9 started during the run, 8 used nothing in it.
    const before = new Map([
      [7, 100],
      [8, 40],
      [10, 5],
    ]);
    const after = new Map([
      [7, 160],
      [8, 40],
      [9, 30],
      [10, 25],
    ]);
    expect(threadSplit(before, after, 7)).toEqual({ main: 60, busiestOther: 30, busiestOtherId: 9, others: 50 });
    // A thread's growth between two readings: a thread new in the second counts from zero, an unknown one is unknown.
    expect(threadGrowth(before, after, 10)).toBe(20);
    expect(threadGrowth(before, after, 9)).toBe(30);
    expect(threadGrowth(before, after, 11)).toBeUndefined();
    expect(threadGrowth(before, after, undefined)).toBeUndefined();
  });

  // A kernel built without scheduler statistics has no schedstat file; the benchmark then leaves the wait out.
  it.skipIf(!existsSync('/proc/self/schedstat'))(
    "reads each thread's run-queue wait, which only grows (skipped without /proc/self/schedstat)",
    () => {
      const before = threadWaitMs(process.pid)!;
      expect(before.get(process.pid)).toBeGreaterThanOrEqual(0);
      const after = threadWaitMs(process.pid)!;
      expect(threadGrowth(before, after, process.pid)).toBeGreaterThanOrEqual(0);
    },
  );

  it('reads nothing for a process that does not exist', () => {
    expect(threadWaitMs(2 ** 31 - 1)).toBeUndefined();
    expect(threadCpuMs(2 ** 31 - 1)).toBeUndefined();
    expect(processCpuMs(2 ** 31 - 1)).toBeUndefined();
    expect(threadCpuMs(undefined)).toBeUndefined();
  });
});

describe('the floor server', () => {
  const answer = JSON.stringify({ jsonrpc: '2.0', result: { receipt: { id: '0x1220ab' } }, id: 1 });

  it("gives every request of the open-loop client the stored answer, and the client's figures cover each", async () => {
    const floor = await startFloorServer(answer);
    try {
      const queues = [0, 1, 2].map((q) =>
        Array.from({ length: 4 }, (_, k) => rpcBody('chain.submit_transaction', { queue: q, k })),
      );
      const run = await submitAtRate(floor.url, queues, 200);
      expect(run.latency).toHaveLength(12);
      expect(run.response).toHaveLength(12);
      expect(run.latency.every((ms, i) => ms >= run.response[i]! && ms > 0)).toBe(true);
      expect(run.lastAnswer).toBe(answer);
      expect(run.lastId).toBe('0x1220ab');
    } finally {
      await floor.stop();
    }
  });

  it('parses each body: one that is not JSON gets a 400', async () => {
    const floor = await startFloorServer(answer);
    try {
      const bad = await fetch(`${floor.url}/jsonrpc`, { method: 'POST', body: '{"jsonrpc":' });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toBe('expected a JSON body');
      const good = await fetch(`${floor.url}/jsonrpc`, { method: 'POST', body: '{}' });
      expect(await good.text()).toBe(answer);
    } finally {
      await floor.stop();
    }
  });
});
