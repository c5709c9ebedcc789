// The submissions' backpressure (chain/admission.ts): a submission waits only while the blocks are behind, or while
// others wait before it; the waiting go on together and in the order they came once the blocks have caught up.
import { describe, expect, it } from 'vitest';
import { Admission } from '../../src-main/devnet/chain/admission.ts';

describe('admission of submissions', () => {
  it('lets a submission through at once while the blocks keep up', () => {
    const admission = new Admission(() => false);
    expect(admission.wait()).toBeUndefined();
    expect(admission.wait()).toBeUndefined();
  });

  it('holds submissions while the blocks are behind and lets them go in order once they caught up', async () => {
    let behind = true;
    const admission = new Admission(() => behind);
    const order: string[] = [];
    const first = admission.wait()!.then(() => order.push('first'));
    const second = admission.wait()!.then(() => order.push('second'));
    admission.review(); // still behind: nobody goes
    await Promise.resolve();
    expect(order).toEqual([]);
    behind = false;
    // One that comes now, with the blocks caught up but two waiting, queues behind them.
    const third = admission.wait();
    expect(third).toBeDefined();
    void third!.then(() => order.push('third'));
    admission.review();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first', 'second', 'third']);
    // Nobody waits now: the next goes at once.
    expect(admission.wait()).toBeUndefined();
  });
});
