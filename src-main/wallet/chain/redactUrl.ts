// URLs as they may appear in an error, a log or a review: without user:password and without an API key in the query,
// so that a credential given as part of a node's address never reaches a message.

const SECRET_QUERY = /^(api[-_]?key|key|token|access[-_]?token|auth|password|secret)$/i;

/** Whether a query parameter's name says it carries a credential (`apikey`, `token`, `password`, ...). */
export function isSecretQueryName(name: string): boolean {
  return SECRET_QUERY.test(name);
}

/**
 * The URL with credentials removed: `https://user:pass@host/x?apikey=K` becomes `https://host/x?apikey=[redacted]`.
 * Text that is not a URL is reduced to a placeholder rather than echoed (it could be a pasted secret).
 * @example
 * redactUrl('https://me:pw@api.example.com/jsonrpc?apikey=abc'); // 'https://api.example.com/jsonrpc?apikey=%5Bredacted%5D'
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(an invalid URL)';
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) {
    if (isSecretQueryName(name)) url.searchParams.set(name, '[redacted]');
  }
  return url.toString();
}

/** Replaces every occurrence of `secret` in `text` (an API key a node echoed back, for example). */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret && secret.length > 0 ? text.split(secret).join('[redacted]') : text;
}

/** A query parameter in any text (a URL inside JSON, or inside a file cut short): its separator, name and value. */
const QUERY_PARAMETER = /([?&])([A-Za-z0-9_.~%-]+)=([^&#\s"'\\<>]*)/g;
/** The user:password of a URL in any text. */
const USER_INFO = /(\b[A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/\s"'\\@]*@/g;

/**
 * `text` with the credentials of every URL in it replaced (user:password, and query parameters named as a credential),
 * the rest as it is: for a copy of a file that may hold an older wallet's keys in its addresses.
 * @example
 * redactUrlsInText('{"jsonRpcUrl":"https://x.io/rpc?apikey=K"}'); // '{"jsonRpcUrl":"https://x.io/rpc?apikey=[redacted]"}'
 */
export function redactUrlsInText(text: string): string {
  return text.replace(USER_INFO, '$1[redacted]@').replace(QUERY_PARAMETER, (whole, separator: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A name that is not percent-encoding is taken as it is.
    }
    return isSecretQueryName(decoded) ? `${separator}${name}=[redacted]` : whole;
  });
}
