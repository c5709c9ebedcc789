// The Electron shell's approver, over a stand-in for Electron's dialog.showMessageBox (Electron cannot run here): what
// the native dialog says, that Reject is the default, that a flagged request asks twice, that the window cannot
// approve while the dialog is open, and that one request's dialog is open at a time.
import { describe, expect, it } from 'vitest';
import type { MessageBoxOptions, MessageBoxReturnValue } from 'electron';
import type { ApprovalRequest, RiskFlag } from '../../src-main/ipc/contract.ts';
import { approvalDialogs, dialogApprover } from '../../src-main/shells/electron/approvalDialog.ts';
import { ApprovalQueue, WALLET_ORIGIN } from '../../src-main/wallet/approvals/approvalQueue.ts';
import { groupAddress } from '../../src-main/wallet/approvals/approvalText.ts';
import { nonceToBytes } from '../../src-main/koinos/transaction.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { until } from '../helpers/until.ts';

const FROM = '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs';
const TO = '1Dj2Gu3ZbZhkDoWeXZJBGfL8fkhPbygLmZ';
const UPLOAD: RiskFlag = {
  code: 'REPLACES_ACCOUNT',
  name: 'replaces-account',
  message: 'It replaces this account with contract code.',
};

function request(risks: RiskFlag[] = []): ApprovalRequest {
  return {
    id: 'r1',
    createdAt: '0',
    expiresAt: '1',
    review: {
      kind: 'send',
      origin: WALLET_ORIGIN,
      networkName: 'Koinos Mainnet',
      chainId: 'EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3ejxRSewi7qIBfSA==',
      signer: FROM,
      payer: FROM,
      nonce: '7',
      rcLimit: '250000000',
      rcEstimate: '3000000',
      operations: [
        {
          contract: '19GYjDBVXU7keLbYvMLazsGQn3GTWHjHkK',
          entryPoint: 'transfer',
          args: { from: FROM, to: TO, value: '150000000' },
          summary: 'Transfer 1.5 KOIN',
        },
      ],
      risks,
    },
  };
}

/** A stand-in for dialog.showMessageBox that answers from a script and keeps what it was shown. */
function scriptedDialog(responses: number[]) {
  const shown: MessageBoxOptions[] = [];
  const show = async (options: MessageBoxOptions): Promise<MessageBoxReturnValue> => {
    shown.push(options);
    return { response: responses.shift() ?? 0, checkboxChecked: false };
  };
  return { show, shown };
}

