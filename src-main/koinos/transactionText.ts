// Reading a transaction a person pastes or a file holds: the URL-safe base64 of its protobuf bytes (as koinos-cli
// prints it) or the gateway's JSON, with KOIN/VHP calls optionally written decoded (method name, arguments object).
// One reader for the CLI's tx commands and the wallet's offline signing.
import { encode, fromJson } from './codec.ts';
import { toBase64Url } from './bytes.ts';
import { WalletError, describe } from './errors.ts';
import { KOIN_METHODS, koinMethodByEntryPoint, type TokenMethod } from './koin.ts';
import { MAX_JSON_DEPTH, jsonDepth } from './jsonDepth.ts';
import { transactionFromBase64, transactionFromJson } from './transaction.ts';
import type { Transaction } from './types.ts';

/** The JSON keys of a field in either spelling the gateway accepts (snake_case or lowerCamelCase). */
function field(obj: Record<string, unknown>, snake: string): { key: string; value: unknown } | undefined {
  const camel = snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  if (obj[snake] !== undefined) return { key: snake, value: obj[snake] };
  if (obj[camel] !== undefined) return { key: camel, value: obj[camel] };
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isMethodName = (v: unknown): v is string => typeof v === 'string' && !/^\d+$/.test(v);

function koinMethod(entryPoint: unknown, path: string): TokenMethod | undefined {
  if (isMethodName(entryPoint)) {
    const m = Object.hasOwn(KOIN_METHODS, entryPoint)
      ? (KOIN_METHODS as Record<string, TokenMethod>)[entryPoint]
      : undefined;
    if (!m) {
      throw new WalletError(
        'INVALID_JSON',
        `${path}.entry_point: expected an entry point number or a KOIN method name (${Object.keys(KOIN_METHODS).join(', ')}), got ${describe(entryPoint)}`,
      );
    }
    return m;
  }
  if (typeof entryPoint === 'string') return koinMethodByEntryPoint(Number(entryPoint)); // protojson allows "123"
  return typeof entryPoint === 'number' ? koinMethodByEntryPoint(entryPoint) : undefined;
}

/**
 * Encodes arguments written as an object with the strict reader (unknown or misspelled keys and invalid addresses are
 * refused); a transfer must name from, to and a value above 0, since a transfer of nothing still costs the nonce.
 */
function encodeArgs(method: TokenMethod, args: unknown, path: string): string {
  let message: Record<string, unknown>;
  try {
    message = fromJson(method.argsType, args, { strict: true });
  } catch (cause) {
    if (!(cause instanceof WalletError)) throw cause;
    throw new WalletError(cause.code, `${path}.args.${cause.shortMessage}`, {
      metaMessages: cause.metaMessages,
      cause,
    });
  }
  if (method.entryPoint === KOIN_METHODS.transfer.entryPoint) {
    const empty = (v: unknown) => !(v instanceof Uint8Array) || v.length === 0;
    const missing = [empty(message.from) && 'from', empty(message.to) && 'to', message.value === 0n && 'value'].filter(
      Boolean,
    );
    if (missing.length > 0) {
      throw new WalletError(
        'INVALID_JSON',
        `${path}.args: expected a transfer with from, to and a value above 0, got none for ${missing.join(', ')}`,
      );
    }
  }
  return toBase64Url(encode(method.argsType, message));
}

/**
 * Turns operations written decoded (`entry_point` as a KOIN method name, `args` as an object) back into the
 * node's form (entry point number, args as base64 of the canonical argument bytes); other operations pass unchanged.
 * @throws WalletError INVALID_JSON for an unknown method name or arguments that do not fit the method.
 */
function encodeDecodedOperations(json: Record<string, unknown>): Record<string, unknown> {
  const ops = field(json, 'operations');
  if (!ops || !Array.isArray(ops.value)) return json;
  const operations = ops.value.map((op: unknown, i: number) => {
    if (!isObject(op)) return op;
    const cc = field(op, 'call_contract');
    if (!cc || !isObject(cc.value)) return op;
    const call = cc.value;
    const path = `operations[${i}].call_contract`;
    const ep = field(call, 'entry_point');
    const args = field(call, 'args');
    const decodedArgs = args !== undefined && isObject(args.value);
    if (!isMethodName(ep?.value) && !decodedArgs) return op;
    const method = koinMethod(ep?.value, path);
    if (!method) {
      throw new WalletError(
        'INVALID_JSON',
        `${path}.args: arguments written as an object need a KOIN method as entry_point, got ${describe(ep?.value)}`,
      );
    }
    const out: Record<string, unknown> = { ...call, [ep?.key ?? 'entry_point']: method.entryPoint };
    if (decodedArgs) out[args.key] = encodeArgs(method, args.value, path);
    return { ...op, [cc.key]: out };
  });
  return { ...json, [ops.key]: operations };
}

function notATransaction(text: string, reason: string): WalletError {
  return new WalletError(
    'INVALID_TRANSACTION',
    `expected a transaction as base64 or JSON, got ${describe(text.trim())}: ${reason}`,
  );
}

/**
 * Parses a transaction written as base64 of its protobuf bytes (bare or as a JSON string) or as JSON (raw or with
 * decoded KOIN operations, alone or wrapped as `{"transaction": ...}` like the `tx decode` output).
 * @throws WalletError INVALID_TRANSACTION / INVALID_JSON saying what was expected and what was found.
 * @example
 * parseTransactionText('{"header": {...}, "operations": [...]}');
 */
export function parseTransactionText(text: string): Transaction {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('"')) {
    if (!/^[A-Za-z0-9_\-+/]+={0,2}$/.test(trimmed)) {
      throw notATransaction(trimmed, 'that is neither JSON (which starts with "{") nor base64');
    }
    return transactionFromBase64(trimmed);
  }
  let json: unknown;
  if (jsonDepth(trimmed) > MAX_JSON_DEPTH)
    throw notATransaction(trimmed, `JSON nested more than ${MAX_JSON_DEPTH} levels deep, which no transaction is`);
  try {
    json = JSON.parse(trimmed);
  } catch (cause) {
    throw notATransaction(
      trimmed,
      `JSON that does not parse (${cause instanceof Error ? cause.message : String(cause)})`,
    );
  }
  if (typeof json === 'string') return parseTransactionText(json);
  if (!isObject(json)) throw notATransaction(trimmed, 'JSON that is not an object');
  // The `tx decode` output (or any `{"transaction": ...}` wrapper): a transaction itself has no such field.
  const inner = json.transaction;
  if (inner !== undefined && field(json, 'header') === undefined) {
    if (typeof inner === 'string') return parseTransactionText(inner);
    if (isObject(inner)) json = inner;
  }
  return transactionFromJson(encodeDecodedOperations(json as Record<string, unknown>));
}
