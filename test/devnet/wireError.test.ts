// The one mapper from devnet errors to the wire: chain error data is written with its keys sorted, as koinos-chain's
// nlohmann::json (a std::map) writes it, so clients that print the data see the real node's text.
import { describe, it, expect } from 'vitest';
import { toWireError } from '../../src-main/devnet/server/wireError.ts';
import { NodeError } from '../../src-main/devnet/types.ts';
import { WalletError } from '../../src-main/koinos/errors.ts';

describe('toWireError', () => {
  it('writes the chain code among the data keys in sorted order, nested objects included', () => {
    const error = new NodeError('cannot transfer to yourself', {
      code: 1,
      data: { logs: ['transaction reverted: cannot transfer to yourself'], c: { z: 1, a: 2 } },
    });
    expect(toWireError(error)).toEqual({
      kind: 'known',
      message: 'cannot transfer to yourself',
      data: '{"c":{"a":2,"z":1},"code":1,"logs":["transaction reverted: cannot transfer to yourself"]}',
    });
  });

  it('sorts the data of an error without a chain code and leaves out empty data', () => {
    expect(toWireError(new NodeError('x', { data: { n: 1, a: 'b' } }))).toEqual({ kind: 'known', message: 'x', data: '{"a":"b","n":1}' });
    expect(toWireError(new NodeError('unknown method'))).toEqual({ kind: 'known', message: 'unknown method' });
  });

  it('keeps the short message of bad input and hides anything else', () => {
    expect(toWireError(new WalletError('INVALID_ADDRESS', 'expected an address'))).toEqual({ kind: 'known', message: 'expected an address' });
    expect(toWireError(new Error('secret stack'))).toEqual({ kind: 'internal' });
  });
});
