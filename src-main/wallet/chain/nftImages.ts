// What main fetches for an NFT from outside the chain: its metadata JSON and its image, over http(s) only (ipfs:// through
// the gateway), never from the user's own network (publicAddress.ts), capped, timed, at most three redirects each checked
// again. An image is accepted by its bytes alone (PNG, JPEG, GIF, WebP; never SVG) and handed over as a data: URL.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { WalletError, describe } from '../../koinos/errors.ts';
import { MAX_JSON_DEPTH, jsonDepth } from '../../koinos/jsonDepth.ts';
import { AnswerTooLarge, readCapped } from './httpTransport.ts';
import { resolvePublic, type CheckedAddress, type RefusedAddress, type ResolvePublicOptions } from './publicAddress.ts';
import { redactUrl } from './redactUrl.ts';

/** Largest image fetched (a bigger one is refused while it downloads, not after). */
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Largest metadata JSON fetched or read from the chain. */
export const MAX_METADATA_BYTES = 64 * 1024;
/** How long one fetch (all its redirects included) may take. */
export const FETCH_TIMEOUT_MS = 10_000;
/** Redirects followed; each new address is checked as the first was (http(s) only, no credentials). */
export const MAX_REDIRECTS = 3;

/** The raster formats shown, by their first bytes. */
const SIGNATURES: readonly { type: string; test: (b: Uint8Array) => boolean }[] = [
  { type: 'image/png', test: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', test: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  {
    type: 'image/gif',
    test: (b) => starts(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61,
  },
  {
    type: 'image/webp',
    test: (b) => starts(b, [0x52, 0x49, 0x46, 0x46]) && starts(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  },
];

function starts(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((v, i) => bytes[i] === v);
}

function refused(message: string, details?: string): WalletError {
  return new WalletError('IMAGE_REFUSED', message, details === undefined ? {} : { details });
}

/**
 * The media type of raster image bytes by their magic numbers, or undefined for anything else (SVG, HTML, text).
 * @example
 * rasterType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])); // 'image/png'
 */
export function rasterType(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find((s) => s.test(bytes))?.type;
}

/**
 * The http(s) address of an NFT's `image` or metadata URI: http(s) as it is, `ipfs://CID/path` (or `ipfs://ipfs/CID`)
 * under `gateway`. Anything else (data:, javascript:, file:, a URL with credentials) is refused.
 * @throws WalletError IMAGE_REFUSED saying what was found.
 * @example
 * mediaUrl('ipfs://bafy/1.png', 'https://ipfs.io/ipfs/').href; // 'https://ipfs.io/ipfs/bafy/1.png'
 */
export function mediaUrl(text: string, gateway: string): URL {
  const trimmed = text.trim();
  const ipfs = trimmed.toLowerCase().startsWith('ipfs://');
  let url: URL;
  try {
    url = ipfs ? new URL(trimmed.slice('ipfs://'.length).replace(/^ipfs\//i, ''), gateway) : new URL(trimmed);
  } catch {
    throw refused(`expected an http(s) or ipfs:// address, got ${describe(trimmed.slice(0, 80))}`);
  }
  // "ipfs:////host/x" or "ipfs://../x" would resolve outside the gateway: an ipfs address stays under it.
  if (ipfs && !url.href.startsWith(new URL(gateway).href))
    throw refused(`expected an ipfs:// address of a content id, got ${describe(trimmed.slice(0, 80))}`);
  checkUrl(url);
  return url;
}

function checkUrl(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(`expected an http(s) or ipfs:// address, got a ${url.protocol} address`);
  if (url.username !== '' || url.password !== '')
    throw refused('expected an address without a user name or password in it, got one with credentials');
}

/** Options of a fetch: the cap and the timeout (tests make them small), and loopback for tests. */
export interface MediaFetchOptions {
  maxBytes?: number;
  timeoutMs?: number;
  /**
   * Fetch from loopback addresses (127.0.0.0/8, ::1) too: set only where a test constructs the service, since its
   * servers listen on 127.0.0.1. No IPC channel or setting reaches it; the rest of the user's network stays refused.
   */
  allowLoopbackForTests?: boolean;
  /** The resolver (default node:dns lookup of all addresses); tests answer a name that no DNS knows with their server. */
  resolve?: ResolvePublicOptions['resolve'];
}

const ACCEPT = 'image/png, image/jpeg, image/gif, image/webp, application/json;q=0.9';

/**
 * The refusal of an address on the user's own network. `hop` is undefined for the address the NFT named, or the
 * address a redirect led to.
 */
function ownNetwork(shown: string, host: string, refusedAddress: RefusedAddress, hop?: URL): WalletError {
  const literal = host.replace(/^\[|\]$/g, '') === refusedAddress.address;
  const which = literal
    ? `${refusedAddress.address} is ${refusedAddress.kind} address`
    : `${host} resolves to ${refusedAddress.address}, ${refusedAddress.kind} address`;
  const where =
    hop === undefined
      ? `${shown} is on your own network`
      : `${shown} redirects to ${redactUrl(hop.href)}, which is on your own network`;
  return refused(`${where} (${which}): NFT images and metadata are not loaded from addresses on your own network.`);
}

/**
 * One GET of `url`, connected to `pinned` whatever the name resolves to by then: the address checked is the address
 * used, so a name that resolves differently a moment later (DNS rebinding) cannot lead into the local network. HTTPS
 * still checks the certificate against the host name. No agent is shared, so no connection is reused from elsewhere.
 */
function getPinned(url: URL, pinned: CheckedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, all: LookupAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: 'GET', agent: false, lookup, signal, headers: { accept: ACCEPT, 'accept-encoding': 'identity' } },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * GETs `url` (`what` it is, for messages: "The image"), following at most {@link MAX_REDIRECTS} redirects to http(s) addresses, and reads at most `maxBytes`
 * (refusing the answer, not cutting it, when it is longer). No cookies or credentials are sent. Every address, the
 * first and each redirect's, is resolved and refused when any of its IP addresses is on the user's own network.
 */
async function fetchCapped(url: URL, what: string, maxBytes: number, options: MediaFetchOptions): Promise<Uint8Array> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const shown = `${what} at ${redactUrl(url.href)}`;
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const checked = await resolvePublic(current.hostname, {
        allowLoopbackForTests: options.allowLoopbackForTests === true,
        resolve: options.resolve,
      });
      if ('refused' in checked)
        throw ownNetwork(shown, current.hostname, checked.refused, hop === 0 ? undefined : current);
      const answer = await getPinned(current, checked.use, signal);
      const status = answer.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        answer.destroy();
        const location = answer.headers.location;
        if (hop >= MAX_REDIRECTS)
          throw refused(`${shown} redirects more than ${MAX_REDIRECTS} times; it was not followed further.`);
        if (location === undefined) throw refused(`${shown} answered a redirect without an address.`);
        current = new URL(location, current);
        checkUrl(current);
        continue;
      }
      if (status !== 200) {
        answer.destroy();
        throw refused(`${shown} answered HTTP ${status}.`);
      }
      const declared = Number(answer.headers['content-length'] ?? '0');
      if (declared > maxBytes) {
        answer.destroy();
        throw refused(`${shown} is ${declared} bytes, more than the ${maxBytes} bytes allowed.`);
      }
      try {
        return new Uint8Array(await readCapped(answer, maxBytes));
      } catch (error) {
        if (error instanceof AnswerTooLarge) throw refused(`${shown} is more than the ${maxBytes} bytes allowed.`);
        throw error;
      }
    }
  } catch (error) {
    if (error instanceof WalletError) throw error;
    if (signal.aborted) throw refused(`${shown} did not answer within ${timeoutMs / 1000} s.`);
    throw refused(
      `${shown} could not be reached.`,
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : describe(error),
    );
  }
}

