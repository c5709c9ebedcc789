// The valid name closest to a mistyped one ("too" -> "to", "amount" -> "value"), for error messages that say what
// was probably meant: a few known synonyms, else edit distance (Levenshtein) with the typed name capped in length.

/**
 * Words wallets and other chains use for a Koinos field: when the field is among the candidates, it is the answer
 * ("amount" is closer in spelling to "from" than to "value", but "value" is what was meant).
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  amount: ['value'],
  quantity: ['value'],
  sender: ['from', 'payer'],
  recipient: ['to'],
  receiver: ['to'],
  destination: ['to'],
  address: ['account', 'owner'],
};

/** Names longer than this are compared by their first characters only (a field name is never this long). */
const MAX_COMPARED = 64;

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate with the smallest edit distance to `name` (case-insensitive; the first one listed wins a tie),
 * or undefined when there are no candidates.
 * @example
 * closestName('too', ['from', 'to', 'value', 'memo']); // 'to'
 * closestName('amount', ['from', 'to', 'value', 'memo']); // 'value'
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const typed = name.slice(0, MAX_COMPARED).toLowerCase();
  const meant = Object.hasOwn(SYNONYMS, typed) ? SYNONYMS[typed]!.find((s) => candidates.includes(s)) : undefined;
  if (meant) return meant;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
