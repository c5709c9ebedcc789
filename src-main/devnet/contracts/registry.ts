// Which contract lives at an address: the built-in system contracts (KOIN, VHP, the name service, pob, resources,
// governance, claim), wherever the chain's genesis placed them (a network shape), and the test tokens made with
// devnet.create_token (both kept in the state, so they persist and follow snapshots). Also what the node's services
// tell about a contract: its metadata object and its ABI (contract_meta_store): KOIN and VHP the upstream ABI files
// (abi/README.md), the other system contracts and test tokens ones the devnet writes.
import { concatBytes, toHex, utf8ToBytes } from '../../koinos/bytes.ts';
import { decode, encode } from '../../koinos/codec.ts';
import { DESCRIPTOR } from '../../koinos/generated/descriptor.ts';
import { sha256 } from '../../koinos/hash.ts';
import { TOKEN_METHODS } from '../../koinos/koin.ts';
import { KOIN_ADDRESS, labelAddress } from './builtInAddresses.ts';
import type { NativeSystemContract } from '../chain/shapes.ts';
import { KERNEL_SPACES, objectSpace, type Space, type StateView } from '../state/state.ts';
import { keyText } from '../store/storeKeys.ts';
import { KoinContract } from './koin.ts';
import { ClaimContract, claimAbi } from './claim.ts';
import { GovernanceContract, governanceAbi } from './governance.ts';
import { NameServiceContract, nameServiceAbi } from './nameService.ts';
import { PobContract, pobAbi } from './pob.ts';
import { ResourcesContract, resourcesAbi } from './resources.ts';
import { KapNamesContract, kapNamesAbi } from './kapNames.ts';
import { TestToken, TOKEN_EVENTS, type TokenContract, type TokenInfo } from './token.ts';
import type { Contract } from './context.ts';
import { VhpContract } from './vhp.ts';
import { KOIN_ABI, VHP_ABI } from './abi/systemAbis.ts';

const EMPTY = new Uint8Array(0);

/** VHP's address on a plain devnet, resolvable as the system name "vhp" (no one holds its key). */
const VHP_ADDRESS = labelAddress('koinos-devnet/vhp');

/**
 * KOIN as node services read it (mana, balances): its storage zone is this fixed address wherever a shape places the
 * contract, so one instance serves every placement.
 */
export const KOIN = new KoinContract(KOIN_ADDRESS);

/** System contract names of a plain devnet (the name service answers them on the chain; see node.ts). */
export const SYSTEM_CONTRACT_NAMES: ReadonlyMap<string, Uint8Array> = new Map([
  ['koin', KOIN_ADDRESS],
  ['vhp', VHP_ADDRESS],
]);

/** The built-in contracts genesis can place at an address (shapes.ts: the system ones, and `kap`, the KAP stand-in). */
export type NativeKind = NativeSystemContract | 'kap';

/** A built-in contract as placed by genesis. */
export type SystemContract =
  | KoinContract
  | VhpContract
  | NameServiceContract
  | PobContract
  | ResourcesContract
  | GovernanceContract
  | ClaimContract
  | KapNamesContract;

/**
 * Devnet-only space of the built-in contracts' placements: key = the address a contract answers at, value = its kind
 * (UTF-8). Written by genesis only; a system space in a zone no key controls.
 */
export const NATIVE_PLACEMENT_SPACE: Space = objectSpace(labelAddress('koinos-devnet/native'), 0);

/** The built-in contracts made so far, by kind and by the key text of their address. */
const placed = new Map<NativeKind, Map<string, SystemContract>>();

/**
 * The address a system name resolves to in this state, as System.getContractAddress answers a contract: the name
 * service's record when one is placed, else the placement of that kind.
 */
function systemAddress(view: StateView, name: NativeKind): Uint8Array | undefined {
  const placements = view.entries(NATIVE_PLACEMENT_SPACE);
  const kindOf = (value: Uint8Array) => new TextDecoder().decode(value);
  const ns = placements.find((e) => kindOf(e.value) === 'name_service');
  if (ns) return (nativeContract('name_service', ns.key) as NameServiceContract).addressOf(view, name);
  return placements.find((e) => kindOf(e.value) === name)?.key;
}

