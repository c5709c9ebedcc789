// The one place that decides how an error raised while answering a request reaches the wire, for JSON-RPC and REST
// alike: a chain error keeps its message and data (as koinos-chain writes them), params that do not parse are named as
// such, input the catalog marks as the caller's fault keeps its sentence, and anything else becomes a generic internal
// error (logged here, never shown).
import { WalletError, isInputCode, type ErrorCode, type WalletErrorOptions } from '../../koinos/errors.ts';
import { ChainError } from '../state/chainError.ts';

/** JSON-RPC error codes of the gateway (koinos-jsonrpc `internal/jsonrpc.go`). */
export const JSONRPC_ERROR = {
  PARSE: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INTERNAL: -32603,
} as const;

/**
 * Input that does not parse as the message it should be; `shortMessage` is "<field path>: <expected>, got <found>" and
 * `subject` what the input was ("request", or "transaction" for a REST body that is one).
 */
export class ParamsError extends WalletError {
  readonly subject: string;

  constructor(code: ErrorCode, shortMessage: string, options: WalletErrorOptions & { subject?: string } = {}) {
    super(code, shortMessage, options);
    this.subject = options.subject ?? 'request';
  }
}

/** An error as the HTTP layers report it. */
export type WireError =
  /** The node refused: JSON-RPC -32603 with this message and data; REST 400 `{"error": message}`. */
  | { kind: 'node'; message: string; data?: string }
  /** The params did not parse: JSON-RPC -32601 "Unable to translate request"; REST 400 "invalid <subject>: <problem>". */
  | { kind: 'params'; problem: string; subject: string }
  /** Unexpected: logged, reported without details (never a stack). */
  | { kind: 'internal' };

/**
 * Maps an error thrown while answering a request to what the wire shows, as the Koinos gateway does: a ChainError keeps
 * its message, and its data (template keys, logs, and the chain error `code`) becomes a JSON string; a ParamsError names
 * the field that did not parse; a WalletError whose code the catalog marks as input keeps its short message (the
 * services other than the chain answer so: a message, no data); everything else is internal.
 * @example
 * toWireError(new ChainError(-201, 'invalid account nonce'));
 * // { kind: 'node', message: 'invalid account nonce', data: '{"code":-201}' }
 * toWireError(new WalletError('INVALID_ARGUMENT', 'request limit exceeded'));
 * // { kind: 'node', message: 'request limit exceeded' }
 */
export function toWireError(error: unknown): WireError {
  if (error instanceof ChainError) return { kind: 'node', message: error.message, data: nodeJson(error.data) };
  if (error instanceof ParamsError) return { kind: 'params', problem: error.shortMessage, subject: error.subject };
  if (error instanceof WalletError && isInputCode(error.code)) return { kind: 'node', message: error.shortMessage };
  return { kind: 'internal' };
}

/** A JSON-RPC error object (`{code, message, data?}`). */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: string;
}

/**
 * The JSON-RPC error object for an error thrown while answering `what` (the method, for the log).
 * @param log receives one line for an internal error (its stack); nothing else is logged.
 * @example
 * jsonRpcErrorOf(new ChainError(-201, 'invalid account nonce'), 'chain.submit_transaction', console.error);
 * // { code: -32603, message: 'invalid account nonce', data: '{"code":-201}' }
 */
export function jsonRpcErrorOf(error: unknown, what: string, log: (line: string) => void): JsonRpcErrorObject {
  const wire = toWireError(error);
  if (wire.kind === 'node')
    return {
      code: JSONRPC_ERROR.INTERNAL,
      message: wire.message,
      ...(wire.data !== undefined ? { data: wire.data } : {}),
    };
  // The gateway answers every params problem with the same data text; the devnet adds which field and why after a
  // colon (a deviation that keeps the gateway's code, message and data prefix, so clients matching those still work).
  if (wire.kind === 'params')
    return {
      code: JSONRPC_ERROR.METHOD_NOT_FOUND,
      message: 'Unable to translate request',
      data: `parameters could not be parsed: ${wire.problem}`,
    };
  log(`jsonrpc ${what} failed: ${describeInternalError(error)}`);
  return { code: JSONRPC_ERROR.INTERNAL, message: 'An internal server error has occurred' };
}

/**
 * The REST answer for an error thrown while answering `what` (method and path, for the log), as koinos-rest's
 * `utils/errors.ts` answers: 400 `{"error": message}` for a known error, 500 `{"error": "unknown error"}` otherwise.
 * @param log receives one line for an internal error (its stack); nothing else is logged.
 */
export function restErrorOf(
  error: unknown,
  what: string,
  log: (line: string) => void,
): { status: 400 | 500; body: { error: string } } {
  const wire = toWireError(error);
  if (wire.kind === 'node') return { status: 400, body: { error: wire.message } };
  if (wire.kind === 'params') return { status: 400, body: { error: `invalid ${wire.subject}: ${wire.problem}` } };
  log(`rest ${what} failed: ${describeInternalError(error)}`);
  return { status: 500, body: { error: 'unknown error' } };
}

/**
 * JSON text with every object's keys in sorted order, as koinos-chain writes error data: it builds the data in an
 * nlohmann::json object (a std::map, so keys come out sorted by bytes) and the gateway passes the text on unchanged.
 * Clients see the order: koilib's error message is `JSON.stringify({ error: message, ...JSON.parse(data) })`.
 */
function nodeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const entries = Object.entries(v as Record<string, unknown>);
    // Code-unit order (not localeCompare): the same as std::map's byte order for the ASCII keys chain errors use.
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  });
}

/** One line for the log about an unexpected error: its stack when it has one (logs only, never a response). */
export function describeInternalError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
