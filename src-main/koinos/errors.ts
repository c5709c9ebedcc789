// The one error class of the project: a code from one catalog, a sentence a user can read, and the technical cause.
// Every module throws WalletError so the CLI, the devnet and the IPC boundary can report errors the same way.

/**
 * Every error code the project raises, grouped by what it is about. `input: true` marks the caller's fault: the request's
 * own data is wrong (bad bytes, a malformed address, an unknown type, a record that does not exist), so a server may
 * answer it with the error's sentence as is (devnet/server/wireError.ts); any other code is a fault of the wallet, the
 * node or the machine, which a server reports only as an internal error.
 */
export const ERROR_CATALOG = {
  INVALID_ARGUMENT: { input: true },
  INVALID_BYTES: { input: true },
  INVALID_ADDRESS: { input: true },
  INVALID_WIF: { input: true },
  INVALID_PRIVATE_KEY: { input: true },
  INVALID_MNEMONIC: { input: true },
  INVALID_AMOUNT: { input: true },
  INVALID_JSON: { input: true },
  INVALID_PROTOBUF: { input: true },
  INVALID_TRANSACTION: { input: true },
  INVALID_SIGNATURE: { input: true },
  UNKNOWN_TYPE: { input: false },
  INVALID_ABI: { input: false },
  // Approvals: every signature waits for a person's decision on a surface the requester does not control.
  APPROVAL_REQUIRED: { input: false },
  APPROVAL_PENDING: { input: false },
  APPROVAL_EXPIRED: { input: false },
  REJECTED: { input: false },
  // A dApp asked for more at once than the wallet takes from one origin.
  TOO_MANY_REQUESTS: { input: false },
  // Talking to a node (wallet/chain): what went wrong on the way, then what the node refused.
  NODE_ERROR: { input: false },
  NODE_UNREACHABLE: { input: false },
  NODE_TIMEOUT: { input: false },
  NODE_UNAUTHORIZED: { input: false },
  NODE_MALFORMED_ANSWER: { input: false },
  CHAIN_ID_MISMATCH: { input: false },
  INVALID_NONCE: { input: false },
  NOT_ENOUGH_MANA: { input: false },
  INSUFFICIENT_BALANCE: { input: false },
  TRANSACTION_REVERTED: { input: false },
  // A signed transaction went to the node and no answer says whether it arrived: the wallet follows it, it may land.
  SUBMISSION_UNKNOWN: { input: false },
  UNKNOWN_TOKEN: { input: false },
  NOT_FOUND: { input: true },
  // NFTs: a contract that is no KCS-5 collection, and an image the wallet will not show.
  UNKNOWN_COLLECTION: { input: false },
  IMAGE_REFUSED: { input: false },
  // Recipient names: nobody holds the name, the network has no contract for that kind of name, or the name now points
  // elsewhere than when the review was asked for.
  NAME_NOT_FOUND: { input: false },
  NAME_SERVICE_UNAVAILABLE: { input: false },
  NAME_CHANGED: { input: false },
  // Vault: the password, the keychain and the accounts kept in it.
  VAULT_NOT_FOUND: { input: false },
  VAULT_EXISTS: { input: false },
  VAULT_LOCKED: { input: false },
  VAULT_CORRUPT: { input: false },
  // Another window or process wrote wallet.json since this one read it: nothing was written, reopen the wallet.
  VAULT_CHANGED: { input: false },
  WRONG_PASSWORD: { input: false },
  // Too many wrong passwords in a row: the next attempt waits (the message says how long).
  TOO_MANY_ATTEMPTS: { input: false },
  WEAK_PASSWORD: { input: false },
  KEYCHAIN_UNAVAILABLE: { input: false },
  STORAGE_FAILED: { input: false },
  ACCOUNT_NOT_FOUND: { input: false },
  ACCOUNT_EXISTS: { input: false },
  WATCH_ONLY: { input: false },
  INVALID_BACKUP: { input: false },
  // dApps: WalletConnect's relay cannot be reached or refused the wallet (a wrong project ID, no network).
  RELAY_UNREACHABLE: { input: false },
  INTERNAL: { input: false },
} as const satisfies Record<string, { input: boolean }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Every code of the catalog. */
export const ERROR_CODES = Object.keys(ERROR_CATALOG) as readonly ErrorCode[];

/** True when `code` is one of the catalog's codes (text that crossed a boundary). */
function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CATALOG, code);
}

/** True for a code the catalog marks as the caller's fault (bad input). */
export function isInputCode(code: ErrorCode): boolean {
  return ERROR_CATALOG[code].input;
}

