// The approval queue on its own: a request waits for a decision from an approver the requester cannot act as; only an
// approval it issued lets a signer sign, and only the approved transaction, as many times as approved.
import { describe, expect, it } from 'vitest';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { nonceToBytes, prepareTransaction, recoverSigners } from '../../../src-main/koinos/transaction.ts';
import type { Transaction } from '../../../src-main/koinos/types.ts';
import { WalletError } from '../../../src-main/koinos/errors.ts';
import type { ApprovalReview, RiskFlag } from '../../../src-main/ipc/contract.ts';
import {
  Approval,
  ApprovalQueue,
  WALLET_ORIGIN,
  redeemApproval,
  redeemMessageApproval,
  type ApprovalRecord,
} from '../../../src-main/wallet/approvals/approvalQueue.ts';
import { PrivateKeySigner } from '../../../src-main/wallet/chain/privateKeySigner.ts';
import { parsePrivateKey } from '../../../src-main/koinos/keys.ts';
import { vector } from '../../vectors.ts';

const key = vector('koilib-key-1');
const signerAddress: string = key.address_compressed;

function tx(overrides: { rc?: bigint; nonce?: bigint } = {}): Transaction {
  return prepareTransaction({
    id: new Uint8Array(),
    header: {
      chain_id: Uint8Array.from([0x12, 0x20, ...new Uint8Array(32).fill(3)]),
      rc_limit: overrides.rc ?? 1_000n,
      nonce: nonceToBytes(overrides.nonce ?? 1n),
      operation_merkle_root: new Uint8Array(),
      payer: addressFromString(signerAddress),
      payee: new Uint8Array(),
    },
    operations: [],
    signatures: [],
  });
}

function review(risks: RiskFlag[] = [], origin = WALLET_ORIGIN): ApprovalReview {
  return {
    kind: 'sign',
    origin,
    chainId: 'EiA',
    signer: signerAddress,
    payer: signerAddress,
    nonce: '1',
    rcLimit: '1000',
    operations: [],
    risks,
  };
}

const UPLOAD: RiskFlag = { code: 'UPLOAD_CONTRACT', name: 'upload-contract', message: 'It uploads contract code.' };

/** A password approver whose password is "right", counting the checks. */
function passwordQueue(options: { ttlMs?: number; records?: ApprovalRecord[] } = {}) {
  const checks: string[] = [];
  const queue = new ApprovalQueue({
    approver: {
      mode: 'password',
      checkPassword: async (password) => {
        checks.push(password);
        if (password !== 'right') throw new WalletError('WRONG_PASSWORD', 'That is not the wallet password.');
      },
    },
    ...(options.ttlMs ? { ttlMs: options.ttlMs } : {}),
    record: (entry) => options.records?.push(entry),
  });
  return { queue, checks };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WalletError) return error.code;
    throw error;
  }
  throw new Error('expected a WalletError, got success');
}

const signer = new PrivateKeySigner([parsePrivateKey(key.wif_compressed).privateKey]);

