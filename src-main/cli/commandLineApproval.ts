// The CLI's side of the one signing authority: every signature the CLI makes (`transfer`, `contract upload|call`,
// `tx sign`) is asked of an ApprovalQueue, as the app's are, and the key signs only with the Approval the queue issued
// (redeemApproval). The command line is the approval: what the user typed is approved as asked, and a flagged request
// needs `--allow-risk NAME` for each of its flags. With a data folder the decisions go to its approvals.log, as the app's.
// Loads no node client: `tx sign` is offline.
import { BTYPE, bytesToJson } from '../koinos/codec.ts';
import { assertReadyToSign } from '../koinos/signingChecks.ts';
import { nonceFromBytes, prepareTransaction } from '../koinos/transaction.ts';
import type { Transaction } from '../koinos/types.ts';
import { KNOWN_TOKEN_CONTRACTS } from '../koinos/knownContracts.ts';
import type { RiskFlag, TokenInfo } from '../wallet/chain/types.ts';
import { knownChainName } from '../wallet/dapps/chains.ts';
import { ApprovalQueue, WALLET_ORIGIN, chainIdText, type Approver } from '../wallet/approvals/approvalQueue.ts';
import { approvalsLog } from '../wallet/approvals/approvalsLog.ts';
import { decodeOperation } from '../wallet/chain/operations.ts';
import type { TransactionSigner } from '../wallet/signer.ts';
import { approvalText } from '../wallet/approvals/approvalText.ts';
import { inform } from './io.ts';
import { requireAllowed } from './riskGate.ts';

/** KOIN and VHP of the networks the wallet knows, as decodeOperation reads tokens: amounts in KOIN, also offline. */
export const SYSTEM_TOKENS: readonly TokenInfo[] = KNOWN_TOKEN_CONTRACTS.map((c) => ({
  contract: c.address,
  name: c.token === 'koin' ? 'Koin' : 'Virtual Hash Power',
  symbol: c.token.toUpperCase(),
  decimals: 8,
  system: c.token,
}));

/**
 * The CLI's approver: the command the user typed is the approval, so an unflagged request is approved as asked; a
 * flagged one needs `--allow-risk NAME` for each of its flags, and is refused naming the ones missing.
 */
export function commandLineApprover(allowedRisks: readonly string[]): Approver {
  return {
    mode: 'dialog',
    async decide(request) {
      requireAllowed(request.review.risks, allowedRisks);
      // What is signed, on stderr, in the words of the app's approval dialog: on an offline machine, the one look at
      // what came from the online one before the key signs it.
      const { title, lines, riskLines } = approvalText(request);
      inform([
        `koinos-wallet: signing: ${title.replace(/\?$/, '')}`,
        ...lines.filter((line) => !line.startsWith('Requested by:')).map((line) => `  ${line}`),
        ...(riskLines.length > 0 ? ['  Warnings allowed by --allow-risk:', ...riskLines.map((r) => `    ${r}`)] : []),
      ]);
      return true;
    },
  };
}

/**
 * The approval queue of one command: decided by its command line; every decision appended to `<dataDir>/approvals.log`
 * when a data folder is given (the CLI holds its lock then), like the app's.
 * @example
 * const approvals = commandLineApprovals(allowedRisks(args));
 * const approval = await approvals.request(review, { signer, transaction });
 * const signed = await signer.signTransaction(address, transaction, approval);
 */
export function commandLineApprovals(allowedRisks: readonly string[], dataDir?: string): ApprovalQueue {
  return new ApprovalQueue({
    approver: commandLineApprover(allowedRisks),
    ...(dataDir === undefined ? {} : { record: approvalsLog(dataDir) }),
  });
}

/**
 * Signs `transaction` as `address` the way every signature is made: a `sign` request with its risks enters the queue,
 * the command line decides it, and `signer` signs only under the Approval the queue issued (redeemApproval).
 * @throws WalletError INVALID_TRANSACTION (no chain_id, nonce or rc_limit), INVALID_ARGUMENT (a risk the command line
 *   did not allow; nothing is signed), APPROVAL_REQUIRED and the signer's errors.
 * @example
 * const signed = await signApprovedByCommandLine(commandLineApprovals(allowed), signer, address, tx, risks);
 */
export async function signApprovedByCommandLine(
  approvals: ApprovalQueue,
  signer: TransactionSigner,
  address: string,
  transaction: Transaction,
  risks: RiskFlag[],
): Promise<Transaction> {
  assertReadyToSign(transaction);
  const prepared = prepareTransaction(transaction);
  const header = prepared.header!;
  const network = knownChainName(header.chain_id);
  const approval = await approvals.request(
    {
      kind: 'sign',
      origin: WALLET_ORIGIN,
      chainId: chainIdText(prepared),
      signer: address,
      payer: header.payer.length > 0 ? bytesToJson(header.payer, BTYPE.ADDRESS) : '',
      ...(header.payee.length > 0 ? { payee: bytesToJson(header.payee, BTYPE.ADDRESS) } : {}),
      ...(network !== undefined ? { networkName: network } : {}),
      nonce: nonceFromBytes(header.nonce).toString(),
      rcLimit: header.rc_limit.toString(),
      operations: prepared.operations.map((op) => decodeOperation(op, SYSTEM_TOKENS)),
      risks,
    },
    { signer: address, transaction: prepared },
  );
  return signer.signTransaction(address, prepared, approval);
}
