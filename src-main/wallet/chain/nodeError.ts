// The one mapper from a node's error answer (a JSON-RPC error object, or a REST `{"error": ...}` body) to a WalletError
// whose code a person can act on: invalid nonce, not enough mana, invalid signature, chain ID mismatch, reverted, ...
// The node's own code, message and logs stay in `details`.
import { WalletError, type ErrorCode } from '../../koinos/errors.ts';

/** What a node said when it refused a request. */
export interface NodeErrorAnswer {
  /** JSON-RPC error code (-32603 for the node's own errors); undefined for REST. */
  rpcCode?: number;
  message: string;
  /** The `data` text of a JSON-RPC error: the chain's error object as a JSON string, or free text. */
  data?: string;
}

/**
 * The node's answer kept as the cause of the WalletError it became: its chain error code (from the error data, or read
 * from the words of a refusal that carries none, see UPSTREAM_TEXTS) is the structured signal callers check.
 */
class NodeRefusal extends Error {
  override readonly name = 'NodeRefusal';
  /** Koinos chain error code (koinos/chain/error.proto), when the answer had one or its words name one. */
  readonly chainCode?: number;

  constructor(message: string, chainCode: number | undefined) {
    super(message);
    this.chainCode = chainCode;
  }
}

/**
 * The chain error code of a node's refusal that a WalletError carries (its cause), or undefined for any other error.
 * @example
 * chainCodeOf(await client.call('chain.read_contract', …).catch((e) => e)); // 102 when no contract is there
 */
export function chainCodeOf(error: unknown): number | undefined {
  return error instanceof WalletError && error.cause instanceof NodeRefusal ? error.cause.chainCode : undefined;
}

interface ChainErrorData {
  code?: number;
  logs: string[];
}

function parseData(data: string | undefined): ChainErrorData {
  if (!data) return { logs: [] };
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      const code = typeof record['code'] === 'number' ? record['code'] : undefined;
      const logs = Array.isArray(record['logs'])
        ? record['logs'].filter((l): l is string => typeof l === 'string')
        : [];
      return { code, logs };
    }
  } catch {
    // free text
  }
  return { logs: [] };
}

/** koinos/chain/error.proto codes the wallet tells apart. */
const CHAIN = {
  failure: -1,
  invalid_contract: 102,
  insufficient_rc: 104,
  authorization_failure: -200,
  invalid_nonce: -201,
  invalid_signature: -202,
  pending_limit: -206,
} as const;

/**
 * The one place where the wallet reads a node's words, because the real node gives nothing else:
 * - koinos-rest answers a refusal as `{"error": message}` only (koinos-rest `utils/errors.ts`), so over REST the chain
 *   error code is gone and the message is all there is (`code` set: the chain code those words stand for);
 * - koinos-chain raises some refusals as plain failures (code -1) whose only distinction is their text
 *   (`src/koinos/chain/controller.cpp`: "chain id mismatch", "payer does not have the rc to cover transaction rc limit";
 *   koinos-contracts-as name service: "no record found for the name: X").
 * Matched in order, on the lower-cased message, and only where the answer's data has no more specific code.
 */
const UPSTREAM_TEXTS: readonly { words: string; chainCode?: number; failure?: ErrorCode }[] = [
  { words: 'chain id mismatch', failure: 'CHAIN_ID_MISMATCH' },
  { words: 'rc to cover', failure: 'NOT_ENOUGH_MANA' },
  { words: 'no record found for the name', failure: 'NAME_NOT_FOUND' },
  { words: 'contract does not exist', chainCode: CHAIN.invalid_contract },
  { words: 'nonce', chainCode: CHAIN.invalid_nonce },
  // apply_transaction turns a reversion before the operations into a failure (-1) that keeps its text: running out of
  // mana on the transaction's own bytes, nonce or signatures answers "insufficient rc" with code -1.
  { words: 'insufficient rc', failure: 'NOT_ENOUGH_MANA' },
  { words: 'pending account resources', failure: 'NOT_ENOUGH_MANA' },
  { words: 'has not authorized', chainCode: CHAIN.authorization_failure },
  { words: 'signature', chainCode: CHAIN.invalid_signature },
];

