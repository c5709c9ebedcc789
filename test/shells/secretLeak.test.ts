// The secret-leak test: a scripted session sends traffic on every channel of the contract through the browser
// shell's HTTP bridge (create, import, reveal, send, offline sign, backup, password change, ...) and checks that no
// password, phrase, private key or API key appears in any answer, push event, log line or file of the data folder -
// the confirmed reveal and the new phrase shown for writing down aside.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_CHANNELS, type IpcChannel } from '../../src-main/ipc/contract.ts';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { toHex } from '../../src-main/koinos/bytes.ts';
import {
  newMnemonic,
  newPrivateKey,
  privateKeyFromMnemonic,
  privateKeyToWif,
  publicKeyFromPrivateKey,
} from '../../src-main/koinos/keys.ts';
import { addressFromPublicKey, addressToString } from '../../src-main/koinos/address.ts';
import type { BrowserShell } from '../../src-main/shells/browser/browserShell.ts';
import { browserShells, eventsRequest, ipc, type RawAnswer } from './browserShellHelpers.ts';
import { until } from '../helpers/until.ts';

const PASSWORD = 'first wallet password 1';
const NEW_PASSWORD = 'second wallet password 2';
const BACKUP_PASSWORD = 'backup file password 3';
const API_KEY = 'api-key-7f3a9c1e5b2d4f6a8c0e';

/** Every form a private key may take in text: WIF (compressed and not), hex with and without 0x. */
function keyForms(privateKey: Uint8Array): string[] {
  const hex = toHex(privateKey).replace(/^0x/, '');
  return [privateKeyToWif(privateKey), privateKeyToWif(privateKey, false), hex, hex.toUpperCase()];
}

/** Reads every file under `dir` (the wallet's data folder) as text. */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    // The wallet still runs: an atomic write's temporary file may be renamed into place between the listing and the
    // read; its content is then read under the final name, which the listing also holds.
    const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? undefined : Promise.reject(error),
    );
    if (bytes) out.push({ path, text: bytes.toString('latin1') });
  }
  return out;
}

/** Collects the raw text of the shell's event stream until stopped. */
function recordEvents(shell: BrowserShell): { text: () => string; stop: () => void } {
  let text = '';
  const request = eventsRequest(shell, (response) =>
    response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8'))),
  );
  request.on('error', () => {});
  return { text: () => text, stop: () => request.destroy() };
}

