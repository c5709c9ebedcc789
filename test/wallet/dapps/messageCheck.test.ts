// Which messages the wallet signs for a dApp: readable text only, and never bytes that are a transaction header (a
// signature over sha256(message) would then be a signature of that transaction).
import { describe, expect, it } from 'vitest';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { WalletError } from '../../../src-main/koinos/errors.ts';
import { headerBytes, nonceToBytes } from '../../../src-main/koinos/transaction.ts';
import { MAX_MESSAGE_LENGTH, signableMessage } from '../../../src-main/wallet/dapps/messageCheck.ts';

function refusal(message: unknown): string {
  try {
    signableMessage(message);
  } catch (error) {
    if (error instanceof WalletError) return `${error.code}: ${error.details}`;
    throw error;
  }
  return 'signed';
}

describe('signableMessage', () => {
  it('gives the UTF-8 bytes of readable text, line ends, tabs and any script included', () => {
    const text = 'Sign in to app.example\r\n\tnonce: 42 — ¿Sí? 你好 👋';
    expect(signableMessage(text)).toEqual(new TextEncoder().encode(text));
  });

  it('refuses what is not text, empty, or longer than the limit', () => {
    expect(refusal(new Uint8Array([1, 2]))).toMatch(/^INVALID_ARGUMENT: expected the message as text/);
    expect(refusal('')).toMatch(/1 to 16384 characters, got 0/);
    expect(refusal('a'.repeat(MAX_MESSAGE_LENGTH + 1))).toMatch(/got 16385/);
  });

  it('refuses control characters, bidi controls and unpaired surrogates', () => {
    for (const text of ['a\u0000b', 'esc\u001b[31m', 'left\u202Eright', 'lone \uD800 half', '\uFFFD'])
      expect(refusal(text)).toMatch(/printable text/);
  });

  it('refuses direction marks and invisible characters, and text pushed out of sight by empty lines', () => {
    const invisible = ['\u061C', '\u200B', '\u200E', '\u200F', '\u2028', '\u2029', '\u2060', '\u2064', '\uFEFF'];
    for (const c of [...invisible, '\u{E0041}', '\u180E']) expect(refusal(`pay${c}me`)).toMatch(/printable text/);
    expect(refusal(`Sign in${'\n'.repeat(400)}and allow everything`)).toMatch(/more than two empty lines in a row/);
    expect(refusal('Sign in\r\n\r\n \r\n\t\r\nthen')).toMatch(/more than two empty lines/);
    // Two empty lines, zero width joiners (Persian, emoji) and non-joiners stay signable.
    for (const text of ['Sign in\n\n\nnonce 42', 'می\u200Cخواهم', '👨\u200D👩\u200D👧'])
      expect(refusal(text)).toBe('signed');
  });

  it('refuses a real transaction header (as the raw bytes a dApp would pass off as text)', () => {
    const header = headerBytes({
      chain_id: Uint8Array.from([0x12, 0x20, ...new Uint8Array(32).fill(7)]),
      rc_limit: 100_000_000n,
      nonce: nonceToBytes(1n),
      operation_merkle_root: Uint8Array.from([0x12, 0x20, ...new Uint8Array(32)]),
      payer: addressFromString('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'),
      payee: new Uint8Array(),
    });
    expect(refusal(String.fromCharCode(...header))).toMatch(/printable text/);
  });

  it('refuses printable text whose bytes parse as a header naming a chain ID', () => {
    // Field 1 (chain_id) is tagged "\n", its length 34 is '"': 34 printable characters make a header.
    expect(refusal(`\n"${'A'.repeat(34)}`)).toMatch(/parse as a transaction header/);
    // Plain words may decode as an empty header (unknown fields skipped): nothing in it, so they are signed.
    expect(refusal('hello')).toBe('signed');
  });
});
