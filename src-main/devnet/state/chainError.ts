// Errors raised while the devnet applies a transaction or answers a request, with the chain's error codes
// (protocol facts §8): codes >= 1 are reversions, codes <= -1 are failures. A ChainError reaches the wire as it is:
// server/wireError.ts writes its message and `data` (code, template keys, logs) as koinos-chain does.

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

  /**
   * The error's data as koinos-chain reports it (chain `src/koinos_chain.cpp`): the template keys, the receipt's logs
   * when a transaction was applied, and the chain error `code`.
   * @example
   * new ChainError(-201, 'invalid account nonce').data; // { code: -201 }
   */
  get data(): Record<string, unknown> {
    return { ...this.keys, ...(this.logs ? { logs: this.logs } : {}), code: this.code };
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
