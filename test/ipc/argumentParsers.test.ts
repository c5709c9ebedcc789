// The run-time check of every channel's arguments: well-formed calls pass unchanged, anything else is refused with
// INVALID_ARGUMENT saying which field, what was expected and what was found, and never echoing a secret.
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, type IpcChannel } from '../../src-main/ipc/contract.ts';
import { ARGUMENT_PARSERS, parseArguments } from '../../src-main/ipc/argumentParsers.ts';
import { SAMPLE_ARGUMENTS } from './sampleArguments.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';

const ADDRESS = '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs';

function refusal(channel: IpcChannel, args: unknown): string {
  return expectWalletError(() => parseArguments(channel, args), 'INVALID_ARGUMENT').shortMessage;
}

describe('argument parsers', () => {
  it('has a parser for every channel and for no other name', () => {
    expect(Object.keys(ARGUMENT_PARSERS).sort()).toEqual([...IPC_CHANNELS].sort());
  });

  it.each(IPC_CHANNELS.map((c) => [c]))('accepts well-formed arguments of %s unchanged', (channel) => {
    const args = SAMPLE_ARGUMENTS[channel];
    expect(parseArguments(channel, structuredClone(args))).toEqual(args);
  });

  it.each(IPC_CHANNELS.map((c) => [c]))('refuses %s with a wrong number of arguments', (channel) => {
    const args = SAMPLE_ARGUMENTS[channel] as unknown[];
    expect(refusal(channel, [...args, {}])).toMatch(
      new RegExp(`^${channel}: expected (no arguments|one argument), got`),
    );
    expect(refusal(channel, 'not a list')).toContain(`${channel}: expected`);
  });

  it('refuses a missing field, naming it', () => {
    expect(refusal('accounts:rename', [{ id: 'acc-1' }])).toBe(
      'accounts:rename: expected name to be a string of 1 to 100 characters, got nothing',
    );
  });

  it('refuses an unknown field, naming it', () => {
    expect(refusal('accounts:rename', [{ id: 'acc-1', name: 'x', admin: true }])).toBe(
      'accounts:rename: expected the argument to have only id, name, got "admin"',
    );
  });

  it('refuses values of the wrong type', () => {
    expect(refusal('devnet:importAccount', [{ index: '2', watchOnly: false }])).toBe(
      'devnet:importAccount: expected index to be an integer from 0 to 999, got "2"',
    );
    expect(refusal('offline:submit', [{ input: 'x', broadcast: 'yes' }])).toBe(
      'offline:submit: expected broadcast to be true or false, got "yes"',
    );
    expect(refusal('accounts:newPhrase', [{ words: 18 }])).toBe(
      'accounts:newPhrase: expected words to be one of 12, 24, got number 18',
    );
    expect(refusal('settings:update', [{ theme: 'blue' }])).toBe(
      'settings:update: expected theme to be one of "system", "light", "dark", got "blue"',
    );
    expect(refusal('accounts:list', [null])).toBe('accounts:list: expected no arguments, got 1');
    expect(refusal('accounts:rename', [null])).toBe('accounts:rename: expected the argument to be an object, got null');
    expect(refusal('accounts:rename', [['acc-1', 'x']])).toBe(
      'accounts:rename: expected the argument to be an object, got an array of 2',
    );
  });

  it('refuses objects that are not plain (prototype tricks)', () => {
    const tricky = Object.create({ polluted: true }) as Record<string, unknown>;
    tricky['id'] = 'acc-1';
    tricky['name'] = 'x';
    expect(refusal('accounts:rename', [tricky])).toBe(
      'accounts:rename: expected the argument to be a plain object, got an object',
    );
  });

  it('treats undefined fields as absent', () => {
    expect(
      parseArguments('send:prepare', [
        { fromAccountId: 'a', to: ADDRESS, token: 'koin', amount: '1', rcLimit: undefined },
      ]),
    ).toEqual([{ fromAccountId: 'a', to: ADDRESS, token: 'koin', amount: '1' }]);
  });

  it('never shows a password, phrase, key or API key in a refusal', () => {
    const secret = 'my-secret-password-' + 'x'.repeat(2000);
    const messages = [
      refusal('vault:unlock', [{ password: secret }]),
      refusal('vault:unlock', [{ password: '' }]),
      refusal('accounts:importPhrase', [{ phrase: 'zoo '.repeat(400), name: 'n' }]),
      refusal('accounts:importKey', [{ key: 'K'.repeat(300), name: 'n' }]),
      refusal('networks:add', [{ name: 'n', jsonRpcUrl: 'https://x.example', apiKey: 'k'.repeat(2000) }]),
      refusal('accounts:confirmPhrase', [
        { draftId: 'd', name: 'n', checks: [{ position: 1, word: 'abandonabandonabandon!' }] },
      ]),
    ];
    expect(messages[0]).toBe(
      'vault:unlock: expected password to be a string of 1 to 1024 characters, got a string of 2019 characters',
    );
    expect(messages[1]).toBe(
      'vault:unlock: expected password to be a string of 1 to 1024 characters, got an empty string',
    );
    for (const message of messages) {
      expect(message).not.toMatch(/my-secret|zoo|KKK|kkk|abandon/);
    }
  });

  it('reads ids, addresses and tokens by their form', () => {
    expect(refusal('dashboard:get', [{ accountId: 'acc 1<script>' }])).toBe(
      'dashboard:get: expected accountId to be an id (letters, digits, ". _ : -"), got "acc 1<script>"',
    );
    expect(refusal('accounts:addWatch', [{ address: '0GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs', name: 'w' }])).toContain(
      'expected address to be a base58 address',
    );
    expect(parseArguments('send:maxAmount', [{ fromAccountId: 'a', token: ADDRESS }])).toEqual([
      { fromAccountId: 'a', token: ADDRESS },
    ]);
    expect(refusal('send:maxAmount', [{ fromAccountId: 'a', token: 'KOIN!' }])).toBe(
      'send:maxAmount: expected token to be "koin", "vhp" or a token contract address, got "KOIN!"',
    );
    expect(
      parseArguments('send:maxAmount', [{ fromAccountId: 'a', token: 'koin', payer: { kind: 'freeMana' } }]),
    ).toEqual([{ fromAccountId: 'a', token: 'koin', payer: { kind: 'freeMana' } }]);
  });

  it('reads amounts as decimal strings and 64-bit integers as decimal strings within uint64', () => {
    const transfer = (amount: unknown, rcLimit?: unknown) => [
      { fromAccountId: 'a', to: ADDRESS, token: 'koin', amount, ...(rcLimit === undefined ? {} : { rcLimit }) },
    ];
    for (const bad of ['-1', '1e8', '1,5', '.5', '1.', ' 1', '', 1.5]) {
      expect(refusal('send:prepare', transfer(bad))).toMatch(
        /^send:prepare: expected amount to be a decimal amount such as "1.5"/,
      );
    }
    expect(parseArguments('send:prepare', transfer('0001.50000'))[0].amount).toBe('0001.50000');
    expect(parseArguments('send:prepare', transfer('1', '18446744073709551615'))[0].rcLimit).toBe(
      '18446744073709551615',
    );
    for (const bad of ['18446744073709551616', '01', '-1', '1.0', 100]) {
      expect(refusal('send:prepare', transfer('1', bad))).toMatch(
        /^send:prepare: expected rcLimit to be a decimal string of an unsigned 64-bit integer/,
      );
    }
  });

  it('reads who pays a transfer as another account by id or the free mana sharer, and refuses anything else', () => {
    const transfer = (payer: unknown) => [{ fromAccountId: 'a', to: ADDRESS, token: 'koin', amount: '1', payer }];
    expect(parseArguments('send:prepare', transfer({ kind: 'account', accountId: 'acc-2' }))[0].payer).toEqual({
      kind: 'account',
      accountId: 'acc-2',
    });
    expect(parseArguments('offline:exportUnsigned', transfer({ kind: 'freeMana' }))[0].payer).toEqual({
      kind: 'freeMana',
    });
    expect(refusal('send:prepare', transfer({ kind: 'sponsor' }))).toMatch(
      /^send:prepare: expected payer\.kind to be one of "account", "freeMana", got/,
    );
    expect(refusal('send:prepare', transfer({ kind: 'account' }))).toMatch(
      /^send:prepare: expected payer\.accountId to be/,
    );
    expect(refusal('send:prepare', transfer({ kind: 'account', accountId: 'a b' }))).toMatch(
      /^send:prepare: expected payer\.accountId to be/,
    );
    expect(refusal('send:prepare', transfer({ kind: 'freeMana', accountId: 'acc-2' }))).toMatch(
      /^send:prepare: expected payer to have only kind, got "accountId"/,
    );
    expect(refusal('send:prepare', transfer({ kind: 'account', accountId: 'x', address: ADDRESS }))).toMatch(
      /^send:prepare: expected payer to have only kind, accountId/,
    );
    expect(refusal('send:prepare', transfer('acc-2'))).toMatch(/^send:prepare: expected payer to be an object/);
  });

  it('reads network URLs as http(s) without credentials, never echoing a refused one, and an API key of null as "remove it"', () => {
    expect(refusal('networks:add', [{ name: 'n', jsonRpcUrl: 'ftp://x.example' }])).toBe(
      'networks:add: expected jsonRpcUrl to be an http:// or https:// URL, got a string of 15 characters',
    );
    // A refused address may carry a key: described by its length only.
    expect(refusal('networks:update', [{ id: 'c1', jsonRpcUrl: 'ftp://x?apikey=K-77' }])).not.toContain('K-77');
    // An accepted one with ?apikey= passes through to NetworkService, which moves the key into the key store.
    expect(
      parseArguments('networks:add', [{ name: 'n', jsonRpcUrl: 'https://x.example/?apikey=K-77' }])[0].jsonRpcUrl,
    ).toBe('https://x.example/?apikey=K-77');
    const withCredentials = refusal('networks:add', [{ name: 'n', jsonRpcUrl: 'https://user:hunter2@x.example' }]);
    expect(withCredentials).toBe(
      'networks:add: expected jsonRpcUrl to be a URL without a user name or password in it, got one with credentials',
    );
    expect(parseArguments('networks:update', [{ id: 'c1', apiKey: null }])).toEqual([{ id: 'c1', apiKey: null }]);
    expect(parseArguments('networks:update', [{ id: 'c1', restUrl: '' }])).toEqual([{ id: 'c1', restUrl: '' }]);
    expect(refusal('networks:add', [{ name: 'n', jsonRpcUrl: 'https://x.example', restUrl: '' }])).toMatch(
      /^networks:add: expected restUrl to be/,
    );
    expect(refusal('networks:update', [{ id: 'c1', apiKey: 42 }])).toBe(
      'networks:update: expected apiKey to be a string of 1 to 1024 characters, got number 42',
    );
  });

  it('bounds lists and numbers', () => {
    expect(refusal('history:page', [{ accountId: 'a', limit: 0, ascending: true, irreversibleOnly: false }])).toBe(
      'history:page: expected limit to be an integer from 1 to 500, got number 0',
    );
    expect(refusal('accounts:reorder', [{ ids: Array.from({ length: 10_001 }, (_, i) => `a${i}`) }])).toBe(
      'accounts:reorder: expected ids to be an array of at most 10000 items, got an array of 10001',
    );
    expect(refusal('accounts:reorder', [{ ids: ['a', 7] }])).toBe(
      'accounts:reorder: expected ids[1] to be an id (letters, digits, ". _ : -"), got number 7',
    );
    expect(refusal('settings:update', [{ autoLockMinutes: 0.5 }])).toBe(
      'settings:update: expected autoLockMinutes to be an integer from 1 to 10080, got number 0.5',
    );
  });
});
