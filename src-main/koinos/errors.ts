// The one error class of the project: a code from one catalog, a sentence a user can read, and the technical cause.
// Every module throws WalletError so the CLI, the devnet and the IPC boundary can report errors the same way.

/** Every error code the project raises, with the sentence group it belongs to. */
export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'INVALID_BYTES',
  'INVALID_ADDRESS',
  'INVALID_WIF',
  'INVALID_PRIVATE_KEY',
  'INVALID_MNEMONIC',
  'INVALID_AMOUNT',
  'INVALID_JSON',
  'INVALID_PROTOBUF',
  'INVALID_TRANSACTION',
  'INVALID_SIGNATURE',
  'UNKNOWN_TYPE',
  'INVALID_ABI',
  // Approvals: every signature waits for a person's decision on a surface the requester does not control.
  'APPROVAL_REQUIRED',
  'APPROVAL_PENDING',
  'APPROVAL_EXPIRED',
  'REJECTED',
  // Talking to a node (wallet/chain): what went wrong on the way, then what the node refused.
  'NODE_ERROR',
  'NODE_UNREACHABLE',
  'NODE_TIMEOUT',
  'NODE_UNAUTHORIZED',
  'NODE_MALFORMED_ANSWER',
  'CHAIN_ID_MISMATCH',
  'INVALID_NONCE',
  'NOT_ENOUGH_MANA',
  'INSUFFICIENT_BALANCE',
  'TRANSACTION_REVERTED',
  'UNKNOWN_TOKEN',
  'NOT_FOUND',
  // NFTs: a contract that is no KCS-5 collection, and an image the wallet will not show.
  'UNKNOWN_COLLECTION',
  'IMAGE_REFUSED',
  // Recipient names: nobody holds the name, the network has no contract for that kind of name, or the name now points
  // elsewhere than when the review was asked for.
  'NAME_NOT_FOUND',
  'NAME_SERVICE_UNAVAILABLE',
  'NAME_CHANGED',
  // Vault: the password, the keychain and the accounts kept in it.
  'VAULT_NOT_FOUND',
  'VAULT_EXISTS',
  'VAULT_LOCKED',
  'VAULT_CORRUPT',
  // Another window or process wrote wallet.json since this one read it: nothing was written, reopen the wallet.
  'VAULT_CHANGED',
  'WRONG_PASSWORD',
  // Too many wrong passwords in a row: the next attempt waits (the message says how long).
  'TOO_MANY_ATTEMPTS',
  'WEAK_PASSWORD',
  'KEYCHAIN_UNAVAILABLE',
  'STORAGE_FAILED',
  'ACCOUNT_NOT_FOUND',
  'ACCOUNT_EXISTS',
  'WATCH_ONLY',
  'INVALID_BACKUP',
  // dApps: WalletConnect's relay cannot be reached or refused the wallet (a wrong project ID, no network).
  'RELAY_UNREACHABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface WalletErrorOptions {
  /** The technical cause, for logs and `--verbose` output; never a secret. */
  details?: string;
  /** Extra lines shown under the message (a hint, the field that was wrong). */
  metaMessages?: string[];
  cause?: unknown;
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

  constructor(code: ErrorCode, shortMessage: string, options: WalletErrorOptions = {}) {
    const lines = [shortMessage, ...(options.metaMessages ?? [])];
    if (options.details) lines.push(`Details: ${options.details}`);
    super(lines.join('\n'), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = options.details;
    this.metaMessages = options.metaMessages ?? [];
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
