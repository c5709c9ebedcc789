// The recipient check the address field runs on every keystroke: the one address reader of src-main/koinos
// decides; this file only turns its verdict into a sentence for the field.
// TRANSITIONAL: until the renderer-safe koinos/address.ts is on main, only the shape is checked here (base58,
// length) and the checksum is checked by main when the transfer is prepared.

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** The field's verdict on `text`. */
export type AddressVerdict = { ok: true } | { ok: false; message: string };

/** Checks a typed address; an empty field is not an error yet. */
export function checkAddress(text: string): AddressVerdict {
  const s = text.trim();
  if (s.length === 0) return { ok: false, message: '' };
  if (!BASE58.test(s)) {
    const bad = [...s].find((c) => !BASE58.test(c));
    return { ok: false, message: `An address uses base58 letters only; "${bad}" is not one of them. Check for a typo.` };
  }
  if (s[0] !== '1') return { ok: false, message: 'A Koinos address starts with "1". Check that you copied the whole address.' };
  if (s.length < 26 || s.length > 35) {
    return { ok: false, message: `A Koinos address has 26 to 35 characters; this one has ${s.length}. Check that you copied all of it.` };
  }
  return { ok: true };
}
