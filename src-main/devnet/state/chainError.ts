// Errors raised while the devnet applies a transaction or answers a request, with the chain's error codes
// (protocol facts §8): codes >= 1 are reversions, codes <= -1 are failures. Converted to NodeError at the
// service boundary (`toNodeError`), which is what the JSON-RPC layer renders.
import { NodeError } from '../types.ts';

/** Chain error codes the devnet raises (koinos/chain/error.proto). */
export const ERROR_CODE = {
  failure: -1,
  reversion: 1,
  invalid_contract: 102,
  insufficient_rc: 104,
  unknown_operation: 107,
  read_only_context: 108,
  unknown_system_call: -103,
  authorization_failure: -200,
  invalid_nonce: -201,
  invalid_signature: -202,
  pending_transaction_limit_exceeded: -206,
  missing_required_arguments: -1002,
} as const;

/**
 * An error of the chain: `code` as the node reports it, `message` its text with the template keys already
 * substituted, `keys` the template keys themselves (for example `a`, `n`, `c` of a nonce error), and `logs` when
 * the error happened while a transaction was applied (the node then adds the receipt's logs to the error data).
 */
export class ChainError extends Error {
  override readonly name = 'ChainError';
  readonly code: number;
  readonly keys: Record<string, unknown>;
  logs?: string[];

  constructor(code: number, message: string, keys: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.keys = keys;
  }

  /** A reversion (code >= 1): inside operations the transaction is still included, marked reverted. */
  get isReversion(): boolean {
    return this.code >= 1;
  }
}

/** A failure (code -1) with this message. */
export function failure(message: string, keys?: Record<string, unknown>): ChainError {
  return new ChainError(ERROR_CODE.failure, message, keys);
}

/** A reversion with this code (default 1) and message. */
export function reversion(message: string, code: number = ERROR_CODE.reversion): ChainError {
  return new ChainError(code, message);
}

/** The NodeError the service throws for a chain error: the data carries the template keys and, when known, the logs. */
export function toNodeError(error: ChainError): NodeError {
  const data: Record<string, unknown> = { ...error.keys };
  if (error.logs) data.logs = error.logs;
  return new NodeError(error.message, { code: error.code, data, cause: error });
}
