// Approvals for tests that sign as a means, not as the subject: one request through a real ApprovalQueue whose
// approver stands in for the person and approves, so the signers get an Approval exactly as the wallet's flows do.
import { ApprovalQueue, WALLET_ORIGIN, type Approval } from '../../src-main/wallet/approvals/approvalQueue.ts';
import { BTYPE, bytesToJson } from '../../src-main/koinos/codec.ts';
import type { Transaction } from '../../src-main/koinos/types.ts';

const approving = new ApprovalQueue({ approver: { mode: 'dialog', decide: async () => true } });

/**
 * An approval for `signer` to sign `transaction` (`uses` times), given by a stand-in for the person.
 * @example
 * const signed = await vault.signTransaction(address, tx, await approvalFor(address, tx));
 */
export async function approvalFor(signer: string, transaction: Transaction, uses = 1): Promise<Approval> {
  const header = transaction.header!;
  return approving.request(
    {
      kind: 'sign',
      origin: WALLET_ORIGIN,
      chainId: bytesToJson(header.chain_id, BTYPE.BASE64),
      signer,
      payer: header.payer.length > 0 ? bytesToJson(header.payer, BTYPE.ADDRESS) : '',
      nonce: '0',
      rcLimit: header.rc_limit.toString(),
      operations: [],
      risks: [],
    },
    { signer, transaction, uses },
  );
}
