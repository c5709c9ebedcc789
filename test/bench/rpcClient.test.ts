// The benchmark's CPU readings from /proc: the whole process's, and each thread's by id, the main thread's id being the
// process id (what the devnet benchmark uses to tell the node's thread from the HTTP worker's).
import { describe, expect, it } from 'vitest';
import { processCpuMs, threadCpuMs } from './rpcClient.ts';

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

  it('reads nothing for a process that does not exist', () => {
    expect(threadCpuMs(2 ** 31 - 1)).toBeUndefined();
    expect(processCpuMs(2 ** 31 - 1)).toBeUndefined();
    expect(threadCpuMs(undefined)).toBeUndefined();
  });
});
