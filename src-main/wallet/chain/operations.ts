// Operations as a person reviews them: calls to token contracts decoded (method name, arguments, one sentence with the
// amount in the token's decimals), anything else shown as its contract, entry point and raw arguments.
import { BTYPE, bytesToJson, decode, toJson } from '../../koinos/codec.ts';
import { formatAmount } from '../../koinos/amounts.ts';
import { koinMethodByEntryPoint } from '../../koinos/koin.ts';
import type { Operation } from '../../koinos/types.ts';
import type { DecodedOperation, TokenInfo } from '../../ipc/contract.ts';

function short(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/**
 * Decodes one operation. Token methods share their entry points across KCS-4 contracts, so any call whose entry point
 * is a token method and whose arguments decode as that method's is shown decoded; `tokens` give symbol and decimals.
 * @example
 * decodeOperation(op, [koin]).summary; // 'Transfer 1.5 KOIN from 1Abc…wxyz to 1Def…pqrs'
 */
export function decodeOperation(op: Operation, tokens: readonly TokenInfo[]): DecodedOperation {
  const call = op.call_contract;
  if (!call) {
    const kind = Object.keys(op).find((k) => (op as Record<string, unknown>)[k] !== undefined) ?? 'unknown';
    return { contract: '', entryPoint: kind, args: toJson('koinos.protocol.operation', op), summary: `A ${kind.replace(/_/g, ' ')} operation` };
  }
  const contract = bytesToJson(call.contract_id, BTYPE.CONTRACT_ID);
  const method = koinMethodByEntryPoint(call.entry_point);
  const raw: DecodedOperation = { contract, entryPoint: String(call.entry_point), args: bytesToJson(call.args, BTYPE.BASE64) };
  if (!method) return raw;
  let args: Record<string, unknown>;
  try {
    args = decode<Record<string, unknown>>(method.argsType, call.args);
  } catch {
    return raw;
  }
  const token = tokens.find((t) => t.contract === contract);
  const json = toJson(method.argsType, args);
  const amount = (value: unknown) => (token && typeof value === 'bigint' ? `${formatAmount(value, token.decimals)} ${token.symbol}` : `${String(value)} base units of ${short(contract)}`);
  const who = (bytes: unknown) => (bytes instanceof Uint8Array && bytes.length > 0 ? short(bytesToJson(bytes, BTYPE.ADDRESS)) : '(nobody)');
  let summary: string | undefined;
  switch (method.name) {
    case 'transfer':
      summary = `Transfer ${amount(args['value'])} from ${who(args['from'])} to ${who(args['to'])}`;
      break;
    case 'mint':
      summary = `Mint ${amount(args['value'])} to ${who(args['to'])}`;
      break;
    case 'burn':
      summary = `Burn ${amount(args['value'])} from ${who(args['from'])}`;
      break;
    default:
      summary = `Call ${method.name} on ${token ? token.symbol : short(contract)}`;
  }
  return { contract, entryPoint: method.name, args: json, summary };
}
