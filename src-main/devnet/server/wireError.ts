// The one place that decides how an error raised while answering a request reaches the wire: a known error
// (a node error, or input the client got wrong) keeps its message; anything else becomes a generic internal error.
import { WalletError, type ErrorCode } from '../../koinos/errors.ts';
import { NodeError } from '../types.ts';

/** An error as the HTTP layers report it. */
export type WireError =
  /** Known: JSON-RPC -32603 with this message and data; REST 400 `{"error": message}`. */
  | { kind: 'known'; message: string; data?: string }
  /** Unexpected: logged by the caller, reported without details (never a stack). */
  | { kind: 'internal' };

/** WalletError codes that describe bad input from the client rather than a fault of the devnet. */
const INPUT_CODES = new Set<ErrorCode>([
  'INVALID_ARGUMENT',
  'INVALID_BYTES',
  'INVALID_ADDRESS',
  'INVALID_AMOUNT',
  'INVALID_JSON',
  'INVALID_PROTOBUF',
  'INVALID_TRANSACTION',
  'INVALID_SIGNATURE',
  'NOT_FOUND',
]);

/**
 * Maps an error thrown while answering a request to what the wire shows, as the Koinos gateway does: a NodeError keeps
 * its message, and its data becomes a JSON string with the chain error `code` added (when it has one); a WalletError
 * about the client's input keeps its short message; everything else is internal.
 * @example
 * toWireError(new NodeError('invalid account nonce', { code: -201 }));
 * // { kind: 'known', message: 'invalid account nonce', data: '{"code":-201}' }
 * toWireError(new NodeError('cannot transfer to yourself', { code: 1, data: { logs: ['transaction reverted: …'] } }));
 * // { kind: 'known', message: 'cannot transfer to yourself', data: '{"code":1,"logs":["transaction reverted: …"]}' }
 */
export function toWireError(error: unknown): WireError {
  if (error instanceof NodeError) {
    const extra = error.data ?? {};
    if (error.code !== undefined) return { kind: 'known', message: error.message, data: nodeJson({ ...extra, code: error.code }) };
    return Object.keys(extra).length > 0
      ? { kind: 'known', message: error.message, data: nodeJson(extra) }
      : { kind: 'known', message: error.message };
  }
  if (error instanceof WalletError && INPUT_CODES.has(error.code)) return { kind: 'known', message: error.shortMessage };
  return { kind: 'internal' };
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
