// Pushes the selected network's head to whoever listens (`head:new`): one poll at a time on a timer while there are
// listeners, none when there are none; an event only when the head moved or the chain ID changed.
import type { HeadInfo } from './types.ts';
import type { NetworkService } from './networks.ts';

export interface HeadWatcherOptions {
  networks: NetworkService;
  /** Between two polls (default 3 s, the chain's block time). */
  intervalMs?: number;
}

/**
 * @example
 * const unsubscribe = watcher.subscribe((head) => win.webContents.send('head:new', head));
 */
export class HeadWatcher {
  private readonly networks: NetworkService;
  private readonly intervalMs: number;
  private readonly listeners = new Set<(head: HeadInfo) => void>();
  private timer: NodeJS.Timeout | undefined;
  private last: string | undefined;

  constructor(options: HeadWatcherOptions) {
    this.networks = options.networks;
    this.intervalMs = options.intervalMs ?? 3000;
  }

  /** Starts polling with the first listener; the returned function removes it (and stops polling after the last). */
  subscribe(listener: (head: HeadInfo) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.last = undefined;
      this.arm(0);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  /** Whether a poll is scheduled (tests: nothing runs when nobody listens). */
  get active(): boolean {
    return this.timer !== undefined;
  }

  private arm(delay: number): void {
    this.timer = setTimeout(() => void this.tick(), delay);
  }

  private async tick(): Promise<void> {
    let head: HeadInfo | undefined;
    try {
      head = await this.networks.head();
    } catch {
      head = undefined; // unreachable for now; the dashboard shows the error when asked
    }
    if (this.listeners.size === 0) {
      this.timer = undefined;
      return;
    }
    if (head) {
      const key = `${head.networkId}|${head.chainId}|${head.height}`;
      if (key !== this.last) {
        this.last = key;
        for (const listener of this.listeners) {
          try {
            listener(head);
          } catch {
            // a listener's failure is its own
          }
        }
      }
    }
    if (this.listeners.size > 0) this.arm(this.intervalMs);
    else this.timer = undefined;
  }
}
