import { describe, expect, it } from 'vitest';
import { MAX_MEMO_CHARS, memoProblem } from '../../src-main/koinos/memo.ts';

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
