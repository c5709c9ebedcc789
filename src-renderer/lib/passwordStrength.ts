// A rough strength hint for a new wallet password: length and variety, said in words. It guides; it does not
// forbid (the vault decides what it accepts).

export interface Strength {
  /** 0 (very weak) to 4 (strong). */
  score: 0 | 1 | 2 | 3 | 4;
  label: string;
  advice: string;
}

/** The hint for `password`. */
export function passwordStrength(password: string): Strength {
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  const unique = new Set(password).size;
  let score = 0;
  if (password.length >= 8) score++;
  if (password.length >= 12) score++;
  if (password.length >= 16 || (password.length >= 12 && kinds >= 3)) score++;
  if (kinds >= 3 && unique >= 8) score++;
  if (unique < 4) score = Math.min(score, 1);
  const clamped = Math.min(4, score) as Strength['score'];
  const labels = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;
  const advice =
    clamped >= 3
      ? 'Keep it somewhere safe: it cannot be recovered.'
      : password.length < 12
        ? 'Use at least 12 characters; a few unrelated words work well.'
        : 'Mix in other words, digits or symbols.';
  return { score: clamped, label: labels[clamped], advice };
}
