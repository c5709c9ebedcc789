// The single-flight helper behind the dashboard's refresh and History's fresh first page (src-renderer/lib/
// coalesced.ts): one run at a time, calls during a run folded into exactly one more, a call after the runs starts
// anew, and a failed run ends the runs without leaving the helper stuck.
import { describe, expect, it } from 'vitest';
import { coalesced } from '../../src-renderer/lib/coalesced.ts';

/** A job whose runs the test ends one by one, counting how many started and how many run at once at most. */
function job() {
  const ends: ((error?: Error) => void)[] = [];
  const state = { started: 0, running: 0, mostAtOnce: 0 };
  const run = () =>
    new Promise<void>((resolve, reject) => {
      state.started++;
      state.running++;
      state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
      ends.push((error) => {
        state.running--;
        if (error) reject(error);
        else resolve();
      });
    });
  /** Ends the oldest unfinished run, then lets the helper start the next one if it will. */
  const end = async (error?: Error) => {
    ends.shift()!(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, state, end };
}

describe('coalesced', () => {
  it('folds the calls made during a run into one more run after it', async () => {
    const { run, state, end } = job();
    const refresh = coalesced(run);
    const first = refresh();
    for (let i = 0; i < 5; i++) await refresh(); // return at once: folded
    expect(state.started).toBe(1);
    await end();
    expect(state.started).toBe(2);
    await end();
    await first;
    expect(state.started).toBe(2);
    expect(state.mostAtOnce).toBe(1);
  });

  it('runs again for a call after the runs have ended', async () => {
    const { run, state, end } = job();
    const refresh = coalesced(run);
    const first = refresh();
    await end();
    await first;
    const second = refresh();
    expect(state.started).toBe(2);
    await end();
    await second;
  });

  it('stops the runs at a failure, and runs again at the next call', async () => {
    const { run, state, end } = job();
    const refresh = coalesced(run);
    const first = refresh();
    void refresh();
    const failed = expect(first).rejects.toThrow('node unreachable');
    await end(new Error('node unreachable'));
    await failed;
    expect(state.started).toBe(1);
    const next = refresh();
    expect(state.started).toBe(2);
    await end();
    await next;
  });
});