/**
 * Fetches an image and returns it as a data: URL, once its bytes are a PNG, JPEG, GIF or WebP.
 * @throws WalletError IMAGE_REFUSED: another kind of address, too large, too slow, too many redirects, or not a raster image.
 * @example
 * await fetchImage(mediaUrl('ipfs://bafy/1.png', gateway)); // 'data:image/png;base64,iVBORw0…'
 */
export async function fetchImage(url: URL, options: MediaFetchOptions = {}): Promise<string> {
  const bytes = await fetchCapped(url, 'The image', options.maxBytes ?? MAX_IMAGE_BYTES, options);
  const type = rasterType(bytes);
  if (!type) {
    throw refused(
      `The image at ${redactUrl(url.href)} is not a PNG, JPEG, GIF or WebP image; other kinds (SVG among them) are not shown.`,
    );
  }
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}

/**
 * Fetches a token's metadata JSON (KCS-2: `${uri}/${tokenId}`) and returns its object.
 * @throws WalletError IMAGE_REFUSED as {@link fetchImage}, or when the answer is not a JSON object.
 */
export async function fetchMetadata(url: URL, options: MediaFetchOptions = {}): Promise<Record<string, unknown>> {
  const bytes = await fetchCapped(url, 'The metadata', options.maxBytes ?? MAX_METADATA_BYTES, options);
  return parseMetadata(new TextDecoder().decode(bytes), redactUrl(url.href));
}

/**
 * A metadata text as an object (KCS-2 fields: name, description, image), or IMAGE_REFUSED naming `where` when it is no
 * JSON object. Callers cap the text first.
 */
export function parseMetadata(text: string, where: string): Record<string, unknown> {
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    throw refused(`The metadata at ${where} is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw refused(`The metadata at ${where} is not JSON.`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw refused(`The metadata at ${where} is not a JSON object.`);
  return json as Record<string, unknown>;
}
