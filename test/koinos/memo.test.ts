import { describe, expect, it } from 'vitest';
import { MAX_MEMO_CHARS, memoLink, memoProblem } from '../../src-main/koinos/memo.ts';

describe('memoProblem', () => {
  it('takes one line of visible text up to 256 characters, joiners included, and names what it refuses', () => {
    for (const memo of ['', 'invoice 42', 'two  spaces', 'café ☕', '👩\u200d💻 build', 'x'.repeat(MAX_MEMO_CHARS)])
      expect(memoProblem(memo)).toBeUndefined();
    expect(memoProblem('é'.repeat(MAX_MEMO_CHARS + 1))).toBe('expected a memo of at most 256 characters, got 257');
    expect(memoProblem('line\nbreak')).toBe(
      'expected a memo on one line without invisible or control characters, got one with U+000A',
    );
    expect(memoProblem('pay \u202eevil')).toMatch(/got one with U\+202E$/);
    expect(memoProblem('zero\u200bwidth')).toMatch(/got one with U\+200B$/);
    expect(memoProblem('tab\there')).toMatch(/got one with U\+0009$/);
  });
});

describe('memoLink', () => {
  it('finds a web address or a domain name, in either case, and not words after a dot', () => {
    const found: [string, string | undefined][] = [
      ['Claim your airdrop at koin-drop.example/claim', 'koin-drop.example/claim'],
      ['HTTPS://EVIL.EXAMPLE/x', 'HTTPS://EVIL.EXAMPLE/x'],
      ['go to www.Evil.com now', 'www.Evil.com'],
      ['t.me/freekoin', 't.me/freekoin'],
      ['see KOINOS.IO', 'KOINOS.IO'],
      ['ipfs://bafy', 'ipfs://bafy'],
      ['rent, March', undefined],
      ['rent.March', undefined],
      ['1.5 KOIN for lunch', undefined],
      ['i.e. the rent', undefined],
      ['invoice 42 (v2.0)', undefined],
      ['', undefined],
    ];
    expect(found.map(([memo]) => [memo, memoLink(memo)])).toEqual(found);
  });
});