describe('ApprovalQueue', () => {
  it('lists a request until the password approves it, and the approval then signs that transaction once', async () => {
    const records: ApprovalRecord[] = [];
    const { queue, checks } = passwordQueue({ records });
    const changes: number[] = [];
    queue.onChange((state) => changes.push(state.pending.length));
    const asked = queue.request(review(), { signer: signerAddress, transaction: tx() });
    const [pending] = queue.state().pending;
    expect(pending?.review.signer).toBe(signerAddress);
    expect(queue.state().mode).toBe('password');

    expect(await codeOf(queue.answer({ requestId: pending!.id, approve: true, password: 'wrong' }))).toBe(
      'WRONG_PASSWORD',
    );
    expect(await codeOf(queue.answer({ requestId: pending!.id, approve: true }))).toBe('WRONG_PASSWORD');
    expect(queue.state().pending).toHaveLength(1); // a wrong password leaves the request waiting
    expect(await queue.answer({ requestId: pending!.id, approve: true, password: 'right' })).toEqual({
      requestId: pending!.id,
      approved: true,
    });
    const approval = await asked;
    expect(checks).toEqual(['wrong', 'right']);
    expect(changes).toEqual([1, 0]);
    expect(records.map((r) => r.decision)).toEqual(['approved']);
    expect(JSON.stringify(records)).not.toContain('right'); // the password is never recorded

    const signed = await signer.signTransaction(signerAddress, tx(), approval);
    expect(recoverSigners(signed)[0]?.address).toBe(signerAddress);
    expect(await codeOf(signer.signTransaction(signerAddress, tx(), approval))).toBe('APPROVAL_REQUIRED'); // used up
  });

  it("rejects on the user's word, and the requester gets REJECTED with nothing to sign with", async () => {
    const records: ApprovalRecord[] = [];
    const { queue, checks } = passwordQueue({ records });
    const asked = queue.request(review(), { signer: signerAddress, transaction: tx() });
    await queue.answer({ requestId: queue.state().pending[0]!.id, approve: false });
    expect(await codeOf(asked)).toBe('REJECTED');
    expect(checks).toEqual([]); // rejecting needs no password
    expect(records.map((r) => r.decision)).toEqual(['rejected']);
    expect(queue.state().pending).toEqual([]);
  });

  it('expires a request nobody answers', async () => {
    const records: ApprovalRecord[] = [];
    const { queue } = passwordQueue({ ttlMs: 20, records });
    const asked = queue.request(review(), { signer: signerAddress, transaction: tx() });
    expect(await codeOf(asked)).toBe('APPROVAL_EXPIRED');
    expect(records.map((r) => r.decision)).toEqual(['expired']);
    expect(await codeOf(queue.answer({ requestId: records[0]!.requestId, approve: true, password: 'right' }))).toBe(
      'NOT_FOUND',
    );
  });

  it('needs every risk flag acknowledged before a flagged request is approved', async () => {
    const { queue, checks } = passwordQueue();
    const asked = queue.request(review([UPLOAD]), { signer: signerAddress, transaction: tx() });
    const id = queue.state().pending[0]!.id;
    const refused = await queue
      .answer({ requestId: id, approve: true, password: 'right' })
      .catch((e: unknown) => e as WalletError);
    expect(refused).toBeInstanceOf(WalletError);
    expect((refused as WalletError).code).toBe('APPROVAL_REQUIRED');
    expect((refused as WalletError).shortMessage).toContain('upload-contract');
    expect(checks).toEqual([]); // refused before the password is even checked
    await queue.answer({ requestId: id, approve: true, password: 'right', acknowledgedRisks: ['UPLOAD_CONTRACT'] });
    expect(await asked).toBeInstanceOf(Approval);
  });

  it('keeps one pending request per origin', async () => {
    const { queue } = passwordQueue();
    const first = queue.request(review(), { signer: signerAddress, transaction: tx() });
    expect(await codeOf(queue.request(review(), { signer: signerAddress, transaction: tx({ nonce: 2n }) }))).toBe(
      'APPROVAL_PENDING',
    );
    const other = queue.request(review([], 'https://dapp.example'), {
      signer: signerAddress,
      transaction: tx({ nonce: 2n }),
    });
    expect(queue.state().pending).toHaveLength(2);
    queue.rejectAll('the wallet locked');
    expect(await codeOf(first)).toBe('REJECTED');
    expect(await codeOf(other)).toBe('REJECTED');
  });

  it('once closed, rejects what waits and every later request at once, saying why', async () => {
    const { queue } = passwordQueue();
    const waiting = queue.request(review(), { signer: signerAddress, transaction: tx() });
    queue.close('the wallet closed');
    const rejected = { code: 'REJECTED', details: 'the wallet closed' };
    await expect(waiting).rejects.toMatchObject(rejected);
    await expect(
      queue.request(review(), { signer: signerAddress, transaction: tx({ nonce: 2n }) }),
    ).rejects.toMatchObject(rejected);
    expect(queue.state().pending).toEqual([]);
  });

  it('in dialog mode approves only from the dialog: an IPC answer can reject but not approve', async () => {
    let release: (approved: boolean) => void = () => {};
    const queue = new ApprovalQueue({
      approver: { mode: 'dialog', decide: () => new Promise<boolean>((resolve) => (release = resolve)) },
    });
    const asked = queue.request(review(), { signer: signerAddress, transaction: tx() });
    const id = queue.state().pending[0]!.id;
    expect(await codeOf(queue.answer({ requestId: id, approve: true, password: 'anything' }))).toBe(
      'APPROVAL_REQUIRED',
    );
    expect(queue.state().pending).toHaveLength(1);
    release(true);
    expect(await asked).toBeInstanceOf(Approval);

    const second = queue.request(review(), { signer: signerAddress, transaction: tx({ nonce: 2n }) });
    await queue.answer({ requestId: queue.state().pending[0]!.id, approve: false }); // the window rejects: the dialog is dismissed
    expect(await codeOf(second)).toBe('REJECTED');
  });
});

