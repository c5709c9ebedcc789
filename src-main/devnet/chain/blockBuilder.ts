// Assembling a devnet block from the pending transactions: header, state merkle root, signature by the genesis
// key, the block and block receipt bytes, and the store operations of the block's one atomic batch. Changes
// nothing itself: the node commits the result (state, head, mempool, account history).
import { concatAll, concatBytes } from '../../koinos/bytes.ts';
import { encode } from '../../koinos/codec.ts';
import { multihashSha256 } from '../../koinos/hash.ts';
import { merkleRoot, signBlock } from '../../koinos/transaction.ts';
import type { BlockHeader } from '../../koinos/types.ts';
import { sha256Fast } from './applyTransaction.ts';
import type { Head } from '../store/chainData.ts';
import type { DevKey } from './devKeys.ts';
import { signDigestWithLibsecp256k1 } from '../vm/secp256k1Recovery.ts';
import type { PreparedTransaction } from './applyTransaction.ts';
import { deltaEntries, encodeDeltaEntry } from '../state/state.ts';
import type { StoreOp } from '../store/store.ts';
import {
  blockIdKey,
  blockKey,
  headKey,
  historyKey,
  keyText,
  stateObjectKey,
  topologyKey,
  transactionKey,
  transactionRecordKey,
} from '../store/storeKeys.ts';

const EMPTY = new Uint8Array(0);

/**
 * A transaction as the block applied it. Of its receipt the block keeps the bytes and the figures it reads: a block of
 * a few hundred transactions is planned in slices over tens of milliseconds, and receipts kept whole until the block
 * was written (their events and state deltas) outlived young-generation collections that copied them.
 */
export interface IncludedTransaction {
  prepared: PreparedTransaction;
  /** The receipt's canonical bytes. */
  receiptBytes: Uint8Array;
  /** The receipt's disk_storage_used and compute_bandwidth_used: the block receipt sums them. */
  disk: bigint;
  compute: bigint;
  /** Whether the transaction reverted: the contract meta store ignores a reverted upload. */
  reverted: boolean;
  /** Addresses that get an account history record for it (history.ts historyAddresses). */
  impacted: Uint8Array[];
}

/** Where the account history stands: the next sequence number of an address, and whether records go to disk. */
export interface HistoryCursor {
  persistent: boolean;
  nextSeq(address: Uint8Array): number;
}

/** What a block is made of. */
export interface BlockInput {
  parent: Head;
  timestamp: bigint;
  /** The transactions the block includes, in order, with the receipts of their application in this block. */
  entries: IncludedTransaction[];
  /** The block's state changes: what its transactions (and developer methods) changed, in order (null = removed). */
  changes: Map<string, Uint8Array | null>;
  /** The key that signs the block (the genesis key). */
  signer: DevKey;
  history: HistoryCursor;
}

/** A block ready to commit. */
export interface BuiltBlock {
  /** The head once the block is committed. */
  head: Head;
  /**
   * The block's one batch: block item, topology, block id and transaction pointers, transaction records, state,
   * account history entries and head record.
   */
  ops: StoreOp[];
  /**
   * The account history records, in the order their sequence numbers were given: a block record for the signer
   * (koinos-account-history makes one for every block), then each transaction's (`transactionIndex`).
   */
  records: [Uint8Array, number | undefined][];
}

/**
 * Lets other work run between the steps of a build (the block timer's builds: node.ts), or returns undefined when
 * the build goes on at once.
 */
export type Pause = () => Promise<void> | undefined;

/**
 * Builds the block after `parent` from the transactions as the block applied them, and its one storage batch: the
 * only place a block's storage is made. The transactions and receipts go in as canonical bytes (the
 * `koinos.devnet.encoded_*` messages have the standard messages' layout with those parts as bytes). A full block's
 * build takes a few milliseconds: `pause` is asked between its steps (merkle roots, signature, encoding, each
 * transaction's records), none of which takes more than about a millisecond for a full block.
 * @example
 * const { head, ops } = await buildBlock({ parent, timestamp, entries, changes: blockView.changes, signer });
 */
