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
/** A letter and the script it belongs to (Common and Inherited, such as digits and accents, belong to none). */
const LETTER = /\p{L}/u;
const NO_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;
/**
 * Cyrillic and Greek letters drawn as a Latin letter (а е о р с у х і ј ѕ к м н т в, α ο ρ ν ι κ τ υ χ…): a part
 * written only in them reads as a Latin word (аре.koin as ape.koin).
 */
const LATIN_LOOKING = new Set([...'авекмнорстухѕіјһԁԛԝүӏ', ...'αβεικνορτυχ']);

/** The scripts told apart by name; a letter of any other is of "other". */
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Cherokee', 'Han', 'Hiragana', 'Katakana'].map(
  (name) => ({ name, pattern: new RegExp(`\\p{Script=${name}}`, 'u') }),
);

/** The script of a letter, as one of the names Unicode gives (undefined for digits, marks, "-"). */
function scriptOf(char: string): string | undefined {
  if (!LETTER.test(char) || NO_SCRIPT.test(char)) return undefined;
  for (const script of SCRIPTS) if (script.pattern.test(char)) return script.name;
  return 'other';
}

/** Why one part of a name (between dots) can look like another, or undefined. */
function partProblem(part: string): string | undefined {
  const scripts = new Set([...part].map(scriptOf).filter((script) => script !== undefined));
  // Han with Hiragana or Katakana is how Japanese is written; any other pair is not a name's one script.
  const japanese = [...scripts].every((script) => ['Han', 'Hiragana', 'Katakana'].includes(script));
  if (scripts.size > 1 && !japanese) return 'mixes letters of different scripts, which can look alike';
  for (const char of part) {
    // A Latin letter outside a-z must be one with an accent (é is e and a mark), not a letter drawn like one (ɑ, ı).
    if (scriptOf(char) === 'Latin' && !/^[a-z]\p{M}*$/u.test(char.normalize('NFD')))
      return `has the letter "${char}", which looks like a plain Latin letter`;
  }
  if (!scripts.has('Latin') && [...part].every((char) => LATIN_LOOKING.has(char) || !LETTER.test(char)))
    return 'is written in letters that look like Latin ones';
  return undefined;
}

/**
 * Why the wallet will not send to a name it reads, though its contract may hold it: a name that can look exactly like
 * another person's. That is a name with invisible characters; with compatibility characters (fullwidth ｋ, Roman ⅰ)
 * that are another character dressed differently; or with a part that mixes scripts (Latin a and Cyrillic а), has a
 * Latin letter drawn like a plain one (ɑ), or is written only in Cyrillic or Greek letters shaped like Latin ones (аре).
 * Undefined for a name that shows what it is (алиса.koin, café.koin, 中文.koin). The contracts accept such names (KAP
 * allows any character from U+00A1): the wallet does not resolve or show them.
 * @example
 * lookalikeProblem('\u0430lice.koin'); // 'a part of the name mixes letters of different scripts, …'
 */
export function lookalikeProblem(name: string): string | undefined {
  const advice = 'so it can look like another name; paste the address instead';
  if (INVISIBLE.test(name)) return `the name holds characters that show as nothing, ${advice}`;
  if (name.normalize('NFKC') !== name.normalize('NFC'))
    return `the name holds characters that stand for others (fullwidth or styled letters), ${advice}`;
  // Part by part: алиса.koin is a Cyrillic label under a Latin domain, not a look-alike.
  for (const part of name.split('.')) {
    const problem = partProblem(part.replace(/^@/, ''));
    if (problem) return `a part of the name ${problem}, ${advice}`;
  }
  return undefined;
}

/**
 * Whether a name found for an address (reverse: someone else chose it) is shown beside it: only names of a-z, 0-9 and
 * "-" parts. Whoever sends to an account can name their own address anything, and a name in other letters could pass
 * for a known one in a way no rule of look-alikes catches; the address is shown either way.
 */
export function shownBesideAddress(name: string): boolean {
  return /^@?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(name);
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
