// The vault's idle lock: a deadline moved forward by every activity, checked both by a timer and on every use, so a
// timer that fires late (after the machine slept) still finds the deadline passed. Time comes from a Clock so tests
// drive it by hand instead of sleeping.

/** Time and timers; the system's by default, a hand-driven one in tests. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Date.now and the global timers; the timer is unref'd so that a CLI process holding a vault can still exit. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Calls `onIdle` once no activity was reported for `idleMs`, while started. */
export class IdleTimer {
  #clock: Clock;
  #onIdle: () => void;
  #idleMs = 0;
  #lastActivity = 0;
  #handle: unknown;
  #running = false;

  constructor(clock: Clock, onIdle: () => void) {
    this.#clock = clock;
    this.#onIdle = onIdle;
  }

  /** Starts (or restarts) counting from now with this idle time. */
  start(idleMs: number): void {
    this.#idleMs = idleMs;
    this.#running = true;
    this.#lastActivity = this.#clock.now();
    this.#schedule(idleMs);
  }

  stop(): void {
    this.#running = false;
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
  }

  /** Activity: the deadline moves to now + idle time. */
  touch(): void {
    if (!this.#running) return;
    this.#lastActivity = this.#clock.now();
  }

  /** Changes the idle time, counting from the last activity. */
  setIdleMs(idleMs: number): void {
    this.#idleMs = idleMs;
    if (this.#running) this.#fire();
  }

  /** True when running and the deadline has passed (checked by the vault before every use of a key). */
  expired(): boolean {
    return this.#running && this.#clock.now() - this.#lastActivity >= this.#idleMs;
  }

  #schedule(ms: number): void {
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = this.#clock.setTimeout(() => this.#fire(), Math.max(ms, 0));
  }

  // Touch only records the time; the timer re-arms itself for what is left, so activity costs no timer churn.
  #fire(): void {
    this.#handle = undefined;
    if (!this.#running) return;
    const left = this.#lastActivity + this.#idleMs - this.#clock.now();
    if (left <= 0) {
      this.stop();
      this.#onIdle();
    } else {
      this.#schedule(left);
    }
  }
}
