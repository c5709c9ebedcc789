// Network shapes: where a devnet places its system contracts (and which community contracts it deploys), so that code
// with mainnet's or harbinger's addresses hard-coded runs unchanged. The chain ID stays the devnet's own.
// Addresses and their sources: ../shared/research/system-contracts-and-names.md §1 (copied here, sources named below).
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString, addressToString } from '../../koinos/address.ts';
import { KOIN_ADDRESS, labelAddress } from '../contracts/builtInAddresses.ts';

/** The system contracts a shape may place, by the name the name service registers them under. */
const SYSTEM_CONTRACT_NAMES_ALL = [
  'koin',
  'vhp',
  'pob',
  'name_service',
  'resources',
  'governance',
  'claim',
  'get_contract_metadata',
] as const;
export type SystemContractName = (typeof SYSTEM_CONTRACT_NAMES_ALL)[number];

/** The community contracts a shape deploys from @koinosbox/contracts (prebuilt WebAssembly and ABI). */
const COMMUNITY_CONTRACTS = ['nicknames', 'freemanasharer', 'nft'] as const;
export type CommunityContractName = (typeof COMMUNITY_CONTRACTS)[number];

/**
 * Community contracts the devnet runs natively, as stand-ins speaking the real contract's interface: `kap`, a KAP-compatible
 * name service (contracts/kapNames.ts; KAP's own code is not deployed here).
 */
const NATIVE_COMMUNITY_CONTRACTS = ['kap'] as const;
export type NativeCommunityContract = (typeof NATIVE_COMMUNITY_CONTRACTS)[number];

/** The shapes `--like` accepts; `plain` is the devnet's own layout. */
export const SHAPE_NAMES = ['plain', 'mainnet', 'harbinger'] as const;
export type ShapeName = (typeof SHAPE_NAMES)[number];

/**
 * The contracts the devnet runs natively (contracts/). get_contract_metadata alone is a registered name without code
 * at its address: the devnet answers that system call itself (vm/systemThunks.ts getContractMetadata), as harbinger's
 * contract answers it through its override, and clients never call the contract directly.
 */
export const NATIVE_SYSTEM_CONTRACTS = [
  'koin',
  'vhp',
  'name_service',
  'pob',
  'resources',
  'governance',
  'claim',
] as const satisfies readonly SystemContractName[];
export type NativeSystemContract = (typeof NATIVE_SYSTEM_CONTRACTS)[number];

interface ShapeTable {
  system: Partial<Record<SystemContractName, string>>;
  community: Partial<Record<CommunityContractName, string>>;
  native: Partial<Record<NativeCommunityContract, string>>;
}

/** The devnet's own addresses: derived from labels, so no one holds their keys. */
const PLAIN_SYSTEM: Partial<Record<SystemContractName, Uint8Array>> = {
  koin: KOIN_ADDRESS,
  vhp: labelAddress('koinos-devnet/vhp'),
  name_service: labelAddress('koinos-devnet/name_service'),
};

/** The NFT collection for tests has no network address: the same label-derived one in every shape. */
const NFT_COLLECTION_ADDRESS = labelAddress('koinos-devnet/nft');

/**
 * Mainnet (chain EiBZK_GG…): kondor src/shared/mixins/Storage.js:163-182 (KOIN and VHP after the 2025-04 KCS-4
 * upgrade), koinos-cli .koinosrc:4-8 (PoB, name service, claim, resources, governance), kondor src/ts/storage.ts:70-74
 * (nicknames, free mana sharer), kondor src/ts/storage.ts:71 and koinos-rest app.config.ts:19 (KAP). Mainnet has no
 * get_contract_metadata contract in these sources.
 */
const MAINNET: ShapeTable = {
  system: {
    koin: '19GYjDBVXU7keLbYvMLazsGQn3GTWHjHkK',
    vhp: '12Y5vW6gk8GceH53YfRkRre2Rrcsgw7Naq',
    pob: '159myq5YUhhoVWu3wsHKHiJYKPKGUrGiyv',
    name_service: '19WxDJ9Kcvx4VqQFkpwVmwVEy1hMuwXtQE',
    claim: '18zw3ZokdfHtudzaWAUnU4tUvKzKiJeN76',
    resources: '1HGN9h47CzoFwU2bQZwe6BYoX4TM6pXc4b',
    governance: '19qj51eTbSFJYU7ZagudkpxPgNSzPMfdPX',
  },
  community: { nicknames: '1KD9Es7LBBjA1FY3ViCgQJ7e6WH1ipKbhz', freemanasharer: '162GhJwsciDiKsgwzj2t6VoFHt3RMzGKdG' },
  native: { kap: '13tmzDmfqCsbYT26C4CmKxq86d33senqH3' },
};

/**
 * Harbinger chain #2 (EiBncD4p…): koinos-local-testnet addresses.txt and kondor Storage.js:191-256 (KOIN 1FaSvLj…,
 * the address Kondor uses since 2025-06; clients should resolve "koin" at run time), kondor storage.ts:93-94.
 * Harbinger has no claim contract.
 */
