// A contract's ABI (the JSON text kept by contract_meta_store) read once into methods, events and a codec for its
// own protobuf types: what koilib's Contract does with a fetched ABI (koilib src/Contract.ts fetchAbi, encodeOperation,
// decodeEvent), and koinos-rest's fixAbi (utils/contracts.ts) for the older `entry-point` / `read-only` keys.
import { toHex } from './bytes.ts';
import { createCodec, type JsonObject, type JsonValue, type ProtoCodec } from './codec.ts';
import { abiNamespace } from './abiTypes.ts';
import { WalletError, describe } from './errors.ts';
import { sha256 } from './hash.ts';
import { MAX_JSON_DEPTH, jsonDepth } from './jsonDepth.ts';

/** Longest ABI text read (a KCS-4 token's ABI is about 10 KB). */
export const MAX_ABI_LENGTH = 1_048_576;
/** Most methods an ABI may declare. */
const MAX_ABI_METHODS = 1000;

/** One method of an ABI. */
export interface AbiMethod {
  name: string;
  /** Type of the arguments; '' when the method takes none. */
  argument: string;
  /** Type of the result; '' when it returns nothing. */
  return: string;
  entryPoint: number;
  readOnly: boolean;
  description?: string;
  /** What a read answers when the contract returns no bytes (koilib `default_output`). */
  defaultOutput?: JsonValue;
}

/** A parsed ABI. */
export interface ContractAbi {
  /** The ABI as koinos-rest serves it: `entry_point` and `read_only` filled from the older keys, `koilib_types` added. */
  readonly json: JsonObject;
  readonly methods: ReadonlyMap<string, AbiMethod>;
  /** Event name → type of its data. */
  readonly events: ReadonlyMap<string, string>;
  readonly codec: ProtoCodec;
  /**
   * The method called `name`.
   * @throws WalletError INVALID_ARGUMENT listing the ABI's methods.
   */
  method(name: string): AbiMethod;
  methodByEntryPoint(entryPoint: number): AbiMethod | undefined;
  /**
   * Arguments of `method` from JSON, with the strict reader (unknown fields refused, addresses checked).
   * @throws WalletError INVALID_JSON / INVALID_ADDRESS naming the field.
   */
  encodeArguments(method: AbiMethod, json: unknown): Uint8Array;
  decodeArguments(method: AbiMethod, bytes: Uint8Array): JsonObject;
  /** A result as JSON: `default_output` (or `{}`) for no bytes. */
  decodeResult(method: AbiMethod, bytes: Uint8Array): JsonValue;
  /** An event's data as JSON (koilib decodeEvent: the ABI's event type, else the event name as a type); undefined when it does not decode. */
  decodeEvent(name: string, data: Uint8Array): JsonObject | undefined;
}

