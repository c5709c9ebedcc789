// Which contract lives at an address: the system contracts KOIN and VHP (resolvable by their system names), and the
// test tokens made with devnet.create_token (defined in the state, so they persist and follow snapshots). Also what
// the node's services tell about a contract: its metadata object and its ABI (contract_meta_store): KOIN and VHP the
// upstream ABI files (abi/README.md), test tokens one the devnet writes.
import { concatBytes, equalBytes, toHex, utf8ToBytes } from '../../koinos/bytes.ts';
import { decode, encode } from '../../koinos/codec.ts';
import { DESCRIPTOR } from '../../koinos/generated/descriptor.ts';
import { sha256 } from '../../koinos/hash.ts';
import { TOKEN_METHODS } from '../../koinos/koin.ts';
import { KOIN_ADDRESS, labelAddress } from '../genesis.ts';
import { KERNEL_SPACES, objectSpace, type StateView } from '../state.ts';
import { KoinContract } from './koin.ts';
import { TestToken, TOKEN_EVENTS, type TokenContract, type TokenInfo } from './token.ts';
import { VhpContract } from './vhp.ts';
import { KOIN_ABI, VHP_ABI } from './abi/systemAbis.ts';

const EMPTY = new Uint8Array(0);

/** VHP's address on every devnet, resolvable as the system name "vhp" (no one holds its key). */
export const VHP_ADDRESS = labelAddress('koinos-devnet/vhp');

export const KOIN = new KoinContract(KOIN_ADDRESS);
export const VHP = new VhpContract(VHP_ADDRESS);

/** System contract names the devnet resolves (get_contract_address / get_contract_name). */
export const SYSTEM_CONTRACT_NAMES: ReadonlyMap<string, Uint8Array> = new Map([
  ['koin', KOIN_ADDRESS],
  ['vhp', VHP_ADDRESS],
]);

/** A token contract any KCS-4 caller can use. */
export type AnyToken = TokenContract<unknown>;

/** Devnet-only space of a test token's definition: its own zone, space 3, key empty (`koinos.devnet.token_info`). */
function definitionSpace(address: Uint8Array) {
  return objectSpace(address, 3);
}

const testTokens = new Map<string, TestToken>();

/** The contract at `address` in this state, if any. */
export function contractAt(view: StateView, address: Uint8Array): AnyToken | undefined {
  if (equalBytes(address, KOIN_ADDRESS)) return KOIN as AnyToken;
  if (equalBytes(address, VHP_ADDRESS)) return VHP as AnyToken;
  if (address.length !== 25) return undefined;
  const bytes = view.get(definitionSpace(address), EMPTY);
  if (!bytes) return undefined;
  const cacheKey = toHex(concatBytes(address, bytes));
  let token = testTokens.get(cacheKey);
  if (!token) {
    const definition = decode<TokenInfo & { owner: Uint8Array }>('koinos.devnet.token_info', bytes);
    token = new TestToken(address, definition);
    if (testTokens.size > 10_000) testTokens.clear();
    testTokens.set(cacheKey, token);
  }
  return token as AnyToken;
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
export function defineTestToken(view: StateView, address: Uint8Array, definition: TokenInfo & { owner: Uint8Array }): AnyToken {
  const bytes = encode('koinos.devnet.token_info', definition);
  view.put(definitionSpace(address), EMPTY, bytes);
  view.put(
    KERNEL_SPACES.contractMetadata,
    address,
    encode('koinos.chain.contract_metadata_object', { hash: concatBytes(Uint8Array.of(0x12, 0x20), sha256(bytes)), system: false }),
  );
  return contractAt(view, address)!;
}

/** The contract metadata object of a contract (get_contract_metadata), if it exists. */
export function contractMetadata(view: StateView, address: Uint8Array): { hash: Uint8Array; system: boolean } | undefined {
  if (equalBytes(address, KOIN_ADDRESS) || equalBytes(address, VHP_ADDRESS)) {
    // Built in: the hash stands for the native implementation (no bytecode).
    return { hash: concatBytes(Uint8Array.of(0x12, 0x20), sha256(utf8ToBytes(`koinos-devnet/native/${toHex(address)}`))), system: true };
  }
  const bytes = view.get(KERNEL_SPACES.contractMetadata, address);
  return bytes ? decode<{ hash: Uint8Array; system: boolean }>('koinos.chain.contract_metadata_object', bytes) : undefined;
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

/**
 * The ABI of a built-in contract as JSON text (what contract_meta_store answers). KOIN and VHP answer the ABI files
 * uploaded with the real contracts, byte for byte, so that koilib and koinos-rest decode them as on mainnet; a test
 * token (devnet-only) answers one written from its method table in the shape koilib's Contract reads.
 */
export function contractAbi(contract: AnyToken): string {
  if (contract === (KOIN as AnyToken)) return KOIN_ABI;
  if (contract === (VHP as AnyToken)) return VHP_ABI;
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