const HARBINGER: ShapeTable = {
  system: {
    koin: '1FaSvLjQJsCJKq5ybmGsMMQs8RQYyVv8ju',
    vhp: '17n12ktwN79sR6ia9DDgCfmw77EgpbTyBi',
    pob: '1MAbK5pYkhp9yHnfhYamC3tfSLmVRTDjd9',
    resources: '16X6cKyqiT8EzPEksRJxXcqMnHMMm9Vxct',
    governance: '17MjUXDCuTX1p9Kyqy48SQkkPfKScoggo',
    name_service: '13NQnca5chwpKm4ebHbvgvJmXrsSCTayDJ',
    get_contract_metadata: '1GERisQC8e4bcsHmgU1mVGUJCwCJ3ioz7C',
  },
  community: { nicknames: '1KXsC2bSnKAMAZ51gq3xxKBo74a7cDJjkR', freemanasharer: '1NDqFZLVJUtuY3FNii8ZAJ4kAiUnESur1n' },
  // Harbinger has no KAP (Kondor and Konio resolve KAP names on mainnet only).
  native: {},
};

/** What a devnet is asked to look like: a base shape, and system contracts placed elsewhere (`--system-contract`). */
export interface ShapeOptions {
  like?: ShapeName;
  /** System contract name → base58 address; overrides the base shape's. */
  systemContracts?: Record<string, string>;
}

/** A shape resolved to addresses: what genesis writes. */
export interface ChainShape {
  like: ShapeName;
  /** Every registered system name and its address (the name service's records). */
  system: Map<SystemContractName, Uint8Array>;
  /** Community contracts deployed from @koinosbox/contracts, at their addresses. */
  community: Map<CommunityContractName, Uint8Array>;
  /** Community contracts the devnet runs natively as stand-ins (KAP), at their addresses. */
  native: Map<NativeCommunityContract, Uint8Array>;
  /** What was placed by `--system-contract` (kept so a data directory can be reopened with the same genesis). */
  overrides: Record<string, string>;
}

function isShapeName(value: string): value is ShapeName {
  return (SHAPE_NAMES as readonly string[]).includes(value);
}

function isSystemName(value: string): value is SystemContractName {
  return (SYSTEM_CONTRACT_NAMES_ALL as readonly string[]).includes(value);
}

/**
 * Resolves shape options to addresses.
 * @throws WalletError INVALID_ARGUMENT for an unknown shape, an unknown system contract name, a bad address, or two
 *   contracts at one address.
 * @example
 * resolveShape({ systemContracts: { koin: '19JntSm8pSNETT9aHTwAUHC5RMoaSmgZPJ' } }).system.get('koin');
 */
export function resolveShape(options: ShapeOptions = {}): ChainShape {
  const like = options.like ?? 'plain';
  if (!isShapeName(like)) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `shape: expected one of ${SHAPE_NAMES.join(', ')}, got ${describe(like)}`,
    );
  }
  const system = new Map<SystemContractName, Uint8Array>();
  const community = new Map<CommunityContractName, Uint8Array>();
  const native = new Map<NativeCommunityContract, Uint8Array>();
  if (like === 'plain') {
    for (const [name, address] of Object.entries(PLAIN_SYSTEM)) system.set(name as SystemContractName, address);
  } else {
    const table = like === 'mainnet' ? MAINNET : HARBINGER;
    for (const [name, text] of Object.entries(table.system))
      system.set(name as SystemContractName, addressFromString(text));
    for (const [name, text] of Object.entries(table.community))
      community.set(name as CommunityContractName, addressFromString(text));
    community.set('nft', NFT_COLLECTION_ADDRESS);
    for (const [name, text] of Object.entries(table.native))
      native.set(name as NativeCommunityContract, addressFromString(text));
  }
  const overrides: Record<string, string> = {};
  for (const [name, text] of Object.entries(options.systemContracts ?? {})) {
    if (!isSystemName(name)) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `system contract: expected one of ${SYSTEM_CONTRACT_NAMES_ALL.join(', ')}, got ${describe(name)}`,
      );
    }
    let address: Uint8Array;
    try {
      address = addressFromString(text);
    } catch (cause) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `system contract ${name}: expected a base58 address, got ${describe(text)}`,
        { cause },
      );
    }
    system.set(name, address);
    overrides[name] = addressToString(address);
  }
  const seen = new Map<string, string>();
  for (const [name, address] of [...system, ...community, ...native]) {
    const text = addressToString(address);
    const other = seen.get(text);
    if (other !== undefined) {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `system contract ${name}: expected an address of its own, got ${text}, where ${other} is placed`,
      );
    }
    seen.set(text, name);
  }
  return { like, system, community, native, overrides };
}

/**
 * A shape as one line of text, stored in a data directory's meta (so that reopening builds the same genesis):
 * `plain`, `mainnet`, or `mainnet;koin=1…`. Empty means plain.
 */
export function shapeSpec(shape: Pick<ChainShape, 'like' | 'overrides'>): string {
  const parts = Object.entries(shape.overrides)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, address]) => `${name}=${address}`);
  return [shape.like, ...parts].join(';');
}

/** The inverse of {@link shapeSpec}. @throws WalletError INVALID_ARGUMENT as resolveShape does. */
export function shapeFromSpec(spec: string): ChainShape {
  if (spec === '') return resolveShape();
  const [like, ...parts] = spec.split(';');
  const systemContracts = Object.fromEntries(parts.map((p) => p.split('=', 2) as [string, string]));
  return resolveShape({ like: like as ShapeName, systemContracts });
}

/** The shape as JSON for the CLI's first line and the REST route: names → base58 addresses (stand-ins among the community). */
export function describeShape(shape: ChainShape): {
  like: ShapeName;
  system_contracts: Record<string, string>;
  community_contracts: Record<string, string>;
} {
  return {
    like: shape.like,
    system_contracts: Object.fromEntries([...shape.system].map(([n, a]) => [n, addressToString(a)])),
    community_contracts: Object.fromEntries(
      [...shape.community, ...shape.native].map(([n, a]) => [n, addressToString(a)]),
    ),
  };
}
