// Account discovery: after a recovery phrase is imported, the accounts it was used with on a network come back. The
// phrase's next indexes are looked at a window at a time, and every index up to the last one used is added (an unused
// account between two used ones too, as the wallet that made them had it).
import { addressFromString } from '../../koinos/address.ts';
import type { KoinosNode } from './koinosNode.ts';

/**
 * Unused indexes in a row after which discovery stops. BIP44's account discovery stops at the first unused account;
 * Koinos wallets add accounts one after another and a person may leave a few unused, so a few more are looked at.
 */
const DISCOVERY_GAP = 5;
/** The highest index discovery looks at, whatever it finds. */
const DISCOVERY_LAST_INDEX = 100;

/** What discovery asks: the phrase's addresses, and whether the network saw an address used. */
export interface DiscoverySource {
  /** The addresses at `count` indexes from `from`, in order. */
  addresses(from: number, count: number): Promise<{ index: number; address: string }[]>;
  used(address: string): Promise<boolean>;
}

/**
 * The last used index from `from` on (undefined: none), looking at DISCOVERY_GAP indexes past the last used one (or
 * past `from - 1`), each window's addresses asked about at once; `checkedThrough` is the last index looked at.
 * @example
 * await lastUsedIndex(source, 1); // { lastUsed: 3, checkedThrough: 8 } when 2 and 3 were used and 4-8 were not
 */
export async function lastUsedIndex(
  source: DiscoverySource,
  from: number,
): Promise<{ lastUsed?: number; checkedThrough: number }> {
  let lastUsed: number | undefined;
  let next = from;
  for (;;) {
    const through = Math.min((lastUsed ?? from - 1) + DISCOVERY_GAP, DISCOVERY_LAST_INDEX);
    if (next > through) return { ...(lastUsed !== undefined ? { lastUsed } : {}), checkedThrough: next - 1 };
    const window = await source.addresses(next, through - next + 1);
    const used = await Promise.all(window.map((w) => source.used(w.address)));
    for (const [i, w] of window.entries()) if (used[i]) lastUsed = w.index;
    next = through + 1;
  }
}

/**
 * Whether `node` saw the address used: a nonce (it signed a transaction), mana (it holds KOIN), or a record in its
 * account history (it received something). A node without account history answers from the first two.
 * @throws the node's errors for the nonce and the mana (an unreachable node fails discovery).
 */
export function usedOn(node: KoinosNode): (address: string) => Promise<boolean> {
  return async (text) => {
    const address = addressFromString(text);
    const [nonce, rc, history] = await Promise.all([
      node.nonce(address),
      node.rc(address),
      node.accountHistory({ address, limit: 1n, ascending: true, irreversible: false }).catch(() => [] as unknown[]),
    ]);
    return nonce > 0n || rc > 0n || history.length > 0;
  };
}
