// The pause after wrong passwords: three tries are free, then each wrong one doubles the wait (1 s, 2 s, 4 s ... at
// most 5 minutes), and a try during the wait is refused before scrypt runs. It lives in the main process, one per data
// folder, so neither a page reload nor reopening the vault resets it; only the right password does.
import { resolve } from 'node:path';
import { WalletError } from '../../koinos/errors.ts';

/** Wrong passwords in a row that cost no wait. */
const FREE_ATTEMPTS = 3;
/** The wait after the first wrong password beyond the free ones; it doubles with each further one. */
const FIRST_WAIT_MS = 1_000;
/** The longest wait. */
export const MAX_WAIT_MS = 5 * 60_000;

/** "1 second", "45 seconds", "2 minutes 8 seconds": the wait rounded up to whole seconds. */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(seconds, 'second');
  const rest = seconds % 60;
  return rest === 0
    ? unit(seconds / 60, 'minute')
    : `${unit(Math.floor(seconds / 60), 'minute')} ${unit(rest, 'second')}`;
}

/** The count of wrong passwords in a row and the time before which no try is checked. */
export class PasswordThrottle {
  #failures = 0;
  #until = 0;

  /**
   * Refuses a try made during the wait, before any work.
   * @throws WalletError TOO_MANY_ATTEMPTS with the time left in its message.
   */
  check(now: number): void {
    if (now >= this.#until) return;
    const left = formatWait(this.#until - now);
    throw new WalletError(
      'TOO_MANY_ATTEMPTS',
      `expected a pause after ${this.#failures} wrong passwords in a row, but this try came too early: wait ${left} and try again`,
      {
        metaMessages: ['The password was not checked. Each further wrong password doubles the wait, up to 5 minutes.'],
      },
    );
  }

  /** Records a wrong password; returns the wait it starts (0 while within the free tries). */
  failed(now: number): number {
    this.#failures += 1;
    const beyond = this.#failures - FREE_ATTEMPTS;
    if (beyond < 0) return 0;
    const wait = Math.min(FIRST_WAIT_MS * 2 ** beyond, MAX_WAIT_MS);
    this.#until = now + wait;
    return wait;
  }

  /** The right password: the count starts again. */
  succeeded(): void {
    this.#failures = 0;
    this.#until = 0;
  }
}

const THROTTLES = new Map<string, PasswordThrottle>();

/** The throttle of a data folder in this process (the same one for every Vault opened on it). */
export function throttleFor(dataDir: string): PasswordThrottle {
  const key = resolve(dataDir);
  let throttle = THROTTLES.get(key);
  if (!throttle) {
    throttle = new PasswordThrottle();
    THROTTLES.set(key, throttle);
  }
  return throttle;
}
