// What the screen shows for an error: a WalletError's own sentence (capitalised, ending with a full stop), its hints,
// code and details; anything else a generic notice with nothing of the error on the page, logged to the console.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalletError } from '../../src-main/koinos/errors.ts';
import { toProblem } from '../../src-renderer/lib/problem.ts';

const GENERIC = 'Something went wrong inside the wallet. Try again; if it keeps happening, restart the wallet.';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('toProblem', () => {
  it('shows an expected error as its sentence with code, hints and details', () => {
    const error = new WalletError('INVALID_AMOUNT', 'expected at most 8 decimals, got 9 in "0.000000001"', {
      details: 'parseAmount',
      metaMessages: ['Remove a decimal.'],
    });
    expect(toProblem(error)).toEqual({
      message: 'Expected at most 8 decimals, got 9 in "0.000000001".',
      code: 'INVALID_AMOUNT',
      hints: ['Remove a decimal.'],
      details: 'parseAmount',
    });
  });

  it('keeps a sentence that already ends, and leaves out hints and details it does not have', () => {
    expect(toProblem(new WalletError('INVALID_ADDRESS', 'Is that an address?'))).toEqual({
      message: 'Is that an address?',
      code: 'INVALID_ADDRESS',
    });
    expect(toProblem(new WalletError('INVALID_ADDRESS', 'Check it!'))).toEqual({
      message: 'Check it!',
      code: 'INVALID_ADDRESS',
    });
  });

  it('does not log an expected error', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    toProblem(new WalletError('INVALID_ADDRESS', 'bad'));
    expect(log).not.toHaveBeenCalled();
  });

  it('turns an unexpected error into the generic notice, with its text only in the console line', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = new TypeError('secret-looking internals at line 42');
    const problem = toProblem(error, 'send:prepare');
    expect(problem).toEqual({ message: GENERIC });
    expect(JSON.stringify(problem)).not.toContain('internals');
    expect(log).toHaveBeenCalledWith('[renderer] send:prepare failed:', error);
  });

  it('names "the wallet" in the console line when no context is given, whatever was thrown', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(toProblem('a string')).toEqual({ message: GENERIC });
    expect(toProblem(undefined)).toEqual({ message: GENERIC });
    expect(log).toHaveBeenNthCalledWith(1, '[renderer] the wallet failed:', 'a string');
  });
});
