// Locks the wallet after the auto-lock time without user input in this window. Main locks on its own idle timer
// too, but every call the renderer makes counts as activity there, and the dashboard calls main on every new
// block; only the window knows whether a person is still using it.

const INPUT_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'focusin'] as const;
const CHECK_MS = 1_000;

/**
 * Calls `onIdle` once when no input arrived for `minutes()` minutes; returns a function that stops watching.
 * @example
 * const stop = watchIdle(() => settings.autoLockMinutes, () => void wallet.lock());
 */
export function watchIdle(minutes: () => number, onIdle: () => void): () => void {
  let last = Date.now();
  let fired = false;
  const seen = (): void => {
    last = Date.now();
  };
  for (const name of INPUT_EVENTS) window.addEventListener(name, seen, { passive: true, capture: true });
  const timer = setInterval(() => {
    if (!fired && Date.now() - last >= minutes() * 60_000) {
      fired = true;
      onIdle();
    }
  }, CHECK_MS);
  return () => {
    clearInterval(timer);
    for (const name of INPUT_EVENTS) window.removeEventListener(name, seen, { capture: true });
  };
}
