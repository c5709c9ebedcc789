// The one gate every signature passes. A signing request enters this queue with a review that main built from the
// bytes to be signed; only an approver the requester cannot act as (a dialog main draws itself, or the wallet
// password) turns it into an Approval, and every signer (the vault, a key file) refuses to sign without one. A dApp's
// transaction then comes back once more, with the effects its signed dry run showed: only that second answer releases
// what was signed.
import { randomUUID } from 'node:crypto';
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { equalBytes } from '../../koinos/bytes.ts';
import { WalletError } from '../../koinos/errors.ts';
import { prepareTransaction } from '../../koinos/transaction.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { ApprovalAnswer, ApprovalRequest, ApprovalReview, ApprovalState, TransactionEffects } from './types.ts';
import { NOT_SENT } from './approvalText.ts';

/** The origin of the wallet's own screens in a request (a dApp's requests carry the dApp's origin). */
export const WALLET_ORIGIN = 'This wallet';

/** How long a request waits for a decision. */
export const APPROVAL_TTL_MS = 5 * 60_000;
/** How long an approval can be used to sign after it was given (the dry run and the send follow at once). */
const GRANT_TTL_MS = 2 * 60_000;

/**
 * Who decides. `dialog`: main shows the request on a surface it draws itself (Electron's native dialog) and the
 * answer comes from there; the window can only reject. `password`: the answer comes over the IPC contract and must
 * carry the wallet password, which the page does not hold (the browser shell, where main draws nothing).
 */
