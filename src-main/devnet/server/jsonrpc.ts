// JSON-RPC 2.0 over the devnet's service layer, answering as the Koinos gateway (koinos-jsonrpc) does:
// the same envelope checks, error codes, messages and data strings (facts §7.3), params and results as gateway JSON.
import {
  addressFieldPaths,
  fromJson,
  hasType,
  toJson,
  type JsonObject,
  type JsonValue,
  type MessageMap,
  type MessageType,
} from '../../koinos/codec.ts';
import { WalletError } from '../../koinos/errors.ts';
import { MAX_JSON_DEPTH, jsonDepth } from '../../koinos/jsonDepth.ts';
import { isNodeMethod, requestType, responseType, type NodeMethod, type NodeRequest } from '../methods.ts';
import type { DevnetNode } from '../types.ts';
import { JSONRPC_ERROR, ParamsError, jsonRpcErrorOf } from './wireError.ts';

/** Answers one JSON-RPC request body (already read and size-checked) with the response envelope. */
export type JsonRpcHandler = (body: string) => Promise<JsonObject>;

type Id = string | number | null;

function reply(id: Id, result: JsonValue): JsonObject {
  return { jsonrpc: '2.0', result, id };
}

function error(id: Id, code: number, message: string, data?: string): JsonObject {
  const err: JsonObject = { code, message };
  if (data !== undefined) err.data = data;
  return { jsonrpc: '2.0', error: err, id };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Checks the id as the gateway does; returns the data text of the -32600 error, or undefined when valid.
 * An integer id beyond 2^53 loses precision in JSON.parse and is echoed rounded. The gateway does the same (Go decodes
 * the id into interface{}, i.e. a float64), so clients cannot rely on such ids anywhere; string ids are exact.
 */
function idProblem(request: Record<string, unknown>): string | undefined {
  if (!('id' in request)) return 'missing ID';
  const id = request.id;
  if (id === null || typeof id === 'string') return undefined;
  if (typeof id === 'number') return Number.isInteger(id) ? undefined : 'ID must not contain fractional parts';
  return 'an ID must be a Number (non-fractional), String, or Null';
}

/** `service.method` or the fully qualified `koinos.rpc.service.method`; undefined when malformed. */
function splitMethod(method: string): [string, string] | undefined {
  const parts = method.split('.');
  if (parts.length === 4 && parts[0] === 'koinos' && parts[1] === 'rpc') parts.splice(0, 2);
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return [parts[0]!, parts[1]!];
}

/**
 * The top-level ADDRESS fields of a request (`account`, `address`, …) name the account asked about: an empty one would
 * be answered as an empty account, so it is an error. Nested ones may be empty (a transaction's payee is optional).
 */
function requireAccounts(type: string, message: object, subject: string): void {
  for (const fields of addressFieldPaths(type)) {
    if (fields.length !== 1) continue;
    const value: unknown = Reflect.get(message, fields[0]!);
    const items = Array.isArray(value)
      ? value.map((v, i) => [v, `${fields[0]}[${i}]`] as const)
      : [[value, fields[0]!] as const];
    for (const [bytes, path] of items) {
      if (bytes instanceof Uint8Array && bytes.length === 0) {
        throw new ParamsError('INVALID_ADDRESS', `${path}: expected a Koinos address (base58), got nothing`, {
          subject,
        });
      }
    }
  }
}

/**
 * Parses gateway JSON as message `type` with the library's strict reader (koinos/codec.ts `fromJson`): every ADDRESS
 * field, nested ones too, must be a valid address, and base58 text is capped before decoding. Unknown keys are
 * discarded, as the gateway does. CONTRACT_ID fields are not checksum-checked: contract ids need no checksum.
 * @param subject what the input is, for REST's answer ("invalid <subject>: …"); default "request".
 * @throws ParamsError naming the field path (relative to `type`), what was expected and what was found.
 * @example
 * parseMessage('koinos.rpc.chain.get_account_rc_request', { account: 'notanaddress' });
 * // throws ParamsError 'account: expected an address of 25 bytes, got 9'
 */
export function parseMessage<K extends MessageType>(type: K, json: unknown, subject = 'request'): MessageMap[K] {
  let message: MessageMap[K];
  try {
    message = fromJson(type, json, { strict: true, unknownFields: 'discard' });
  } catch (e) {
    if (e instanceof WalletError && e.code !== 'UNKNOWN_TYPE' && e.code !== 'INTERNAL') {
      throw new ParamsError(e.code, e.shortMessage, { cause: e, subject });
    }
    throw e;
  }
  requireAccounts(type, message, subject);
  return message;
}

/**
 * A JSON-RPC handler over `node`: every method in `node.methods` (including the devnet's own `devnet.produce_block`),
 * with params parsed as `koinos.rpc.<service>.<method>_request` and results rendered as `..._response`.
 * Never throws: every failure becomes an error envelope (unexpected ones are logged through `log`).
 * @example
 * const handle = createJsonRpcHandler(node, console.error);
 * await handle('{"jsonrpc":"2.0","id":1,"method":"chain.get_chain_id","params":{}}');
 * // { jsonrpc: '2.0', result: { chain_id: 'EiB…' }, id: 1 }
 */
export function createJsonRpcHandler(node: DevnetNode, log: (line: string) => void): JsonRpcHandler {
  // Only methods whose request and response messages exist in proto/ can be translated, as in the gateway.
  const methods = new Set(node.methods.filter((m) => hasType(requestType(m)) && hasType(responseType(m))));
  const services = new Set(node.methods.map((m) => m.split('.')[0]!));

  async function run<M extends NodeMethod>(method: M, params: NodeRequest<M>): Promise<JsonValue> {
    // The strict reader fills every field: the node runs the params as they are.
    return toJson(responseType(method), await node.call(method, params, { complete: true }));
  }

  return async function handle(body: string): Promise<JsonObject> {
    let request: unknown;
    // JSON.parse costs about a second for a megabyte of "[[[[": nesting no message needs is refused unread.
    if (jsonDepth(body) > MAX_JSON_DEPTH) {
      return error(
        null,
        JSONRPC_ERROR.PARSE,
        'Unable to parse request',
        `expected JSON nested at most ${MAX_JSON_DEPTH} levels deep, got deeper`,
      );
    }
    try {
      request = JSON.parse(body);
    } catch (e) {
      return error(
        null,
        JSONRPC_ERROR.PARSE,
        'Unable to parse request',
        e instanceof Error ? e.message : 'invalid JSON',
      );
    }
    // The gateway decodes the body into a struct: anything but an object with string fields fails to parse.
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return error(
        null,
        JSONRPC_ERROR.PARSE,
        'Unable to parse request',
        `expected a JSON-RPC request object, got ${kindOf(request)}`,
      );
    }
    const envelope = request as Record<string, unknown>;
    for (const field of ['jsonrpc', 'method'] as const) {
      const value = envelope[field];
      if (value !== undefined && value !== null && typeof value !== 'string') {
        return error(
          null,
          JSONRPC_ERROR.PARSE,
          'Unable to parse request',
          `expected "${field}" to be a string, got ${kindOf(value)}`,
        );
      }
    }

    const badId = idProblem(envelope);
    if (badId) return error(null, JSONRPC_ERROR.INVALID_REQUEST, 'Invalid request', badId);
    const id = envelope.id as Id;
    if (envelope.jsonrpc !== '2.0') {
      return error(
        id,
        JSONRPC_ERROR.INVALID_REQUEST,
        'Invalid request',
        'invalid or missing JSON RPC version was specified',
      );
    }

    const split = splitMethod(typeof envelope.method === 'string' ? envelope.method : '');
    const untranslatable = (data: string) =>
      error(id, JSONRPC_ERROR.METHOD_NOT_FOUND, 'Unable to translate request', data);
    if (!split) return untranslatable('methods should be in the format service_name.method_name');
    const [service, method] = split;
    if (!services.has(service)) return untranslatable('invalid service name provided');
    const name = `${service}.${method}`;
    if (!isNodeMethod(name) || !methods.has(name)) return untranslatable('unknown method');

    try {
      return reply(id, await run(name, parseMessage(requestType(name), envelope.params ?? {})));
    } catch (e) {
      const { code, message, data } = jsonRpcErrorOf(e, name, log);
      return error(id, code, message, data);
    }
  };
}
