// The address field's verdict as it is typed: nothing said for an empty field, a valid address accepted, and the
// common slips (a letter base58 lacks, a missing "1", a mistyped character, a cut-off copy) each told in plain words.
import { describe, expect, it } from 'vitest';
import { KNOWN_TOKEN_CONTRACTS } from '../../src-main/koinos/knownContracts.ts';
import { checkAddress } from '../../src-renderer/lib/addressCheck.ts';

const address = KNOWN_TOKEN_CONTRACTS[0]!.address;
/** `address` with one character changed to another base58 one. */
const mistyped = (at: number) => address.slice(0, at) + (address[at] === 'z' ? 'y' : 'z') + address.slice(at + 1);

describe('checkAddress', () => {
  it('accepts an address, also with spaces around it', () => {
    expect(checkAddress(address)).toEqual({ ok: true });
    expect(checkAddress(`  ${address}\n`)).toEqual({ ok: true });
  });

  it('says nothing yet for an empty field', () => {
    expect(checkAddress('')).toEqual({ ok: false, message: '' });
    expect(checkAddress('   ')).toEqual({ ok: false, message: '' });
  });

  it('names the first character that is not base58', () => {
    expect(checkAddress(`${address.slice(0, 5)}0${address.slice(6)}`)).toEqual({
      ok: false,
      message: 'An address uses base58 letters only; "0" is not one of them. Check for a typo.',
    });
    expect(checkAddress('1Abc lI')).toMatchObject({ message: expect.stringContaining('" " is not one of them') });
  });

  it('asks for the leading "1" when it is missing', () => {
    expect(checkAddress(address.slice(1))).toEqual({
      ok: false,
      message: 'A Koinos address starts with "1". Check that you copied the whole address.',
    });
  });

  it('tells a mistyped character by the checksum', () => {
    expect(checkAddress(mistyped(10))).toEqual({
      ok: false,
      message:
        'The checksum does not match: a character is mistyped or missing. Copy the address again from its source.',
    });
  });

  it('says what the protocol library found for a cut-off copy', () => {
    const verdict = checkAddress(address.slice(0, 20));
    expect(verdict.ok).toBe(false);
    expect(verdict).toMatchObject({
      message: expect.stringMatching(/^This is not a Koinos address \(.+\)\. Check that you copied all of it\.$/),
    });
  });
});