export type Approver =
  | {
      mode: 'dialog';
      /** Shows the request, the risk flags' second confirmation included; true only when the person approved both. */
      decide(request: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
    }
  | {
      mode: 'password';
      /** @throws WalletError WRONG_PASSWORD (or the vault's throttle) when the password is not the wallet's. */
      checkPassword(password: string): Promise<void>;
    };

export type DialogApprover = Extract<Approver, { mode: 'dialog' }>;

/** What a signer may sign under an approval: the approved transaction, with rc_limit lowered when allowed. */
export interface ApprovalSubject {
  /** The address whose key signs. */
  signer: string;
  /**
   * Other addresses whose keys sign the same transaction under this one approval (a payer account of the wallet beside
   * the sender): the person approves once, for every signer the review names. Each has `uses` signatures of its own.
   */
  coSigners?: readonly string[];
  /** The prepared transaction (id and merkle root set) as approved; for a send, rc_limit is the cap. */
  transaction: Transaction;
  /** Signatures the approval allows each signer: a send signs a dry run after approval and then the transaction (2). */
  uses?: number;
  /** The signed transaction may carry a lower rc_limit than the approved one (sized by a dry run after approval). */
  lowerRcLimit?: boolean;
  /**
   * What is signed is held until a second step confirms its effects (requestEffects): a dApp's transaction, whose
   * events only a signed dry run can show. The approval then allows exactly one such step.
   */
  effectsStep?: boolean;
}

/** What a signer may sign under the approval of a `message` request: this text, once, as this account. */
export interface MessageSubject {
  signer: string;
  /** The UTF-8 bytes of the approved text. */
  message: Uint8Array;
}

/** A decision, as the queue records it (in memory and through `record`): what was decided, never a secret. */
export interface ApprovalRecord {
  requestId: string;
  time: number;
  decision: 'approved' | 'rejected' | 'expired';
  kind: ApprovalReview['kind'];
  origin: string;
  signer: string;
  /** The other signers the same approval covered (a payer account). */
  coSigners?: string[];
  chainId: string;
  nonce: string;
  risks: string[];
  /** Why it was rejected: by whom, or the error of a refused answer. */
  reason?: string;
  /** `effects`: the second step of a dApp's transaction (its release), not its signature. */
  stage?: 'effects';
}

export interface ApprovalQueueOptions {
  approver: Approver;
  /** Milliseconds since the epoch (tests drive time by hand). */
  clock?: () => number;
  ttlMs?: number;
  /** Receives every decision (the wallet appends them to approvals.log). */
  record?: (entry: ApprovalRecord) => void;
  /**
   * Checks a request before anyone is asked (the wallet: it is unlocked and the signer is an account with a key), so
   * that nobody approves what could not be signed anyway. Throws to refuse.
   */
  admit?: (review: ApprovalReview) => void;
}

interface Grant {
  /** The signatures left to each approved signer. */
  usesLeft: Map<string, number>;
  /** The approved transaction's header; absent for a message approval (which signs only `message`). */
  header?: NonNullable<Transaction['header']>;
  message?: Uint8Array;
  lowerRcLimit: boolean;
  expires: number;
  /** The review the person approved: the effects step repeats it, so that it cannot show another request. */
  review: ApprovalReview;
  /** `open`: the approval may enter its one effects step; `used`: it did; absent: it has none. */
  effectsStep?: 'open' | 'used';
}

interface Pending {
  request: ApprovalRequest;
  /** What the approval lets a signer sign; absent for a `connect` request, which signs nothing. */
  subject?: ApprovalSubject | MessageSubject;
  /** The accounts a `connect` approval grants (the answer's choice, or the proposed ones). */
  accounts?: readonly string[];
  /** Set for an effects step: the approval whose signed transaction it releases (approving it issues nothing new). */
  releases?: Approval;
  settle: (approval: Approval | WalletError) => void;
  abort: AbortController;
  timer: ReturnType<typeof setTimeout>;
}

/** The grants the queue issued. Module-private: an Approval made anywhere else is not in it, and signs nothing. */
const grants = new WeakMap<Approval, Grant>();

/** Proof that a person approved one request. Only ApprovalQueue issues valid ones; signers redeem them. */
export class Approval {
  readonly requestId: string;
  /** For a `connect` request: the accounts the person granted. */
  readonly accounts?: readonly string[];
  constructor(requestId: string, accounts?: readonly string[]) {
    this.requestId = requestId;
    if (accounts) this.accounts = Object.freeze([...accounts]);
    Object.freeze(this);
  }
}

function required(message: string): WalletError {
  return new WalletError('APPROVAL_REQUIRED', message, { metaMessages: ['Nothing was signed.'] });
}

/**
 * Checks that `approval` allows signing `transaction` as `signer` (the approved signer or a co-signer), and uses up
 * one of that signer's signatures. Every signer calls it before
 * it touches a key: the header signed (chain ID, nonce, payer, payee, operation merkle root) must be the approved one,
 * and rc_limit the approved one or, where allowed, lower.
 * @throws WalletError APPROVAL_REQUIRED when the approval is missing, was not issued by a queue, is used up or
 *   expired, or does not cover this transaction.
 */
export function redeemApproval(
  approval: Approval | undefined,
  signer: string,
  transaction: Transaction,
  now: number = Date.now(),
): void {
  const grant = approval ? grants.get(approval) : undefined;
  if (!approval || !grant)
    throw required(
      "expected a signing request approved by the wallet's user, got none: a signature needs an approval.",
    );
  const left = grant.usesLeft.get(signer);
  const usedUp = left !== undefined ? left <= 0 : [...grant.usesLeft.values()].every((n) => n <= 0);
  if (usedUp || grant.expires < now) throw required('This approval is used up or expired. Ask again.');
  if (left === undefined || !sameTransaction(grant, transaction)) {
    throw required(
      `expected the transaction approved for ${[...grant.usesLeft.keys()].join(' and ')}, got another one: a signature covers only what the user approved.`,
    );
  }
  grant.usesLeft.set(signer, left - 1);
}

/**
 * True when `transaction`'s header is the approved one (chain ID, nonce, payer, payee, operation merkle root), with
 * rc_limit the approved one or, where allowed, lower.
 */
function sameTransaction(grant: Grant, transaction: Transaction): boolean {
  const header = prepareTransaction(transaction).header;
  const approved = grant.header;
  return (
    header !== undefined &&
    approved !== undefined &&
    equalBytes(header.chain_id, approved.chain_id) &&
    equalBytes(header.nonce, approved.nonce) &&
    equalBytes(header.payer, approved.payer) &&
    equalBytes(header.payee, approved.payee) &&
    equalBytes(header.operation_merkle_root, approved.operation_merkle_root) &&
    (header.rc_limit === approved.rc_limit ||
      (grant.lowerRcLimit && header.rc_limit > 0n && header.rc_limit < approved.rc_limit))
  );
}

/** Why an effects step released nothing, as the caller's error: a person's rejection, the clock, or a failed dialog. */
function effectsRefusal(decision: ApprovalRecord['decision'], reason: string | undefined, error: unknown): WalletError {
  if (error instanceof WalletError) return error;
  const discarded = `The signed transaction was discarded. ${NOT_SENT}`;
  return decision === 'expired'
    ? new WalletError('APPROVAL_EXPIRED', `The transaction's effects were not confirmed in time. ${discarded}`)
    : new WalletError(
        'REJECTED',
        `The transaction was rejected after its dry run. ${discarded}`,
        reason ? { details: reason } : {},
      );
}

/**
 * Checks that `approval` allows signing `message` as `signer` (the text approved in a `message` request), and uses it
 * up: one approval, one message signature.
 * @throws WalletError APPROVAL_REQUIRED when the approval is missing, not issued by a queue, used up or expired, or was
 *   given for another text, another signer or a transaction.
 */
export function redeemMessageApproval(
  approval: Approval | undefined,
  signer: string,
  message: Uint8Array,
  now: number = Date.now(),
): void {
  const grant = approval ? grants.get(approval) : undefined;
  if (!approval || !grant)
    throw required("expected a message approved by the wallet's user, got none: a signature needs an approval.");
  const left = grant.usesLeft.get(signer);
  if (left === undefined || left <= 0 || grant.expires < now)
    throw required('This approval is used up or expired. Ask again.');
  if (!grant.message || !equalBytes(grant.message, message))
    throw required(
      'expected the message the user approved, got another one: a signature covers only what the user approved.',
    );
  grant.usesLeft.set(signer, left - 1);
}

/**
 * @example
 * const queue = new ApprovalQueue({ approver: { mode: 'password', checkPassword: (p) => vault.verifyPassword({ password: p }) } });
 * const approval = await queue.request(review, { signer, transaction }); // waits for approvals:answer
 * const signed = await vault.signTransaction(signer, transaction, approval);
 */
export class ApprovalQueue {
  readonly #approver: Approver;
  readonly #clock: () => number;
  readonly #ttlMs: number;
  readonly #record: (entry: ApprovalRecord) => void;
  readonly #admit: (review: ApprovalReview) => void;
  readonly #pending = new Map<string, Pending>();
  /** Why the queue takes no more requests (the wallet closed), once close() was called. */
  #closed: string | undefined;
  readonly #listeners = new Set<(state: ApprovalState) => void>();
  readonly #decisions: ApprovalRecord[] = [];

  constructor(options: ApprovalQueueOptions) {
    this.#approver = options.approver;
    this.#clock = options.clock ?? Date.now;
    this.#ttlMs = options.ttlMs ?? APPROVAL_TTL_MS;
    this.#record = options.record ?? (() => {});
    this.#admit = options.admit ?? (() => {});
  }

  get mode(): Approver['mode'] {
    return this.#approver.mode;
  }

  /** The requests waiting for a decision, oldest first. */
  state(): ApprovalState {
    return { mode: this.#approver.mode, pending: [...this.#pending.values()].map((p) => p.request) };
  }

  /** The decisions taken since the queue was made, oldest first. */
  decisions(): readonly ApprovalRecord[] {
    return this.#decisions;
  }

  /** Listens to changes of the pending list (the `approvals:changed` push); returns a function that stops it. */
  onChange(listener: (state: ApprovalState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Enters a request and waits for its decision. One request per origin waits at a time.
   * @throws what `admit` throws, WalletError APPROVAL_PENDING (the origin already waits for one), REJECTED, APPROVAL_EXPIRED.
   */
  request(review: ApprovalReview, subject: ApprovalSubject): Promise<Approval> {
    return this.#enter(review, subject);
  }

  /**
   * Enters a `message` request (the review shows the text) and waits for its decision; the approval lets the signer sign
   * this text once (redeemMessageApproval).
   * @throws as request(), and INTERNAL when the review is not of kind `message` or shows another text.
   */
  requestMessage(review: ApprovalReview, subject: MessageSubject): Promise<Approval> {
    if (
      review.kind !== 'message' ||
      review.message === undefined ||
      !equalBytes(new TextEncoder().encode(review.message), subject.message)
    ) {
      return Promise.reject(new WalletError('INTERNAL', 'expected a message review showing the text to be signed'));
    }
    return this.#enter(review, subject);
  }

  /**
   * Enters a `connect` request (a dApp asks for a grant) and waits for its decision: the accounts the person granted
   * (chosen in the answer in `password` mode; in `dialog` mode the proposed ones, which the dialog lists).
   * @throws as request(), and INTERNAL when the review is not of kind `connect`.
   */
  async requestConnection(review: ApprovalReview): Promise<string[]> {
    if (review.kind !== 'connect' || !review.connection)
      throw new WalletError('INTERNAL', 'expected a connect review naming what the dApp asks for');
    const approval = await this.#enter(review, undefined);
    return [...(approval.accounts ?? [])];
  }

  /**
   * The second step of a transaction approved with `effectsStep`: shows the same review with what its signed dry run
   * did (`effects`) and waits. Resolves when the person confirms: only then may the caller release `signed` (hand it
   * to the dApp, or submit it). With `effects.failure` set the step only informs: it cannot be confirmed, and settles
   * when it is closed. No password is asked again (the first step's answer authorised the signature; this one can
   * only let go of what that covered): the approval must be this queue's, approved with `effectsStep`, not used for
   * another step, and `signed` must be the approved transaction (rc_limit lowered at most).
   * @throws WalletError APPROVAL_REQUIRED (an approval this queue did not issue for an effects step, already used, or
   *   another transaction), REJECTED and APPROVAL_EXPIRED (nothing may be released), what `admit` throws.
   */
  async requestEffects(approval: Approval, signed: Transaction, effects: TransactionEffects): Promise<void> {
    const grant = grants.get(approval);
    if (!grant || grant.effectsStep !== 'open' || !grant.header) {
      throw required(
        'expected a transaction approved for a review of its effects, got an approval without one or one already used: nothing is released.',
      );
    }
    grant.effectsStep = 'used';
    if (effects.failure === undefined && !sameTransaction(grant, signed)) {
      throw required(
        'expected the effects of the transaction the user approved, got another one: nothing is released.',
      );
    }
    await this.#enter({ ...grant.review, effects }, undefined, approval);
  }

  #enter(
    review: ApprovalReview,
    subject: ApprovalSubject | MessageSubject | undefined,
    releases?: Approval,
  ): Promise<Approval> {
    if (this.#closed !== undefined) return Promise.reject(rejection(this.#closed));
    try {
      this.#admit(review);
    } catch (error) {
      return Promise.reject(error);
    }
    for (const other of this.#pending.values()) {
      if (other.request.review.origin === review.origin) {
        return Promise.reject(
          new WalletError(
            'APPROVAL_PENDING',
            `Another request${review.origin === WALLET_ORIGIN ? '' : ` from ${review.origin}`} is waiting for your decision. Approve or reject it first.`,
            {
              details: `pending request ${other.request.id} of ${review.origin}`,
            },
          ),
        );
      }
    }
    const now = this.#clock();
    const request: ApprovalRequest = {
      id: randomUUID(),
      createdAt: String(now),
      expiresAt: String(now + this.#ttlMs),
      review,
    };
    return new Promise<Approval>((resolve, reject) => {
      const abort = new AbortController();
      const timer = setTimeout(() => this.#expire(request.id), this.#ttlMs);
      timer.unref?.();
      const settle = (outcome: Approval | WalletError) =>
        outcome instanceof Approval ? resolve(outcome) : reject(outcome);
      this.#pending.set(request.id, { request, subject, settle, abort, timer, ...(releases ? { releases } : {}) });
      this.#changed();
      if (this.#approver.mode === 'dialog') {
        this.#approver.decide(request, abort.signal).then(
          (approved) =>
            this.#settle(
              request.id,
              approved ? 'approved' : 'rejected',
              approved ? undefined : 'rejected in the approval dialog',
            ),
          (error: unknown) =>
            this.#settle(
              request.id,
              'rejected',
              error instanceof WalletError ? error.shortMessage : 'the approval dialog failed',
              error,
            ),
        );
      }
    });
  }

  /**
   * Answers a pending request from the IPC contract. Rejecting needs nothing; approving needs `password` mode, the
   * wallet password, and, for a flagged request, every flag's code acknowledged.
   * @throws WalletError NOT_FOUND (no such pending request), APPROVAL_REQUIRED (approving in dialog mode, or flags not
   *   acknowledged), WRONG_PASSWORD and the vault's throttle.
   */
  async answer(answer: ApprovalAnswer): Promise<{ requestId: string; approved: boolean }> {
    const pending = this.#pending.get(answer.requestId);
    if (!pending)
      throw new WalletError('NOT_FOUND', 'This signing request is no longer waiting (it was answered, or it expired).');
    if (!answer.approve) {
      this.#settle(answer.requestId, 'rejected', 'rejected by the user');
      return { requestId: answer.requestId, approved: false };
    }
    if (this.#approver.mode === 'dialog') {
      throw new WalletError(
        'APPROVAL_REQUIRED',
        "Approve this request in the wallet's own approval dialog; the window can only reject it.",
      );
    }
    const effects = pending.request.review.effects;
    if (effects) {
      // The same request continuing: its signature was approved with the password (and every warning confirmed) in the
      // first step, and this answer can only release that very transaction, once. A failure can only be closed.
      if (effects.failure !== undefined)
        throw new WalletError(
          'INVALID_ARGUMENT',
          'This transaction failed after it was approved: there is nothing to release. Close it.',
        );
      this.#settle(answer.requestId, 'approved');
      return { requestId: answer.requestId, approved: true };
    }
    const connection = pending.request.review.connection;
    let accounts: string[] | undefined;
    if (connection) {
      accounts = answer.accounts ?? connection.accounts;
      const offered = new Set(connection.available.map((a) => a.address));
      const foreign = accounts.filter((a) => !offered.has(a));
      if (accounts.length === 0 || foreign.length > 0) {
        throw new WalletError(
          'INVALID_ARGUMENT',
          accounts.length === 0
            ? 'Choose at least one account to connect, or reject the request.'
            : `expected accounts of this wallet, got ${foreign.join(', ')}`,
        );
      }
    }
    const unacknowledged = pending.request.review.risks.filter(
      (r) => !(answer.acknowledgedRisks ?? []).includes(r.code),
    );
    if (unacknowledged.length > 0) {
      throw new WalletError(
        'APPROVAL_REQUIRED',
        `This request is flagged: confirm each warning before approving (${unacknowledged.map((r) => r.name).join(', ')}).`,
        {
          metaMessages: unacknowledged.map((r) => r.message),
        },
      );
    }
    if (answer.password === undefined || answer.password === '') {
      throw new WalletError('WRONG_PASSWORD', 'Type the wallet password to approve this request.');
    }
    await this.#approver.checkPassword(answer.password);
    if (!this.#pending.has(answer.requestId))
      throw new WalletError('NOT_FOUND', 'This signing request expired while the password was checked.');
    if (accounts) pending.accounts = [...new Set(accounts)];
    this.#settle(answer.requestId, 'approved');
    return { requestId: answer.requestId, approved: true };
  }

  /** Rejects every pending request (the wallet locks). */
  rejectAll(reason: string): void {
    for (const id of [...this.#pending.keys()]) this.#settle(id, 'rejected', reason);
  }

  /**
   * Rejects every pending request, and every later one at once, for `reason` (the wallet closes): a request a dApp
   * makes while the wallet closes is refused at once, not left waiting with no window to show it until it expires.
   */
  close(reason: string): void {
    this.#closed = reason;
    this.rejectAll(reason);
  }

  /** Rejects the pending requests of one origin, either step (a dApp disconnected). */
  rejectOrigin(origin: string, reason: string): void {
    for (const [id, pending] of [...this.#pending]) {
      if (pending.request.review.origin === origin) this.#settle(id, 'rejected', reason);
    }
  }

  #expire(id: string): void {
    this.#settle(id, 'expired', 'no decision in time');
  }

  #settle(id: string, decision: ApprovalRecord['decision'], reason?: string, error?: unknown): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    pending.abort.abort();
    const { review } = pending.request;
    const entry: ApprovalRecord = {
      requestId: id,
      time: this.#clock(),
      decision,
      kind: review.kind,
      origin: review.origin,
      signer: review.signer,
      ...(review.coSigners && review.coSigners.length > 0 ? { coSigners: [...review.coSigners] } : {}),
      chainId: review.chainId,
      nonce: review.nonce,
      risks: review.risks.map((r) => r.code),
      ...(reason ? { reason } : {}),
      ...(review.effects ? { stage: 'effects' as const } : {}),
    };
    this.#decisions.push(entry);
    try {
      this.#record(entry);
    } catch {
      // A record that cannot be written does not change the decision; the in-memory list still has it.
    }
    if (pending.releases) {
      pending.settle(decision === 'approved' ? pending.releases : effectsRefusal(decision, reason, error));
    } else if (decision === 'approved') {
      const subject = pending.subject;
      // A dialog approves the accounts it listed: the proposed ones.
      const approval = new Approval(
        id,
        review.connection ? (pending.accounts ?? review.connection.accounts) : undefined,
      );
      if (subject && 'message' in subject) {
        grants.set(approval, {
          usesLeft: new Map([[subject.signer, 1]]),
          message: subject.message,
          lowerRcLimit: false,
          expires: this.#clock() + GRANT_TTL_MS,
          review,
        });
      } else if (subject) {
        const prepared = prepareTransaction(subject.transaction);
        const uses = subject.uses ?? 1;
        grants.set(approval, {
          usesLeft: new Map([subject.signer, ...(subject.coSigners ?? [])].map((s) => [s, uses])),
          header: prepared.header!,
          lowerRcLimit: subject.lowerRcLimit ?? false,
          expires: this.#clock() + GRANT_TTL_MS,
          review,
          ...(subject.effectsStep ? { effectsStep: 'open' as const } : {}),
        });
      }
      pending.settle(approval);
    } else if (decision === 'expired') {
      pending.settle(
        new WalletError(
          'APPROVAL_EXPIRED',
          'The signing request was not answered in time. Nothing was signed; try again.',
        ),
      );
    } else if (error instanceof WalletError) {
      pending.settle(error); // the approver's own refusal (the CLI's missing --allow-risk) says best what to do
    } else {
      pending.settle(rejection(reason));
    }
    this.#changed();
  }

  #changed(): void {
    const state = this.state();
    for (const listener of this.#listeners) listener(state);
  }
}

/** What a rejected request fails with; `reason` (the wallet locked, closed) in its details. */
function rejection(reason: string | undefined): WalletError {
  return new WalletError(
    'REJECTED',
    'The signing request was rejected. Nothing was signed or sent.',
    reason ? { details: reason } : {},
  );
}

/** The chain ID of a transaction as reviews show it. */
export function chainIdText(transaction: Transaction): string {
  return bytesToJson(transaction.header?.chain_id ?? new Uint8Array(), BTYPE.BASE64);
}