describe('redeemApproval', () => {
  async function approved(
    subject: { uses?: number; lowerRcLimit?: boolean; coSigners?: string[] } = {},
  ): Promise<Approval> {
    const queue = new ApprovalQueue({ approver: { mode: 'dialog', decide: async () => true } });
    return queue.request(review(), { signer: signerAddress, transaction: tx(), ...subject });
  }

  it('refuses a signature with no approval, or with one the queue did not issue', async () => {
    expect(await codeOf(signer.signTransaction(signerAddress, tx(), undefined as never))).toBe('APPROVAL_REQUIRED');
    expect(await codeOf(signer.signTransaction(signerAddress, tx(), new Approval('forged')))).toBe('APPROVAL_REQUIRED');
  });

  it('refuses another transaction, another signer, or a higher rc_limit than approved', async () => {
    const approval = await approved({ uses: 5, lowerRcLimit: true });
    expect(() => redeemApproval(approval, signerAddress, tx({ nonce: 2n }))).toThrow(/approved for/);
    expect(() => redeemApproval(approval, '1KoilibOtherAccountAddressForTests', tx())).toThrow(/approved for/);
    expect(() => redeemApproval(approval, signerAddress, tx({ rc: 1_001n }))).toThrow(/approved for/);
    expect(() => redeemApproval(approval, signerAddress, tx({ rc: 0n }))).toThrow(/approved for/);
    redeemApproval(approval, signerAddress, tx({ rc: 400n })); // lower: allowed when the approval says so
    redeemApproval(approval, signerAddress, tx());
  });

  it('allows a lower rc_limit only when the approval says so, and only as many signatures as approved', async () => {
    const exact = await approved();
    expect(() => redeemApproval(exact, signerAddress, tx({ rc: 400n }))).toThrow(/approved for/);
    const twice = await approved({ uses: 2, lowerRcLimit: true });
    redeemApproval(twice, signerAddress, tx());
    redeemApproval(twice, signerAddress, tx({ rc: 500n }));
    expect(() => redeemApproval(twice, signerAddress, tx({ rc: 500n }))).toThrow(/used up/);
  });

  it('covers each co-signer named in the request (a payer account) with its own count of signatures, and nobody else', async () => {
    const payer = '1KoilibOtherAccountAddressForTests';
    const both = await approved({ uses: 2, coSigners: [payer] });
    redeemApproval(both, signerAddress, tx());
    redeemApproval(both, payer, tx());
    redeemApproval(both, payer, tx());
    expect(() => redeemApproval(both, payer, tx())).toThrow(/used up/);
    redeemApproval(both, signerAddress, tx()); // the sender's second signature is still its own
    expect(() => redeemApproval(both, signerAddress, tx())).toThrow(/used up/);
    const alone = await approved({ uses: 2, coSigners: [payer] });
    expect(() => redeemApproval(alone, '1ThirdAccountNotInTheApproval', tx())).toThrow(
      /approved for .* and 1KoilibOther/,
    );
    expect(() => redeemApproval(alone, payer, tx({ nonce: 2n }))).toThrow(/approved for/);
  });

  it('records the co-signers with the decision', async () => {
    const records: ApprovalRecord[] = [];
    const queue = new ApprovalQueue({
      approver: { mode: 'dialog', decide: async () => true },
      record: (r) => records.push(r),
    });
    await queue.request(
      { ...review(), coSigners: ['1KoilibOtherAccountAddressForTests'] },
      { signer: signerAddress, coSigners: ['1KoilibOtherAccountAddressForTests'], transaction: tx() },
    );
    expect(records.map((r) => [r.decision, r.signer, r.coSigners])).toEqual([
      ['approved', signerAddress, ['1KoilibOtherAccountAddressForTests']],
    ]);
  });

  it('expires an approval that is not used in time', async () => {
    const approval = await approved();
    expect(() => redeemApproval(approval, signerAddress, tx(), Date.now() + 3 * 60_000)).toThrow(/expired/);
  });
});

