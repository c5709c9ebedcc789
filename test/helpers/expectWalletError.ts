// The one matcher for "this must fail with a WalletError": a promise, an async function or a plain function, with the
// error code checked when given; the error comes back for closer checks (message, hints, details).
import { expect } from 'vitest';
import { WalletError, type ErrorCode } from '../../src-main/koinos/errors.ts';

const expected = (code: ErrorCode | undefined) => `expected a WalletError${code ? ` ${code}` : ''}`;

function checked(error: unknown, code: ErrorCode | undefined): WalletError {
  expect(error, expected(code)).toBeInstanceOf(WalletError);
  if (code !== undefined) expect((error as WalletError).code).toBe(code);
  return error as WalletError;
}

async function settled(work: Promise<unknown>, code: ErrorCode | undefined): Promise<WalletError> {
  const outcome = await work.then(
    () => ({ failed: false as const }),
    (error: unknown) => ({ failed: true as const, error }),
  );
  if (!outcome.failed) expect.fail(`${expected(code)}, got a result`);
  return checked(outcome.error, code);
}

/**
 * Expects `work` to fail with a WalletError (of `code`, when given) and returns the error: awaited for a promise or an
 * async function, at once for a plain function.
 * @example
 * const error = await expectWalletError(vault.create({ password: 'short' }), 'WEAK_PASSWORD');
 * expectWalletError(() => parseAmount('1.2.3'), 'INVALID_ARGUMENT');
 */
export function expectWalletError(work: Promise<unknown>, code?: ErrorCode): Promise<WalletError>;
export function expectWalletError<R>(
  work: () => R,
  code?: ErrorCode,
): [R] extends [never] ? WalletError : R extends PromiseLike<unknown> ? Promise<WalletError> : WalletError;
export function expectWalletError(
  work: Promise<unknown> | (() => unknown),
  code?: ErrorCode,
): WalletError | Promise<WalletError> {
  if (typeof work !== 'function') return settled(work, code);
  let result: unknown;
  try {
    result = work();
  } catch (error) {
    return checked(error, code);
  }
  if (result instanceof Promise) return settled(result, code);
  return expect.fail(`${expected(code)}, got a result`);
}
