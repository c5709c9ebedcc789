// Operations as a person reviews them: calls to token contracts decoded (method name, arguments, one sentence with the
// amount in the token's decimals), uploads and governance operations described, anything else shown as its contract,
// entry point and raw arguments. Every address in a summary is in full: a review is where the user decides.
import { BTYPE, bytesToJson, toJson } from '../../koinos/codec.ts';
import { formatAmount } from '../../koinos/amounts.ts';
import type { Operation } from '../../koinos/types.ts';
import { MAX_MEMO_CHARS } from '../../koinos/memo.ts';
import { allowanceSummary } from '../../koinos/tokenEvents.ts';
import { oneLine } from '../oneLine.ts';
import type { DecodedOperation, TokenInfo } from './types.ts';
import { tokenCall } from './riskFlags.ts';

/** Bytecode is shown by its size, not its content: a module of megabytes in base64 helps no reviewer. */
function withoutBytecode(json: Record<string, unknown>, size: number): Record<string, unknown> {
  const { bytecode: _bytecode, ...rest } = json;
  return { ...rest, bytecode: `(${size} bytes)` };
}

/** The operations that are not contract calls, described. */
function decodeOther(op: Operation): DecodedOperation {
  const json = toJson('koinos.protocol.operation', op) as Record<string, Record<string, unknown>>;
  if (op.upload_contract) {
    const upload = op.upload_contract;
    const contract = bytesToJson(upload.contract_id, BTYPE.CONTRACT_ID);
    const rights = [
      upload.authorizes_call_contract && 'contract calls',
      upload.authorizes_transaction_application && 'transactions',
      upload.authorizes_upload_contract && 'uploads',
    ].filter(Boolean);
    return {
      contract,
      entryPoint: 'upload_contract',
      args: withoutBytecode(json['upload_contract']!, upload.bytecode.length),
      summary:
        `Upload ${upload.bytecode.length} bytes of contract code to ${contract}` +
        `${upload.abi ? ', with an ABI' : ', without an ABI'}` +
        `${rights.length > 0 ? `; the code authorizes the account's ${rights.join(', ')}` : ''}`,
    };
  }
  if (op.set_system_contract) {
    const contract = bytesToJson(op.set_system_contract.contract_id, BTYPE.CONTRACT_ID);
    return {
      contract,
      entryPoint: 'set_system_contract',
      args: json['set_system_contract'],
      summary: op.set_system_contract.system_contract
        ? `Make ${contract} a system contract`
        : `Make ${contract} an ordinary contract again`,
    };
  }
  if (op.set_system_call) {
    const bundle = op.set_system_call.target?.system_call_bundle;
    const target = bundle
      ? `entry point ${bundle.entry_point} of ${bytesToJson(bundle.contract_id, BTYPE.CONTRACT_ID)}`
      : `thunk ${op.set_system_call.target?.thunk_id ?? 0}`;
    return {
      contract: '',
      entryPoint: 'set_system_call',
      args: json['set_system_call'],
      summary: `Replace system call ${op.set_system_call.call_id} with ${target}`,
    };
  }
  return { contract: '', entryPoint: 'unknown', args: json, summary: 'An operation of an unknown kind' };
}

/** A transfer's memo at the end of its summary, on one line and quoted (whoever made the transfer wrote it). */
function memoText(memo: unknown): string {
  return typeof memo === 'string' && memo !== '' ? `, with the memo “${oneLine(memo, MAX_MEMO_CHARS)}”` : '';
}

/**
 * Decodes one operation. Token methods share their entry points across KCS-4 contracts, so any call whose entry point
 * is a token method and whose arguments decode as that method's is shown decoded; `tokens` give symbol and decimals.
 * @example
 * decodeOperation(op, [koin]).summary; // 'Transfer 1.5 KOIN from 1AbcAbcAbc…(in full) to 1DefDefDef…(in full)'
 */
export function decodeOperation(op: Operation, tokens: readonly TokenInfo[]): DecodedOperation {
  const call = op.call_contract;
  if (!call) return decodeOther(op);
  const contract = bytesToJson(call.contract_id, BTYPE.CONTRACT_ID);
  const decoded = tokenCall(call);
  if (!decoded) return { contract, entryPoint: String(call.entry_point), args: bytesToJson(call.args, BTYPE.BASE64) };
  const { method, args } = decoded;
  const token = tokens.find((t) => t.contract === contract);
  const json = toJson(method.argsType, args);
  const amount = (value: unknown) =>
    token && typeof value === 'bigint'
      ? `${formatAmount(value, token.decimals)} ${token.symbol}`
      : `${String(value)} base units of ${contract}`;
  const who = (bytes: unknown) =>
    bytes instanceof Uint8Array && bytes.length > 0 ? bytesToJson(bytes, BTYPE.ADDRESS) : '(nobody)';
  let summary: string | undefined;
  switch (method.name) {
    case 'transfer':
      summary = `Transfer ${amount(args['value'])} from ${who(args['from'])} to ${who(args['to'])}${memoText(args['memo'])}`;
      break;
    case 'mint':
      summary = `Mint ${amount(args['value'])} to ${who(args['to'])}`;
      break;
    case 'burn':
      summary = `Burn ${amount(args['value'])} from ${who(args['from'])}`;
      break;
    case 'approve':
      summary = allowanceSummary(who(args['spender']), amount(args['value']), args['value'], who(args['owner']));
      break;
    default:
      summary = `Call ${method.name} on ${token ? `${token.symbol} (${contract})` : contract}`;
  }
  return { contract, entryPoint: method.name, args: json, summary };
}
