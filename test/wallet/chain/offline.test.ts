// Offline signing against a real devnet: export an unsigned transfer, sign it with the node stopped, restart the
// node on its data folder, submit, and see it included; warnings and risk flags on inspection; compatibility with
// `koinos-wallet tx`; an allowance's amount in the approval; the public network a transaction is for, named offline.
import { describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { parsePrivateKey } from '../../../src-main/koinos/keys.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import {
  signTransaction,
  transactionFromBase64,
  transactionToBase64,
  transactionToJson,
} from '../../../src-main/koinos/transaction.ts';
import { parseTransactionText } from '../../../src-main/koinos/transactionText.ts';
import { koinOperation } from '../../../src-main/koinos/koin.ts';
import { approvalText } from '../../../src-main/wallet/approvals/approvalText.ts';
import { onCleanup, tempDir, testDevnet } from './helpers.ts';
import { testServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import { vector } from '../../vectors.ts';

const QUIET = { blockTimeMs: 0, accounts: 3, signatureThreads: 0, log: () => {} };

describe('OfflineService', () => {
  it('exports an unsigned transfer, signs it with the node stopped, and submits it after a restart: included', async () => {
    const dir = await tempDir();
    let devnet: Devnet = await startDevnet({ port: 0, dataDir: dir, ...QUIET });
    onCleanup(() => devnet.stop());
    const port = Number(new URL(devnet.url).port);
    const url = devnet.url;
    const s = testServices({ localUrl: async () => url, wifs: devnet.accounts.map((x) => x.wif) }, { timeoutMs: 1000 });
    const [a, b] = devnet.accounts;

    const unsigned = await s.offline.exportUnsigned({
      from: a!.address,
      to: b!.address,
      token: 'koin',
      amount: '2.5',
      rcLimit: '50000000',
    });
    expect(unsigned.chainId).toBe(devnet.chainId);
    expect(unsigned.nonce).toBe('1');
    expect(unsigned.rcLimit).toBe('50000000');
    expect(unsigned.signers).toEqual([]);
    expect(unsigned.warnings.map((w) => w.code)).toEqual(['UNSIGNED']);
    expect(unsigned.risks).toEqual([]);
    expect(unsigned.operations[0]!.summary).toBe(`Transfer 2.5 KOIN from ${a!.address} to ${b!.address}`);
    // The JSON form reads back to the same transaction.
    expect(transactionToBase64(parseTransactionText(JSON.stringify(unsigned.json)))).toBe(unsigned.base64);

    await devnet.stop();
    const signed = await s.offline.sign(unsigned.base64, a!.address);
    expect(signed.signers).toEqual([a!.address]);
    expect(signed.warnings).toEqual([]);
    expect(signed.risks).toEqual([]);
    expect(signed.id).toBe(unsigned.id);
    // Inspection with the node down still works; the checks that need it are skipped.
    expect((await s.offline.inspect(signed.base64)).warnings).toEqual([]);
    expect((await expectWalletError(s.offline.submit(signed.base64, true))).code).toBe('NODE_UNREACHABLE');

    devnet = await startDevnet({ port, dataDir: dir, ...QUIET });
    const dry = await s.offline.submit(signed.base64, false);
    expect(dry.broadcast).toBe(false);
    const receipt = await s.offline.submit(signed.base64, true);
    expect(receipt.transactionId).toBe(signed.id);
    const included = await s.follower.waitFor(receipt.transactionId, ['included', 'irreversible'], 10_000);
    expect(included.blockHeight).toBeDefined();
    // Now its nonce is used: inspecting it again says so, and submitting it again is refused.
    expect((await s.offline.inspect(signed.base64)).warnings.map((w) => w.code)).toEqual(['NONCE_USED']);
    expect((await expectWalletError(s.offline.submit(signed.base64, true))).code).toBe('INVALID_NONCE');
  });

  it('is compatible both ways with the base64 of koinos-wallet tx sign (and koinos-cli)', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const unsigned = await s.offline.exportUnsigned({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    // Signed by the protocol library as `tx sign` does, from the exported base64.
    const signedElsewhere = signTransaction(transactionFromBase64(unsigned.base64), parsePrivateKey(a!.wif).privateKey);
    const receipt = await s.offline.submit(transactionToBase64(signedElsewhere), true);
    expect(receipt.reverted).toBe(false);
    // And a transaction signed here reads as the same bytes elsewhere, in both forms.
    const next = await s.offline.exportUnsigned({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    expect(next.nonce).toBe('2');
    const signed = await s.offline.sign(JSON.stringify(next.json), a!.address);
    expect(transactionToBase64(transactionFromBase64(signed.base64))).toBe(signed.base64);
    expect(transactionToJson(transactionFromBase64(signed.base64))).toEqual(signed.json);
  });

  it('shows what an allowance signed offline lets its spender take, and says when it has no limit', async () => {
    const devnet = await testDevnet();
    const s = testServices({ localUrl: async () => devnet.url, wifs: devnet.accounts.map((x) => x.wif) });
    const [a, b] = devnet.accounts;
    const unsigned = await s.offline.exportUnsigned({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });
    const tx = transactionFromBase64(unsigned.base64);
    const call = tx.operations[0]!.call_contract!;
    const allow = (value: bigint) =>
      transactionToBase64({
        ...tx,
        operations: [
          koinOperation(call.contract_id, 'approve', {
            owner: addressFromString(a!.address),
            spender: addressFromString(b!.address),
            value,
          }),
        ],
      });
    await s.offline.sign(allow(250_000_000n), a!.address);
    await s.offline.sign(allow((1n << 64n) - 1n), a!.address);
    const [limited, unlimited] = s.person.seen.map((request) => approvalText(request).lines);
    expect(limited).toContain(`Allow ${b!.address} to spend up to 2.5 KOIN from ${a!.address}`);
    expect(unlimited).toContain(
      `Allow ${b!.address} to spend up to 184467440737.09551615 KOIN (no limit) from ${a!.address}`,
    );
  });

  it('warns about a foreign chain ID, content that does not match its id, and a signer that is not the payer', async () => {
    const devnet = await testDevnet();
    const other = await testDevnet({ genesisSeed: 'another chain' });
    const s = testServices(devnet);
    const [a, b, c] = devnet.accounts;
    const unsigned = await s.offline.exportUnsigned({ from: a!.address, to: b!.address, token: 'koin', amount: '1' });

    const foreign = testServices(other);
    const onOther = await foreign.offline.inspect(unsigned.base64);
    expect(onOther.warnings.map((w) => w.code)).toContain('CHAIN_ID_MISMATCH');
    // Signed without a node where the network was last seen with another chain, and no network with this one: the
    // approval names none, and flags it.
    const signedThere = await foreign.offline.sign(unsigned.base64, a!.address);
    expect(signedThere.warnings.map((w) => w.code)).toContain('CHAIN_ID_MISMATCH');
    expect(signedThere.risks.map((r) => r.code)).toEqual(['OTHER_CHAIN']);
    expect(approvalText(foreign.person.seen[0]!).title).toBe('Sign?');
    expect(approvalText(foreign.person.seen[0]!).riskLines.join(' ')).toContain(
      `It is made for chain ${devnet.chainId}, which none of this wallet's networks was seen with, not for ${other.chainId}`,
    );
    // Once one of its networks was seen with the transaction's chain, that network is the one named, whichever is
    // selected, and the transaction is reviewed as one of it: no chain flag (a custom network has no known contracts).
    const there = await foreign.networks.add({ name: 'Team devnet', jsonRpcUrl: `${devnet.url}/jsonrpc` });
    await foreign.networks.head(there.id);
    const named = await foreign.offline.sign(unsigned.base64, a!.address);
    expect([named.warnings, named.risks.map((r) => r.code)]).toEqual([[], ['UNKNOWN_CONTRACT']]);
    expect(approvalText(foreign.person.seen[1]!).title).toBe('Sign on Team devnet?');
    expect((await foreign.networks.list()).selectedId).toBe('local');
    const signed = await s.offline.sign(unsigned.base64, a!.address);
    expect(approvalText(s.person.seen[0]!).title).toBe('Sign on Local (devnet)?');
    const refused = await expectWalletError(foreign.offline.submit(signed.base64, true));
    expect(refused.code).toBe('CHAIN_ID_MISMATCH');
    expect(refused.shortMessage).toContain('It was not sent');

    const tampered = transactionFromBase64(signed.base64);
    tampered.header!.rc_limit += 1n;
    const codes = (await s.offline.inspect(transactionToBase64(tampered))).warnings.map((w) => w.code);
    expect(codes).toContain('ID_MISMATCH');
    const byOther = await s.offline.sign(unsigned.base64, c!.address);
    expect(byOther.warnings.map((w) => w.code)).toContain('SIGNER_NOT_PAYER');
    const notSigned = await expectWalletError(s.offline.submit(unsigned.base64, true));
    expect(notSigned.code).toBe('INVALID_SIGNATURE');
    expect((await expectWalletError(s.offline.inspect('not a transaction'))).code).toBe('INVALID_TRANSACTION');
  });

  it('names the public network a transaction is made for in the approval, on a wallet that never reached it', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a] = devnet.accounts;
    // A KOIN transfer of mainnet's (the header and operation of a mainnet transaction), signed by a devnet account of
    // a wallet whose only network reached is its devnet; the node is not asked.
    const history = vector('mainnet-history-tx');
    const unsigned = JSON.stringify({
      header: { chain_id: history.chain_id, rc_limit: history.rc_limit, nonce: history.nonce, payer: history.payer },
      operations: [
        { call_contract: { contract_id: history.contract_id, entry_point: history.entry_point, args: history.args } },
      ],
    });
    await s.offline.sign(unsigned, a!.address);
    const text = approvalText(s.person.seen[0]!);
    expect(text.title).toBe('Sign on Koinos Mainnet?');
    expect(text.lines).toContain(`Chain ID: ${history.chain_id}`);
  });

  it("flags an upload over the payer's own address on inspect and sign, and a chain ID that changed", async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    // A transfer exported here gives the chain ID; the co-signer's file replaces its operation with an upload.
    const exported = transactionFromBase64(
      (await s.offline.exportUnsigned({ from: a!.address, to: b!.address, token: 'koin', amount: '1' })).base64,
    );
    const payer = addressFromString(a!.address);
    const bytecode = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    exported.operations = [
      {
        upload_contract: {
          contract_id: payer,
          bytecode,
          abi: '',
          authorizes_call_contract: false,
          authorizes_transaction_application: false,
          authorizes_upload_contract: true,
        },
      },
    ];
    exported.id = new Uint8Array(0);
    exported.header!.operation_merkle_root = new Uint8Array(0);
    const text = transactionToBase64(exported);

    const inspected = await s.offline.inspect(text);
    expect(inspected.risks.map((r) => r.name)).toEqual(['replaces-account', 'upload-contract']);
    expect(inspected.risks[0]!.message).toContain(
      `${a!.address}, the signer's own account: this replaces this account with contract code`,
    );
    // What the reviewer sees names the contract and the size, not "(empty)" and a wall of base64.
    expect(inspected.operations[0]).toMatchObject({
      contract: a!.address,
      entryPoint: 'upload_contract',
      summary: expect.stringContaining(`Upload 8 bytes of contract code to ${a!.address}`),
    });
    expect(inspected.warnings.map((w) => w.code)).toEqual(['UNSIGNED']);
    const signed = await s.offline.sign(text, a!.address);
    expect(signed.risks.map((r) => r.code)).toEqual(['REPLACES_ACCOUNT', 'UPLOAD_CONTRACT']);

    // The same settings, and now another chain answers for the Local network (a restart with a new chain ID).
    const other = await testDevnet({ genesisSeed: 'another chain' });
    const restarted = testServices(other, { settings: s.settings });
    const changed = await restarted.offline.inspect(text);
    expect(changed.risks.map((r) => r.code)).toEqual(['REPLACES_ACCOUNT', 'UPLOAD_CONTRACT', 'CHAIN_ID_CHANGED']);
    expect(changed.warnings.map((w) => w.code)).toContain('CHAIN_ID_MISMATCH');
  });
});