describe('connect and message requests (dApps)', () => {
  const other = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
  function connectReview(): ApprovalReview {
    return {
      kind: 'connect',
      origin: 'https://app.example',
      chainId: '',
      signer: '',
      payer: '',
      nonce: '',
      rcLimit: '0',
      operations: [],
      risks: [],
      connection: {
        name: 'App',
        url: 'https://app.example',
        transport: 'walletconnect',
        chains: [{ chain: 'koinos:EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3e', networkName: 'Mainnet' }],
        methods: ['koinos_signMessage'],
        accounts: [signerAddress],
        available: [
          { address: signerAddress, name: 'Main', watchOnly: false },
          { address: other, name: 'Watched', watchOnly: true },
        ],
      },
    };
  }
  const messageReview = (message: string): ApprovalReview => ({
    ...review([], 'https://app.example'),
    kind: 'message',
    message,
  });
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('grants the accounts the person picked with the password, and only accounts the request offered', async () => {
    const { queue } = passwordQueue();
    const granted = queue.requestConnection(connectReview());
    const id = queue.state().pending[0]!.id;
    expect(
      await codeOf(
        queue.answer({
          requestId: id,
          approve: true,
          password: 'right',
          accounts: ['1AGNa15ZQXAZUgFiqJ2i7Z2DPU2J6hW62i'],
        }),
      ),
    ).toBe('INVALID_ARGUMENT');
    expect(await codeOf(queue.answer({ requestId: id, approve: true, password: 'right', accounts: [] }))).toBe(
      'INVALID_ARGUMENT',
    );
    await queue.answer({ requestId: id, approve: true, password: 'right', accounts: [other, signerAddress] });
    expect(await granted).toEqual([other, signerAddress]);
  });

  it('grants the proposed accounts when a dialog approves', async () => {
    const queue = new ApprovalQueue({ approver: { mode: 'dialog', decide: async () => true } });
    expect(await queue.requestConnection(connectReview())).toEqual([signerAddress]);
  });

  it('rejects a connection the person rejected', async () => {
    const { queue } = passwordQueue();
    const granted = queue.requestConnection(connectReview());
    await queue.answer({ requestId: queue.state().pending[0]!.id, approve: false });
    expect(await codeOf(granted)).toBe('REJECTED');
  });

  it('lets an approved message be signed once, as its signer, and no other text or transaction', async () => {
    const queue = new ApprovalQueue({ approver: { mode: 'dialog', decide: async () => true } });
    const approval = await queue.requestMessage(messageReview('hello'), {
      signer: signerAddress,
      message: bytes('hello'),
    });
    expect(() => redeemMessageApproval(approval, signerAddress, bytes('hellO'))).toThrow(/approved/);
    expect(() => redeemMessageApproval(approval, other, bytes('hello'))).toThrow(/used up or expired/);
    expect(() => redeemApproval(approval, signerAddress, tx())).toThrow(WalletError);
    redeemMessageApproval(approval, signerAddress, bytes('hello'));
    expect(() => redeemMessageApproval(approval, signerAddress, bytes('hello'))).toThrow(/used up/);
  });

  it('refuses a message request whose review shows another text than the one to be signed', async () => {
    const queue = new ApprovalQueue({ approver: { mode: 'dialog', decide: async () => true } });
    expect(
      await codeOf(queue.requestMessage(messageReview('shown'), { signer: signerAddress, message: bytes('signed') })),
    ).toBe('INTERNAL');
  });

  it('a transaction approval does not sign a message', async () => {
    const queue = new ApprovalQueue({ approver: { mode: 'dialog', decide: async () => true } });
    const approval = await queue.request(review(), { signer: signerAddress, transaction: tx() });
    expect(() => redeemMessageApproval(approval, signerAddress, bytes('hello'))).toThrow(/approved/);
  });
});

