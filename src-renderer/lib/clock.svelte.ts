// A shared "now" that ticks once a second while some screen reads it, for ages such as "head block 12 s ago".
import { createSubscriber } from 'svelte/reactivity';

class Clock {
  #subscribe = createSubscriber((update) => {
    const timer = setInterval(update, 1000);
    return () => clearInterval(timer);
  });

  /** Epoch milliseconds; reading it in an effect or template re-runs it every second. */
  get now(): number {
    this.#subscribe();
    return Date.now();
  }
}

/** The one clock. */
export const clock = new Clock();
