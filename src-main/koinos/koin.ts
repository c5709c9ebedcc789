// The KOIN token contract as clients see it: entry points, argument and result codecs, and the decoding
// of operations and events into the objects the node API shows with decode_operations / decode_events.
import {
  BTYPE,
  bytesToJson,
  decode,
  encode,
  toJson,
  type JsonObject,
  type JsonValue,
  type MessageInput,
  type MessageMap,
} from './codec.ts';
import { sha256 } from './hash.ts';
import type { EventData, Operation } from './types.ts';
import { WalletError, describe } from './errors.ts';
import { tokenEventType } from './tokenEvents.ts';

const TOKEN = 'koinos.contracts.token';

/** Entry point of a contract method: the first 4 bytes (big-endian) of sha256 of its name. */
export function entryPoint(method: string): number {
  const h = sha256(new TextEncoder().encode(method));
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0;
}

export interface TokenMethod<P extends string = string, N extends string = string> {
  name: N;
  entryPoint: number;
  /** The arguments' message type, `<pkg>.<name>_arguments`: a literal type, so decode and encode know the message. */
  argsType: `${P}.${N}_arguments`;
  resultType: `${P}.${N}_result`;
  readOnly: boolean;
}

function method<N extends string, P extends string = typeof TOKEN>(
  name: N,
  readOnly: boolean,
  pkg: P = TOKEN as P,
): TokenMethod<P, N> {
  return {
    name,
    entryPoint: entryPoint(name),
    argsType: `${pkg}.${name}_arguments`,
    resultType: `${pkg}.${name}_result`,
    readOnly,
  };
}

/** The KCS-4 token standard's entry points (every token: KOIN, VHP, the devnet's test tokens), by name. */
export const TOKEN_METHODS = {
  name: method('name', true),
  symbol: method('symbol', true),
  decimals: method('decimals', true),
  get_info: method('get_info', true),
  total_supply: method('total_supply', true),
  balance_of: method('balance_of', true),
  allowance: method('allowance', true),
  get_allowances: method('get_allowances', true),
  transfer: method('transfer', false),
  mint: method('mint', false),
  burn: method('burn', false),
  approve: method('approve', false),
} as const;

/**
 * The KOIN methods the wallet and the devnet use, by name: KCS-4 plus `authorize` (koinos-contracts-as
 * contracts/koin: the contract's own authority, answered by the system authority).
 */
export const KOIN_METHODS = {
  ...TOKEN_METHODS,
  authorize: method('authorize', false, 'koinos.chain'),
} as const;

/** The VHP methods: KCS-4 plus `effective_balance_of` (an increase counts only after a delay of blocks). */
export const VHP_METHODS = {
  ...KOIN_METHODS,
  effective_balance_of: method('effective_balance_of', true, 'koinos.contracts.vhp'),
} as const;

export type KoinMethodName = keyof typeof KOIN_METHODS;
/** The arguments message of a KOIN method, by name. */
export type KoinArguments<N extends KoinMethodName> = MessageMap[(typeof KOIN_METHODS)[N]['argsType']];
/** The result message of a KOIN method, by name. */
export type KoinResult<N extends KoinMethodName> = MessageMap[(typeof KOIN_METHODS)[N]['resultType']];

/** Any method of KOIN, VHP or KCS-4: a union over `name`, so a switch on it knows each method's messages. */
export type SystemTokenMethod = (typeof VHP_METHODS)[keyof typeof VHP_METHODS];

const BY_ENTRY_POINT = new Map<number, SystemTokenMethod>(Object.values(VHP_METHODS).map((m) => [m.entryPoint, m]));

/** The KOIN, VHP or KCS-4 method with this entry point, if any. */
export function koinMethodByEntryPoint(ep: number): SystemTokenMethod | undefined {
  return BY_ENTRY_POINT.get(ep);
}

function methodOf(name: string): TokenMethod {
  const m = (KOIN_METHODS as Record<string, TokenMethod>)[name];
  if (!m)
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected a KOIN method (${Object.keys(KOIN_METHODS).join(', ')}), got ${describe(name)}`,
    );
  return m;
}

/** Encodes the arguments of a KOIN method (for example `{ from, to, value }` for transfer). */
export function encodeKoinArgs<N extends KoinMethodName>(name: N, args: MessageInput<KoinArguments<N>>): Uint8Array {
  return encode(methodOf(name).argsType, args);
}

/** Decodes the arguments of a KOIN method; the message type follows from the name. */
export function decodeKoinArgs<N extends KoinMethodName>(name: N, bytes: Uint8Array): KoinArguments<N> {
  methodOf(name);
  const type: (typeof KOIN_METHODS)[N]['argsType'] = KOIN_METHODS[name].argsType;
  return decode(type, bytes);
}

/** Decodes the result of a KOIN method; the message type follows from the name. */
export function decodeKoinResult<N extends KoinMethodName>(name: N, bytes: Uint8Array): KoinResult<N> {
  methodOf(name);
  const type: (typeof KOIN_METHODS)[N]['resultType'] = KOIN_METHODS[name].resultType;
  return decode(type, bytes);
}

/** A `call_contract` operation calling a KOIN method. */
export function koinOperation(contractId: Uint8Array, name: KoinMethodName, args: object): Operation {
  const m = methodOf(name);
  return { call_contract: { contract_id: contractId, entry_point: m.entryPoint, args: encode(m.argsType, args) } };
}

/** The default of a bytes field. */
const NO_BYTES = new Uint8Array(0);

/**
 * An operation as JSON; a call to KOIN (when `isKoin(contract_id)`) shows the method name as `entry_point`
 * and the decoded argument object as `args`. Anything that does not decode is left as the gateway renders it.
 */
export function decodeOperationJson(
  op: MessageInput<Operation>,
  isKoin: (contractId: Uint8Array) => boolean,
): JsonObject {
  const json = toJson('koinos.protocol.operation', op);
  const call = op.call_contract;
  // A field left out is its default, as in the encoded operation.
  const contractId = call?.contract_id ?? NO_BYTES;
  if (!call || !isKoin(contractId)) return json;
  const m = BY_ENTRY_POINT.get(call.entry_point ?? 0);
  if (!m) return json;
  try {
    const args = toJson(m.argsType, decode(m.argsType, call.args ?? NO_BYTES));
    return { call_contract: { contract_id: bytesToJson(contractId, BTYPE.CONTRACT_ID), entry_point: m.name, args } };
  } catch {
    return json; // arguments that do not decode stay encoded, as the REST service does
  }
}

/** An event as JSON; a known token event gets `data` as an object (`from`, `to`, `value`). */
export function decodeEventJson(event: MessageInput<EventData>): JsonObject {
  const json = toJson('koinos.protocol.event_data', event);
  const type = tokenEventType(event.name ?? '');
  if (!type) return json;
  try {
    json.data = toJson(type, decode(type, event.data ?? NO_BYTES)) as JsonValue;
  } catch {
    // undecodable data stays base64
  }
  return json;
}
