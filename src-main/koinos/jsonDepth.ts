// A cheap check of how deeply JSON text nests, made before JSON.parse: a megabyte of "[[[[…" costs JSON.parse about a
// second, while no Koinos message nests more than a few levels. One pass over the characters, strings skipped.

/**
 * The deepest nesting any request needs: protocol messages nest a handful of levels (block → transaction → header →
 * …) and a JSON-RPC envelope adds two; 64 leaves room for any future message.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How deeply `text` nests objects and arrays, counting up to `limit + 1` (it stops there: the rest need not be read).
 * Brackets inside strings do not count. Malformed text is measured as far as it goes; JSON.parse reports what is wrong.
 * @example
 * jsonDepth('{"a":[1,{"b":"[["}]}'); // 3
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // A string: jump to its closing quote, the first one after an even run of backslashes (most of a request's
      // text is strings: base64 and addresses, read here at indexOf's speed, not a character at a time).
      for (;;) {
        const close = text.indexOf('"', i + 1);
        if (close < 0) return deepest;
        let slashes = 0;
        while (text.charCodeAt(close - 1 - slashes) === 92 /* \ */) slashes++;
        i = close;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}
