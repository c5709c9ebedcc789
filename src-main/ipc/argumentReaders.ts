// Small, precise readers of untrusted IPC arguments: each checks one value's type, length or form and returns it
// typed, or throws WalletError INVALID_ARGUMENT "expected X, got Y". Values of secret fields are never echoed.
import { WalletError, describe } from '../koinos/errors.ts';

/** Where a value sits, for messages: `vault:create password`. */
export interface ArgumentPath {
  channel: string;
  field: string;
}

/** Largest uint64, the bound of every `UintString` on the wire. */
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Describes a value without ever showing a secret: a secret string is described by its length only.
 * @example
 * describeArgument('hunter2', true); // 'a string of 7 characters'
 */
function describeArgument(value: unknown, secret = false): string {
  if (typeof value === 'string' && (secret || value.length > 40)) {
    return value.length === 0 ? 'an empty string' : `a string of ${value.length} characters`;
  }
  return describe(value);
}

function invalid(path: ArgumentPath, expected: string, value: unknown, secret = false): WalletError {
  return new WalletError(
    'INVALID_ARGUMENT',
    `${path.channel}: expected ${path.field} to be ${expected}, got ${describeArgument(value, secret)}`,
  );
}

/**
 * Reads the argument list of a channel that takes `count` arguments (0 or 1 in the contract).
 * @throws WalletError INVALID_ARGUMENT when the list is not an array of exactly that length.
 */
export function readArgumentList(channel: string, args: unknown, count: number): unknown[] {
  if (!Array.isArray(args) || args.length !== count) {
    const expected = count === 0 ? 'no arguments' : count === 1 ? 'one argument' : `${count} arguments`;
    const got = Array.isArray(args) ? (args.length === 0 ? 'none' : `${args.length}`) : describe(args);
    throw new WalletError('INVALID_ARGUMENT', `${channel}: expected ${expected}, got ${got}`);
  }
  return args;
}

/**
 * Reads a plain object whose keys are all among `allowed` (`undefined` values count as absent and are dropped).
 * @throws WalletError INVALID_ARGUMENT for a non-object, an array, a class instance or an unknown key.
 */
export function readObject(path: ArgumentPath, value: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(path, 'an object', value);
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw invalid(path, 'a plain object', value);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (!allowed.includes(key)) {
      const known = allowed.length === 0 ? 'no fields' : `only ${allowed.join(', ')}`;
      throw new WalletError(
        'INVALID_ARGUMENT',
        `${path.channel}: expected ${path.field} to have ${known}, got ${describe(key.slice(0, 40))}`,
      );
    }
    if (field !== undefined) out[key] = field;
  }
  return out;
}

export interface StringRule {
  /** Shortest length allowed (default 1: empty strings are refused). */
  min?: number;
  max: number;
  /** A pattern the whole string must match, with the words that say what it means. */
  pattern?: { regex: RegExp; means: string };
  /** The value is a password, phrase, key or API key: never shown in a message. */
  secret?: boolean;
}

/** Reads a string of `min`..`max` characters (matching `pattern` when given). */
export function readString(path: ArgumentPath, value: unknown, rule: StringRule): string {
  const min = rule.min ?? 1;
  const length = min === rule.max ? `${min} characters` : `${min} to ${rule.max} characters`;
  const what = rule.pattern ? rule.pattern.means : `a string of ${length}`;
  if (typeof value !== 'string') throw invalid(path, what, value, rule.secret);
  if (value.length < min || value.length > rule.max) {
    throw invalid(path, rule.pattern ? `${what} (${length})` : what, value, rule.secret);
  }
  if (rule.pattern && !rule.pattern.regex.test(value)) throw invalid(path, what, value, rule.secret);
  return value;
}

/** Reads a boolean. */
export function readBoolean(path: ArgumentPath, value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalid(path, 'true or false', value);
  return value;
}

/** Reads an integer from `min` to `max` (a count, an index, minutes: never an amount). */
export function readInteger(path: ArgumentPath, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(path, `an integer from ${min} to ${max}`, value);
  }
  return value;
}

/** Reads one of the `choices` (compared with ===). */
export function readChoice<T extends string | number>(path: ArgumentPath, value: unknown, choices: readonly T[]): T {
  if (!(choices as readonly unknown[]).includes(value)) {
    throw invalid(path, `one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`, value);
  }
  return value as T;
}

/** Reads a decimal string of an unsigned 64-bit integer ("0" to "18446744073709551615", no sign, no leading zeros). */
export function readUintString(path: ArgumentPath, value: unknown): string {
  const means = 'a decimal string of an unsigned 64-bit integer such as "1000"';
  const text = readString(path, value, { max: 20, pattern: { regex: /^(0|[1-9][0-9]*)$/, means } });
  if (BigInt(text) > UINT64_MAX) throw invalid(path, means, value);
  return text;
}

/** Reads a decimal amount as typed ("1.5", "100"): digits with at most one point; the token's decimals are checked later. */
export function readDecimalString(path: ArgumentPath, value: unknown): string {
  return readString(path, value, {
    max: 100,
    pattern: { regex: /^[0-9]+(\.[0-9]+)?$/, means: 'a decimal amount such as "1.5" (digits, one optional ".")' },
  });
}

/** Reads an array of at most `max` items, each read by `item`. */
export function readArray<T>(
  path: ArgumentPath,
  value: unknown,
  max: number,
  item: (path: ArgumentPath, value: unknown) => T,
): T[] {
  if (!Array.isArray(value) || value.length > max) throw invalid(path, `an array of at most ${max} items`, value);
  return value.map((v, i) => item({ channel: path.channel, field: `${path.field}[${i}]` }, v));
}

/**
 * Reads an absolute http(s) URL without credentials in it (user:password@ would end up in logs and errors). A refused
 * URL is described by its length only: it may carry an API key. An `?apikey=` in an accepted one is taken out and
 * moved into the key store by NetworkService, never kept in the address.
 */
export function readHttpUrl(path: ArgumentPath, value: unknown): string {
  const means = 'an http:// or https:// URL';
  const text = readString(path, value, { max: 2048, secret: true });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(path, means, value, true);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(path, means, value, true);
  if (url.username || url.password) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `${path.channel}: expected ${path.field} to be a URL without a user name or password in it, got one with credentials`,
      {
        metaMessages: ['Put an API key in the API key field instead: it is kept in the keychain.'],
      },
    );
  }
  return text;
}