export interface WalletErrorOptions {
  /**
   * The technical cause, for logs and `--verbose` output; never a secret. Without it, the details are the cause's:
   * a WalletError cause's details (else its sentence), an Error's message, or the thrown value as text.
   */
  details?: string;
  /** Extra lines shown under the message (a hint, the field that was wrong). */
  metaMessages?: string[];
  cause?: unknown;
  /**
   * A write (a submitted transaction) that may have reached the node and been acted on: it went out, and its answer
   * was lost, cut short or unreadable. Set by the node clients; it stays in the process (not in `toJSON`).
   */
  deliveryUnknown?: boolean;
}

/** A WalletError as plain data, the one form in which it crosses a boundary (IPC, a worker thread); see `toJSON`. */
export interface WalletErrorJson {
  /** A code of the catalog (checked again by `fromJSON`: another side may speak an older catalog). */
  code: string;
  shortMessage: string;
  details?: string;
  /** Absent when there are none. */
  metaMessages?: string[];
}

/**
 * The one sentence of a thrown value, for "…: <reason>" texts: a WalletError's short message, an Error's message, or the
 * value as text.
 * @example
 * causeText(new WalletError('INVALID_AMOUNT', 'expected a number')); // 'expected a number'
 */
export function causeText(cause: unknown): string {
  if (cause instanceof WalletError) return cause.shortMessage;
  if (cause instanceof Error) return cause.message;
  return String(cause);
}

/**
 * A WalletError's sentence and its hints as one line, with a period between two where the first ends with none.
 * @example
 * hintedText(new WalletError('KEYCHAIN_UNAVAILABLE', 'expected the keychain to answer', { metaMessages: ['Unlock it.'] }));
 * // 'expected the keychain to answer. Unlock it.'
 */
export function hintedText(error: WalletError): string {
  return [error.shortMessage, ...error.metaMessages].reduce((all, next) =>
    /[.!?:]$/.test(all) ? `${all} ${next}` : `${all}. ${next}`,
  );
}

function detailsOf(cause: unknown): string | undefined {
  if (cause === undefined) return undefined;
  if (cause instanceof WalletError) return cause.details ?? cause.shortMessage;
  return causeText(cause);
}

/**
 * An error a user can act on: `shortMessage` says what was expected, what was found and what to do.
 * @example
 * throw new WalletError('INVALID_AMOUNT', 'expected at most 8 decimals, got 9 in "0.000000001"');
 */
export class WalletError extends Error {
  override readonly name = 'WalletError';
  readonly code: ErrorCode;
  readonly shortMessage: string;
  readonly details?: string;
  readonly metaMessages: string[];
  /** See WalletErrorOptions.deliveryUnknown. */
  readonly deliveryUnknown: boolean;

  constructor(code: ErrorCode, shortMessage: string, options: WalletErrorOptions = {}) {
    const details = options.details ?? detailsOf(options.cause);
    const lines = [shortMessage, ...(options.metaMessages ?? [])];
    if (details) lines.push(`Details: ${details}`);
    super(lines.join('\n'), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = details;
    this.metaMessages = options.metaMessages ?? [];
    this.deliveryUnknown = options.deliveryUnknown ?? false;
  }

  /**
   * The error as plain data (code, sentence, details, hints), without its cause or stack; `JSON.stringify` uses it.
   * @example
   * new WalletError('VAULT_LOCKED', 'unlock the wallet first').toJSON(); // { code: 'VAULT_LOCKED', shortMessage: 'unlock the wallet first' }
   */
  toJSON(): WalletErrorJson {
    return {
      code: this.code,
      shortMessage: this.shortMessage,
      ...(this.details !== undefined ? { details: this.details } : {}),
      ...(this.metaMessages.length > 0 ? { metaMessages: [...this.metaMessages] } : {}),
    };
  }

  /**
   * The WalletError `toJSON` wrote, on the other side of a boundary. A code outside this catalog becomes INTERNAL (the
   * sentence is kept); fields of the wrong type are dropped, and data without a sentence gets a generic one.
   * @example
   * WalletError.fromJSON({ code: 'VAULT_LOCKED', shortMessage: 'unlock the wallet first' }); // WalletError VAULT_LOCKED
   */
  static fromJSON(json: unknown): WalletError {
    const data = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
    const shortMessage =
      typeof data.shortMessage === 'string'
        ? data.shortMessage
        : 'Something went wrong, and the error that came back could not be read.';
    const metaMessages = Array.isArray(data.metaMessages)
      ? data.metaMessages.filter((m): m is string => typeof m === 'string')
      : undefined;
    return new WalletError(isErrorCode(data.code) ? data.code : 'INTERNAL', shortMessage, {
      ...(typeof data.details === 'string' ? { details: data.details } : {}),
      ...(metaMessages && metaMessages.length > 0 ? { metaMessages } : {}),
    });
  }
}

/** Short, safe description of a value for "got ..." in error messages (never prints long or binary content). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return value.length === 0 ? 'an empty string' : `"${shown}"`;
  }
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
