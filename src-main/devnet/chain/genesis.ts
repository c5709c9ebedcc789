// The devnet's genesis: the genesis_data entries (the objects a real node is started with), the chain ID derived
// from them (facts §3.4), the fixed addresses of the genesis key and of KOIN's storage, and the network shape: where
// the system contracts answer, their names in the name service, and the community contracts.
import { concatBytes, utf8ToBytes } from '../../koinos/bytes.ts';
import { UINT64_MAX } from '../../koinos/amounts.ts';
import { encode } from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { multihashSha256, sha256 } from '../../koinos/hash.ts';
import { KOIN_ADDRESS } from '../contracts/builtInAddresses.ts';

export { KOIN_ADDRESS, labelAddress } from '../contracts/builtInAddresses.ts';
import { chainIdFromGenesis } from '../../koinos/transaction.ts';
import type { ObjectSpace } from '../../koinos/types.ts';
import { devKey, GENESIS_KEY_INDEX, type DevKey } from './devKeys.ts';
import { encodeBalance } from '../contracts/koin.ts';
import { NATIVE_PLACEMENT_SPACE, nativeContract, nativeHash } from '../contracts/registry.ts';
import type { NameServiceContract } from '../contracts/nameService.ts';
import { RESOURCE_LIMITS } from '../state/resources.ts';
import { COMPUTE_REGISTRY } from '../vm/computeRegistry.ts';
import { KERNEL_SPACES, objectSpace, stateKey, type Space } from '../state/state.ts';
import { NATIVE_SYSTEM_CONTRACTS, resolveShape, type ChainShape } from './shapes.ts';

const DISPATCH_SPACE = objectSpace(new Uint8Array(0), 1);
const BYTECODE_SPACE = objectSpace(new Uint8Array(0), 2);

/** Default genesis seed: the same seed gives the same chain ID. */
export const DEFAULT_GENESIS_SEED = 'koinos-devnet';
/** Default number of development accounts. */
export const DEFAULT_ACCOUNTS = 10;
/** Default KOIN of each development account: 1,000,000 KOIN in base units. */
export const DEFAULT_INITIAL_BALANCE = 100_000_000_000_000n;
/** `max_account_resources` genesis object (mainnet's value; KOIN's get_account_rc supersedes it). */
const MAX_ACCOUNT_RESOURCES = 10_000_000n;

