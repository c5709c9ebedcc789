// A compromised page (it holds the browser shell's token, as an XSS or a DevTools paste would) tries to sign through
// every channel, as review 3's M1 did: it gets requests in the approval queue and nothing else. Without the wallet
// password nothing is approved, a flagged request needs each risk confirmed, guessing is throttled, and every decision
// is recorded without the password.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addressFromPublicKey, addressFromString, addressToString } from '../../src-main/koinos/address.ts';
import { newPrivateKey, publicKeyFromPrivateKey } from '../../src-main/koinos/keys.ts';
import { nonceToBytes, transactionToBase64 } from '../../src-main/koinos/transaction.ts';
import { KoinosNode } from '../../src-main/wallet/chain/koinosNode.ts';
import { tokenBalance } from '../../src-main/wallet/chain/tokens.ts';
import type { BrowserShell } from '../../src-main/shells/browser/browserShell.ts';
import type { ApprovalRequest } from '../../src-main/ipc/contract.ts';
import { PASSWORD } from '../wallet/vault/helpers.ts';
import { browserShells, ipc } from './browserShellHelpers.ts';
import { until } from '../helpers/until.ts';

async function value(shell: BrowserShell, channel: string, args: unknown[] = []): Promise<any> {
  const answer = await ipc(shell, channel, args);
  expect(answer.json?.ok, `${channel}: ${answer.text.slice(0, 300)}`).toBe(true);
  return answer.json.value;
}

async function errorCode(shell: BrowserShell, channel: string, args: unknown[] = []): Promise<string> {
  const answer = await ipc(shell, channel, args);
  expect(answer.json?.ok, `${channel} should fail: ${answer.text.slice(0, 300)}`).toBe(false);
  return answer.json.error.code as string;
}

/** The one pending request, once the queue lists it. */
function pendingRequest(shell: BrowserShell): Promise<ApprovalRequest> {
  return until('a signing request listed', async () => {
    const [request] = (await value(shell, 'approvals:list')).pending as ApprovalRequest[];
    return request;
  });
}