describe('no secret leaves main through the browser shell', () => {
  const start = browserShells();
  let apiKeyDevnet: Devnet;
  beforeAll(async () => {
    // A custom network that requires an API key: the key must reach the node, and nothing else.
    apiKeyDevnet = await startDevnet({ port: 0, apiKey: API_KEY, accounts: 1, blockTimeMs: 0, log: () => {} });
  });
  afterAll(async () => {
    await apiKeyDevnet?.stop();
  });

  it('sends every channel through the bridge and finds no secret in answers, events, logs or files', async () => {
    const logLines: string[] = [];
    const shell = await start({
      devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 3 } },
      polling: { headMs: 100, transactionsMs: 50 },
      log: (line) => logLines.push(line),
    });
    const events = recordEvents(shell);
    const traffic: { channel: IpcChannel; answer: RawAnswer }[] = [];
    /** One call; returns its value, or its error when `expectError`. */
    async function call(channel: IpcChannel, args: unknown[] = [], expectError = false): Promise<any> {
      const answer = await ipc(shell, channel, args);
      traffic.push({ channel, answer });
      expect(answer.status, channel).toBe(200);
      expect(answer.json.ok, `${channel}: ${answer.text.slice(0, 300)}`).toBe(!expectError);
      return expectError ? answer.json.error : answer.json.value;
    }

    /** Waits for the signing request `pending` made to be listed, approves it with the password, and returns its value. */
    async function approved<T>(pending: Promise<T>): Promise<T> {
      const request: { id: string; review: { risks: { code: string }[] } } = await until(
        'a signing request listed',
        async () => (await call('approvals:list')).pending[0],
      );
      await call('approvals:answer', [
        {
          requestId: request.id,
          approve: true,
          password: PASSWORD,
          acknowledgedRisks: request.review.risks.map((r) => r.code),
        },
      ]);
      return pending;
    }

    const importedPhrase = newMnemonic(12);
    const importedKey = newPrivateKey();
    const importedWif = privateKeyToWif(importedKey);

    // ---- vault and settings
    expect(await call('vault:status')).toMatchObject({ exists: false, unlocked: false });
    expect(await call('vault:create', [{ password: PASSWORD }])).toMatchObject({ exists: true, unlocked: true });
    if (process.env['CI'] === 'true') expect((await call('vault:status')).storage).toBe('keychain');
    await call('settings:get');
    expect(await call('settings:update', [{ autoLockMinutes: 10, theme: 'dark' }])).toMatchObject({
      autoLockMinutes: 10,
      theme: 'dark',
    });

    // ---- accounts
    const draft = await call('accounts:newPhrase', [{ words: 12 }]);
    const newPhrase: string = draft.words.join(' ');
    const checks = draft.checkPositions.map((position: number) => ({ position, word: draft.words[position - 1] }));
    const created = await call('accounts:confirmPhrase', [{ draftId: draft.draftId, name: 'Created', checks }]);
    const imported = await call('accounts:importPhrase', [{ phrase: importedPhrase, name: 'Imported phrase' }]);
    const derived = await call('accounts:deriveNext', [{ phraseId: imported.phraseId, name: 'Derived' }]);
    expect(derived.derivationIndex).toBe(1);
    // The node is asked about the phrase's next addresses (none used here): what it answers carries no secret either.
    expect((await call('accounts:discover', [{ phraseId: imported.phraseId }])).added).toEqual([]);
    const keyAccount = await call('accounts:importKey', [{ key: importedWif, name: 'Imported key' }]);
    const watched = addressToString(addressFromPublicKey(publicKeyFromPrivateKey(newPrivateKey())));
    const watch = await call('accounts:addWatch', [{ address: watched, name: 'Watched' }]);
    await call('accounts:rename', [{ id: watch.id, name: 'Watched (renamed)' }]);
    await call('accounts:reorder', [{ ids: [keyAccount.id, created.id, imported.id, derived.id, watch.id] }]);
    const revealed = await call('accounts:reveal', [{ id: keyAccount.id, password: PASSWORD }]);
    expect(revealed.kind).toBe('wif');
    await call('accounts:reveal', [{ id: keyAccount.id, password: 'not the password' }], true);

    // ---- the local devnet and a funded development account
    expect(await call('devnet:status')).toMatchObject({ accounts: expect.any(Array) });
    const dev = await call('devnet:importAccount', [{ index: 0, watchOnly: false }]);
    expect(dev.developmentOnly).toBe(true);
    await call('accounts:list');

    // ---- networks, including one behind an API key
    await call('networks:list');
    const custom = await call('networks:add', [
      { name: 'Keyed node', jsonRpcUrl: `${apiKeyDevnet.url}/jsonrpc`, apiKey: API_KEY },
    ]);
    expect(custom.hasApiKey).toBe(true);
    expect((await call('networks:head', [{ id: custom.id }])).chainId).toBe(apiKeyDevnet.chainId);
    await call('networks:update', [{ id: custom.id, name: 'Keyed node (renamed)' }]);
    await call('networks:select', [{ id: custom.id }]);
    await call('networks:select', [{ id: 'local' }]);
    await call('networks:head', [{}]);

    // ---- tokens, dashboard, send, history
    const tokens = await call('tokens:list', [{}]);
    const koin = tokens.find((t: { system?: string }) => t.system === 'koin');
    await call('tokens:inspect', [{ contract: koin.contract }]);
    await call('tokens:add', [{ contract: koin.contract }]);
    await call('tokens:remove', [{ contract: koin.contract }], true); // KOIN cannot be removed: an error is traffic too
    await call('dashboard:get', [{ accountId: dev.id }]);
    await call('send:maxAmount', [{ fromAccountId: dev.id, token: 'koin' }]);
    const review = await call('send:prepare', [
      { fromAccountId: dev.id, to: keyAccount.address, token: 'koin', amount: '1.5' },
    ]);
    const receipt = await approved(call('send:confirm', [{ reviewId: review.reviewId }]));
    expect(receipt.reverted).toBe(false);
    await call('history:page', [{ accountId: dev.id, limit: 10, ascending: false, irreversibleOnly: false }]);
    await call('history:setNote', [{ networkId: 'local', transactionId: receipt.transactionId, note: 'paid' }]);

    // ---- names and the address book (a plain devnet has no name contracts: an error is traffic too)
    await call('names:resolve', [{ text: '@alice' }], true);
    await call('names:reverse', [{ addresses: [keyAccount.address] }]);
    const contact = await call('contacts:add', [{ label: 'Key account', address: keyAccount.address }]);
    await call('contacts:list', [{}]);
    await call('contacts:remove', [{ id: contact.id }]);

    // ---- offline signing
    const unsigned = await call('offline:exportUnsigned', [
      { fromAccountId: dev.id, to: derived.address, token: 'koin', amount: '0.25' },
    ]);
    await call('offline:inspect', [{ input: unsigned.base64 }]);
    const signed = await approved(call('offline:sign', [{ input: unsigned.base64, accountId: dev.id }]));
    expect(signed.signers).toEqual([dev.address]);
    await call('offline:submit', [{ input: signed.base64, broadcast: true }]);

    // ---- the channels added since: history export, notifications, the Local network's shape, NFTs (wrong input too:
    // an error answer is traffic that must carry no secret either)
    const touch = async (channel: IpcChannel, args: unknown[] = []) => {
      const answer = await ipc(shell, channel, args);
      traffic.push({ channel, answer });
      expect(answer.status, channel).toBe(200);
      return answer.json;
    };
    await call('accounts:koinBalances');
    expect(
      (await call('history:export', [{ accountId: dev.id, format: 'csv', exportId: 'leak-export' }])).content,
    ).toContain(receipt.transactionId);
    await call('networks:dismissChainIdChange', [{ id: 'local' }]);
    await call('notifications:get');
    await call('notifications:update', [{ enabled: true }]);
    await call('nfts:collections', [{}]);
    await call('nfts:imageSettings');
    await call('nfts:updateImageSettings', [{ enabled: false }]);
    await call('nfts:owned', [{ accountId: dev.id }]);
    await touch('nfts:inspectCollection', [{ contract: koin.contract }]);
    await touch('nfts:addCollection', [{ contract: koin.contract }]);
    await touch('nfts:removeCollection', [{ contract: koin.contract }]);
    await touch('nfts:image', [{ contract: koin.contract, tokenId: '0x01' }]);
    await touch('nfts:prepareTransfer', [
      { fromAccountId: dev.id, contract: koin.contract, tokenId: '0x01', to: keyAccount.address },
    ]);
    await touch('nfts:confirmTransfer', [{ reviewId: 'no-such-review' }]);
    // Allowances: the list (none given), and taking back one that does not stand (refused before any review).
    await call('allowances:list', [{ accountId: dev.id }]);
    await touch('allowances:prepareRevoke', [
      { accountId: dev.id, items: [{ kind: 'token', contract: koin.contract, spender: keyAccount.address }] },
    ]);
    await touch('allowances:confirmRevoke', [{ reviewId: 'no-such-review' }]);
    // dApps: the settings, the list, a pairing and a revocation that fail (no relay answers here): errors are traffic.
    await call('dapps:walletConnectSettings');
    await call('dapps:updateWalletConnectSettings', [
      { relayUrl: 'ws://127.0.0.1:9', projectId: '0123456789abcdef0123456789abcdef' },
    ]);
    await call('dapps:list');
    await touch('dapps:pair', [
      {
        uri: 'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303',
      },
    ]);
    await touch('dapps:revoke', [{ origin: 'https://app.example' }]);
    await touch('dapps:openPage', [{ url: 'https://app.example/' }]); // a desktop window: the browser shell refuses it

    // ---- backup, password change, removal, lock
    const backup = await call('vault:exportBackup', [{ password: PASSWORD, backupPassword: BACKUP_PASSWORD }]);
    await call('vault:importBackup', [{ content: backup.content, backupPassword: BACKUP_PASSWORD }]);
    await call('vault:changePassword', [{ oldPassword: PASSWORD, newPassword: NEW_PASSWORD }]);
    await call('accounts:remove', [{ id: watch.id, password: NEW_PASSWORD }]);
    await call('vault:lock');
    await call('vault:unlock', [{ password: PASSWORD }], true);
    await call('vault:unlock', [{ password: NEW_PASSWORD }]);
    await call('networks:remove', [{ id: custom.id }]);
    await call('devnet:reset');
    expect((await call('devnet:setShape', [{ like: 'plain' }])).shape).toBe('plain');

    // Every channel of the contract carried traffic.
    expect(new Set(traffic.map((t) => t.channel))).toEqual(new Set(IPC_CHANNELS));

    // The events the session caused arrived: lock changes and the sent transfer's progress.
    const included = `"transactionId":"${receipt.transactionId}","networkId":"local","status":"included"`;
    await until(`a tx:update "included" for ${receipt.transactionId}`, () =>
      events.text().includes(included) ? true : undefined,
    );
    events.stop();
    expect(events.text()).toContain('event: vault:lockState');
    expect(events.text()).toContain('event: head:new');

    // ---- the secrets, in every form, and where they may appear
    const secrets: { name: string; value: string }[] = [
      { name: 'password', value: PASSWORD },
      { name: 'new password', value: NEW_PASSWORD },
      { name: 'backup password', value: BACKUP_PASSWORD },
      { name: 'API key', value: API_KEY },
      { name: 'imported phrase', value: importedPhrase },
      { name: 'new phrase', value: newPhrase },
      ...keyForms(importedKey).map((value) => ({ name: 'imported key', value })),
      ...[0, 1].flatMap((i) =>
        keyForms(privateKeyFromMnemonic(importedPhrase, i)).map((value) => ({
          name: `imported phrase key ${i}`,
          value,
        })),
      ),
      ...keyForms(privateKeyFromMnemonic(newPhrase, 0)).map((value) => ({ name: 'new phrase key', value })),
    ];
    const allowed = (channel: IpcChannel, secret: { name: string }): boolean =>
      (channel === 'accounts:newPhrase' && secret.name === 'new phrase') ||
      (channel === 'accounts:reveal' && secret.name === 'imported key');

    const leaks: string[] = [];
    for (const { channel, answer } of traffic) {
      for (const secret of secrets) {
        if (answer.text.includes(secret.value) && !allowed(channel, secret))
          leaks.push(`${secret.name} in the answer of ${channel}`);
      }
    }
    // The allowed ones did show what they should (so the check above could find them).
    expect(traffic.find((t) => t.channel === 'accounts:reveal')!.answer.text).toContain(importedWif);
    expect(traffic.find((t) => t.channel === 'accounts:newPhrase')!.answer.text).toContain(draft.words[0]);
    for (const secret of secrets) {
      if (events.text().includes(secret.value)) leaks.push(`${secret.name} in a push event`);
      if (logLines.some((line) => line.includes(secret.value))) leaks.push(`${secret.name} in a log line`);
    }
    const files = await filesUnder(shell.dataDir!);
    expect(files.some((f) => f.path.endsWith('wallet.json'))).toBe(true);
    for (const file of files) {
      for (const secret of secrets) if (file.text.includes(secret.value)) leaks.push(`${secret.name} in ${file.path}`);
    }
    expect(leaks).toEqual([]);
  }, 120_000); // every channel once, each a real call: minutes on a loaded 2-core machine, seconds on an idle one
});
