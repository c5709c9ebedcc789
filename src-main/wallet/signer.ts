// The port through which wallet services get a transaction signed without ever holding a key: the vault implements
// it for its accounts (keys in main-process memory while unlocked), the CLI implements it for a WIF file.
import type { Transaction } from '../koinos/types.ts';
import type { Approval } from './approvals/approvalQueue.ts';

export interface TransactionSigner {
  /**
   * Signs a prepared transaction (id and merkle root set) as the account with this address and returns it with the
   * signature appended. Nothing else of the transaction changes. Nothing is signed without an `approval` the approval
   * queue issued for this transaction (redeemApproval).
   * @throws WalletError APPROVAL_REQUIRED, and when the account cannot sign (watch-only, locked vault, unknown address).
   */
  signTransaction(address: string, transaction: Transaction, approval: Approval): Promise<Transaction>;
}

/** The port through which dApp requests get a text message signed (the vault implements it). */
export interface MessageSigner {
  /**
   * The 65-byte signature of sha256(message) as the account with this address (koilib's signMessage), only under an
   * approval the approval queue issued for this very text (redeemMessageApproval).
   * @throws WalletError APPROVAL_REQUIRED, and when the account cannot sign (watch-only, locked vault, unknown address).
   */
  signMessage(address: string, message: Uint8Array, approval: Approval): Promise<Uint8Array>;
}