describe('a compromised page cannot sign', () => {
  const start = browserShells();

  it('gets a transfer to itself only as a request that waits for the password, and a rejection moves nothing', async () => {
    const shell = await start({
      devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 2 } },
      polling: { headMs: 100, transactionsMs: 50 },
    });
    await value(shell, 'vault:create', [{ password: PASSWORD }]);
    const dev = await value(shell, 'devnet:importAccount', [{ index: 0, watchOnly: false }]);
    const { url } = await value(shell, 'devnet:status');
    const node = new KoinosNode({ jsonRpc: { url: `${url}/jsonrpc` } });
    const koin = (await value(shell, 'tokens:list', [{}])).find((t: { system?: string }) => t.system === 'koin');
    const thief = addressToString(addressFromPublicKey(publicKeyFromPrivateKey(newPrivateKey())));
    const stolen = () => tokenBalance(node, koin, addressFromString(thief));

    // The review and the confirm are the page's to call; the confirm only waits in the queue.
    const review = await value(shell, 'send:prepare', [
      { fromAccountId: dev.id, to: thief, token: 'koin', amount: '1000' },
    ]);
    const confirm = ipc(shell, 'send:confirm', [{ reviewId: review.reviewId }]);
    const request = await pendingRequest(shell);
    expect(request.review.operations[0]!.args).toMatchObject({ to: thief });
    expect(await errorCode(shell, 'approvals:answer', [{ requestId: request.id, approve: true }])).toBe(
      'WRONG_PASSWORD',
    );
    expect(
      await errorCode(shell, 'approvals:answer', [{ requestId: request.id, approve: true, password: 'guess one' }]),
    ).toBe('WRONG_PASSWORD');
    expect(
      await errorCode(shell, 'approvals:answer', [{ requestId: request.id, approve: true, password: 'guess two' }]),
    ).toBe('WRONG_PASSWORD');
    expect(
      await errorCode(shell, 'approvals:answer', [{ requestId: request.id, approve: true, password: 'guess three' }]),
    ).toBe('WRONG_PASSWORD');
    // Past three wrong passwords the guesses wait: the fourth is refused before the password is even checked.
    expect(
      await errorCode(shell, 'approvals:answer', [{ requestId: request.id, approve: true, password: 'guess four' }]),
    ).toBe('TOO_MANY_ATTEMPTS');
    expect((await value(shell, 'approvals:list')).pending).toHaveLength(1);
    await value(shell, 'approvals:answer', [{ requestId: request.id, approve: false }]);
    expect((await confirm).json.error.code).toBe('REJECTED');
    expect(await stolen()).toBe(0n);

    // Offline signing goes through the same queue.
    const unsigned = await value(shell, 'offline:exportUnsigned', [
      { fromAccountId: dev.id, to: thief, token: 'koin', amount: '1000' },
    ]);
    const sign = ipc(shell, 'offline:sign', [{ input: unsigned.base64, accountId: dev.id }]);
    const second = await pendingRequest(shell);
    expect(second.review.kind).toBe('sign');
    await value(shell, 'approvals:answer', [{ requestId: second.id, approve: false }]);
    expect((await sign).json.error.code).toBe('REJECTED');
    expect(await stolen()).toBe(0n);

    // Every decision is recorded beside the wallet, and no password is in the record.
    const log = await readFile(join(shell.dataDir!, 'approvals.log'), 'utf8');
    expect(
      log
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).decision),
    ).toEqual(['rejected', 'rejected']);
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain('guess');
  });

  it("needs each risk of an upload over the signer's own address confirmed, and locking rejects what waits", async () => {
    const shell = await start({ devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 1 } } });
    await value(shell, 'vault:create', [{ password: PASSWORD }]);
    const dev = await value(shell, 'devnet:importAccount', [{ index: 0, watchOnly: false }]);
    const { chainId } = await value(shell, 'networks:head', [{}]);
    const takeover = transactionToBase64({
      id: new Uint8Array(),
      header: {
        chain_id: Buffer.from(chainId, 'base64url'),
        rc_limit: 10_000_000n,
        nonce: nonceToBytes(1n),
        operation_merkle_root: new Uint8Array(),
        payer: addressFromString(dev.address),
        payee: new Uint8Array(),
      },
      operations: [
        {
          upload_contract: {
            contract_id: addressFromString(dev.address),
            bytecode: Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0]),
            abi: '',
            authorizes_call_contract: true,
            authorizes_transaction_application: true,
            authorizes_upload_contract: true,
          },
        },
      ],
      signatures: [],
    });
    const sign = ipc(shell, 'offline:sign', [{ input: takeover, accountId: dev.id }]);
    const request = await pendingRequest(shell);
    expect(request.review.risks.map((r) => r.code)).toEqual(
      expect.arrayContaining(['REPLACES_ACCOUNT', 'UPLOAD_CONTRACT']),
    );
    // The right password alone does not approve a flagged request; one risk confirmed is not enough either.
    expect(
      await errorCode(shell, 'approvals:answer', [{ requestId: request.id, approve: true, password: PASSWORD }]),
    ).toBe('APPROVAL_REQUIRED');
    expect(
      await errorCode(shell, 'approvals:answer', [
        { requestId: request.id, approve: true, password: PASSWORD, acknowledgedRisks: ['UPLOAD_CONTRACT'] },
      ]),
    ).toBe('APPROVAL_REQUIRED');
    await value(shell, 'vault:lock');
    expect((await sign).json.error.code).toBe('REJECTED');
    expect((await value(shell, 'approvals:list')).pending).toEqual([]);
    // Locked, nothing even enters the queue.
    expect(await errorCode(shell, 'offline:sign', [{ input: takeover, accountId: dev.id }])).toBe('VAULT_LOCKED');
  });

  it("answers a watch-only account's signing request with a clear error before anyone is asked", async () => {
    const shell = await start({ devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 1 } } });
    await value(shell, 'vault:create', [{ password: PASSWORD }]);
    const watch = await value(shell, 'devnet:importAccount', [{ index: 0, watchOnly: true }]);
    const unsigned = await value(shell, 'offline:exportUnsigned', [
      { fromAccountId: watch.id, to: '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs', token: 'koin', amount: '1' },
    ]);
    expect(await errorCode(shell, 'offline:sign', [{ input: unsigned.base64, accountId: watch.id }])).toBe(
      'WATCH_ONLY',
    );
    expect((await value(shell, 'approvals:list')).pending).toEqual([]);
  });

  it('refuses a send whose payer account is watch-only before anyone is asked: every signer needs a key here', async () => {
    const shell = await start({ devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 2 } } });
    await value(shell, 'vault:create', [{ password: PASSWORD }]);
    const sender = await value(shell, 'devnet:importAccount', [{ index: 0, watchOnly: false }]);
    const watch = await value(shell, 'devnet:importAccount', [{ index: 1, watchOnly: true }]);
    const review = await value(shell, 'send:prepare', [
      {
        fromAccountId: sender.id,
        to: '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs',
        token: 'koin',
        amount: '1',
        payer: { kind: 'account', accountId: watch.id },
      },
    ]);
    expect([review.payer, review.signers]).toEqual([watch.address, [sender.address, watch.address]]);
    expect(await errorCode(shell, 'send:confirm', [{ reviewId: review.reviewId }])).toBe('WATCH_ONLY');
    expect((await value(shell, 'approvals:list')).pending).toEqual([]);
    expect(
      await errorCode(shell, 'send:prepare', [
        {
          fromAccountId: sender.id,
          to: '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs',
          token: 'koin',
          amount: '1',
          payer: { kind: 'account', accountId: 'no-such-account' },
        },
      ]),
    ).toBe('ACCOUNT_NOT_FOUND');
  });
});
