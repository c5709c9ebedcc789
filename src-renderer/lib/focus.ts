// Where the keyboard focus goes when the element that had it is replaced or removed (a button that vanished, a form
// that closed): onto the element named, once the page shows the new state.
import { tick } from 'svelte';

/**
 * Focuses the element of id `id` after Svelte has applied the pending changes; nothing when there is no such element.
 * @example
 * pending = undefined;
 * await focusById(`rename-${id}-toggle`); // back on the button that opened the closed form
 */
export async function focusById(id: string): Promise<void> {
  await tick();
  document.getElementById(id)?.focus();
}
