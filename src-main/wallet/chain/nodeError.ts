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
      const logs = Array.isArray(record['logs']) ? record['logs'].filter((l): l is string => typeof l === 'string') : [];
      return { code, logs };
    }
  } catch {
    // free text
  }
  return { logs: [] };
}

function classify(message: string, chainCode: number | undefined): { code: ErrorCode; text: string } {
  const m = message.toLowerCase();
  if (m.includes('chain id mismatch')) {
    return {
      code: 'CHAIN_ID_MISMATCH',
      text: 'The node refused the transaction: it was made for another chain ID (the network was restarted or another network is selected). Prepare it again.',
    };
  }
  if (chainCode === -201 || m.includes('nonce')) {
    return {
      code: 'INVALID_NONCE',
      text: 'The node refused the transaction nonce: another transaction of this account used it first. Prepare the transaction again.',
    };
  }
  if (chainCode === 104 || m.includes('rc to cover') || m.includes('consume rc') || m.includes('insufficient rc') || m.includes('pending account resources') || m.includes('mana')) {
    return {
      code: 'NOT_ENOUGH_MANA',
      text: 'The account does not have enough mana for this transaction. Wait for mana to regenerate, lower the rc limit, or send less KOIN.',
    };
  }
  if (chainCode === -202 || chainCode === -200 || m.includes('signature') || m.includes('has not authorized')) {
    return {
      code: 'INVALID_SIGNATURE',
      text: 'The node refused the signature: the transaction is not signed by the account that pays for it. Sign it with the payer\'s key.',
    };
  }
  if (chainCode === -206) {
    return { code: 'NODE_ERROR', text: 'The account has too many transactions waiting for a block. Wait until some are included, then send again.' };
  }
  if (chainCode !== undefined && chainCode >= 1) {
    return { code: 'TRANSACTION_REVERTED', text: `The transaction was reverted by the chain: ${message}. Nothing was changed; check the amount and the recipient.` };
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
  const details = [`${what} at ${where}:`, answer.rpcCode !== undefined ? `${answer.rpcCode}` : '', answer.message, answer.data ?? '']
    .filter((part) => part !== '')
    .join(' ');
  if (answer.rpcCode === -32601 && answer.data?.includes('unknown method')) {
    return new WalletError('NODE_ERROR', `The node at ${where} does not offer ${what}. Choose a node with the full Koinos API.`, { details });
  }
  if (answer.rpcCode !== undefined && answer.rpcCode !== -32603) {
    return new WalletError('NODE_ERROR', `The node refused the request: ${answer.message}.`, { details });
  }
  const { code, text } = classify(answer.message, data.code);
  return new WalletError(code, text, {
    details,
    metaMessages: data.logs.length > 0 ? [`Node log: ${data.logs.join(' | ')}`] : [],
  });
}
