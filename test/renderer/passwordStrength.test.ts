// The strength hint under a new password: longer and more varied scores higher, few distinct characters stay weak
// whatever the length, and the advice says what would help.
import { describe, expect, it } from 'vitest';
import { passwordStrength } from '../../src-renderer/lib/passwordStrength.ts';

describe('passwordStrength', () => {
  it('scores by length and variety, with a label for each score', () => {
    expect(passwordStrength('')).toMatchObject({ score: 0, label: 'Very weak' });
    expect(passwordStrength('abcdefgh')).toMatchObject({ score: 1, label: 'Weak' });
    expect(passwordStrength('abcdefghijkl')).toMatchObject({ score: 2, label: 'Fair' });
    expect(passwordStrength('abcdefghijklmnop')).toMatchObject({ score: 3, label: 'Good' });
    expect(passwordStrength('Abcdefgh1jkl')).toMatchObject({ score: 4, label: 'Strong' });
  });

  it('keeps a password of few distinct characters weak, however long', () => {
    expect(passwordStrength('abababababababababab').score).toBe(1);
    expect(passwordStrength('aaaaaaaaaaaaaaaaaaaaaaaa').label).toBe('Weak');
  });

  it('advises length first, then variety, then keeping a good one safe', () => {
    expect(passwordStrength('abc').advice).toBe('Use at least 12 characters; a few unrelated words work well.');
    expect(passwordStrength('abcdefghijkl').advice).toBe('Mix in other words, digits or symbols.');
    expect(passwordStrength('Abcdefgh1jkl').advice).toBe('Keep it somewhere safe: it cannot be recovered.');
  });
});
