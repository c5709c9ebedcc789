// What a recipient field holds: a Koinos address, a nickname (`@name`, the nicknames contract Kondor uses) or a KAP name
// (`alice.koin`, the Koinos Account Protocol). One reader for the wallet, its screens and the devnet's KAP stand-in, so
// that the form, the resolver and the contract agree on what a name is.
/** The longest name either service is asked about; longer text is refused before a node is asked anything. */
const MAX_NAME_CHARS = 64;

/** What the text is, or why it is none of the three. */
export type RecipientText =
  /** Not checked here: addressFromString decides whether it is a valid address. */
  | { kind: 'address'; address: string }
  | { kind: 'nickname'; nickname: string }
  | { kind: 'kap'; name: string; label: string; domain: string }
  | { kind: 'invalid'; reason: string };

/**
 * Why `label` is not a KAP name label, or undefined when it is one: lower-case letters a-z, digits, "-" (not at either end,
 * never two in a row) and characters from U+00A1 up, as lukemwillis/kap-contracts ParsedName.ts allows.
 */
export function kapLabelProblem(label: string): string | undefined {
  if (label.length === 0) return 'a part of the name is empty';
  if (label.startsWith('-') || label.endsWith('-')) return 'a part of the name starts or ends with "-"';
  if (label.includes('--')) return 'a part of the name has "--"';
  for (const char of label) {
    const code = char.codePointAt(0)!;
    const ok = (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || char === '-' || code >= 0xa1;
    if (!ok) return `"${char}" is not allowed in a name (use a-z, 0-9 and "-")`;
  }
  return undefined;
}

/** Characters that show as nothing (zero width spaces and joiners, direction marks, the byte order mark, tags). */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;
/** The scripts whose letters look alike (Latin a, Cyrillic а, Greek α): one name mixing them is likely a look-alike. */
const ALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

/**
 * Why the wallet will not send to a name it reads, though its contract may hold it: a name with invisible characters,
 * or a part of one mixing Latin, Cyrillic or Greek letters, can look exactly like another person's name. Undefined for
 * a name that shows what it is. The contracts accept such names (KAP allows any character from U+00A1): the wallet
 * does not resolve or show them.
 * @example
 * lookalikeProblem('\u0430lice.koin'); // 'the name mixes Latin, Cyrillic or Greek letters, …'
 */
export function lookalikeProblem(name: string): string | undefined {
  if (INVISIBLE.test(name))
    return 'the name holds characters that show as nothing, so it can look like another name; paste the address instead';
  const mixed = (part: string) => ALIKE_SCRIPTS.filter((script) => script.test(part)).length > 1;
  // Part by part: алиса.koin is a Cyrillic label under a Latin domain, not a look-alike.
  if (name.split('.').some(mixed))
    return 'the name mixes Latin, Cyrillic or Greek letters, which can look alike, so it can look like another name; paste the address instead';
  return undefined;
}

/**
 * Splits a KAP name into its label and domain (`alice.koin` → alice, koin), lower-cased as KAP stores it.
 * @returns the parts, or the reason the text is not a KAP name.
 * @example
 * parseKapName('Alice.koin'); // { name: 'alice.koin', label: 'alice', domain: 'koin' }
 */
export function parseKapName(text: string): { name: string; label: string; domain: string } | { reason: string } {
  const name = text.trim().toLowerCase();
  if (name.length > MAX_NAME_CHARS)
    return { reason: `a name has at most ${MAX_NAME_CHARS} characters, this one has ${name.length}` };
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { reason: 'a KAP name looks like alice.koin' };
  const label = name.slice(0, dot);
  const domain = name.slice(dot + 1);
  for (const part of [...label.split('.'), domain]) {
    const problem = kapLabelProblem(part);
    if (problem) return { reason: problem };
  }
  return { name, label, domain };
}

/**
 * Reads what a person typed in a recipient field. `@…` is a nickname, text with a dot a KAP name, anything else meant
 * as an address. Nothing here asks a node: resolving is the wallet's (wallet/chain/names.ts).
 * @example
 * readRecipientText('@alice'); // { kind: 'nickname', nickname: 'alice' }
 * readRecipientText('alice.koin'); // { kind: 'kap', name: 'alice.koin', label: 'alice', domain: 'koin' }
 */
export function readRecipientText(text: string): RecipientText {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'invalid', reason: 'the recipient is empty' };
  if (trimmed.startsWith('@')) {
    const nickname = trimmed.slice(1).toLowerCase();
    if (nickname === '') return { kind: 'invalid', reason: 'a nickname has a name after "@"' };
    if (nickname.length > MAX_NAME_CHARS)
      return { kind: 'invalid', reason: `a nickname has at most ${MAX_NAME_CHARS} characters` };
    if (/\s/.test(nickname)) return { kind: 'invalid', reason: 'a nickname has no spaces' };
    const lookalike = lookalikeProblem(nickname);
    return lookalike ? { kind: 'invalid', reason: lookalike } : { kind: 'nickname', nickname };
  }
  if (trimmed.includes('.')) {
    const parsed = parseKapName(trimmed);
    if ('reason' in parsed) return { kind: 'invalid', reason: parsed.reason };
    const lookalike = lookalikeProblem(parsed.name);
    return lookalike ? { kind: 'invalid', reason: lookalike } : { kind: 'kap', ...parsed };
  }
  // Anything else is meant as an address: address.ts (addressFromString) says what is wrong with it, if anything.
  return { kind: 'address', address: trimmed };
}
