// Where the keyboard focus goes when the element that had it is replaced or removed (a button that vanished, a form
// that closed): onto the element named, once the page shows the new state.
import { tick } from 'svelte';

/**
 * Focuses the element of id `id` after Svelte has applied the pending changes, or else the first of `fallbacks` that
 * exists then; nothing when none does.
 * @example
 * pending = undefined;
 * await focusById(`rename-${id}-toggle`); // back on the button that opened the closed form
 * await focusById(buttonId, 'history-list'); // the list, when the change removed the button
 */
export async function focusById(id: string, ...fallbacks: string[]): Promise<void> {
  await tick();
  for (const candidate of [id, ...fallbacks]) {
    const element = document.getElementById(candidate);
    if (element) return element.focus();
  }
}
