// Lists a contract gives a page at a time (KCS-4 get_allowances, KCS-5 get_operator_approvals and get_tokens_by_owner):
// each page asked from the last entry of the page before, each entry kept once, up to a most.

/** Entries asked for per call, and the most kept from one contract. */
export interface PageLimits {
  page: number;
  most: number;
}

/**
 * Reads a list page by page (`read(last)` gives the entries after `last`, the last entry of the page before), each
 * entry once by `id`, up to `limits.most`; `cut` when the contract had more. A short page ends the list, and so does
 * one that brings no new entry (a contract that ignores the start it is given would give the same page forever).
 * @example
 * const { entries, cut } = await readPages((last) => readIds(last), (id) => id, { page: 50, most: 100 });
 */
export async function readPages<T>(
  read: (last: T | undefined) => Promise<T[]>,
  id: (entry: T) => string,
  limits: PageLimits,
): Promise<{ entries: T[]; cut: boolean }> {
  const entries: T[] = [];
  const seen = new Set<string>();
  let last: T | undefined;
  for (;;) {
    const page = await read(last);
    const fresh = page.filter((entry) => {
      const key = id(entry);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    // Once the most are read, one page more tells whether there were more.
    const room = limits.most - entries.length;
    if (fresh.length > room) return { entries: [...entries, ...fresh.slice(0, room)], cut: true };
    entries.push(...fresh);
    if (page.length < limits.page || fresh.length === 0) return { entries, cut: false };
    last = page[page.length - 1];
  }
}
