// The recipient check the address field runs on every keystroke. The one address reader of src-main/koinos
// (address.ts: base58, 25 bytes, version byte, checksum) decides; this file only turns its verdict into a sentence
// for the field, with plainer words for the common slips (a stray character, a missing "1", a cut-off copy).
import {
  ADDRESS_LENGTH,
  ADDRESS_VERSION,
  MAX_ADDRESS_TEXT_LENGTH,
  addressFromString,
  checksum4,
} from '../../src-main/koinos/address.ts';
import { equalBytes, fromBase58 } from '../../src-main/koinos/bytes.ts';
import { WalletError } from '../../src-main/koinos/errors.ts';

const BASE58_CHAR = /^[1-9A-HJ-NP-Za-km-z]$/;

/** The field's verdict on `text`. */
export type AddressVerdict = { ok: true } | { ok: false; message: string };

/** Checks a typed address; an empty field is not an error yet. */
export function checkAddress(text: string): AddressVerdict {
  const s = text.trim();
  if (s.length === 0) return { ok: false, message: '' };
  const bad = [...s].find((c) => !BASE58_CHAR.test(c));
  if (bad !== undefined) {
    return {
      ok: false,
      message: `An address uses base58 letters only; "${bad}" is not one of them. Check for a typo.`,
    };
  }
  if (s[0] !== '1')
    return { ok: false, message: 'A Koinos address starts with "1". Check that you copied the whole address.' };
  try {
    addressFromString(s);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof WalletError)) throw error;
    if (checksumMismatch(s)) {
      return {
        ok: false,
        message:
          'The checksum does not match: a character is mistyped or missing. Copy the address again from its source.',
      };
    }
    return {
      ok: false,
      message: `This is not a Koinos address (${error.shortMessage}). Check that you copied all of it.`,
    };
  }
}

/** True when `text` decodes to an address of the right length and version whose checksum does not match. */
function checksumMismatch(text: string): boolean {
  let bytes: Uint8Array;
  try {
    bytes = fromBase58(text, 'an address', MAX_ADDRESS_TEXT_LENGTH);
  } catch {
    return false;
  }
  return (
    bytes.length === ADDRESS_LENGTH &&
    bytes[0] === ADDRESS_VERSION &&
    !equalBytes(checksum4(bytes.subarray(0, 21)), bytes.subarray(21))
  );
}
