// The one HTTP exchange both node clients use: a timeout on every request, a short retry when the connection could not
// be made (reads only: a submission is never sent twice), a cap on the answer's size, and failures as WalletErrors.
// It is also the one place an API key is attached: only for the origins the key was given for, and never across a redirect.
import { WalletError } from '../../koinos/errors.ts';
import { redactSecret, redactUrl } from './redactUrl.ts';

/** How long a read waits for the node by default. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Delays before the retries of a read whose connection failed (so at most three attempts). */
const READ_RETRY_DELAYS_MS: readonly number[] = [150, 500];
/** Larger answers are refused before they are parsed (a history page of 500 records stays far below). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** `read`: may be retried when the connection fails; `write`: sent at most once. */
  kind: 'read' | 'write';
  timeoutMs: number;
  /** What is being done, for the error text: "chain.get_head_info", "GET /v1/chain/head_info". */
  what: string;
  /** The API key to send, and where it may go; never put in `headers` (they are refused there). */
  apiKey?: RequestApiKey;
}

/** An API key as a request carries it. */
export interface RequestApiKey {
  /** The header that carries it: `apikey` (JSON-RPC) or `X-API-KEY` (REST). */
  header: string;
  value: string;
  /** The origins (`https://host:port`) the key was given for: a request to any other origin is refused before it leaves. */
  origins: readonly string[];
}

export interface HttpAnswer {
  status: number;
  /** The body parsed as JSON; `undefined` when it was empty. */
  json: unknown;
  /** The raw text, for error details (cut short). */
  text: string;
}

/** The codes of a connection that was never made or was dropped before an answer: safe to try a read again. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'TimeoutError' || (error.name === 'AbortError' && String(error.message).includes('timeout')))
  );
}

/** Headers that carry credentials: they go only through `apiKey`, which is checked against its origins. */
const CREDENTIAL_HEADERS = new Set(['apikey', 'x-api-key', 'authorization', 'proxy-authorization', 'cookie']);

/**
 * The origin of an http(s) URL (scheme, host and port: `https://api.koinos.io`), the unit an API key is bound to.
 * @throws TypeError for text that is not a URL.
 * @example
 * originOf('https://api.koinos.io:443/jsonrpc?x=1'); // 'https://api.koinos.io'
 */
