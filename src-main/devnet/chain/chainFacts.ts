// What a contract learns about the chain it runs on (get_chain_id, get_head_info, get_last_irreversible_block,
// get_block): at a submission the head block, as chain.get_head_info answers it; inside a block the block being
// applied, as koinos-chain's apply_block gives it. Computed on first use: most runs never ask. The ChainFacts interface
// itself is in contracts/context.ts, beside the call context that carries it.
import { multihashSha256 } from '../../koinos/hash.ts';
import { merkleRoot, signBlock } from '../../koinos/transaction.ts';
import type { Block } from '../../koinos/types.ts';
import type { ChainFacts } from '../contracts/context.ts';
import type { StateSource } from '../state/state.ts';
import { sha256Fast, type PreparedTransaction } from './applyTransaction.ts';
import type { Head } from '../store/chainData.ts';
import type { DevKey } from './devKeys.ts';
import { signDigestWithLibsecp256k1 } from '../vm/secp256k1Recovery.ts';

const EMPTY = new Uint8Array(0);

/** get_last_irreversible_block: the height `depth` blocks below `height`, or 0 (koinos-chain system_calls.cpp). */
function irreversible(height: bigint, depth: number): bigint {
  return height > BigInt(depth) ? height - BigInt(depth) : 0n;
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** At a submission or a read: the head block, as chain.get_head_info answers it; no block. */
export function headFacts(
  chainId: Uint8Array,
  head: Head,
  irreversibleDepth: number,
  parentState: StateSource,
): ChainFacts {
  return {
    chainId,
    parentState,
    headInfo: once(() => ({
      head_topology: { id: head.id, previous: head.height === 0n ? EMPTY : head.previous, height: head.height },
      head_block_time: head.timestamp,
      last_irreversible_block: irreversible(head.height, irreversibleDepth),
    })),
    block: () => undefined,
  };
}

/**
 * Inside a block: the block the devnet proposes from its pending transactions (header as blockBuilder makes it,
 * signed by the producer), which is the block it writes (one that fails is proposed again without the failed
 * transaction: blockFill.ts proposeBlock); the head is that block, as the
 * chain's state node of a block being applied is.
 */
export function blockFacts(
  chainId: Uint8Array,
  proposal: { parent: Head; timestamp: bigint; transactions: PreparedTransaction[]; signer: DevKey },
  irreversibleDepth: number,
  parentState: StateSource,
): ChainFacts {
  const block = once((): Block => {
    const { parent, timestamp, transactions, signer } = proposal;
    const leaves: Uint8Array[] = [];
    for (const prepared of transactions) leaves.push(prepared.idDigest, prepared.signaturesDigest);
    const header = {
      previous: parent.id,
      height: parent.height + 1n,
      timestamp,
      previous_state_merkle_root: parent.stateMerkleRoot,
      transaction_merkle_root: multihashSha256(merkleRoot(leaves, sha256Fast)),
      signer: signer.addressBytes,
      approved_proposals: [],
    };
    const signed = signBlock(
      { id: EMPTY, header, transactions: [], signature: EMPTY },
      signer.privateKey,
      signDigestWithLibsecp256k1,
    );
    return { ...signed, transactions: transactions.map((prepared) => prepared.tx) };
  });
  return {
    chainId,
    parentState,
    headInfo: once(() => {
      const { id, header } = block();
      const height = header?.height ?? 0n;
      return {
        head_topology: { id, previous: header?.previous ?? EMPTY, height },
        head_block_time: header?.timestamp ?? 0n,
        last_irreversible_block: irreversible(height, irreversibleDepth),
      };
    }),
    block,
  };
}
