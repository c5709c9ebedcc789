// The one REST client of the wallet (koinos-rest's `/v1` routes): GETs JSON with the API key as `X-API-KEY`, with the
// same timeouts, read retries and error mapping as the JSON-RPC client. Used where a network has a REST address.
import { WalletError } from '../../koinos/errors.ts';
import { DEFAULT_TIMEOUT_MS, exchange, malformed, type RequestApiKey } from './httpTransport.ts';
import type { NodeClientOptions } from './jsonRpcClient.ts';
import { nodeErrorToWalletError } from './nodeError.ts';
import { redactUrl } from './redactUrl.ts';

/**
 * A REST client bound to one base URL (the part before `/v1`).
 * @example
 * const rest = new RestClient({ url: 'http://127.0.0.1:8080' });
 * await rest.get('/v1/chain/head_info');
 */
export class RestClient {
  private readonly base: URL;
  private readonly apiKey?: RequestApiKey;
  private readonly timeoutMs: number;

  constructor(options: NodeClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new WalletError(
        'INVALID_ARGUMENT',
        "expected the node's REST address as an http(s) URL, got text that is not a URL",
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected the node's REST address as an http(s) URL, got a ${parsed.protocol} URL`,
      );
    }
    if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
    this.base = parsed;
    this.apiKey = options.apiKey
      ? { header: 'X-API-KEY', value: options.apiKey, origins: options.apiKeyOrigins ?? [parsed.origin] }
      : undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * GET `path` (for example `/v1/chain/head_info`) with `query`, and returns the JSON answer.
   * @throws WalletError: transport errors as the JSON-RPC client; a 400 `{"error"}` mapped by nodeErrorToWalletError.
   */
  async get(path: string, query: Record<string, string> = {}): Promise<unknown> {
    const url = new URL(path.replace(/^\/+/, ''), this.base);
    // Paths are the wallet's own constants; one that named another server would make main fetch an unconfigured address.
    if (url.origin !== this.base.origin)
      throw new WalletError(
        'INTERNAL',
        `expected a path on ${redactUrl(this.base.toString())}, got one that leaves it`,
      );
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    const what = `GET ${path}`;
    const answer = await exchange({
      url: url.toString(),
      method: 'GET',
      headers,
      kind: 'read',
      timeoutMs: this.timeoutMs,
      what,
      apiKey: this.apiKey,
    });
    const where = redactUrl(url.toString());
    if (answer.status === 200) return answer.json;
    const body = answer.json;
    const message =
      typeof body === 'object' && body !== null && typeof (body as Record<string, unknown>)['error'] === 'string'
        ? ((body as Record<string, unknown>)['error'] as string)
        : undefined;
    if (answer.status === 400 && message) throw nodeErrorToWalletError({ message }, what, where);
    if (answer.status >= 500 || answer.status === 429) {
      throw new WalletError(
        'NODE_ERROR',
        `The node at ${where} failed with HTTP ${answer.status}. Try again later, or choose another node.`,
        {
          details: `${what}: HTTP ${answer.status} ${answer.text}`,
        },
      );
    }
    throw malformed(where, what, `HTTP ${answer.status} ${answer.text}`);
  }
}
