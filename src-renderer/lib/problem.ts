// Turns anything a call threw into what the screen shows: the WalletError's sentence and its folded technical
// details; an unexpected error becomes a generic notice plus a console line, never a stack on the page.
import { WalletError } from '../../src-main/koinos/errors.ts';

/** What an ErrorMessage shows. */
export interface Problem {
  message: string;
  /** What to do next, one line each, shown under the message. */
  hints?: string[];
  code?: string;
  details?: string;
}

/** The Problem for `error`, logging it when it is not a WalletError. */
export function toProblem(error: unknown, context = 'the wallet'): Problem {
  if (error instanceof WalletError) {
    return {
      message: sentence(error.shortMessage),
      code: error.code,
      ...(error.metaMessages.length > 0 ? { hints: error.metaMessages } : {}),
      ...(error.details ? { details: error.details } : {}),
    };
  }
  console.error(`[renderer] ${context} failed:`, error);
  return { message: 'Something went wrong inside the wallet. Try again; if it keeps happening, restart the wallet.' };
}

/** Messages of the protocol library start in lower case ("expected ..."): shown alone, they read as a sentence. */
function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
