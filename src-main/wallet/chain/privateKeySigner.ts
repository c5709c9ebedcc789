// A TransactionSigner holding private keys in this process: the CLI's `--wif-file` and the tests use it (the wallet's
// accounts sign through the vault instead). It signs only as the addresses of the keys it was given.
import { WalletError } from '../../koinos/errors.ts';
import { addressFromPublicKey, addressToString } from '../../koinos/address.ts';
import { publicKeyFromPrivateKey } from '../../koinos/keys.ts';
import { prepareTransaction, signTransaction } from '../../koinos/transaction.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { TransactionSigner } from '../signer.ts';
import { redeemApproval, type Approval } from '../approvals/approvalQueue.ts';

/**
 * @example
 * const signer = new PrivateKeySigner([parsePrivateKey(wif).privateKey]);
 * const signed = await signer.signTransaction(signer.addresses[0], tx);
 */
export class PrivateKeySigner implements TransactionSigner {
  private readonly keys = new Map<string, Uint8Array>();

  constructor(privateKeys: Uint8Array[]) {
    for (const key of privateKeys)
      this.keys.set(addressToString(addressFromPublicKey(publicKeyFromPrivateKey(key, true))), Uint8Array.from(key));
  }

  /** The addresses this signer can sign as. */
  get addresses(): string[] {
    return [...this.keys.keys()];
  }

  async signTransaction(address: string, transaction: Transaction, approval: Approval): Promise<Transaction> {
    const key = this.keys.get(address);
    if (!key)
      throw new WalletError(
        'INVALID_ARGUMENT',
        `expected a transaction of an address this key signs for (${this.addresses.join(', ')}), got one of ${address}`,
      );
    redeemApproval(approval, address, transaction);
    return signTransaction(prepareTransaction(transaction), key);
  }

  /** Overwrites the keys in memory. */
  wipe(): void {
    for (const key of this.keys.values()) key.fill(0);
    this.keys.clear();
  }
}
