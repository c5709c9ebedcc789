// JSON-RPC 2.0 over the devnet's service layer, answering as the Koinos gateway (koinos-jsonrpc) does:
// the same envelope checks, error codes, messages and data strings (facts §7.3), params and results as gateway JSON.
import { fromJson, hasType, toJson, type JsonObject, type JsonValue } from '../koinos/codec.ts';
import type { DevnetNode } from './types.ts';
import { describeInternalError, toWireError } from './wireError.ts';

/** Gateway error codes (koinos-jsonrpc `internal/jsonrpc.go`). */
export const JSONRPC_ERROR = {
  PARSE: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INTERNAL: -32603,
} as const;

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

/** Checks the id as the gateway does; returns the data text of the -32600 error, or undefined when valid. */
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
  const methods = new Set(node.methods.filter((m) => {
    const [service, method] = m.split('.');
    return hasType(`koinos.rpc.${service}.${method}_request`) && hasType(`koinos.rpc.${service}.${method}_response`);
  }));
  const services = new Set(node.methods.map((m) => m.split('.')[0]!));

  async function run(service: string, method: string, params: Record<string, unknown>): Promise<JsonValue> {
    const response = await node.call(`${service}.${method}`, params);
    return toJson(`koinos.rpc.${service}.${method}_response`, response);
  }

  return async function handle(body: string): Promise<JsonObject> {
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch (e) {
      return error(null, JSONRPC_ERROR.PARSE, 'Unable to parse request', e instanceof Error ? e.message : 'invalid JSON');
    }
    // The gateway decodes the body into a struct: anything but an object with string fields fails to parse.
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return error(null, JSONRPC_ERROR.PARSE, 'Unable to parse request', `expected a JSON-RPC request object, got ${kindOf(request)}`);
    }
    const envelope = request as Record<string, unknown>;
    for (const field of ['jsonrpc', 'method'] as const) {
      const value = envelope[field];
      if (value !== undefined && value !== null && typeof value !== 'string') {
        return error(null, JSONRPC_ERROR.PARSE, 'Unable to parse request', `expected "${field}" to be a string, got ${kindOf(value)}`);
      }
    }

    const badId = idProblem(envelope);
    if (badId) return error(null, JSONRPC_ERROR.INVALID_REQUEST, 'Invalid request', badId);
    const id = envelope.id as Id;
    if (envelope.jsonrpc !== '2.0') {
      return error(id, JSONRPC_ERROR.INVALID_REQUEST, 'Invalid request', 'invalid or missing JSON RPC version was specified');
    }

    const split = splitMethod(typeof envelope.method === 'string' ? envelope.method : '');
    const untranslatable = (data: string) => error(id, JSONRPC_ERROR.METHOD_NOT_FOUND, 'Unable to translate request', data);
    if (!split) return untranslatable('methods should be in the format service_name.method_name');
    const [service, method] = split;
    if (!services.has(service)) return untranslatable('invalid service name provided');
    const name = `${service}.${method}`;
    if (!methods.has(name)) return untranslatable('unknown method');

    const rawParams = envelope.params ?? {};
    if (typeof rawParams !== 'object' || Array.isArray(rawParams)) return untranslatable('parameters could not be parsed');
    let params: Record<string, unknown>;
    try {
      params = fromJson(`koinos.rpc.${service}.${method}_request`, rawParams);
    } catch {
      return untranslatable('parameters could not be parsed');
    }

    try {
      return reply(id, await run(service, method, params));
    } catch (e) {
      const wire = toWireError(e);
      if (wire.kind === 'known') return error(id, JSONRPC_ERROR.INTERNAL, wire.message, wire.data);
      log(`jsonrpc ${name} failed: ${describeInternalError(e)}`);
      return error(id, JSONRPC_ERROR.INTERNAL, 'An internal server error has occurred');
    }
  };
}