describe('the native approval dialog', () => {
  it('shows every address in full, grouped, with the mana cap and the estimate marked as one; Reject is the default', () => {
    const [first, ...rest] = approvalDialogs(request());
    expect(rest).toEqual([]);
    expect(first!.message).toBe('Sign and send on Koinos Mainnet?');
    expect(first!.detail).toContain(`to: ${groupAddress(TO)}`);
    expect(first!.detail).toContain(`Signed by: ${groupAddress(FROM)}`);
    expect(groupAddress(TO).replaceAll(' ', '')).toBe(TO);
    expect(first!.detail).toContain('Mana: at most 2.5 (about 0.03 expected, an estimate)');
    expect(first!.buttons).toEqual(['Reject', 'Sign and send']);
    expect(first!.defaultId).toBe(0);
    expect(first!.cancelId).toBe(0);
  });

  it('asks a second time for a flagged request, naming each risk', async () => {
    const dialogs = approvalDialogs(request([UPLOAD]));
    expect(dialogs).toHaveLength(2);
    expect(dialogs[0]!.detail).toContain(UPLOAD.message);
    expect(dialogs[1]!.detail).toContain(UPLOAD.message);

    const once = scriptedDialog([1, 0]); // approves the review, then declines the warning
    expect(await dialogApprover(once.show).decide(request([UPLOAD]), new AbortController().signal)).toBe(false);
    const twice = scriptedDialog([1, 1]);
    expect(await dialogApprover(twice.show).decide(request([UPLOAD]), new AbortController().signal)).toBe(true);
    expect(twice.shown).toHaveLength(2);
  });

  it('approves through the queue only from the dialog; the window can reject, which dismisses the dialog', async () => {
    let signal: AbortSignal | undefined;
    const queue = new ApprovalQueue({
      approver: dialogApprover((options) => {
        signal = options.signal;
        return new Promise((resolve) =>
          options.signal!.addEventListener('abort', () => resolve({ response: 0, checkboxChecked: false })),
        );
      }),
    });
    const transaction = {
      id: new Uint8Array(),
      header: {
        chain_id: new Uint8Array([1]),
        rc_limit: 1n,
        nonce: nonceToBytes(1n),
        operation_merkle_root: new Uint8Array(),
        payer: addressFromString(FROM),
        payee: new Uint8Array(),
      },
      operations: [],
      signatures: [],
    };
    const asked = queue.request(request().review, { signer: FROM, transaction });
    const id = queue.state().pending[0]!.id;
    await expect(queue.answer({ requestId: id, approve: true, password: 'x' })).rejects.toMatchObject({
      code: 'APPROVAL_REQUIRED',
    });
    await queue.answer({ requestId: id, approve: false });
    await expect(asked).rejects.toMatchObject({ code: 'REJECTED' });
    expect(signal?.aborted).toBe(true);
  });

  it("shows one request's dialog at a time, in order, and never one rejected while it waited", async () => {
    const open: { options: MessageBoxOptions; answer: (response: number) => void }[] = [];
    const approver = dialogApprover(
      (options) =>
        new Promise((resolve) =>
          open.push({ options, answer: (response) => resolve({ response, checkboxChecked: false }) }),
        ),
    );
    const named = (id: string, origin: string): ApprovalRequest => ({
      ...request(),
      id,
      review: { ...request().review, origin },
    });
    const first = approver.decide(named('a', 'https://one.example'), new AbortController().signal);
    const second = approver.decide(named('b', 'https://two.example'), new AbortController().signal);
    const dropped = new AbortController();
    const third = approver.decide(named('c', 'https://three.example'), dropped.signal);
    await until('the first dialog', async () => (open.length > 0 ? true : undefined));
    dropped.abort();
    open[0]!.answer(1);
    expect(await first).toBe(true);
    await until('the second dialog', async () => (open.length > 1 ? true : undefined));
    expect(open.map((d) => d.options.detail?.includes('two.example') ?? false)).toEqual([false, true]);
    open[1]!.answer(0);
    expect(await second).toBe(false);
    expect(await third).toBe(false);
    expect(open).toHaveLength(2);
  });
});

