// A WalletError crosses both of the wallet's boundaries intact through one pair, WalletError.toJSON / fromJSON: the IPC
// boundary (main's toIpcError, structured-cloned as Electron does, revived as the renderer's call() revives it) and the
// devnet's worker thread (a real worker: its start error, a WalletError a node method throws, and a chain refusal, which
// crosses as the node's answer and is read as any node's answer is).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WalletError } from '../../src-main/koinos/errors.ts';
import { toIpcError } from '../../src-main/ipc/toIpcError.ts';
import { DevnetThread } from '../../src-main/wallet/chain/devnetThread.ts';
import { chainCodeOf } from '../../src-main/wallet/chain/nodeError.ts';

function fields(error: WalletError) {
  return {
    code: error.code,
    shortMessage: error.shortMessage,
    details: error.details,
    metaMessages: error.metaMessages,
    message: error.message,
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<WalletError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletError);
  return error as WalletError;
}

describe('the IPC boundary', () => {
  it('carries code, sentence, details and hints, and the renderer revives the same WalletError', () => {
    const sent = new WalletError('VAULT_LOCKED', 'Unlock the wallet first.', {
      details: 'vault:unlock was not called',
      metaMessages: ['Open the wallet screen.'],
    });
    const lines: string[] = [];
    const wire = structuredClone(toIpcError('vault:status', sent, (line) => lines.push(line)));
    expect(wire).toEqual(sent.toJSON());
    expect(fields(WalletError.fromJSON(wire))).toEqual(fields(sent));
    expect(lines).toEqual([]);
  });

  it('derives details from the cause, so they cross too', () => {
    const sent = new WalletError('STORAGE_FAILED', 'The wallet file could not be written.', {
      cause: new Error('EACCES: permission denied'),
    });
    expect(sent.details).toBe('EACCES: permission denied');
    expect(WalletError.fromJSON(structuredClone(toIpcError('vault:create', sent, () => {}))).details).toBe(
      'EACCES: permission denied',
    );
  });

  it('removes URL credentials on the way, and revives a code the renderer does not know as INTERNAL', () => {
    const sent = new WalletError('NODE_UNREACHABLE', 'The node did not answer.', {
      details: 'fetch https://user:secret@node.example/jsonrpc failed',
    });
    const wire = toIpcError('networks:test', sent, () => {});
    expect(wire.details).toBe('fetch https://***@node.example/jsonrpc failed');
    expect(WalletError.fromJSON({ ...wire, code: 'FROM_A_NEWER_MAIN' })).toMatchObject({
      code: 'INTERNAL',
      shortMessage: 'The node did not answer.',
    });
  });

  it('sends anything but a WalletError as a generic notice and logs it in main', () => {
    const lines: string[] = [];
    const wire = toIpcError('vault:status', new TypeError('secret internals'), (line) => lines.push(line));
    expect(WalletError.fromJSON(wire)).toMatchObject({ code: 'INTERNAL', details: undefined });
    expect(JSON.stringify(wire)).not.toContain('secret');
    expect(lines).toHaveLength(1);
  });
});

describe('the devnet worker boundary', () => {
  let devnet: DevnetThread;
  beforeAll(async () => {
    devnet = await DevnetThread.start({ port: 0, host: '127.0.0.1', accounts: 1, manual: true }, () => {});
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  it('brings a start error back as the WalletError the worker raised, details included', async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: the devnet's listen error names it, its errno is the details.
    const error = await rejectionOf(
      DevnetThread.start({ port: 0, host: '192.0.2.1', accounts: 1, manual: true }, () => {}),
    );
    expect(fields(error)).toEqual({
      code: 'INTERNAL',
      shortMessage:
        '192.0.2.1 is not an address of this machine; bind 127.0.0.1 (the default) or another local address (--host)',
      details: 'EADDRNOTAVAIL',
      metaMessages: [],
      message: expect.stringContaining('Details: EADDRNOTAVAIL'),
    });
  });

  it('brings a WalletError a node method throws back with its code and sentence', async () => {
    const error = await rejectionOf(devnet.call('mempool.get_pending_transactions', { limit: 2001n }));
    expect(fields(error)).toEqual({
      code: 'INVALID_ARGUMENT',
      shortMessage: 'requested too many pending transactions. max: 2000',
      details: undefined,
      metaMessages: [],
      message: 'requested too many pending transactions. max: 2000',
    });
  });

  it('reads a chain refusal as any node answer is read, keeping the chain code', async () => {
    const error = await rejectionOf(
      devnet.call('chain.invoke_system_call', { name: 'no_such_system_call', args: new Uint8Array(0) }),
    );
    expect(error.code).toBe('NODE_ERROR');
    expect(chainCodeOf(error)).toBe(-103);
    expect(error.details).toContain('chain.invoke_system_call at the local devnet:');
  });
});