function invalid(message: string): WalletError {
  return new WalletError('INVALID_ABI', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** koinos-rest fixAbi: `entry-point` (hex text) wins over `entry_point`; `read-only` over `read_only`. */
function readMethod(name: string, json: unknown): AbiMethod {
  if (!isObject(json)) throw invalid(`ABI method ${name}: expected an object, got ${describe(json)}`);
  const legacy = json['entry-point'];
  const entryPoint =
    typeof legacy === 'string' && /^0x[0-9a-fA-F]{1,8}$/.test(legacy) ? Number.parseInt(legacy, 16) : json.entry_point;
  if (typeof entryPoint !== 'number' || !Number.isInteger(entryPoint) || entryPoint < 0 || entryPoint > 0xffffffff) {
    throw invalid(`ABI method ${name}: expected an entry_point from 0 to 4294967295, got ${describe(entryPoint)}`);
  }
  const readOnly = json['read-only'] !== undefined ? json['read-only'] : json.read_only;
  const argument = json.argument ?? '';
  const ret = json.return ?? '';
  if (typeof argument !== 'string' || typeof ret !== 'string')
    throw invalid(`ABI method ${name}: expected type names in argument and return`);
  return {
    name,
    argument,
    return: ret,
    entryPoint,
    readOnly: readOnly === true,
    ...(typeof json.description === 'string' && { description: json.description }),
    ...(json.default_output !== undefined && { defaultOutput: json.default_output as JsonValue }),
  };
}

/**
 * Reads an ABI's JSON text: its methods, events and types (bounded: at most {@link MAX_ABI_LENGTH} characters,
 * {@link MAX_ABI_METHODS} methods, and the type limits of abiTypes.ts), without running anything of it.
 * @throws WalletError INVALID_ABI saying what is wrong and where.
 * @example
 * const abi = parseAbi(readFileSync('token-abi.json', 'utf8'));
 * abi.encodeArguments(abi.method('balance_of'), { owner: '1Ns…' });
 */
export function parseAbi(text: string): ContractAbi {
  if (typeof text !== 'string' || text.length === 0)
    throw invalid(`expected an ABI as JSON text, got ${describe(text)}`);
  if (text.length > MAX_ABI_LENGTH)
    throw invalid(`expected an ABI of at most ${MAX_ABI_LENGTH} characters, got ${text.length}`);
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    throw invalid(`expected an ABI nested at most ${MAX_JSON_DEPTH} levels deep, got deeper`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid('expected an ABI as JSON text, got text that is not JSON');
  }
  if (!isObject(json)) throw invalid(`expected an ABI as a JSON object, got ${describe(json)}`);
  const methodsJson = json.methods ?? {};
  if (!isObject(methodsJson)) throw invalid(`ABI methods: expected an object, got ${describe(methodsJson)}`);
  const names = Object.keys(methodsJson);
  if (names.length > MAX_ABI_METHODS) throw invalid(`expected at most ${MAX_ABI_METHODS} methods, got ${names.length}`);
  const methods = new Map<string, AbiMethod>();
  for (const name of names) methods.set(name, readMethod(name, methodsJson[name]));
  const events = new Map<string, string>();
  if (isObject(json.events)) {
    for (const [name, value] of Object.entries(json.events)) {
      // koilib 9: `type`, then `argument` (the older key).
      const type = isObject(value) ? (value.type ?? value.argument) : undefined;
      if (typeof type === 'string' && type !== '') events.set(name, type);
    }
  }
  const namespace = abiNamespace(json);
  const codec = createCodec(namespace, "the contract's ABI types");
  const byEntryPoint = new Map([...methods.values()].map((m) => [m.entryPoint, m]));
  const fixed: JsonObject = {
    ...(json as JsonObject),
    methods: Object.fromEntries(
      names.map((n) => [
        n,
        {
          ...(methodsJson[n] as JsonObject),
          entry_point: methods.get(n)!.entryPoint,
          read_only: methods.get(n)!.readOnly,
        },
      ]),
    ),
    ...(json.koilib_types === undefined && { koilib_types: namespace as JsonObject }),
  };

  const typeOf = (type: string, what: string): string => {
    if (!codec.hasType(type))
      throw invalid(`${what}: expected a message type defined in the ABI's types, got ${describe(type)}`);
    return type;
  };

  return {
    json: fixed,
    methods,
    events,
    codec,
    method(name) {
      const m = methods.get(name);
      if (m) return m;
      const list = [...methods.keys()];
      throw new WalletError(
        'INVALID_ARGUMENT',
        `method: expected one of the ABI's methods (${list.length > 0 ? list.join(', ') : 'none'}), got ${describe(name)}`,
      );
    },
    methodByEntryPoint: (entryPoint) => byEntryPoint.get(entryPoint),
    encodeArguments(m, args) {
      if (m.argument === '') {
        if (args === undefined || (isObject(args) && Object.keys(args).length === 0)) return new Uint8Array(0);
        throw new WalletError(
          'INVALID_JSON',
          `arguments of ${m.name}: expected none (the method takes no arguments), got ${describe(args)}`,
        );
      }
      const type = typeOf(m.argument, `arguments of ${m.name}`);
      return codec.encode(type, codec.fromJson(type, args ?? {}, { strict: true }));
    },
    decodeArguments(m, bytes) {
      if (m.argument === '') return {};
      const type = typeOf(m.argument, `arguments of ${m.name}`);
      return codec.toJson(type, codec.decode(type, bytes));
    },
    decodeResult(m, bytes) {
      if (bytes.length === 0 && m.defaultOutput !== undefined) return m.defaultOutput;
      if (m.return === '') return {};
      const type = typeOf(m.return, `result of ${m.name}`);
      return codec.toJson(type, codec.decode(type, bytes));
    },
    decodeEvent(name, data) {
      const type = events.get(name) ?? name;
      if (!codec.hasType(type)) return undefined;
      try {
        return codec.toJson(type, codec.decode(type, data));
      } catch {
        return undefined;
      }
    },
  };
}

/** Parsed ABIs, and the errors of those that do not parse (so a bad ABI is not read again on every request). */
const cache = new Map<string, ContractAbi | WalletError>();
const CACHE_SIZE = 256;

/**
 * The parsed ABI of a contract, cached by contract id and the sha256 of the ABI text: a contract uploaded again with
 * another ABI gets a new entry; the least recently used go first beyond 256 entries.
 * @throws WalletError INVALID_ABI as {@link parseAbi}.
 */
export function contractAbiOf(contractId: string, text: string): ContractAbi {
  if (typeof text === 'string' && text.length > MAX_ABI_LENGTH) return parseAbi(text); // refused there, not hashed
  const key = `${contractId}:${toHex(sha256(new TextEncoder().encode(text)))}`;
  let entry = cache.get(key);
  if (entry) {
    cache.delete(key); // most recently used last
  } else {
    try {
      entry = parseAbi(text);
    } catch (error) {
      if (!(error instanceof WalletError)) throw error;
      entry = error;
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, entry);
  if (entry instanceof WalletError) throw entry;
  return entry;
}
