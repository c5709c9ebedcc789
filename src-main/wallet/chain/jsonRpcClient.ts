// The one JSON-RPC 2.0 client of the wallet: POSTs `{method, params}` to a node, sends the API key as the `apikey`
// header, and returns the result as gateway JSON or as a decoded protobuf response; every failure is a WalletError.
import { fromJson, toJson, type MessageInput } from '../../koinos/codec.ts';
import { WalletError, causeText } from '../../koinos/errors.ts';
import {
  rpcRequestType,
  rpcResponseType,
  type RpcMethod,
  type RpcRequest,
  type RpcResponse,
} from '../../koinos/types.ts';
import { DEFAULT_TIMEOUT_MS, exchange, malformed, type RequestApiKey } from './httpTransport.ts';
import { nodeErrorToWalletError } from './nodeError.ts';
import { redactUrl } from './redactUrl.ts';

export interface NodeClientOptions {
  /** The endpoint, for example `https://api.koinos.io` or `http://127.0.0.1:8080/jsonrpc`. */
  url: string;
  /** Sent as the `apikey` header (JSON-RPC) or `X-API-KEY` (REST); never put in an error. */
  apiKey?: string;
  /** The origins the key was given for (default: the origin of `url`); the key is sent to no other. */
  apiKeyOrigins?: readonly string[];
  /** Per request (default 10 s); submissions get the same. */
  timeoutMs?: number;
}

/** Whether a call only reads (retried once or twice when the connection fails) or changes something (sent once). */
export type CallKind = 'read' | 'write';

/**
 * A JSON-RPC client bound to one node.
 * @example
 * const rpc = new JsonRpcClient({ url: 'http://127.0.0.1:8080/jsonrpc' });
 * const { chain_id } = await rpc.callMessage('chain.get_chain_id', {}); // chain_id: Uint8Array
 */
export class JsonRpcClient {
  readonly url: string;
  private readonly apiKey?: RequestApiKey;
  private readonly timeoutMs: number;
  private nextId = 1;

  constructor(options: NodeClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new WalletError(
        'INVALID_ARGUMENT',
        "expected the node's JSON-RPC address as an http(s) URL, got text that is not a URL",
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected the node's JSON-RPC address as an http(s) URL, got a ${parsed.protocol} URL`,
      );
    }
    this.url = options.url;
    this.apiKey = options.apiKey
      ? { header: 'apikey', value: options.apiKey, origins: options.apiKeyOrigins ?? [parsed.origin] }
      : undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The URL as errors show it (no credentials). */
  get displayUrl(): string {
    return redactUrl(this.url);
  }

  /**
   * Calls `method` with gateway-JSON `params` and returns the `result` as gateway JSON.
   * @throws WalletError: transport errors (NODE_UNREACHABLE, NODE_TIMEOUT, NODE_UNAUTHORIZED, NODE_MALFORMED_ANSWER) and
   *   the node's refusal mapped by nodeErrorToWalletError (INVALID_NONCE, NOT_ENOUGH_MANA, TRANSACTION_REVERTED, ...).
   */
  async call(method: string, params: object, kind: CallKind = 'read'): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    const answer = await exchange({
      url: this.url,
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      kind,
      timeoutMs: this.timeoutMs,
      what: method,
      apiKey: this.apiKey,
    });
    const where = this.displayUrl;
    // A write the node answered with anything but a JSON-RPC error or a result may have been acted on.
    const unsure = kind === 'write';
    const body = answer.json;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      if (answer.status >= 500) {
        throw new WalletError(
          'NODE_ERROR',
          `The node at ${where} failed with HTTP ${answer.status}. Try again later, or choose another node.`,
          {
            details: `${method}: HTTP ${answer.status} ${answer.text}`,
            deliveryUnknown: unsure,
          },
        );
      }
      throw malformed(
        where,
        method,
        `HTTP ${answer.status}, expected a JSON-RPC object, got ${answer.text === '' ? 'nothing' : answer.text}`,
        unsure,
      );
    }
    const envelope = body as Record<string, unknown>;
    const error = envelope['error'];
    if (typeof error === 'object' && error !== null) {
      const e = error as Record<string, unknown>;
      return Promise.reject(
        nodeErrorToWalletError(
          {
            rpcCode: typeof e['code'] === 'number' ? e['code'] : undefined,
            message: typeof e['message'] === 'string' ? e['message'] : 'unknown error',
            data:
              typeof e['data'] === 'string'
                ? e['data']
                : e['data'] === undefined
                  ? undefined
                  : JSON.stringify(e['data']),
          },
          method,
          where,
        ),
      );
    }
    if (answer.status !== 200) {
      throw new WalletError(
        'NODE_ERROR',
        `The node at ${where} failed with HTTP ${answer.status}. Try again later, or choose another node.`,
        {
          details: `${method}: HTTP ${answer.status} ${answer.text}`,
          deliveryUnknown: unsure,
        },
      );
    }
    const result = envelope['result'];
    if (envelope['id'] !== id)
      throw malformed(where, method, `an answer to request ${JSON.stringify(envelope['id'])}, expected ${id}`, unsure);
    if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      throw malformed(where, method, `a result that is not an object: ${answer.text}`, unsure);
    }
    return result as Record<string, unknown>;
  }

  /**
   * Calls `method` with a decoded request message and returns the decoded response message
   * (`koinos.rpc.<service>.<method>_request` / `_response`: bigint for 64-bit integers, bytes as Uint8Array); the
   * method's name types both (koinos/generated/messages.ts).
   * @throws WalletError as call(); NODE_MALFORMED_ANSWER when the result does not read as the response message.
   */
  async callMessage<M extends RpcMethod>(
    method: M,
    request: MessageInput<RpcRequest<M>>,
    kind: CallKind = 'read',
  ): Promise<RpcResponse<M>> {
    const params = toJson(rpcRequestType(method), request);
    const result = await this.call(method, params, kind);
    try {
      // The strict reader checks every address in the answer; fields a newer node adds are skipped, as the gateway does.
      return fromJson(rpcResponseType(method), result, { strict: true, unknownFields: 'discard' });
    } catch (cause) {
      throw malformed(this.displayUrl, method, causeText(cause), kind === 'write');
    }
  }
}
