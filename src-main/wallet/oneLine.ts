// Names the wallet shows that someone else could have chosen, or typed with characters no one sees: account names,
// contact labels, a dApp's declared name. Each is shown on one line, in a bounded width, without characters that
// reorder or hide text.

/**
 * Control characters, line and paragraph separators, white space, and format characters (bidirectional overrides and
 * isolates, zero-width spaces, invisible tags), in runs. The two joiners stay: emoji sequences and Persian or Indic
 * words need them.
 */
const NOT_ONE_LINE = /(?:[\p{Cc}\p{Zl}\p{Zp}\s]|(?![\u200c\u200d])\p{Cf})+/gu;

/**
 * `text` as one line: every run of the characters above becomes one space, trimmed; at most `max` UTF-16 units (a
 * longer one is cut between characters and ends with "…").
 * @example
 * oneLine('koinscan.io?\n\nVerified by\u202eKoinos', 64); // 'koinscan.io? Verified by Koinos'
 * oneLine('é'.repeat(70), 64); // 'éééé…' (63 é and the ellipsis)
 */
export function oneLine(text: string, max: number): string {
  const line = text.replace(NOT_ONE_LINE, ' ').trim();
  if (line.length <= max) return line;
  let cut = '';
  for (const char of line) {
    if (cut.length + char.length > max - 1) break;
    cut += char;
  }
  return `${cut.trimEnd()}…`;
}