export function originOf(url: string): string {
  return new URL(url).origin;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends one request and reads the answer as JSON.
 * @throws WalletError NODE_UNREACHABLE (no connection, after the retries of a read), NODE_TIMEOUT (no answer in time; a
 *   write may or may not have reached the node), NODE_UNAUTHORIZED (HTTP 401/403), NODE_MALFORMED_ANSWER (not JSON, too
 *   large). Other HTTP statuses are returned for the client to read its error body.
 */
export async function exchange(request: HttpRequest): Promise<HttpAnswer> {
  const where = redactUrl(request.url);
  const target = new URL(request.url);
  // A user:password in the address would be an unbound credential (and fetch refuses it): the addresses of networks
  // never have one (NetworkService refuses it), so one here is a mistake to stop, not to convert.
  if (target.username || target.password) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `expected the node's address without a user name or password in it, got one with credentials for ${where}`,
      {
        metaMessages: ["Put an API key in the network's API key field instead."],
      },
    );
  }
  const headers = { ...request.headers };
  for (const name of Object.keys(headers)) {
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      throw new WalletError(
        'INTERNAL',
        `expected no credential header in a request's headers, got ${name}; an API key goes in the request's apiKey, bound to its origins`,
      );
    }
  }
  const apiKey = request.apiKey;
  if (apiKey) {
    // Defence in depth: whatever chose this URL, a key goes only to an origin it was given for.
    if (!apiKey.origins.includes(target.origin)) {
      throw new WalletError(
        'NODE_UNAUTHORIZED',
        `The API key stored for this network was given for ${apiKey.origins.join(' and ') || 'no address'}, not for ${target.origin}, so it was not sent. Enter the key again if this server should have it.`,
        { details: `${request.what}: key bound to [${apiKey.origins.join(', ')}], request to ${target.origin}` },
      );
    }
    headers[apiKey.header] = apiKey.value;
  }
  const secret = apiKey?.value;
  const clean = (text: string) =>
    redactSecret(
      redactSecret(text.split(request.url).join(where), target.searchParams.get('apikey') ?? undefined),
      secret,
    );
  const delays = request.kind === 'read' ? READ_RETRY_DELAYS_MS : [];
  let response: Response | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(target, {
        method: request.method,
        headers,
        body: request.body,
        // No redirect is followed, with or without a key. Undici drops only Authorization on a cross-origin redirect,
        // not apikey / X-API-KEY; a followed redirect would make main fetch an address no one configured (see
        // NetworkService: main fetches only configured networks' addresses), and https -> http would downgrade the
        // connection. A Koinos node answers its API at its own address, so one rule with no exceptions is enough.
        redirect: 'manual',
        signal: AbortSignal.timeout(request.timeoutMs),
      });
      break;
    } catch (error) {
      if (isTimeout(error)) {
        throw new WalletError(
          'NODE_TIMEOUT',
          request.kind === 'write'
            ? `The node at ${where} did not answer within ${request.timeoutMs / 1000} s; the transaction may or may not have reached it. Check the account's history before sending again.`
            : `The node at ${where} did not answer within ${request.timeoutMs / 1000} s. Try again, or choose another node.`,
          { details: `${request.what}: timeout after ${request.timeoutMs} ms`, cause: error },
        );
      }
      const code = causeCode(error);
      const delay = delays[attempt];
      if (delay !== undefined && (code === undefined || CONNECTION_CODES.has(code))) {
        await wait(delay);
        continue;
      }
      throw new WalletError(
        'NODE_UNREACHABLE',
        `Cannot connect to the node at ${where}. Check the address and your connection, or choose another network.`,
        {
          details: clean(`${request.what}: ${code ?? (error instanceof Error ? error.message : String(error))}`),
          cause: error,
        },
      );
    }
  }

  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => {});
    throw redirected(
      target,
      where,
      response.status,
      response.headers.get('location'),
      request.what,
      apiKey !== undefined,
    );
  }

  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel().catch(() => {});
    throw new WalletError(
      'NODE_UNAUTHORIZED',
      apiKey
        ? `The node at ${where} refused the API key (HTTP ${response.status}). Check the key stored for this network.`
        : `The node at ${where} requires an API key (HTTP ${response.status}). Add the key to this network's settings.`,
      { details: `${request.what}: HTTP ${response.status}` },
    );
  }

  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > MAX_ANSWER_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw malformed(where, request.what, `an answer of ${length} bytes (at most ${MAX_ANSWER_BYTES})`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) {
      throw new WalletError(
        'NODE_TIMEOUT',
        `The node at ${where} stopped sending its answer. Try again, or choose another node.`,
        {
          details: `${request.what}: timeout while reading the body`,
          cause: error,
        },
      );
    }
    throw new WalletError(
      'NODE_UNREACHABLE',
      `The connection to the node at ${where} broke while it answered. Try again.`,
      {
        details: `${request.what}: ${causeCode(error) ?? String(error)}`,
        cause: error,
      },
    );
  }
  if (text.length > MAX_ANSWER_BYTES) throw malformed(where, request.what, `an answer of ${text.length} characters`);
  const shown = redactSecret(text.length > 200 ? `${text.slice(0, 200)}...` : text, secret);
  if (text.trim() === '') return { status: response.status, json: undefined, text: '' };
  try {
    return { status: response.status, json: JSON.parse(text), text: shown };
  } catch {
    if (response.status >= 500) {
      throw new WalletError(
        'NODE_ERROR',
        `The node at ${where} failed with HTTP ${response.status}. Try again later, or choose another node.`,
        {
          details: `${request.what}: HTTP ${response.status} ${shown}`,
        },
      );
    }
    throw malformed(where, request.what, `HTTP ${response.status} with a body that is not JSON: ${shown}`);
  }
}

/** A 3xx answer: where it pointed (without credentials), and that nothing (no key) was sent there. */
function redirected(
  from: URL,
  where: string,
  status: number,
  location: string | null,
  what: string,
  hadKey: boolean,
): WalletError {
  let to: URL | undefined;
  try {
    to = location === null ? undefined : new URL(location, from);
  } catch {
    to = undefined;
  }
  const shown = to ? redactUrl(to.toString()) : location === null ? 'no address' : '(an invalid URL)';
  const downgrade = to !== undefined && from.protocol === 'https:' && to.protocol === 'http:';
  return new WalletError(
    'NODE_ERROR',
    `The node at ${where} answered with a redirect (HTTP ${status}) to ${shown}${downgrade ? ', an unencrypted http:// address' : ''}. ` +
      `The wallet does not follow redirects${hadKey ? ', so the API key was not sent there' : ''}. ` +
      `If you trust that address, make it this network's address${hadKey ? ' and enter the key again' : ''}.`,
    { details: `${what}: HTTP ${status}, Location ${shown}` },
  );
}

/** An answer the wallet cannot read: the node (or something posing as it) does not speak the Koinos API. */
export function malformed(where: string, what: string, found: string): WalletError {
  return new WalletError(
    'NODE_MALFORMED_ANSWER',
    `The node at ${where} sent an answer the wallet cannot read. Check that the address is a Koinos node.`,
    {
      details: `${what}: ${found}`,
    },
  );
}
