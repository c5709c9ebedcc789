// The one HTTP exchange both node clients use: a timeout on every request, a short retry when the connection could not
// be made (reads only: a submission is never sent twice), a cap on the answer's size, and failures as WalletErrors.
// It is also the one place an API key is attached: only for the origins the key was given for, and never across a redirect.
// It speaks node:http(s) over kept-alive connections, not fetch: fetch (undici and its web streams) cost the main
// process more than twice the CPU a call (560-690 against 220-290 µs, calls to a devnet on the same machine).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { WalletError } from '../../koinos/errors.ts';
import { redactSecret, redactUrl } from './redactUrl.ts';

/** How long a read waits for the node by default. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Delays before the retries of a read whose connection failed (so at most three attempts). */
const READ_RETRY_DELAYS_MS: readonly number[] = [150, 500];
/** Larger answers are refused before they are parsed (a history page of 500 records stays far below). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/**
 * How long a connection stays open, idle, for the next request: less than the 5 s after which Node's servers (the
 * devnet's among them) close one, so that the wallet closes it first and never sends on a connection being closed.
 */
const IDLE_CONNECTION_MS = 4_000;
/** One pool of kept-alive connections per scheme (the agents key them by host, port and TLS options). */
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
};
/** Compressed answers the wallet asks for and takes (as fetch did), each with its decoder. */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};
const ACCEPT_ENCODING = 'gzip, deflate, br';
/** UTF-8 as fetch's text() read it: invalid bytes replaced, a leading byte order mark dropped. */
const UTF8 = new TextDecoder();

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
  /** The largest answer read, after decompression (default 64 MiB); a longer one is refused as it arrives. */
  maxAnswerBytes?: number;
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

/**
 * A write's connection that broke after it was made (reset, a closed pipe): the request may have been read and acted on.
 * Any other connection error (refused, unreachable, no such name, a TLS handshake refused) came before it was sent.
 */
const BROKEN_AFTER_CONNECT = new Set(['ECONNRESET', 'EPIPE']);

