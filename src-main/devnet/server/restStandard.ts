// Calls of a standard contract interface through a fixed ABI, as koinos-rest's getTokenContract / getNFTContract
// (utils/tokens.ts) do with koilib: any contract answering the standard's entry points works, with or without an ABI of
// its own. Results read as koilib reads them (defaults as koilib keeps them; no result when the contract answers none).
import protobuf from 'protobufjs';
import type { JsonObject, JsonValue, ProtoMessage } from '../../koinos/codec.ts';
import { toBase64Url } from '../../koinos/bytes.ts';
import { WalletError, causeText } from '../../koinos/errors.ts';
import { parseAbi, type ContractAbi } from '../../koinos/contractAbi.ts';

/** What a standard contract's calls need from the REST layer. */
export interface StandardDeps {
  rpc(method: string, params: Record<string, unknown>): Promise<ProtoMessage>;
  badRequest(message: string): WalletError;
}

/** Reads and operations of one standard interface. */
export interface StandardContract {
  /**
   * koilib `contract.functions[name](args)` of a read-only method: its result as JSON with the defaults koilib keeps
   * (uint64 "0", empty lists), or undefined when the contract answers no bytes (the standard ABIs have no default_output).
   * @throws WalletError (a 400) naming the argument that does not parse; the node's error when the read fails.
   */
  read(contractId: string, name: string, args?: JsonObject): Promise<JsonObject | undefined>;
  /**
   * koilib `contract.encodeOperation({name, args})`: the call_contract operation as JSON, not signed or sent.
   * @throws WalletError (a 400) naming the argument that does not parse.
   */
  operation(contractId: string, name: string, args: JsonObject): JsonValue;
}

const LONG = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/**
 * The JSON koilib gives a field left at its default. koilib reads with protobufjs `defaults: true`, longs as strings,
 * then keeps only truthy values (utils.ts btypeDecode `if (!valueEncoded[name]) return`): "0" and [] stay; 0, false,
 * "" and absent messages go.
 */
function defaultJson(field: protobuf.Field): JsonValue | undefined {
  if (field.repeated) return [];
  if (LONG.has(field.type) && !field.resolvedType) return '0';
  return undefined;
}

/** Adds the fields `json` leaves out (defaults omitted on the wire), recursively, except proto3 optional ones. */
function withDefaults(type: protobuf.Type, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const field of type.fieldsArray) {
    const value = json[field.name];
    if (value === undefined) {
      if (field.partOf) continue; // proto3 optional (a synthetic oneof): absent, as protobufjs leaves it
      const fallback = defaultJson(field);
      if (fallback !== undefined) out[field.name] = fallback;
      continue;
    }
    const nested = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    if (nested && Array.isArray(value)) out[field.name] = value.map((item) => withDefaults(nested, item as JsonObject));
    else if (nested && typeof value === 'object' && value !== null)
      out[field.name] = withDefaults(nested, value as JsonObject);
    else out[field.name] = value;
  }
  return out;
}

/**
 * A standard interface over `abiText` (a fixed ABI: KCS-4 is KOIN's koin.abi, KCS-5 is abi/kcs5.abi).
 * @example
 * const kcs4 = standardContract(KOIN_ABI, deps);
 * await kcs4.read(koinAddress, 'decimals'); // { value: 8 }
 */
export function standardContract(abiText: string, deps: StandardDeps): StandardContract {
  // Read on the first call: a devnet starts without paying for routes it may never be asked.
  let loaded: { abi: ContractAbi; root: protobuf.Root } | undefined;
  const load = (): NonNullable<typeof loaded> => {
    if (!loaded) {
      const abi = parseAbi(abiText);
      const root = protobuf.Root.fromJSON(abi.json.koilib_types as protobuf.INamespace);
      root.resolveAll();
      loaded = { abi, root };
    }
    return loaded;
  };

  function encode(name: string, args: JsonObject): { entryPoint: number; bytes: Uint8Array } {
    const { abi } = load();
    const m = abi.method(name);
    try {
      // Fields the standard does not define are dropped, as koilib's serializer drops them (koinos-rest passes a
      // memo to KCS-4 mint and burn, which have none); the fields it defines are read strictly (addresses checked).
      if (m.argument === '') return { entryPoint: m.entryPoint, bytes: new Uint8Array(0) };
      const message = abi.codec.fromJson(m.argument, args, { strict: true, unknownFields: 'discard' });
      return { entryPoint: m.entryPoint, bytes: abi.codec.encode(m.argument, message) };
    } catch (e) {
      throw deps.badRequest(`invalid arguments of ${name}: ${causeText(e)}`);
    }
  }

  return {
    async read(contractId, name, args = {}) {
      const { entryPoint, bytes } = encode(name, args);
      const { result } = await deps.rpc('chain.read_contract', {
        contract_id: contractId,
        entry_point: entryPoint,
        args: toBase64Url(bytes),
      });
      const answer = (result as Uint8Array | undefined) ?? new Uint8Array(0);
      if (answer.length === 0) return undefined;
      const { abi, root } = load();
      const m = abi.method(name);
      return withDefaults(root.lookupType(m.return), abi.decodeResult(m, answer) as JsonObject);
    },
    operation(contractId, name, args) {
      const { entryPoint, bytes } = encode(name, args);
      return { call_contract: { contract_id: contractId, entry_point: entryPoint, args: toBase64Url(bytes) } };
    },
  };
}
