// The one mapper from devnet errors to the wire, for JSON-RPC and REST alike: chain error data is written with its keys
// sorted, as koinos-chain's nlohmann::json (a std::map) writes it, so clients that print the data see the real node's
// text; params that do not parse, input the catalog marks as the caller's fault, and everything else each get one answer.
import { describe, it, expect } from 'vitest';
import { ParamsError, jsonRpcErrorOf, restErrorOf, toWireError } from '../../src-main/devnet/server/wireError.ts';
import { parseMessage } from '../../src-main/devnet/server/jsonrpc.ts';
import { ChainError } from '../../src-main/devnet/state/chainError.ts';
import { ERROR_CATALOG, ERROR_CODES, WalletError, isInputCode } from '../../src-main/koinos/errors.ts';

function noLog(line: string): void {
  throw new Error(`unexpected log line: ${line}`);
}

describe('toWireError', () => {
  it('writes the chain code among the data keys in sorted order, nested objects included', () => {
    const error = new ChainError(1, 'cannot transfer to yourself', { c: { z: 1, a: 2 } });
    error.logs = ['transaction reverted: cannot transfer to yourself'];
    expect(toWireError(error)).toEqual({
      kind: 'node',
      message: 'cannot transfer to yourself',
      data: '{"c":{"a":2,"z":1},"code":1,"logs":["transaction reverted: cannot transfer to yourself"]}',
    });
  });

  it('writes a chain error without keys as its code alone', () => {
    expect(toWireError(new ChainError(-201, 'invalid account nonce'))).toEqual({
      kind: 'node',
      message: 'invalid account nonce',
      data: '{"code":-201}',
    });
  });

  it("keeps the short message of input the catalog marks as the caller's fault, without data, and hides anything else", () => {
    expect(toWireError(new WalletError('INVALID_ADDRESS', 'expected an address'))).toEqual({
      kind: 'node',
      message: 'expected an address',
    });
    expect(toWireError(new WalletError('NOT_FOUND', 'block not present: 0x00'))).toEqual({
      kind: 'node',
      message: 'block not present: 0x00',
    });
    expect(toWireError(new WalletError('NODE_UNREACHABLE', 'the devnet is closed'))).toEqual({ kind: 'internal' });
    expect(toWireError(new WalletError('INTERNAL', 'a bug'))).toEqual({ kind: 'internal' });
    expect(toWireError(new Error('secret stack'))).toEqual({ kind: 'internal' });
  });

  it('names the field of params that do not parse, and what the input was', () => {
    const error = catchError(() =>
      parseMessage('koinos.rpc.chain.get_account_rc_request', { account: 'notanaddress' }),
    );
    expect(error).toBeInstanceOf(ParamsError);
    expect(toWireError(error)).toEqual({
      kind: 'params',
      problem: expect.stringMatching(/^account: /),
      subject: 'request',
    });
    const body = catchError(() =>
      parseMessage('koinos.protocol.transaction', { header: { payer: 'x' } }, 'transaction'),
    );
    expect(toWireError(body)).toMatchObject({ kind: 'params', subject: 'transaction' });
  });

  it('reads "input" from the catalog, which marks every code', () => {
    expect(ERROR_CODES.filter(isInputCode)).toEqual(
      expect.arrayContaining(['INVALID_ARGUMENT', 'INVALID_ADDRESS', 'NOT_FOUND']),
    );
    expect(isInputCode('INTERNAL')).toBe(false);
    expect(Object.keys(ERROR_CATALOG)).toEqual(ERROR_CODES);
  });
});

describe('one answer per wire from the same mapping', () => {
  it('answers a chain error with -32603 and its data on JSON-RPC, and 400 with its message on REST', () => {
    const error = new ChainError(-201, 'invalid account nonce', { a: '1A', n: '2', c: '1' });
    expect(jsonRpcErrorOf(error, 'chain.submit_transaction', noLog)).toEqual({
      code: -32603,
      message: 'invalid account nonce',
      data: '{"a":"1A","c":"1","code":-201,"n":"2"}',
    });
    expect(restErrorOf(error, 'POST /v1/transaction', noLog)).toEqual({
      status: 400,
      body: { error: 'invalid account nonce' },
    });
  });

  it('answers input with -32603 and no data on JSON-RPC, and 400 on REST', () => {
    const error = new WalletError('INVALID_ARGUMENT', 'request limit exceeded');
    expect(jsonRpcErrorOf(error, 'account_history.get_account_history', noLog)).toEqual({
      code: -32603,
      message: 'request limit exceeded',
    });
    expect(restErrorOf(error, 'GET /v1/account/x/history', noLog)).toEqual({
      status: 400,
      body: { error: 'request limit exceeded' },
    });
  });

  it('answers params that do not parse as the gateway does on JSON-RPC, and as "invalid <subject>" on REST', () => {
    const error = new ParamsError('INVALID_ADDRESS', 'account: expected an address of 25 bytes, got 9');
    expect(jsonRpcErrorOf(error, 'chain.get_account_rc', noLog)).toEqual({
      code: -32601,
      message: 'Unable to translate request',
      data: 'parameters could not be parsed: account: expected an address of 25 bytes, got 9',
    });
    expect(restErrorOf(error, 'GET /v1/account/x/rc', noLog)).toEqual({
      status: 400,
      body: { error: 'invalid request: account: expected an address of 25 bytes, got 9' },
    });
    const body = new ParamsError('INVALID_ADDRESS', 'header.payer: expected an address', { subject: 'transaction' });
    expect(restErrorOf(body, 'POST /v1/transaction', noLog)).toEqual({
      status: 400,
      body: { error: 'invalid transaction: header.payer: expected an address' },
    });
  });

  it('answers anything else without details and logs it once, with the stack', () => {
    for (const answer of [
      (log: (line: string) => void) => jsonRpcErrorOf(new TypeError('secret internals'), 'chain.get_head_info', log),
      (log: (line: string) => void) => restErrorOf(new TypeError('secret internals'), 'GET /v1/chain/head_info', log),
    ]) {
      const log: string[] = [];
      const shown = answer((line) => log.push(line));
      expect(JSON.stringify(shown)).not.toContain('secret');
      expect(log).toEqual([expect.stringMatching(/failed: TypeError: secret internals\n\s+at /)]);
    }
    expect(jsonRpcErrorOf(new Error('x'), 'm', () => {})).toEqual({
      code: -32603,
      message: 'An internal server error has occurred',
    });
    expect(restErrorOf(new Error('x'), 'GET /', () => {})).toEqual({ status: 500, body: { error: 'unknown error' } });
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
