// A devnet chain on its store: the head it is at, its state and account history, and the meta that says what it
// was created with. Starts a new chain from a genesis, or loads the one a data directory holds (see storeKeys.ts for
// the key layout).
import { decode, encode } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { multihashSha256 } from '../../koinos/hash.ts';
import type { Genesis } from '../chain/genesis.ts';
import { HistoryIndex } from '../chain/history.ts';
import { BaseState } from '../state/state.ts';
import type { Store, StoreOp } from './store.ts';
import {
  headKey,
  historyPrefix,
  metaKey,
  parseHistoryKey,
  stateObjectKey,
  stateObjectPrefix,
  stateObjectText,
} from './storeKeys.ts';
import type { DevnetConfig } from '../types.ts';

/**
 * Format of the data directory; bumped when what is stored changes (2: history keys carry the address length;
 * 3: state keys are the serialized database_key{space, key}, as state_db.cpp counts them; 4: the genesis
 * resource_limit_data holds mainnet's per-block limits, which the chain ID is derived from; 5: the genesis
 * compute_bandwidth_registry is mainnet's, without the devnet's native-contract entries, and genesis places the system
 * contracts (a network shape) and registers their names in the name service).
 */
export const FORMAT_VERSION = 5;
const EMPTY = new Uint8Array(0);
/** The id a first block names as its parent: a sha2-256 multihash of 32 zero bytes. */
export const ZERO_BLOCK_ID = multihashSha256(new Uint8Array(32));

/** The head block: what the next block builds on. */
export interface Head {
  height: bigint;
  id: Uint8Array;
  previous: Uint8Array;
  timestamp: bigint;
  stateMerkleRoot: Uint8Array;
}

/** A chain ready to run: its head, its committed state and its account history index. */
export interface LoadedChain {
  head: Head;
  committed: BaseState;
  history: HistoryIndex;
}

/** A chain as one devnet runs it, with the genesis and meta it was made from: what a reset replaces. */
export interface Chain extends LoadedChain {
  genesis: Genesis;
  meta: ChainMeta;
}

/** What a data directory was created with (`koinos.devnet.chain_meta`, key `meta`). */
export interface ChainMeta {
  format_version: number;
  chain_id: Uint8Array;
  genesis_seed: string;
  salt: Uint8Array;
  accounts: number;
  initial_balance: bigint;
  /** The network shape (shapes.ts shapeSpec); empty in data written before shapes: plain. */
  shape: string;
}

/** Refuses to continue a stored chain with a config that asks for a different genesis. */
export function checkMeta(meta: ChainMeta, config: DevnetConfig, dataDir: string): void {
  if (meta.format_version !== FORMAT_VERSION) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `the devnet data in ${dataDir} has format ${meta.format_version}, this devnet reads format ${FORMAT_VERSION}`,
      {
        metaMessages: ['Start with reset to create a new chain there.'],
      },
    );
  }
  const differs: string[] = [];
  if (config.genesisSeed !== undefined && config.genesisSeed !== meta.genesis_seed)
    differs.push(`genesis seed "${meta.genesis_seed}"`);
  if (config.accounts !== undefined && config.accounts !== meta.accounts) differs.push(`${meta.accounts} accounts`);
  if (config.initialBalance !== undefined && config.initialBalance !== meta.initial_balance)
    differs.push(`initial balance ${meta.initial_balance}`);
  if (differs.length > 0) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `the chain in ${dataDir} was created with ${differs.join(', ')}; the config asks for another genesis`,
      {
        metaMessages: [
          'Start with reset to replace it with a new chain, or drop the differing options to continue it.',
        ],
      },
    );
  }
}

/**
 * Loads the chain of a data directory: its head, its state and its account history index.
 * @throws Error when the head record is missing or the history entries are inconsistent.
 */
export async function loadChain(store: Store, genesis: Genesis): Promise<LoadedChain> {
  const headBytes = await store.get(headKey());
  if (!headBytes) throw new Error('the devnet data directory has chain metadata but no head record');
  const record = decode('koinos.devnet.head_record', headBytes);
  const topology = record.topology;
  if (!topology) throw new Error('the devnet data directory has a head record without its block topology');
  const head: Head = {
    height: topology.height,
    id: topology.id,
    previous: topology.previous,
    timestamp: record.timestamp,
    stateMerkleRoot: record.state_merkle_root.length > 0 ? record.state_merkle_root : genesis.stateMerkleRoot,
  };
  const committed = new BaseState();
  for await (const [key, value] of store.entries(stateObjectPrefix()))
    committed.objects.set(stateObjectText(key), value);
  const history = new HistoryIndex();
  for await (const [key, value] of store.entries(historyPrefix())) {
    const { address, seq: expected } = parseHistoryKey(key);
    const pointer = decode('koinos.devnet.record_pointer', value);
    if (pointer.block_height > head.height)
      throw new Error(`the account history in the data directory points past the head block`);
    const seq = history.append(address, {
      height: Number(pointer.block_height), // at most the head height, which block production keeps below MAX_HISTORY_HEIGHT
      transactionIndex: pointer.block ? undefined : pointer.transaction_index,
    });
    if (BigInt(seq) !== expected)
      throw new Error(`the account history in the data directory has a gap (record ${expected} read as ${seq})`);
  }
  return { head, committed, history };
}

/** Starts a chain at height 0 from its genesis, and queues its meta, genesis state and head record on the store. */
export async function newChain(store: Store, genesis: Genesis, meta: ChainMeta): Promise<LoadedChain> {
  const committed = new BaseState();
  for (const [key, value] of genesis.state) committed.objects.set(key, value);
  const head: Head = {
    height: 0n,
    id: ZERO_BLOCK_ID,
    previous: EMPTY,
    timestamp: 0n,
    stateMerkleRoot: genesis.stateMerkleRoot,
  };
  const ops: StoreOp[] = [{ type: 'put', key: metaKey(), value: encode('koinos.devnet.chain_meta', meta) }];
  for (const [key, value] of genesis.state) ops.push({ type: 'put', key: stateObjectKey(key), value });
  ops.push({
    type: 'put',
    key: headKey(),
    value: encode('koinos.devnet.head_record', {
      topology: { id: head.id, height: 0n },
      timestamp: 0n,
      state_merkle_root: head.stateMerkleRoot,
    }),
  });
  await store.write(ops);
  return { head, committed, history: new HistoryIndex() };
}
