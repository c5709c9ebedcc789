// What a recipient field holds, read before any node is asked: @nickname, a KAP name (lower-cased, KAP's characters),
// or text meant as an address (which address.ts checks).
import { describe, expect, it } from 'vitest';
import {
  kapLabelProblem,
  lookalikeProblem,
  parseKapName,
  readRecipientText,
} from '../../src-main/koinos/recipientName.ts';

describe('readRecipientText', () => {
  it('reads @nicknames, KAP names and addresses apart', () => {
    expect(readRecipientText(' @Alice ')).toEqual({ kind: 'nickname', nickname: 'alice' });
    expect(readRecipientText('Alice.KOIN')).toEqual({
      kind: 'kap',
      name: 'alice.koin',
      label: 'alice',
      domain: 'koin',
    });
    expect(readRecipientText('sub.alice.koin')).toMatchObject({ kind: 'kap', label: 'sub.alice', domain: 'koin' });
    expect(readRecipientText('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs')).toEqual({
      kind: 'address',
      address: '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs',
    });
  });

  it('says why text is no name', () => {
    expect(readRecipientText('')).toEqual({ kind: 'invalid', reason: 'the recipient is empty' });
    expect(readRecipientText('@')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('after "@"') });
    expect(readRecipientText('@two words')).toMatchObject({ kind: 'invalid', reason: 'a nickname has no spaces' });
    expect(readRecipientText('bad--name.koin')).toMatchObject({
      kind: 'invalid',
      reason: 'a part of the name has "--"',
    });
    expect(readRecipientText('-a.koin')).toMatchObject({ kind: 'invalid' });
    expect(readRecipientText('.koin')).toMatchObject({ kind: 'invalid', reason: 'a KAP name looks like alice.koin' });
    expect(readRecipientText(`${'a'.repeat(70)}.koin`)).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('at most 64'),
    });
  });
});

describe('look-alike names', () => {
  it('refuses a name with invisible or styled characters, mixed scripts, or letters drawn like plain Latin ones', () => {
    for (const text of [
      '\u0430lice.koin',
      'ali\u200bce.koin',
      '@\u0430lice',
      '@ali\u200dce',
      'alice\u00ad.koin',
      'p\u03b1y.koin',
      '\u0430\u0440\u0435.koin', // аре: Cyrillic only, and reads as ape
      '\u0251lice.koin', // ɑ, a Latin letter drawn as a
      '\u2170nfo.koin', // ⅰ, a Roman numeral
      'g\u0585\u0585gle.koin', // Armenian օ in a Latin word
      '\uff4boin.koin', // a fullwidth k
      '@\u0455\u0441\u043e\u0440\u0435', // ѕсоре
    ]) {
      expect(readRecipientText(text), JSON.stringify(text)).toMatchObject({
        kind: 'invalid',
        reason: expect.stringContaining('can look like another name; paste the address instead'),
      });
    }
    // One script a part: a Cyrillic or Greek name under a Latin domain, or any script without look-alikes, is a name.
    for (const text of [
      '\u0430\u043b\u0438\u0441\u0430.koin',
      '\u03b1\u03bb\u03c6\u03b1.koin',
      '\u4e2d\u6587.koin',
      '@\u0430\u043b\u0438\u0441\u0430',
      'caf\u00e9.koin',
      '\u65e5\u672c\u3054.koin', // Han with Hiragana: Japanese
    ]) {
      expect(readRecipientText(text).kind, JSON.stringify(text)).not.toBe('invalid');
    }
    expect(lookalikeProblem('alice.koin')).toBeUndefined();
  });
});

describe('KAP name rules', () => {
  it('allows a-z, 0-9, inner single hyphens and characters from U+00A1, lower-casing the text', () => {
    expect(kapLabelProblem('my-name9')).toBeUndefined();
    expect(kapLabelProblem('café')).toBeUndefined();
    expect(kapLabelProblem('a_b')).toBe('"_" is not allowed in a name (use a-z, 0-9 and "-")');
    expect(parseKapName('ÉLAN.koin')).toEqual({ name: 'élan.koin', label: 'élan', domain: 'koin' });
  });
});
