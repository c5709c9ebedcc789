// Turns anything a call threw into what the screen shows: the WalletError's sentence and its folded technical
// details; an unexpected error becomes a generic notice plus a console line, never a stack on the page.
import { WalletError } from '../../src-main/koinos/errors.ts';

/** What an ErrorMessage shows. */
export interface Problem {
  message: string;
  code?: string;
  details?: string;
}

/** The Problem for `error`, logging it when it is not a WalletError. */
export function toProblem(error: unknown, context = 'the wallet'): Problem {
  if (error instanceof WalletError) {
    return { message: error.shortMessage, code: error.code, ...(error.details ? { details: error.details } : {}) };
  }
  console.error(`[renderer] ${context} failed:`, error);
  return { message: 'Something went wrong inside the wallet. Try again; if it keeps happening, restart the wallet.' };
}
