// The CLI's signatures pass the one signing authority: `tx sign` asks the command line's ApprovalQueue, the key signs
// only with the Approval that queue issued (redeemApproval), and a forged or used-up approval signs nothing.
import { describe, expect, it } from 'vitest';
import { parsePrivateKey } from '../../src-main/koinos/keys.ts';
import { nonceToBytes, prepareTransaction } from '../../src-main/koinos/transaction.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import type { Transaction } from '../../src-main/koinos/types.ts';
import { Approval } from '../../src-main/wallet/approvals/approvalQueue.ts';
import { PrivateKeySigner } from '../../src-main/wallet/chain/privateKeySigner.ts';
import { commandLineApprovals, signApprovedByCommandLine } from '../../src-main/cli/commandLineApproval.ts';
import { transactionRisks } from '../../src-main/cli/txCommands.ts';

const WIF = 'L59UtJcTdNBnrH2QSBA5beSUhRufRu3g6tScDTite6Msuj7U93tM';

function keyAndUpload(): { keys: PrivateKeySigner; me: string; upload: Transaction } {
  const keys = new PrivateKeySigner([parsePrivateKey(WIF).privateKey]);
  const me = keys.addresses[0]!;
  const upload: Transaction = {
    id: new Uint8Array(),
    header: {
      chain_id: new Uint8Array(34).fill(1),
      rc_limit: 1_000_000n,
      nonce: nonceToBytes(1n),
      operation_merkle_root: new Uint8Array(),
      payer: addressFromString(me),
      payee: new Uint8Array(),
    },
    operations: [
      {
        upload_contract: {
          contract_id: addressFromString(me),
          bytecode: new Uint8Array([0, 0x61, 0x73, 0x6d]),
          abi: '',
          authorizes_call_contract: false,
          authorizes_transaction_application: false,
          authorizes_upload_contract: false,
        },
      },
    ],
    signatures: [],
  };
  return { keys, me, upload };
}

describe('the command line as the approval', () => {
  it('records a refusal and signs nothing while --allow-risk misses a flag; signs once allowed, with the approval on record', async () => {
    const { keys, me, upload } = keyAndUpload();
    const risks = transactionRisks(upload, [], me);
    expect(risks.map((r) => r.name)).toEqual(['replaces-account', 'upload-contract']);

    const refusing = commandLineApprovals(['upload-contract']);
    await expect(signApprovedByCommandLine(refusing, keys, me, upload, risks)).rejects.toThrow(
      /needs --allow-risk replaces-account to be signed/,
    );
    expect(refusing.decisions()).toEqual([
      expect.objectContaining({
        decision: 'rejected',
        kind: 'sign',
        signer: me,
        risks: ['REPLACES_ACCOUNT', 'UPLOAD_CONTRACT'],
      }),
    ]);

    const allowing = commandLineApprovals(['upload-contract', 'replaces-account']);
    const signed = await signApprovedByCommandLine(allowing, keys, me, upload, risks);
    expect(signed.signatures).toHaveLength(1);
    expect(allowing.decisions()).toEqual([
      expect.objectContaining({ decision: 'approved', kind: 'sign', signer: me, nonce: '1' }),
    ]);
  });

  it('the key refuses an approval the queue did not issue, and one already used', async () => {
    const { keys, me, upload } = keyAndUpload();
    await expect(keys.signTransaction(me, prepareTransaction(upload), new Approval('forged'))).rejects.toMatchObject({
      code: 'APPROVAL_REQUIRED',
    });
    const approvals = commandLineApprovals(['upload-contract', 'replaces-account']);
    const approval = await approvals.request(
      {
        kind: 'sign',
        origin: 'test',
        chainId: 'AQ',
        signer: me,
        payer: me,
        nonce: '1',
        rcLimit: '1000000',
        operations: [],
        risks: [],
      },
      { signer: me, transaction: prepareTransaction(upload) },
    );
    await keys.signTransaction(me, upload, approval);
    await expect(keys.signTransaction(me, upload, approval)).rejects.toThrow(/used up or expired/);
  });
});