/** The codes of a connection that was never made or was dropped before an answer: safe to try a read again. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
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
  // A user:password in the address would be an unbound credential (node:http would send it): the addresses of networks
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
  // A write whose answer is lost, cut short or unreadable may have been acted on (see WalletError.deliveryUnknown).
  const unsure = request.kind === 'write';
  const clean = (text: string) =>
    redactSecret(
      redactSecret(text.split(request.url).join(where), target.searchParams.get('apikey') ?? undefined),
      secret,
    );
  const delays = request.kind === 'read' ? READ_RETRY_DELAYS_MS : [];
  headers['accept-encoding'] = ACCEPT_ENCODING;
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  let response: IncomingMessage;
  let signal: AbortSignal;
  for (let attempt = 0; ; attempt++) {
    // The deadline covers the answer's body too: a node that stops sending half-way is a timeout as well.
    signal = AbortSignal.timeout(request.timeoutMs);
    try {
      response = await send(target, request.method, headers, request.body, signal);
      break;
    } catch (error) {
      if (signal.aborted) {
        throw new WalletError(
          'NODE_TIMEOUT',
          request.kind === 'write'
            ? `The node at ${where} did not answer within ${request.timeoutMs / 1000} s; the transaction may or may not have reached it. Check the account's history before sending again.`
            : `The node at ${where} did not answer within ${request.timeoutMs / 1000} s. Try again, or choose another node.`,
          { details: `${request.what}: timeout after ${request.timeoutMs} ms`, cause: error, deliveryUnknown: unsure },
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
          deliveryUnknown: unsure && (code === undefined || BROKEN_AFTER_CONNECT.has(code)),
        },
      );
    }
  }

  const status = response.statusCode ?? 0;
  // No redirect is followed, with or without a key: a followed redirect would make main fetch an address no one
  // configured (see NetworkService: main fetches only configured networks' addresses), could carry the key elsewhere,
  // and https -> http would downgrade the connection. A Koinos node answers its API at its own address.
  if (status >= 300 && status < 400) {
    response.destroy();
    throw redirected(target, where, status, response.headers.location ?? null, request.what, apiKey !== undefined);
  }

  if (status === 401 || status === 403) {
    response.destroy();
    throw new WalletError(
      'NODE_UNAUTHORIZED',
      apiKey
        ? `The node at ${where} refused the API key (HTTP ${status}). Check the key stored for this network.`
        : `The node at ${where} requires an API key (HTTP ${status}). Add the key to this network's settings.`,
      { details: `${request.what}: HTTP ${status}` },
    );
  }

  const maxBytes = request.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  const length = Number(response.headers['content-length'] ?? '0');
  if (length > maxBytes) {
    response.destroy();
    throw malformed(where, request.what, `an answer of ${length} bytes (at most ${maxBytes})`, unsure);
  }
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder = DECODERS[encoding];
  if (!decoder && encoding !== 'identity') {
    response.destroy();
    throw malformed(
      where,
      request.what,
      `an answer in the ${encoding} encoding, which the wallet did not ask for`,
      unsure,
    );
  }
  let text: string;
  try {
    const body = decoder ? pipeline(response, decoder(), () => {}) : response;
    text = UTF8.decode(await readCapped(body, maxBytes));
  } catch (error) {
    response.destroy();
    if (error instanceof AnswerTooLarge)
      throw malformed(where, request.what, `an answer of more than ${maxBytes} bytes`, unsure);
    if (signal.aborted) {
      throw new WalletError(
        'NODE_TIMEOUT',
        `The node at ${where} stopped sending its answer. Try again, or choose another node.`,
        {
          details: `${request.what}: timeout while reading the body`,
          cause: error,
          deliveryUnknown: unsure,
        },
      );
    }
    // Not the connection's error, nor its early end: the decoder's (zlib's Z_DATA_ERROR, "incorrect header check"...).
    const code = causeCode(error);
    if (decoder && !(code && (CONNECTION_CODES.has(code) || code === 'ERR_STREAM_PREMATURE_CLOSE'))) {
      throw malformed(
        where,
        request.what,
        `a ${encoding} answer that does not decompress (${code ?? String(error)})`,
        unsure,
      );
    }
    throw new WalletError(
      'NODE_UNREACHABLE',
      `The connection to the node at ${where} broke while it answered. Try again.`,
      {
        details: `${request.what}: ${code ?? String(error)}`,
        cause: error,
        deliveryUnknown: unsure,
      },
    );
  }
  const shown = redactSecret(text.length > 200 ? `${text.slice(0, 200)}...` : text, secret);
  if (text.trim() === '') return { status, json: undefined, text: '' };
  try {
    return { status, json: JSON.parse(text), text: shown };
  } catch {
    if (status >= 500) {
      throw new WalletError(
        'NODE_ERROR',
        `The node at ${where} failed with HTTP ${status}. Try again later, or choose another node.`,
        {
          details: `${request.what}: HTTP ${status} ${shown}`,
          deliveryUnknown: unsure,
        },
      );
    }
    throw malformed(where, request.what, `HTTP ${status} with a body that is not JSON: ${shown}`, unsure);
  }
}

/**
 * One request on a kept-alive connection of its scheme; resolves the answer's head (its body still to read). No
 * redirect is followed: node:http never follows one, and the caller turns a 3xx into an error.
 * @throws the connection's error (its `code`: ECONNREFUSED, ECONNRESET...) or, once `signal` aborts, an AbortError.
 */
function send(
  target: URL,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const https = target.protocol === 'https:';
    const outgoing = (https ? httpsRequest : httpRequest)(
      target,
      { method, headers, signal, agent: https ? AGENTS['https:'] : AGENTS['http:'] },
      resolve,
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** An answer longer than the cap, stopped while it arrived. */
export class AnswerTooLarge extends Error {}

/**
 * The whole of an answer's body, refused (AnswerTooLarge, the body destroyed) as soon as it passes `maxBytes`, not read
 * to its end first.
 * @throws AnswerTooLarge, or the body's error (a connection that closed before its end: code ECONNRESET).
 */
export function readCapped(body: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) body.destroy(new AnswerTooLarge());
      else chunks.push(chunk);
    });
    body.once('end', () => resolve(Buffer.concat(chunks, size)));
    body.once('error', reject);
    // A body whose connection closed before its end, without an error of its own.
    body.once('close', () => {
      if (!body.readableEnded) reject(Object.assign(new Error('the answer ended early'), { code: 'ECONNRESET' }));
    });
  });
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
export function malformed(where: string, what: string, found: string, deliveryUnknown = false): WalletError {
  return new WalletError(
    'NODE_MALFORMED_ANSWER',
    `The node at ${where} sent an answer the wallet cannot read. Check that the address is a Koinos node.`,
    {
      details: `${what}: ${found}`,
      deliveryUnknown,
    },
  );
}