const MAKE: Record<NativeKind, (address: Uint8Array) => SystemContract> = {
  koin: (address) => new KoinContract(address, KOIN_ADDRESS),
  vhp: (address) => new VhpContract(address, VHP_ADDRESS),
  name_service: (address) => new NameServiceContract(address),
  // Pob calls the KOIN and VHP that the names resolve to, when the devnet runs them natively.
  pob: (address) =>
    new PobContract(address, (view, name) => {
      const target = systemAddress(view, name);
      const contract = target ? systemContractAt(view, target) : undefined;
      return contract instanceof KoinContract || contract instanceof VhpContract ? contract : undefined;
    }),
  resources: (address) => new ResourcesContract(address),
  governance: (address) => new GovernanceContract(address),
  claim: (address) => new ClaimContract(address),
  kap: (address) => new KapNamesContract(address),
};

/** The built-in contract of `kind` answering at `address` (one instance per placement). */
export function nativeContract(kind: NativeKind, address: Uint8Array): SystemContract {
  // Found for every contract call: the address's key text and one map per kind, no hex and no joined text.
  let ofKind = placed.get(kind);
  if (!ofKind) placed.set(kind, (ofKind = new Map()));
  const key = keyText(address);
  let contract = ofKind.get(key);
  if (!contract) {
    contract = MAKE[kind](address);
    ofKind.set(key, contract);
  }
  return contract;
}

const UTF8 = new TextDecoder();

/** The kind of built-in contract placed at `address` in this state, if any. */
function nativeKindAt(view: StateView, address: Uint8Array): NativeKind | undefined {
  if (address.length === 0) return undefined;
  const bytes = view.get(NATIVE_PLACEMENT_SPACE, address);
  return bytes ? (UTF8.decode(bytes) as NativeKind) : undefined;
}

/** The built-in contract (system contracts, the KAP stand-in) placed at `address`, if any. */
export function systemContractAt(view: StateView, address: Uint8Array): SystemContract | undefined {
  const kind = nativeKindAt(view, address);
  return kind ? nativeContract(kind, address) : undefined;
}

/** The metadata object hash of a built-in contract: it stands for the native implementation (there is no bytecode). */
export function nativeHash(address: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(0x12, 0x20), sha256(utf8ToBytes(`koinos-devnet/native/${toHex(address)}`)));
}

/** A token contract any KCS-4 caller can use. */
export type AnyToken = TokenContract<unknown>;

/** Devnet-only space of a test token's definition: its own zone, space 3, key empty (`koinos.devnet.token_info`). */
function definitionSpace(address: Uint8Array) {
  return objectSpace(address, 3);
}

const testTokens = new Map<string, TestToken>();

/** The token contract at `address` in this state, if any (KOIN, VHP, or a test token). */
export function contractAt(view: StateView, address: Uint8Array): AnyToken | undefined {
  const system = systemContractAt(view, address);
  if (system) return system instanceof KoinContract || system instanceof VhpContract ? (system as AnyToken) : undefined;
  if (address.length !== 25) return undefined;
  const bytes = view.get(definitionSpace(address), EMPTY);
  if (!bytes) return undefined;
  const cacheKey = toHex(concatBytes(address, bytes));
  let token = testTokens.get(cacheKey);
  if (!token) {
    const definition = decode('koinos.devnet.token_info', bytes);
    token = new TestToken(address, definition);
    if (testTokens.size > 10_000) testTokens.clear();
    testTokens.set(cacheKey, token);
  }
  return token as AnyToken;
}

/** Any built-in contract at `address` (a token or the name service): what a call_contract operation runs natively. */
export function builtInAt(view: StateView, address: Uint8Array): Contract | undefined {
  return systemContractAt(view, address) ?? contractAt(view, address);
}

/** A fresh test token address: derived from a label no key belongs to, not yet used in this state. */
export function newTokenAddress(view: StateView, seed: Uint8Array): Uint8Array {
  for (let n = 0; ; n++) {
    const address = labelAddress(`koinos-devnet/token/${toHex(seed)}/${n}`);
    if (!contractAt(view, address)) return address;
  }
}

