// The one poll-for-state helper: tests wait for a state (a push arrived, a block was made, a row shows), never for a
// fixed time.

/**
 * Calls `probe` every 20 ms until it gives something other than undefined, and returns that; fails with `what` after
 * `ms` (a deadline for a broken test, not a timing the test relies on).
 * @example
 * const head = await until('block 3', async () => ((await node.head()).height >= 3n ? head : undefined));
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