/** What an answer means: its chain code (from the data, else from its words) and, for a plain failure, what kind. */
function readAnswer(message: string, dataCode: number | undefined): { chainCode?: number; failure?: ErrorCode } {
  if (dataCode !== undefined && dataCode !== CHAIN.failure) return { chainCode: dataCode };
  const m = message.toLowerCase();
  const known = UPSTREAM_TEXTS.find((t) => m.includes(t.words) && (t.failure !== undefined || dataCode === undefined));
  if (known?.failure) return { chainCode: dataCode ?? CHAIN.failure, failure: known.failure };
  return { chainCode: known?.chainCode ?? dataCode };
}

function classify(
  message: string,
  chainCode: number | undefined,
  failure: ErrorCode | undefined,
): { code: ErrorCode; text: string } {
  if (failure === 'CHAIN_ID_MISMATCH') {
    return {
      code: 'CHAIN_ID_MISMATCH',
      text: 'The node refused the transaction: it was made for another chain ID (the network was restarted or another network is selected). Prepare it again.',
    };
  }
  if (failure === 'NAME_NOT_FOUND')
    return { code: 'NAME_NOT_FOUND', text: `The name service has no record of that name: ${message}.` };
  if (chainCode === CHAIN.invalid_nonce) {
    return {
      code: 'INVALID_NONCE',
      text: 'The node refused the transaction nonce: another transaction of this account used it first. Prepare the transaction again.',
    };
  }
  if (chainCode === CHAIN.insufficient_rc || failure === 'NOT_ENOUGH_MANA') {
    return {
      code: 'NOT_ENOUGH_MANA',
      text: 'The account does not have enough mana for this transaction. Wait for mana to regenerate, lower the rc limit, or send less KOIN.',
    };
  }
  if (chainCode === CHAIN.invalid_signature || chainCode === CHAIN.authorization_failure) {
    return {
      code: 'INVALID_SIGNATURE',
      text: "The node refused the signature: the transaction is not signed by the account that pays for it. Sign it with the payer's key.",
    };
  }
  if (chainCode === CHAIN.pending_limit) {
    return {
      code: 'NODE_ERROR',
      text: 'The account has too many transactions waiting for a block. Wait until some are included, then send again.',
    };
  }
  if (chainCode !== undefined && chainCode >= 1) {
    return {
      code: 'TRANSACTION_REVERTED',
      text: `The transaction was reverted by the chain: ${message}. Nothing was changed; check the amount and the recipient.`,
    };
  }
  return { code: 'NODE_ERROR', text: `The node refused the request: ${message}.` };
}

/**
 * The WalletError for a node's error answer to `what` (a method or route) at `where` (a redacted URL).
 * @example
 * nodeErrorToWalletError({ rpcCode: -32603, message: 'invalid account nonce', data: '{"code":-201}' }, 'chain.submit_transaction', 'http://127.0.0.1:8080/jsonrpc');
 * // WalletError INVALID_NONCE
 */
export function nodeErrorToWalletError(answer: NodeErrorAnswer, what: string, where: string): WalletError {
  const data = parseData(answer.data);
  const details = [
    `${what} at ${where}:`,
    answer.rpcCode !== undefined ? `${answer.rpcCode}` : '',
    answer.message,
    answer.data ?? '',
  ]
    .filter((part) => part !== '')
    .join(' ');
  // The gateway's "Unable to translate request" (-32601) names what it could not translate only in its data text
  // (koinos-jsonrpc `internal/jsonrpc.go`: "unknown method", "invalid service name provided", ...).
  if (answer.rpcCode === -32601 && answer.data?.includes('unknown method')) {
    return new WalletError(
      'NODE_ERROR',
      `The node at ${where} does not offer ${what}. Choose a node with the full Koinos API.`,
      { details },
    );
  }
  if (answer.rpcCode !== undefined && answer.rpcCode !== -32603) {
    return new WalletError('NODE_ERROR', `The node refused the request: ${answer.message}.`, { details });
  }
  const { chainCode, failure } = readAnswer(answer.message, data.code);
  const { code, text } = classify(answer.message, chainCode, failure);
  return new WalletError(code, text, {
    details,
    metaMessages: data.logs.length > 0 ? [`Node log: ${data.logs.join(' | ')}`] : [],
    cause: new NodeRefusal(answer.message, chainCode),
  });
}