describe("the native dialog of a dApp's requests", () => {
  const base = request().review;

  it('lists what a connection grants: the declared address as unverified, networks, the proposed accounts, methods', () => {
    const [dialog, second] = approvalDialogs({
      ...request(),
      review: {
        ...base,
        kind: 'connect',
        origin: 'https://app.example',
        connection: {
          name: 'App',
          url: 'https://app.example/',
          transport: 'walletconnect',
          chains: [{ chain: 'koinos:EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3e', networkName: 'Koinos Mainnet' }],
          methods: ['koinos_signMessage', 'koinos_getNonce'],
          accounts: [FROM],
          available: [
            { address: FROM, name: 'Main', watchOnly: false },
            { address: TO, name: 'Cold', watchOnly: true },
          ],
        },
      },
    });
    expect(second).toBeUndefined();
    expect(dialog).toMatchObject({
      title: 'Approve a connection',
      message: 'Connect App?',
      buttons: ['Reject', 'Connect'],
      defaultId: 0,
    });
    expect(dialog!.detail!.split('\n')).toEqual([
      'Requested by: https://app.example',
      'Declared address: https://app.example/ (declared by the dApp, not verified)',
      'Networks: Koinos Mainnet (koinos:EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3e)',
      'Accounts it will see and may ask to sign with:',
      `   Main: ${groupAddress(FROM)}`,
      'Methods: koinos_signMessage, koinos_getNonce',
      'Every signature still asks for your approval.',
    ]);
  });

  it("lists a transaction's effects in a second dialog of their own, with no second warning; Reject is the default", async () => {
    const effects = {
      dryRun: true,
      events: [
        {
          contract: '19GYjDBVXU7keLbYvMLazsGQn3GTWHjHkK',
          name: 'koinos.contracts.token.transfer_event',
          data: { from: FROM, to: TO, value: '150000000' },
          impacted: [TO, FROM],
          summary: `Transfer 1.5 KOIN from ${FROM} to ${TO}`,
        },
        { contract: TO, name: 'app.greeted', data: { who: 'you' }, impacted: [] },
      ],
      rcUsed: '2000000',
      rcLimit: '2200000',
      transactionId: '0x1220ab',
    };
    const flagged = {
      ...request([UPLOAD]),
      review: { ...base, origin: 'https://app.example', risks: [UPLOAD], effects },
    };
    const dialogs = approvalDialogs(flagged);
    expect(dialogs).toHaveLength(1); // the warning was confirmed in the first step
    expect(dialogs[0]).toMatchObject({
      title: 'Confirm what the transaction does',
      message: 'Send it on Koinos Mainnet?',
      buttons: ['Reject', 'Send it'],
      defaultId: 0,
      cancelId: 0,
    });
    expect(dialogs[0]!.detail!.split('\n')).toEqual([
      'Requested by: https://app.example',
      'Approved: Transfer 1.5 KOIN',
      '',
      'It is signed and held: it is sent only if you confirm.',
      'Its dry run ran on the node with a copy signed after your first approval: a node you do not trust could still send that copy.',
      'Its dry run emitted:',
      `1. Transfer 1.5 KOIN from ${FROM} to ${TO}`,
      `2. app.greeted from ${TO} {"who":"you"}`,
      'Mana: 0.02 used in the dry run; at most 0.022 (the rc_limit it is signed with)',
      'Transaction ID: 0x1220ab',
    ]);
    const confirmed = scriptedDialog([1]);
    expect(await dialogApprover(confirmed.show).decide(flagged, new AbortController().signal)).toBe(true);
    expect(confirmed.shown).toHaveLength(1);
  });

  it('shows a failure after the approval with Close only, which releases nothing', async () => {
    const failed = {
      ...request(),
      review: {
        ...base,
        kind: 'sign' as const,
        effects: {
          dryRun: false,
          events: [],
          rcLimit: '1',
          transactionId: '',
          failure: 'The chain would revert this transaction.',
        },
      },
    };
    const [dialog, second] = approvalDialogs(failed);
    expect(second).toBeUndefined();
    expect(dialog).toMatchObject({
      type: 'error',
      message: 'This transaction failed after your approval on Koinos Mainnet',
      buttons: ['Close'],
    });
    expect(dialog!.detail).toContain(
      'The chain would revert this transaction.\n\nIt was not sent: the node saw at most the copy signed for its dry run.',
    );
    expect(await dialogApprover(scriptedDialog([0]).show).decide(failed, new AbortController().signal)).toBe(false);
  });

  it('shows a message to sign as its exact text', () => {
    const [dialog] = approvalDialogs({
      ...request(),
      review: { ...base, kind: 'message', origin: 'https://app.example', message: 'Sign in\nnonce 42' },
    });
    expect(dialog).toMatchObject({ message: 'Sign a message on Koinos Mainnet?', buttons: ['Reject', 'Sign message'] });
    expect(dialog!.detail).toBe(
      `Requested by: https://app.example\nSigned by: ${groupAddress(FROM)}\nMessage:\nSign in\nnonce 42`,
    );
  });
});
