// The devnet's genesis: the genesis_data entries (the objects a real node is started with), the chain ID derived
// from them (facts §3.4), and the fixed addresses of the genesis key and of the built-in KOIN contract.
import { concatBytes, utf8ToBytes } from '../koinos/bytes.ts';
import { encode } from '../koinos/codec.ts';
import { multihashSha256, ripemd160, sha256 } from '../koinos/hash.ts';
import { addressFromHash160 } from '../koinos/address.ts';
import { chainIdFromGenesis } from '../koinos/transaction.ts';
import type { ObjectSpace } from '../koinos/types.ts';
import { devKey, GENESIS_KEY_INDEX, type DevKey } from './devKeys.ts';
import { encodeBalance } from './contracts/koin.ts';
import { RESOURCE_LIMITS } from './resources.ts';
import { COMPUTE_REGISTRY } from './vm/computeRegistry.ts';
import { KERNEL_SPACES, objectSpace, stateKey, type Space } from './state.ts';

/** Default genesis seed: the same seed gives the same chain ID. */
export const DEFAULT_GENESIS_SEED = 'koinos-devnet';
/** Default number of development accounts. */
export const DEFAULT_ACCOUNTS = 10;
/** Default KOIN of each development account: 1,000,000 KOIN in base units. */
export const DEFAULT_INITIAL_BALANCE = 100_000_000_000_000n;
/** `max_account_resources` genesis object (mainnet's value; KOIN's get_account_rc supersedes it). */
export const MAX_ACCOUNT_RESOURCES = 10_000_000n;

/** Key of a chain metadata object: multihash sha256 of its ASCII name (chain `state.hpp`). */
export function metadataKey(name: string): Uint8Array {
  return multihashSha256(sha256(utf8ToBytes(name)));
}

/** Metadata object keys the devnet writes (the first five as the real chain names them). */
export const OBJECT_KEYS = {
  genesisKey: metadataKey('object_key::genesis_key'),
  resourceLimitData: metadataKey('object_key::resource_limit_data'),
  maxAccountResources: metadataKey('object_key::max_account_resources'),
  blockHashCode: metadataKey('object_key::block_hash_code'),
  computeBandwidthRegistry: metadataKey('object_key::compute_bandwidth_registry'),
  /** Devnet-only: the genesis seed (and reset salt), so that the seed changes the chain ID. */
  devnetSeed: metadataKey('object_key::devnet_genesis_seed'),
} as const;

/**
 * A 25-byte address that no private key controls: version 0, RIPEMD160(SHA256(label)), checksum. Used for the
 * built-in contracts, which have no upload key on the devnet.
 */
export function labelAddress(label: string): Uint8Array {
  return addressFromHash160(ripemd160(sha256(utf8ToBytes(label))));
}

/**
 * The KOIN contract's address on every devnet (independent of the seed), resolvable as the system name "koin".
 * Derived from the label `koinos-devnet/koin`, so no one holds its key.
 */
export const KOIN_ADDRESS = labelAddress('koinos-devnet/koin');

/** What makes a genesis: the same parameters give the same chain ID. */
export interface GenesisParams {
  seed: string;
  /** Empty for a chain made from the config alone; random bytes after a reset. */
  salt: Uint8Array;
  accounts: number;
  initialBalance: bigint;
}

/** One object of the genesis data (koinos.chain.genesis_entry). */
export interface GenesisEntry {
  space: ObjectSpace;
  key: Uint8Array;
  value: Uint8Array;
}

/** A built genesis: its entries, chain ID, keys and initial state. */
export interface Genesis {
  entries: GenesisEntry[];
  chainId: Uint8Array;
  genesisKey: DevKey;
  accounts: DevKey[];
  /** The genesis objects as state (tag + key -> value). */
  state: Map<string, Uint8Array>;
  /** State merkle root "before block 1" (what block 1 names as previous_state_merkle_root). */
  stateMerkleRoot: Uint8Array;
}

/**
 * Builds the genesis data of a devnet. Layout, in this order: genesis_key (the genesis address),
 * resource_limit_data, max_account_resources, block_hash_code (0x12 = sha2-256), compute_bandwidth_registry,
 * the devnet seed entry, KOIN's supply, then the KOIN balance of the genesis key and of accounts 0..N-1
 * (each with full mana). The chain ID is the sha256 multihash of the serialized genesis_data.
 * @example
 * buildGenesis({ seed: 'koinos-devnet', salt: new Uint8Array(), accounts: 10, initialBalance: 10n ** 14n }).chainId
 */
export function buildGenesis(params: GenesisParams): Genesis {
  const genesisKey = devKey(GENESIS_KEY_INDEX);
  const accounts = Array.from({ length: params.accounts }, (_, i) => devKey(i));
  // KOIN's supply (space 0, key empty) and balances (space 1) are system spaces in its zone (Koin.ts).
  const spaces = { M: KERNEL_SPACES.metadata, S: objectSpace(KOIN_ADDRESS, 0), B: objectSpace(KOIN_ADDRESS, 1) };
  const entries: GenesisEntry[] = [];
  const state = new Map<string, Uint8Array>();
  const add = (tag: keyof typeof spaces, key: Uint8Array, value: Uint8Array): void => {
    const space: Space = spaces[tag];
    entries.push({ space: { system: space.system, zone: space.zone, id: space.id }, key, value });
    state.set(stateKey(space, key), value);
  };
  add('M', OBJECT_KEYS.genesisKey, genesisKey.addressBytes);
  add('M', OBJECT_KEYS.resourceLimitData, encode('koinos.chain.resource_limit_data', RESOURCE_LIMITS));
  add('M', OBJECT_KEYS.maxAccountResources, encode('koinos.chain.max_account_resources', { value: MAX_ACCOUNT_RESOURCES }));
  add('M', OBJECT_KEYS.blockHashCode, Uint8Array.of(0x12));
  add(
    'M',
    OBJECT_KEYS.computeBandwidthRegistry,
    encode('koinos.chain.compute_bandwidth_registry', {
      entries: Object.entries(COMPUTE_REGISTRY).map(([name, compute]) => ({ name, compute: BigInt(compute) })),
    }),
  );
  add('M', OBJECT_KEYS.devnetSeed, encode('koinos.devnet.genesis_seed', { seed: params.seed, salt: params.salt }));
  const holders = [genesisKey, ...accounts];
  add('S', new Uint8Array(0), encode('koinos.contracts.token.balance_object', { value: params.initialBalance * BigInt(holders.length) }));
  for (const holder of holders) {
    add('B', holder.addressBytes, encodeBalance({ balance: params.initialBalance, mana: params.initialBalance, last_mana_update: 0n }));
  }
  const chainId = chainIdFromGenesis({ entries });
  const stateMerkleRoot = multihashSha256(sha256(concatBytes(utf8ToBytes('koinos-devnet/state'), chainId)));
  return { entries, chainId, genesisKey, accounts, state, stateMerkleRoot };
}
