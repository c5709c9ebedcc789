// The dispatcher every shell shares: checks the channel and the arguments, runs the handler, answers the envelope;
// expected errors cross with their code, anything else as a generic notice with one log line in main.
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, type IpcChannel } from '../../src-main/ipc/contract.ts';
import { createIpcDispatcher, type IpcHandlers } from '../../src-main/ipc/dispatcher.ts';
import { GENERIC_NOTICE, redactUrlCredentials, toIpcError } from '../../src-main/ipc/toIpcError.ts';
import { WalletError } from '../../src-main/koinos/errors.ts';
import { SAMPLE_ARGUMENTS } from './sampleArguments.ts';

/** Handlers that record what they were called with and answer it back. */
function echoHandlers(calls: { channel: IpcChannel; args: unknown[] }[]): IpcHandlers {
  return Object.fromEntries(
    IPC_CHANNELS.map((channel) => [
      channel,
      (...args: unknown[]) => {
        calls.push({ channel, args });
        return Promise.resolve({ echoed: args });
      },
    ]),
  ) as unknown as IpcHandlers;
}

describe('createIpcDispatcher', () => {
  it('passes the checked arguments of every channel to its handler and answers ok', async () => {
    const calls: { channel: IpcChannel; args: unknown[] }[] = [];
    const dispatch = createIpcDispatcher({ handlers: echoHandlers(calls) });
    for (const channel of IPC_CHANNELS) {
      const answer = await dispatch(channel, SAMPLE_ARGUMENTS[channel]);
      expect(answer).toEqual({ ok: true, value: { echoed: SAMPLE_ARGUMENTS[channel] } });
    }
    expect(calls.map((c) => c.channel)).toEqual([...IPC_CHANNELS]);
  });

  it('refuses a name outside the contract without running anything', async () => {
    const calls: { channel: IpcChannel; args: unknown[] }[] = [];
    const dispatch = createIpcDispatcher({ handlers: echoHandlers(calls) });
    for (const name of ['vault:destroy', '__proto__', 'constructor', 42, undefined]) {
      const answer = await dispatch(name, []);
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.error.code).toBe('INVALID_ARGUMENT');
    }
    expect(await dispatch('vault:destroy', [])).toEqual({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', shortMessage: 'expected a wallet IPC channel, got "vault:destroy"' },
    });
    expect(calls).toEqual([]);
  });

  it('refuses bad arguments before the handler runs', async () => {
    const calls: { channel: IpcChannel; args: unknown[] }[] = [];
    const dispatch = createIpcDispatcher({ handlers: echoHandlers(calls) });
    const answer = await dispatch('accounts:rename', [{ id: 'a' }]);
    expect(answer).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        shortMessage: 'accounts:rename: expected name to be a string of 1 to 100 characters, got nothing',
      },
    });
    expect(calls).toEqual([]);
  });

  it('reports every user call on a known channel to onCall (the vault idle timer), including refused arguments', async () => {
    const seen: string[] = [];
    const dispatch = createIpcDispatcher({ handlers: echoHandlers([]), onCall: (channel) => seen.push(channel) });
    await dispatch('vault:lock', []);
    await dispatch('accounts:rename', [{}]);
    await dispatch('not:a-channel', []);
    expect(seen).toEqual(['vault:lock', 'accounts:rename']);
  });

  it('does not report the reads the screens make by themselves, so that an unattended wallet still locks', async () => {
    const seen: string[] = [];
    const dispatch = createIpcDispatcher({ handlers: echoHandlers([]), onCall: (channel) => seen.push(channel) });
    await dispatch('dashboard:get', [{ accountId: 'a1' }]);
    await dispatch('networks:head', [{}]);
    await dispatch('vault:status', []);
    expect(seen).toEqual([]);
    await dispatch('send:prepare', [
      { fromAccountId: 'a1', to: '1z629tURV9KAK6Q5yqFDozwSHeWshxXQe', token: 'koin', amount: '1' },
    ]);
    expect(seen).toEqual(['send:prepare']);
  });

  it('passes a WalletError across with its code, sentence and details', async () => {
    const handlers = echoHandlers([]);
    handlers['vault:unlock'] = () =>
      Promise.reject(
        new WalletError('INVALID_ARGUMENT', 'The password is wrong. Try again.', {
          details: 'scrypt key did not open entry 1',
        }),
      );
    const answer = await createIpcDispatcher({ handlers })('vault:unlock', [{ password: 'nope' }]);
    expect(answer).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        shortMessage: 'The password is wrong. Try again.',
        details: 'scrypt key did not open entry 1',
      },
    });
  });

  it('passes the hints of a WalletError across as metaMessages', async () => {
    const handlers = echoHandlers([]);
    handlers['vault:create'] = () =>
      Promise.reject(
        new WalletError('VAULT_EXISTS', 'expected no wallet in this data folder, but one exists', {
          metaMessages: ['Unlock it with its password instead.'],
        }),
      );
    const answer = await createIpcDispatcher({ handlers })('vault:create', [{ password: 'long enough password' }]);
    expect(answer).toEqual({
      ok: false,
      error: {
        code: 'VAULT_EXISTS',
        shortMessage: 'expected no wallet in this data folder, but one exists',
        metaMessages: ['Unlock it with its password instead.'],
      },
    });
  });

  it('turns any other error into a generic notice and one log line, never a stack or message across', async () => {
    const lines: string[] = [];
    const handlers = echoHandlers([]);
    handlers['accounts:list'] = () => Promise.reject(new TypeError('cannot read secret-looking-thing of undefined'));
    const answer = await createIpcDispatcher({ handlers, log: (line) => lines.push(line) })('accounts:list', []);
    expect(answer).toEqual({ ok: false, error: { code: 'INTERNAL', shortMessage: GENERIC_NOTICE } });
    expect(JSON.stringify(answer)).not.toContain('secret-looking-thing');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[ipc\] accounts:list failed unexpectedly: TypeError: cannot read secret-looking-thing/);
  });

  it('answers a handler that throws synchronously as an envelope, not a rejection', async () => {
    const handlers = echoHandlers([]);
    handlers['vault:lock'] = () => {
      throw new WalletError('INTERNAL', 'boom');
    };
    await expect(createIpcDispatcher({ handlers })('vault:lock', [])).resolves.toEqual({
      ok: false,
      error: { code: 'INTERNAL', shortMessage: 'boom' },
    });
  });
});

describe('toIpcError', () => {
  it('removes credentials from URLs in details and log lines', () => {
    const error = new WalletError('NODE_ERROR', 'The node did not answer.', {
      details: 'POST https://me:s3cret@node.example/jsonrpc: ECONNREFUSED',
    });
    expect(toIpcError('networks:head', error, () => {}).details).toBe(
      'POST https://***@node.example/jsonrpc: ECONNREFUSED',
    );
    const lines: string[] = [];
    toIpcError('networks:head', new Error('fetch http://u:p@x.example failed'), (line) => lines.push(line));
    expect(lines[0]).toContain('http://***@x.example');
    expect(lines[0]).not.toContain('u:p@');
    expect(redactUrlCredentials('no url here')).toBe('no url here');
  });

  it('logs a thrown non-Error value as text', () => {
    const lines: string[] = [];
    expect(toIpcError('vault:status', 'a string', (line) => lines.push(line))).toEqual({
      code: 'INTERNAL',
      shortMessage: GENERIC_NOTICE,
    });
    expect(lines).toEqual(['[ipc] vault:status failed unexpectedly: a string']);
  });
});
