// A transfer's memo: KCS-4's optional `memo` (field 4 of a transfer's arguments and of its event), text the chain keeps
// with the transfer for anyone to read. Checked the same way as it is typed (the renderer) and before it is signed (main).

/** The longest memo the wallet sends, in characters. */
export const MAX_MEMO_CHARS = 256;

/** Characters that break a line or that no one sees (control, separators, format characters but the two joiners). */
const NOT_SHOWN = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/u;

/**
 * What is wrong with a memo to send, or undefined when it may be sent (the empty memo is no memo). A memo is one line
 * of visible text: a line break, a control character or a text-direction override would make the memo another person
 * reads differ from the one shown here.
 * @example
 * memoProblem('invoice 42'); // undefined
 * memoProblem('a\nb'); // 'expected a memo on one line without invisible or control characters, got one with U+000A'
 */
export function memoProblem(memo: string): string | undefined {
  const length = [...memo].length;
  if (length > MAX_MEMO_CHARS) return `expected a memo of at most ${MAX_MEMO_CHARS} characters, got ${length}`;
  const hidden = NOT_SHOWN.exec(memo)?.[0];
  if (hidden !== undefined) {
    const code = `U+${hidden.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return `expected a memo on one line without invisible or control characters, got one with ${code}`;
  }
  return undefined;
}

/**
 * A web address or a domain name in a memo: a scheme, "www.", or labels and a top-level domain in one case (such as
 * claim.example, KOINOS.IO or t.me/x): what a memo sent by someone the person does not know would use to send them
 * somewhere. A capitalised word after a dot ("rent.March") is not taken for one.
 */
const LINK =
  /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+|\b[Ww]{3}\.\S+|\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:[a-z]{2,}|[A-Z]{2,})\b(?:\/\S*)?/;

/**
 * The first web address or domain in `memo`, or undefined.
 * @example
 * memoLink('Claim your airdrop at koin-drop.example/claim'); // 'koin-drop.example/claim'
 * memoLink('rent, March'); // undefined
 */
export function memoLink(memo: string): string | undefined {
  return LINK.exec(memo)?.[0];
}
