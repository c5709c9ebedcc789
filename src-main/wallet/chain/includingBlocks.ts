// Which block holds a transaction, of the blocks the node's transaction store lists for it. The store lists every block
// that ever included the transaction, on any fork: koinos-transaction-store appends the id of each accepted block that
// has it and removes none (internal/trxstore/transaction_store.go AddIncludedTransaction), and the block store keeps
// the blocks of abandoned forks too. So a listed block may have lost its fork, and the transaction may be in a later
// block, or in none. The first listed block is the first that included it, not the one on the chain.
import { equalBytes, toHex } from '../../koinos/bytes.ts';
import type { HeadTopology, KoinosNode } from './koinosNode.ts';

/** A transaction or block id as the wallet writes it: hex with 0x. */
export const hexId = (id: Uint8Array): string => `0x${toHex(id)}`;

/** A transaction and the blocks the transaction store lists for it. */
interface ListedTransaction {
  id: Uint8Array;
  containing_blocks: Uint8Array[];
}

/** A block that holds a transaction. */
interface IncludingBlock {
  id: Uint8Array;
  height: bigint;
}

/**
 * The block holding each transaction on the chain that ends at `head`, by transaction id (hexId); a transaction on no
 * block of that chain is left out. `heights` gives the listed blocks' heights by block id (hexId); a listed block
 * without one (the node does not have it) is not considered.
 *
 * A transaction listed in one block is taken to be in it unless `verifyIrreversible` is set and that block is at or
 * below the last irreversible block: then, as for a transaction listed in several blocks, the node is asked which
 * block the chain has at each listed height (blocks above the head read cannot be checked yet). The account history,
 * which follows the chain, needs no check for a transaction it lists in one block; the follower of a sent
 * transaction does before it calls the transaction irreversible.
 */
export async function includingBlocks(
  node: KoinosNode,
  head: HeadTopology,
  transactions: ListedTransaction[],
  heights: ReadonlyMap<string, bigint>,
  verifyIrreversible: boolean,
): Promise<Map<string, IncludingBlock>> {
  const out = new Map<string, IncludingBlock>();
  const undecided: { id: string; blocks: IncludingBlock[] }[] = [];
  for (const tx of transactions) {
    const key = hexId(tx.id);
    const blocks = tx.containing_blocks.flatMap((id) => {
      const height = heights.get(hexId(id));
      return height === undefined ? [] : [{ id, height }];
    });
    const [only] = blocks;
    if (blocks.length === 1 && (!verifyIrreversible || only!.height > head.lastIrreversible)) {
      out.set(key, only!);
    } else if (blocks.length > 0) {
      undecided.push({ id: key, blocks });
    }
  }
  if (undecided.length === 0) return out;
  const checkable = undecided.flatMap((tx) => tx.blocks.filter((b) => b.height > 0n && b.height <= head.height));
  const onChain = await node.chainBlockIds(
    head.id,
    checkable.map((b) => b.height),
  );
  for (const tx of undecided) {
    const found = tx.blocks.find((b) => {
      const chainId = onChain.get(b.height);
      return chainId !== undefined && equalBytes(chainId, b.id);
    });
    // A block newer than the head read cannot be checked yet: the only one such is taken, and the next read checks it.
    const newer = tx.blocks.filter((b) => b.height > head.height);
    const block = found ?? (newer.length === 1 ? newer[0] : undefined);
    if (block) out.set(tx.id, block);
  }
  return out;
}