/**
 * Writes a test token's definition and contract metadata object into `view`; returns the token.
 * The metadata's hash is the sha256 multihash of the definition (there is no bytecode).
 */
export function defineTestToken(
  view: StateView,
  address: Uint8Array,
  definition: TokenInfo & { owner: Uint8Array },
): AnyToken {
  const bytes = encode('koinos.devnet.token_info', definition);
  view.put(definitionSpace(address), EMPTY, bytes);
  view.put(
    KERNEL_SPACES.contractMetadata,
    address,
    encode('koinos.chain.contract_metadata_object', {
      hash: concatBytes(Uint8Array.of(0x12, 0x20), sha256(bytes)),
      system: false,
    }),
  );
  return contractAt(view, address)!;
}

/** The contract metadata object of a contract (get_contract_metadata), if it exists. */
export function contractMetadata(
  view: StateView,
  address: Uint8Array,
): { hash: Uint8Array; system: boolean } | undefined {
  const bytes = view.get(KERNEL_SPACES.contractMetadata, address);
  return bytes ? decode('koinos.chain.contract_metadata_object', bytes) : undefined;
}

const DESCRIPTIONS: Record<string, string> = {
  name: 'Returns the token name',
  symbol: 'Returns the token symbol',
  decimals: 'Returns the token decimal precision',
  get_info: 'Returns the token info',
  total_supply: 'Returns the token total supply',
  balance_of: 'Checks the balance at an address',
  allowance: 'Returns the allowance of a spender',
  get_allowances: 'Returns the allowances of an owner',
  transfer: 'Transfers the token',
  mint: 'Mints the token',
  burn: 'Burns the token',
  approve: 'Approves a spender to transfer tokens on behalf of the owner',
};

/** The protobuf types a test token's ABI names, as a protobufjs namespace (koilib reads it as `koilib_types`). */
function abiTypes(): object {
  const koinos = (DESCRIPTOR.nested as any).koinos.nested;
  return { nested: { koinos: { nested: { contracts: { nested: { token: koinos.contracts.nested.token } } } } } };
}

let typesCache: object | undefined;

/** The ABI of a built-in system contract that is not a token (the name service, pob, resources, governance, claim). */
export function systemContractAbi(contract: SystemContract): string | undefined {
  if (contract instanceof NameServiceContract) return nameServiceAbi();
  if (contract instanceof PobContract) return pobAbi();
  if (contract instanceof ResourcesContract) return resourcesAbi();
  if (contract instanceof GovernanceContract) return governanceAbi();
  if (contract instanceof ClaimContract) return claimAbi();
  if (contract instanceof KapNamesContract) return kapNamesAbi();
  return undefined;
}

/**
 * The ABI of a built-in contract as JSON text (what contract_meta_store answers). KOIN and VHP answer the ABI files
 * uploaded with the real contracts, byte for byte, so that koilib and koinos-rest decode them as on mainnet; a test
 * token (devnet-only) answers one written from its method table in the shape koilib's Contract reads.
 */
export function contractAbi(contract: AnyToken): string {
  if (contract instanceof KoinContract) return KOIN_ABI;
  if (contract instanceof VhpContract) return VHP_ABI;
  const table = TOKEN_METHODS;
  const zeroDefault = new Set(['balance_of', 'allowance', 'total_supply', 'effective_balance_of']);
  const methods = Object.fromEntries(
    Object.values(table).map((m) => [
      m.name,
      {
        argument: m.argsType,
        return: m.resultType,
        entry_point: m.entryPoint,
        description: DESCRIPTIONS[m.name] ?? m.name,
        read_only: m.readOnly,
        ...(zeroDefault.has(m.name) && { default_output: { value: '0' } }),
      },
    ]),
  );
  const events = Object.fromEntries(
    Object.entries(TOKEN_EVENTS).map(([kind, name]) => [name, { argument: `koinos.contracts.token.${kind}_event` }]),
  );
  typesCache ??= abiTypes();
  return JSON.stringify({ methods, events, koilib_types: typesCache });
}
