// Backpressure on submissions while the blocks fall behind them. The devnet answers submissions and makes blocks on
// one thread: answered at once, clients under a load above what blocks include send faster than blocks take, and the
// mempool grows without end (to 25,000 transactions in the benchmark's saturation run) and with it the heap, whose
// collections then stall every request for 30-150 ms. A submission that finds the blocks behind waits here, in order,
// until a block has caught up; it is then checked and applied as any other. A node under no such load never waits.

/** Submissions waiting for the blocks to catch up, let through in the order they came. */
export class Admission {
  private waiting: (() => void)[] = [];

  /** @param behind whether the blocks are behind now: a submission that finds them so waits */
  constructor(private readonly behind: () => boolean) {}

  /**
   * Undefined when a submission may go on at once; else a promise that resolves when it may. One that comes while
   * others wait queues behind them, so that a sender's submissions keep their order.
   */
  wait(): Promise<void> | undefined {
    if (this.waiting.length === 0 && !this.behind()) return undefined;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** After anything that may end the backlog: lets every waiting submission go on, in order, unless it did not end. */
  review(): void {
    if (this.waiting.length === 0 || this.behind()) return;
    const admitted = this.waiting;
    this.waiting = [];
    for (const resolve of admitted) resolve();
  }
}