export async function buildBlock(input: BlockInput, pause: Pause = () => undefined): Promise<BuiltBlock> {
  const { parent, timestamp, entries, signer } = input;
  const height = parent.height + 1n;
  const leaves: Uint8Array[] = [];
  for (const { prepared } of entries) leaves.push(prepared.idDigest, prepared.signaturesDigest);
  const transactionMerkleRoot = multihashSha256(merkleRoot(leaves, sha256Fast));
  await pause();
  const deltaBytes = deltaEntries(input.changes).map(encodeDeltaEntry);
  const stateMerkleRoot = multihashSha256(
    sha256Fast(concatBytes(parent.stateMerkleRoot.subarray(2), sha256Fast(concatAll(deltaBytes)))),
  );
  const header: BlockHeader = {
    previous: parent.id,
    height,
    timestamp,
    previous_state_merkle_root: parent.stateMerkleRoot,
    transaction_merkle_root: transactionMerkleRoot,
    signer: signer.addressBytes,
    approved_proposals: [],
  };
  await pause();
  const signed = signBlock(
    { id: EMPTY, header, transactions: [], signature: EMPTY },
    signer.privateKey,
    signDigestWithLibsecp256k1,
  );
  const id = signed.id;
  await pause();

  const receiptBytes = entries.map((entry) => entry.receiptBytes);
  const blockBytes = encode('koinos.devnet.encoded_block', {
    id,
    header,
    transactions: entries.map(({ prepared }) => prepared.bytes),
    signature: signed.signature,
  });
  let disk = 0n;
  let compute = 0n;
  for (const entry of entries) {
    disk += entry.disk;
    compute += entry.compute;
  }
  const network = BigInt(blockBytes.length);
  const blockReceiptBytes = encode('koinos.devnet.encoded_block_receipt', {
    id,
    height,
    disk_storage_used: disk,
    network_bandwidth_used: network,
    compute_bandwidth_used: compute,
    state_merkle_root: stateMerkleRoot,
    transaction_receipts: receiptBytes,
    disk_storage_charged: disk,
    network_bandwidth_charged: network,
    compute_bandwidth_charged: compute,
    state_delta_entries: deltaBytes,
  });
  const itemBytes = encode('koinos.devnet.encoded_block_item', {
    block_id: id,
    block_height: height,
    block: blockBytes,
    receipt: blockReceiptBytes,
  });

  const topology = { id, height, previous: parent.id };
  const ops: StoreOp[] = [
    { type: 'put', key: blockKey(height), value: itemBytes },
    { type: 'put', key: topologyKey(height), value: encode('koinos.block_topology', topology) },
    {
      type: 'put',
      key: blockIdKey(id),
      value: encode('koinos.devnet.record_pointer', { block_height: height, block: true }),
    },
  ];
  await pause();
  for (let index = 0; index < entries.length; index++) {
    const { prepared } = entries[index]!;
    ops.push({
      type: 'put',
      key: transactionRecordKey(height, index),
      value: encode('koinos.devnet.encoded_transaction_record', {
        transaction: prepared.bytes,
        receipt: receiptBytes[index],
      }),
    });
    ops.push({
      type: 'put',
      key: transactionKey(prepared.tx.id),
      value: encode('koinos.devnet.record_pointer', { block_height: height, transaction_index: index }),
    });
    const paused = pause();
    if (paused) await paused;
  }
  for (const [key, value] of input.changes) {
    const k = stateObjectKey(key);
    ops.push(value === null ? { type: 'del', key: k } : { type: 'put', key: k, value });
  }
  // Account history: in memory the index is the history; on disk it is rebuilt from the `a` entries, whose sequence
  // numbers are the ones the node's appends will give.
  const records: [Uint8Array, number | undefined][] = [[signer.addressBytes, undefined]];
  entries.forEach((entry, index) => {
    for (const address of entry.impacted) records.push([address, index]);
  });
  if (input.history.persistent) {
    const next = new Map<string, number>();
    for (const [address, transactionIndex] of records) {
      const k = keyText(address);
      const seq = next.get(k) ?? input.history.nextSeq(address);
      next.set(k, seq + 1);
      const pointer =
        transactionIndex === undefined
          ? { block_height: height, block: true }
          : { block_height: height, transaction_index: transactionIndex };
      ops.push({ type: 'put', key: historyKey(address, seq), value: encode('koinos.devnet.record_pointer', pointer) });
    }
  }
  ops.push({
    type: 'put',
    key: headKey(),
    value: encode('koinos.devnet.head_record', { topology, timestamp, state_merkle_root: stateMerkleRoot }),
  });
  return { head: { height, id, previous: parent.id, timestamp, stateMerkleRoot }, ops, records };
}
