// The theme on `<html data-theme>`: always `light` or `dark`, so that app.css holds the dark palette once. "Same as
// the system" follows the system's preference through matchMedia, also when it changes while the wallet is open.
import type { Settings } from '../../src-main/ipc/contract.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';
let stopFollowing: (() => void) | undefined;

function setTheme(theme: 'light' | 'dark', source: 'system' | 'user'): void {
  const root = document.documentElement;
  root.dataset['theme'] = theme;
  // Tests read the source to know whether a change of the system's preference must show.
  root.dataset['themeSource'] = source;
}

/**
 * Applies the user's choice: `light` or `dark` forces one; `system` sets the system's now and follows its changes.
 * @example
 * applyTheme('system'); // <html data-theme="dark" data-theme-source="system"> on a dark desktop
 */
export function applyTheme(theme: Settings['theme']): void {
  stopFollowing?.();
  stopFollowing = undefined;
  if (theme !== 'system') {
    setTheme(theme, 'user');
    return;
  }
  const query = window.matchMedia(DARK_QUERY);
  const follow = (): void => setTheme(query.matches ? 'dark' : 'light', 'system');
  follow();
  query.addEventListener('change', follow);
  stopFollowing = () => query.removeEventListener('change', follow);
}
