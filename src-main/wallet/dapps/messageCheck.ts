// Which "messages" the wallet signs for a dApp: printable text only. koilib signs sha256(message), and a transaction's
// signature is over sha256(its header's bytes): a message whose bytes are a transaction header would authorise that
// transaction. So binary messages and anything that parses as a header are refused, as koinos_signHash is.
import { decode } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';

/** The longest message signed: a few KB of text is any sign-in or terms text; more is likely not meant to be read. */
export const MAX_MESSAGE_LENGTH = 16 * 1024;

/**
 * Control characters but tab and line ends, unpaired surrogates, the Unicode bidi controls that reorder text and the
 * direction marks (U+061C, U+200E, U+200F), and what is invisible: the zero width space, word joiner and invisible
 * operators (U+200B, U+2060-U+2064), the byte order mark, the line and paragraph separators a dialog may not break
 * at, the Mongolian vowel separator and the tag characters (U+E0000-U+E007F). Zero width joiners stay: scripts
 * (Persian, Indic) and emoji need them.
 */
const NOT_PRINTABLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u180E\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFFD\u{E0000}-\u{E007F}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** More than two empty lines in a row: what would push text below the part of the approval a person reads. */
const HIDING_GAP = /(?:\r?\n[ \t]*){4}/;

/**
 * The UTF-8 bytes of a message the wallet may sign.
 * @throws WalletError INVALID_ARGUMENT when it is not text, is empty or too long, holds characters that are not
 *   printable, or its bytes parse as a transaction header.
 * @example
 * signableMessage('Sign in to app.example, nonce 42'); // Uint8Array of the text
 */
export function signableMessage(message: unknown): Uint8Array {
  if (typeof message !== 'string') throw refused(`expected the message as text, got ${describe(message)}`);
  if (message.length === 0 || message.length > MAX_MESSAGE_LENGTH)
    throw refused(`expected a message of 1 to ${MAX_MESSAGE_LENGTH} characters, got ${message.length}`);
  if (NOT_PRINTABLE.test(message))
    throw refused(
      'expected printable text, got a message with control or invisible characters: it may be binary data made to look like text',
    );
  if (HIDING_GAP.test(message))
    throw refused(
      'expected text without long runs of empty lines, got more than two empty lines in a row: they could push text out of sight in the approval',
    );
  const bytes = new TextEncoder().encode(message);
  if (parsesAsHeader(bytes))
    throw refused("the message's bytes parse as a transaction header: signing it could authorise a transaction");
  return bytes;
}

/** True when the bytes decode as a transaction header that names a chain, a nonce, a payer or a mana limit. */
function parsesAsHeader(bytes: Uint8Array): boolean {
  try {
    const header = decode('koinos.protocol.transaction_header', bytes);
    return header.chain_id.length > 0 || header.nonce.length > 0 || header.payer.length > 0 || header.rc_limit > 0n;
  } catch {
    return false;
  }
}

function refused(details: string): WalletError {
  return new WalletError(
    'INVALID_ARGUMENT',
    'This wallet signs only readable text messages; this one was refused and nothing was signed.',
    { details },
  );
}
