// The approval queue's vocabulary: what a person reviews before anything is signed, the requests waiting for an
// answer, and the answer. Types only: the IPC contract re-exports them for the renderer.
import type { DecodedOperation, RiskCode, RiskFlag, UintString } from '../chain/types.ts';
import type { DappConnectionRequest } from '../dapps/types.ts';

/** What a person approves: built in main from the bytes that will be signed, never taken from the requester. */
export interface ApprovalReview {
  /**
   * `send`: signed and sent to the network at once; `sign`: signed and handed back (offline signing, a dApp);
   * `connect`: a dApp asks for accounts and methods (see `connection`; nothing is signed); `message`: a text message
   * signed for a dApp (see `message`). The transaction fields of a `connect` or `message` review are empty.
   */
  kind: 'send' | 'sign' | 'connect' | 'message';
  /** Who asks: `This wallet` for the wallet's own screens, else a dApp's origin. */
  origin: string;
  networkName?: string;
  chainId: string;
  /** The account whose key signs. */
  signer: string;
  /** Other accounts whose keys sign the same transaction under this approval (a payer account of the wallet). */
  coSigners?: string[];
  payer: string;
  payee?: string;
  nonce: UintString;
  /** The most mana the transaction may use (its rc_limit, or the cap rc_limit is sized under after approval). */
  rcLimit: UintString;
  /** Expected cost, when known; an estimate, never the result of a signed dry run. */
  rcEstimate?: UintString;
  operations: DecodedOperation[];
  risks: RiskFlag[];
  /** Kind `connect`: what the dApp asks for, and the accounts the person may grant. */
  connection?: DappConnectionRequest;
  /** Kind `message`: the text to sign, exactly as it will be signed (UTF-8). */
  message?: string;
  /**
   * Set on the second step of a dApp's transaction (the same request continuing): what the signed dry run, run after
   * the first approval, did. Confirming releases the signed transaction; rejecting discards it. The other fields repeat
   * the first step's review.
   */
  effects?: TransactionEffects;
}

export interface ApprovalRequest {
  id: string;
  /** Epoch milliseconds. */
  createdAt: UintString;
  /** Epoch milliseconds; the request is rejected when it has not been answered by then. */
  expiresAt: UintString;
  review: ApprovalReview;
}

export interface ApprovalState {
  /**
   * How approvals are given: `dialog`, on a surface main draws itself (Electron's native dialog; the window can only
   * reject); `password`, with the wallet password typed into the answer (the browser shell, where main owns no surface).
   */
  mode: 'dialog' | 'password';
  pending: ApprovalRequest[];
}

export interface ApprovalAnswer {
  requestId: string;
  approve: boolean;
  /** The wallet password: needed to approve in `password` mode. */
  password?: string;
  /** Every risk flag's code of the request, repeated: the second confirmation a flagged request needs. */
  acknowledgedRisks?: RiskCode[];
  /** Kind `connect`: the accounts the person grants (of the request's `available`); absent: the proposed ones. */
  accounts?: string[];
}

/** What a signed dry run of an approved transaction did, shown before anything signed leaves main. */
export interface TransactionEffects {
  /** false: no dry run could run (a pending transaction of the account holds the nonce); events and rcUsed are unknown. */
  dryRun: boolean;
  /** The events the dry run emitted, in order, decoded where an ABI is known. */
  events: DecodedEvent[];
  /** The mana the dry run used. */
  rcUsed?: UintString;
  /** The rc_limit the transaction is signed with (sized from rcUsed, under the first step's cap). */
  rcLimit: UintString;
  /** The id of the signed transaction that would be released. */
  transactionId: string;
  /** Set when a step after the first approval failed (the dry run, the chain ID or nonce check): why. Nothing is released. */
  failure?: string;
}

/** One event of a dry run, as a person reviews it. */
export interface DecodedEvent {
  /** The contract that emitted it. */
  contract: string;
  name: string;
  /** Decoded to JSON with the contract's ABI when known, else base64. */
  data: unknown;
  /** The addresses the event names as impacted. */
  impacted: string[];
  /** One sentence for token events: "Transfer 1.5 KOIN from 1Abc… to 1Def…". */
  summary?: string;
}
