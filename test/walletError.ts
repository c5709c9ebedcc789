// Test helper: run code that must throw a WalletError, and get the error back for closer checks.
import { expect } from 'vitest';
import { WalletError, type ErrorCode } from '../src-main/koinos/errors.ts';

/** Runs `fn`, expects it to throw a WalletError (with `code`, when given), and returns the error. */
export function walletError(code: ErrorCode | undefined, fn: () => unknown): WalletError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a WalletError to be thrown').toBeInstanceOf(WalletError);
  const error = caught as WalletError;
  if (code !== undefined) expect(error.code).toBe(code);
  return error;
}