/** Key of a chain metadata object: multihash sha256 of its ASCII name (chain `state.hpp`). */
function metadataKey(name: string): Uint8Array {
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

/** What makes a genesis: the same parameters give the same chain ID. */
export interface GenesisParams {
  seed: string;
  /** Empty for a chain made from the config alone; random bytes after a reset. */
  salt: Uint8Array;
  accounts: number;
  initialBalance: bigint;
  /**
   * Where the system contracts are placed and which community contracts are deployed (shapes.ts resolveShape). The
   * caller resolves it, so that genesis stays free of the file system; community bytecode comes with it. Default: plain.
   */
  shape?: ChainShape;
  /** Bytecode, ABI and upload flags of each community contract the shape deploys. */
  community?: ReadonlyMap<string, { bytecode: Uint8Array; abi: string; authorizesTransactionApplication: boolean }>;
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
  /** Where the system and community contracts are. */
  shape: ChainShape;
}

/** Entry points of the name service that get_contract_name (10000) and get_contract_address (10001) are overridden to. */
const NAME_SERVICE_OVERRIDES: readonly [number, number][] = [
  [10000, 0xe5070a16], // get_name
  [10001, 0xa61ae5e8], // get_address
];

/** The system call dispatch key of an id: 4 bytes big-endian (as vm/hostApi.ts dispatchKey). */
function dispatchKeyOf(id: number): Uint8Array {
  const key = new Uint8Array(4);
  new DataView(key.buffer).setUint32(0, id, false);
  return key;
}

/**
 * Builds the genesis data of a devnet. Layout, in this order: genesis_key (the genesis address),
 * resource_limit_data, max_account_resources, block_hash_code (0x12 = sha2-256), compute_bandwidth_registry,
 * the devnet seed entry, KOIN's supply, then the KOIN balance of the genesis key, of accounts 0..N-1 (each with full
 * mana) and of a free mana sharer; then the shape: each built-in system contract's placement and metadata object,
 * the name service's records of every system name, the 10000/10001 overrides to the name service, and the community
 * contracts' bytecode and metadata. The chain ID is the sha256 multihash of the serialized genesis_data, so a shape
 * never shares a chain ID with the network it imitates.
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
  add(
    'M',
    OBJECT_KEYS.maxAccountResources,
    encode('koinos.chain.max_account_resources', { value: MAX_ACCOUNT_RESOURCES }),
  );
  add('M', OBJECT_KEYS.blockHashCode, Uint8Array.of(0x12));
  add(
    'M',
    OBJECT_KEYS.computeBandwidthRegistry,
    encode('koinos.chain.compute_bandwidth_registry', {
      entries: Object.entries(COMPUTE_REGISTRY).map(([name, compute]) => ({ name, compute: BigInt(compute) })),
    }),
  );
  add('M', OBJECT_KEYS.devnetSeed, encode('koinos.devnet.genesis_seed', { seed: params.seed, salt: params.salt }));
  const shape = params.shape ?? resolveShape();
  const sharer = shape.community.get('freemanasharer');
  const funded = [genesisKey.addressBytes, ...accounts.map((a) => a.addressBytes), ...(sharer ? [sharer] : [])];
  const most = UINT64_MAX / BigInt(funded.length);
  if (params.initialBalance > most) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `initial balance: expected at most ${most} base units, got ${params.initialBalance}: ${funded.length} accounts get it (the genesis key, ${accounts.length} development account${accounts.length === 1 ? '' : 's'}${sharer ? ' and the free mana sharer' : ''}), and KOIN's total supply must stay within 2^64-1`,
    );
  }
  add(
    'S',
    new Uint8Array(0),
    encode('koinos.contracts.token.balance_object', { value: params.initialBalance * BigInt(funded.length) }),
  );
  for (const address of funded) {
    add(
      'B',
      address,
      encodeBalance({ balance: params.initialBalance, mana: params.initialBalance, last_mana_update: 0n }),
    );
  }
  const put = (space: Space, key: Uint8Array, value: Uint8Array): void => {
    entries.push({ space: { system: space.system, zone: space.zone, id: space.id }, key, value });
    state.set(stateKey(space, key), value);
  };
  const metadata = (address: Uint8Array, value: object): void =>
    put(KERNEL_SPACES.contractMetadata, address, encode('koinos.chain.contract_metadata_object', value));
  for (const [name, address] of shape.system) {
    if (!(NATIVE_SYSTEM_CONTRACTS as readonly string[]).includes(name)) continue;
    put(NATIVE_PLACEMENT_SPACE, address, utf8ToBytes(name));
    metadata(address, { hash: nativeHash(address), system: true });
  }
  const nameServiceAddress = shape.system.get('name_service');
  if (nameServiceAddress) {
    const nameService = nativeContract('name_service', nameServiceAddress) as NameServiceContract;
    for (const [name, address] of shape.system) {
      for (const record of nameService.recordObjects(name, address)) put(record.space, record.key, record.value);
    }
    for (const [callId, entryPoint] of NAME_SERVICE_OVERRIDES) {
      put(
        DISPATCH_SPACE,
        dispatchKeyOf(callId),
        encode('koinos.protocol.system_call_target', {
          system_call_bundle: { contract_id: nameServiceAddress, entry_point: entryPoint },
        }),
      );
    }
  }
  for (const [name, address] of shape.native) {
    // A stand-in run natively (the KAP name service): placed like a system contract, but without system rights.
    put(NATIVE_PLACEMENT_SPACE, address, utf8ToBytes(name));
    metadata(address, { hash: nativeHash(address), system: false });
  }
  for (const [name, address] of shape.community) {
    const contract = params.community?.get(name);
    if (!contract) throw new Error(`genesis: the shape deploys ${name} but its bytecode was not given`);
    put(BYTECODE_SPACE, address, contract.bytecode);
    metadata(address, {
      hash: multihashSha256(sha256(contract.bytecode)),
      authorizes_transaction_application: contract.authorizesTransactionApplication,
    });
    if (name === 'nft') {
      // The collection's owner (Nft.ts COLLECTION_OWNER_SPACE_ID 8, a user space, key empty) is development account
      // 0, whose key the devnet prints, so a test or a user can mint; the genesis key when there are no accounts.
      const owner = (accounts[0] ?? genesisKey).addressBytes;
      put(objectSpace(address, 8, false), new Uint8Array(0), Uint8Array.from([0x0a, owner.length, ...owner]));
    }
  }
  const chainId = chainIdFromGenesis({ entries });
  const stateMerkleRoot = multihashSha256(sha256(concatBytes(utf8ToBytes('koinos-devnet/state'), chainId)));
  return { entries, chainId, genesisKey, accounts, state, stateMerkleRoot, shape };
}