describe("the effects step of a dApp's transaction", () => {
  const EFFECTS = { dryRun: true, events: [], rcUsed: '300', rcLimit: '330', transactionId: '0x1220' };

  /** A transaction approved with the password, with an effects step to come. */
  async function approvedForEffects(options: { ttlMs?: number; records?: ApprovalRecord[] } = {}) {
    const { queue, checks } = passwordQueue(options);
    const asked = queue.request(review([UPLOAD], 'https://dapp.example'), {
      signer: signerAddress,
      transaction: tx(),
      uses: 2,
      lowerRcLimit: true,
      effectsStep: true,
    });
    await queue.answer({
      requestId: queue.state().pending[0]!.id,
      approve: true,
      password: 'right',
      acknowledgedRisks: ['UPLOAD_CONTRACT'],
    });
    return { queue, checks, approval: await asked };
  }

  it("shows the first step's review with the effects, and releases on a confirmation that needs no second password", async () => {
    const records: ApprovalRecord[] = [];
    const { queue, checks, approval } = await approvedForEffects({ records });
    const released = queue.requestEffects(approval, tx({ rc: 330n }), EFFECTS);
    const [step] = queue.state().pending;
    expect(step!.review).toMatchObject({
      kind: 'sign',
      origin: 'https://dapp.example',
      signer: signerAddress,
      nonce: '1',
      effects: EFFECTS,
    });
    expect(step!.review.risks.map((r) => r.code)).toEqual(['UPLOAD_CONTRACT']);
    await queue.answer({ requestId: step!.id, approve: true });
    await expect(released).resolves.toBeUndefined();
    expect(checks).toEqual(['right']); // the first step's password only
    expect(records.map((r) => [r.decision, r.stage])).toEqual([
      ['approved', undefined],
      ['approved', 'effects'],
    ]);
  });

  it('discards on a rejection or when nobody answers in time: the caller gets REJECTED or APPROVAL_EXPIRED', async () => {
    const { queue, approval } = await approvedForEffects();
    const released = queue.requestEffects(approval, tx(), EFFECTS);
    await queue.answer({ requestId: queue.state().pending[0]!.id, approve: false });
    const rejected = await released.catch((e: unknown) => e as WalletError);
    expect(rejected).toMatchObject({ code: 'REJECTED', shortMessage: expect.stringContaining('discarded') });

    const late = await approvedForEffects({ ttlMs: 20 });
    expect(await codeOf(late.queue.requestEffects(late.approval, tx(), EFFECTS))).toBe('APPROVAL_EXPIRED');
  });

  it('enters one effects step per approval, only for an approval that asked for one, and only for the approved transaction', async () => {
    const { queue, approval } = await approvedForEffects();
    expect(await codeOf(queue.requestEffects(new Approval(approval.requestId), tx(), EFFECTS))).toBe(
      'APPROVAL_REQUIRED',
    );
    expect(await codeOf(queue.requestEffects(approval, tx({ nonce: 2n }), EFFECTS))).toBe('APPROVAL_REQUIRED');
    // The refused attempt used the step up: nothing signed under this approval can be released any more.
    expect(await codeOf(queue.requestEffects(approval, tx(), EFFECTS))).toBe('APPROVAL_REQUIRED');
    expect(queue.state().pending).toEqual([]);

    const plain = new ApprovalQueue({ approver: { mode: 'dialog', decide: async () => true } });
    const without = await plain.request(review(), { signer: signerAddress, transaction: tx() });
    expect(await codeOf(plain.requestEffects(without, tx(), EFFECTS))).toBe('APPROVAL_REQUIRED');
  });

  it('lets a failure after the approval be closed, never confirmed', async () => {
    const { queue, approval } = await approvedForEffects();
    const shown = queue.requestEffects(approval, tx(), {
      ...EFFECTS,
      dryRun: false,
      events: [],
      failure: 'The chain would revert this transaction.',
    });
    const id = queue.state().pending[0]!.id;
    expect(await codeOf(queue.answer({ requestId: id, approve: true, password: 'right' }))).toBe('INVALID_ARGUMENT');
    await queue.answer({ requestId: id, approve: false });
    expect(await codeOf(shown)).toBe('REJECTED');
  });

  it('in dialog mode takes the release from the dialog only, as the first step', async () => {
    const answers = [true];
    let release: (approved: boolean) => void = () => {};
    const queue = new ApprovalQueue({
      approver: {
        mode: 'dialog',
        decide: () =>
          answers.length > 0
            ? Promise.resolve(answers.shift()!)
            : new Promise<boolean>((resolve) => (release = resolve)),
      },
    });
    const approval = await queue.request(review(), { signer: signerAddress, transaction: tx(), effectsStep: true });
    const released = queue.requestEffects(approval, tx(), EFFECTS);
    expect(await codeOf(queue.answer({ requestId: queue.state().pending[0]!.id, approve: true }))).toBe(
      'APPROVAL_REQUIRED',
    );
    release(true);
    await expect(released).resolves.toBeUndefined();
  });
});
