// The second step of a dApp's transaction, against a real devnet seen through a recording proxy (a node that keeps
// everything it is sent, as a malicious one would): after the first approval the wallet signs and dry-runs, shows the
// effects, and only a confirmation of those lets the signature leave main. Rejected, or failed in the dry run, the
// node never sees the signed transaction and the dApp gets no signature. Real vault, password mode, as in the browser.
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src-main/ipc/contract.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { WalletError } from '../../../src-main/koinos/errors.ts';
import { ApprovalQueue } from '../../../src-main/wallet/approvals/approvalQueue.ts';
import { KoinosNode } from '../../../src-main/wallet/chain/koinosNode.ts';
import { chainOf } from '../../../src-main/wallet/dapps/chains.ts';
import { DappService } from '../../../src-main/wallet/dapps/dappService.ts';
import { DappStore } from '../../../src-main/wallet/dapps/dappStore.ts';
import { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { readFileSync } from 'node:fs';
import { Contract, utils as koilibUtils, type Abi, type TransactionJson } from 'koilib';
import { NFT_ABI, uploadCollection } from '../chain/nftFixtures.ts';
import { recordingProxy, testDevnet } from '../chain/helpers.ts';
import { testServices } from '../chain/services.ts';
import { KEYTAR, PASSWORD, TEST_SCRYPT, removeService, tempDir, uniqueService } from '../vault/helpers.ts';
import { until } from '../../helpers/until.ts';
import { lookalikeAddress } from '../../helpers/lookalike.ts';
import type { KnownAddress } from '../../../src-main/wallet/chain/types.ts';

const ORIGIN = 'https://dapp.example';

interface Rpc {
  method: string;
  params?: { transaction?: { id?: string; signatures?: string[] }; broadcast?: boolean };
}

describe("the effects step of a dApp's transaction", () => {
  const service = uniqueService();
  afterEach(async () => {
    await removeService(service).catch(() => undefined);
  });

  async function setUp() {
    const devnet = await testDevnet();
    const proxy = await recordingProxy(devnet.url);
    const s = testServices({ localUrl: async () => proxy.url, wifs: devnet.accounts.map((a) => a.wif) });
    const dataDir = await tempDir();
    const vault = await Vault.open({ dataDir, keychain: KEYTAR, keychainService: service, scryptCost: TEST_SCRYPT });
    await vault.create({ password: PASSWORD });
    const signer = await vault.importKey({ key: devnet.accounts[0]!.wif, name: 'Dev 0' }, { developmentOnly: true });
    const to = devnet.accounts[1]!.address;
    const approvals = new ApprovalQueue({
      approver: { mode: 'password', checkPassword: (password) => vault.verifyPassword({ password }) },
    });
    const store = await DappStore.open(dataDir);
    // The addresses the person knows, which a transfer's recipient is compared with (the app's accounts and contacts).
    const known: KnownAddress[] = [];
    const dapps = new DappService({
      vault,
      networks: s.networks,
      tokens: s.tokens,
      pending: s.pending,
      follower: s.follower,
      approvals,
      store,
      knownAddresses: async () => known,
    });
    const chain = chainOf(await (await s.networks.node('local')).node.chainId());
    /** The dApp's grant, as its connection left it. */
    const grant = () =>
      store.putGrant({
        origin: ORIGIN,
        name: 'Test dApp',
        url: ORIGIN,
        transport: 'walletconnect',
        chains: [chain],
        accounts: [signer.address],
        methods: ['koinos_signTransaction', 'koinos_signAndSendTransaction'],
        grantedAt: '0',
        sessions: [],
      });
    await grant();
    const koin = (await s.tokens.resolve('local', 'koin')).contract;
    const direct = new KoinosNode({ jsonRpc: { url: `${devnet.url}/jsonrpc` } });

    /** A KOIN transfer (or, with `allow`, an allowance for `to`) as the dApp builds it with koilib, asked over `method`. */
    const ask = async (
      method: 'koinos_signTransaction' | 'koinos_signAndSendTransaction',
      value: string,
      allow = false,
    ) => {
      const operation = await new Contract({ id: koin, abi: koilibUtils.tokenAbi }).encodeOperation(
        allow
          ? { name: 'approve', args: { owner: signer.address, spender: to, value } }
          : { name: 'transfer', args: { from: signer.address, to, value } },
      );
      return dapps.handle({
        origin: ORIGIN,
        transport: 'walletconnect',
        chain,
        method,
        params: { address: signer.address, transaction: { operations: [operation] } },
      });
    };
    const pending = (effects: boolean) =>
      until(effects ? 'the effects step' : 'the review', () =>
        approvals.state().pending.find((r) => (r.review.effects !== undefined) === effects),
      );
    /** The first step approved with the password, as the panel answers it; then the effects step, as shown. */
    const approveThenEffects = async (): Promise<ApprovalRequest> => {
      const review = await pending(false);
      await approvals.answer({ requestId: review.id, approve: true, password: PASSWORD });
      return pending(true);
    };
    const calls = () => proxy.requests.filter((b) => b !== '').map((b) => JSON.parse(b) as Rpc); // GETs (REST reads) carry no body
    const submits = () => calls().filter((c) => c.method === 'chain.submit_transaction');
    const nonce = () => direct.nonce(addressFromString(signer.address));
    return {
      dapps,
      approvals,
      signer,
      to,
      s,
      ask,
      approveThenEffects,
      calls,
      submits,
      nonce,
      proxy,
      grant,
      known,
      devnet,
      chain,
    };
  }

  it('rejected at the effects step, sends nothing: the node saw the dry run only, never the transaction it showed', async () => {
    const { approvals, ask, approveThenEffects, submits, nonce, proxy, s, signer, to } = await setUp();
    const before = await nonce();
    const answer = ask('koinos_signAndSendTransaction', '5000');
    answer.catch(() => undefined); // settled below, after the step
    const step = await approveThenEffects();
    const effects = step.review.effects!;
    expect(effects.events.map((e) => e.summary)).toContain(`Transfer 0.00005 KOIN from ${signer.address} to ${to}`);
    expect(submits().map((c) => c.params?.broadcast ?? false)).toEqual([false]); // the dry run, after the first approval
    expect(submits()[0]!.params!.transaction!.id).not.toBe(effects.transactionId); // signed at the cap; the held one is sized
    await approvals.answer({ requestId: step.id, approve: false });
    await expect(answer).rejects.toMatchObject({
      code: 'REJECTED',
      shortMessage: expect.stringContaining('discarded'),
    });

    expect(submits().map((c) => c.params?.broadcast ?? false)).toEqual([false]);
    // The signed transaction the step showed never reached the node, in any request.
    expect(proxy.requests.some((body) => body.includes(effects.transactionId))).toBe(false);
    expect(await nonce()).toBe(before);
    expect(s.pending.highestNonce('local', signer.address)).toBeUndefined();
    expect(approvals.decisions().map((d) => [d.decision, d.stage])).toEqual([
      ['approved', undefined],
      ['rejected', 'effects'],
    ]);
  });

  it('withdraws what a dApp asked once it is disconnected, at either step, and sends nothing for it', async () => {
    const { dapps, approvals, ask, approveThenEffects, submits, nonce, grant } = await setUp();
    const before = await nonce();
    // Disconnected while its review waits: the review is withdrawn.
    const first = ask('koinos_signAndSendTransaction', '3000');
    first.catch(() => undefined);
    await until('the review', () => approvals.state().pending[0]);
    await dapps.revoke(ORIGIN);
    await expect(first).rejects.toMatchObject({ code: 'REJECTED' });
    expect(approvals.state().pending).toEqual([]);

    // Connected again, then disconnected while the effects step waits: withdrawn too, nothing handed over or sent.
    await grant();
    const second = ask('koinos_signAndSendTransaction', '3000');
    second.catch(() => undefined);
    await approveThenEffects();
    await dapps.revoke(ORIGIN);
    await expect(second).rejects.toMatchObject({ code: 'REJECTED' });
    expect(approvals.state().pending).toEqual([]);
    expect(submits().map((c) => c.params?.broadcast ?? false)).toEqual([false]); // the second's dry run alone
    expect(await nonce()).toBe(before);
  });

  it('names the spender and the amount of an allowance at both steps, says when it has no limit, and flags it', async () => {
    const { approvals, ask, signer, to } = await setUp();
    const answer = ask('koinos_signTransaction', '18446744073709551615', true);
    answer.catch(() => undefined); // rejected below
    const allowance = `Allow ${to} to spend up to 184467440737.09551615 KOIN (no limit) from ${signer.address}`;
    const review = await until('the review', () => approvals.state().pending[0]);
    expect(review.review.operations.map((op) => op.summary)).toEqual([allowance]);
    // The spender does not sign: a warning to confirm by name, as for every flag.
    expect(review.review.risks.map((r) => r.name)).toEqual(['token-allowance']);
    await approvals.answer({
      requestId: review.id,
      approve: true,
      password: PASSWORD,
      acknowledgedRisks: ['TOKEN_ALLOWANCE'],
    });
    const step = await until('the effects step', () => approvals.state().pending.find((r) => r.review.effects));
    expect(step.review.effects!.events.map((e) => e.summary)).toEqual([allowance]);
    await approvals.answer({ requestId: step.id, approve: false });
    await expect(answer).rejects.toMatchObject({ code: 'REJECTED' });
  });

  it('names a grant of every NFT of a collection at both steps: flagged in the review, said in the effects', async () => {
    const { approvals, dapps, signer, to, devnet, chain } = await setUp();
    const collection = await uploadCollection(
      `${devnet.url}/jsonrpc`,
      devnet.koinAddress,
      devnet.accounts[2]!,
      'grant',
    );
    const abi = JSON.parse(readFileSync(NFT_ABI, 'utf8')) as Abi;
    const operation = await new Contract({ id: collection.address, abi }).encodeOperation({
      name: 'set_approval_for_all',
      args: { approver_address: signer.address, operator_address: to, approved: true },
    });
    const answer = dapps.handle({
      origin: ORIGIN,
      transport: 'walletconnect',
      chain,
      method: 'koinos_signTransaction',
      params: {
        address: signer.address,
        transaction: { operations: [operation] },
        // koilib's option, as a dApp passes the ABIs it signs with.
        options: { abis: { [collection.address]: abi } },
      },
    });
    answer.catch(() => undefined); // rejected below
    const review = await until('the review', () => approvals.state().pending[0]);
    expect(review.review.risks.map((r) => [r.name, r.message.split(' transfer NFTs')[0]])).toEqual([
      ['nft-allowance', `It lets ${to} (every NFT of ${collection.address} held by ${signer.address})`],
      ['unknown-contract', expect.stringContaining(collection.address)],
    ]);
    await approvals.answer({
      requestId: review.id,
      approve: true,
      password: PASSWORD,
      acknowledgedRisks: ['NFT_ALLOWANCE', 'UNKNOWN_CONTRACT'],
    });
    const step = await until('the effects step', () => approvals.state().pending.find((r) => r.review.effects));
    expect(step.review.effects!.events.map((e) => e.summary)).toEqual([
      `Allow ${to} to transfer every NFT of ${collection.address} held by ${signer.address}, now and later`,
    ]);
    await approvals.answer({ requestId: step.id, approve: false });
    await expect(answer).rejects.toMatchObject({ code: 'REJECTED' });
  });

  it("flags a transfer to an address that looks like one of the person's contacts, naming the contact", async () => {
    const { approvals, ask, to, known } = await setUp();
    const carol = lookalikeAddress(to);
    known.push({ address: carol, label: 'your contact Carol' });
    const answer = ask('koinos_signTransaction', '1000');
    answer.catch(() => undefined); // rejected below
    const review = await until('the review', () => approvals.state().pending[0]);
    expect(review.review.risks.map((r) => [r.name, r.message.split(':')[0]])).toEqual([
      ['lookalike-recipient', `It transfers to ${to}, not your contact Carol (${carol})`],
    ]);
    await approvals.answer({ requestId: review.id, approve: false });
    await expect(answer).rejects.toMatchObject({ code: 'REJECTED' });
  });

  it("hands a signTransaction's signature to the dApp only once the effects are confirmed, and none when they are rejected", async () => {
    const { approvals, ask, approveThenEffects, submits, proxy } = await setUp();
    const refused = ask('koinos_signTransaction', '6000');
    refused.catch(() => undefined);
    await approvals.answer({ requestId: (await approveThenEffects()).id, approve: false });
    expect(((await refused.catch((e: unknown) => e)) as WalletError).code).toBe('REJECTED');

    const answer = ask('koinos_signTransaction', '6000');
    let answered = false;
    answer.then(
      () => (answered = true),
      () => (answered = true),
    );
    const step = await approveThenEffects();
    expect(step.review.kind).toBe('sign');
    expect(answered).toBe(false);
    // The renderer's confirmation needs no password here, and a request in its first step is not released without one.
    await approvals.answer({ requestId: step.id, approve: true });
    const signed = (await answer) as TransactionJson;
    expect(signed.id).toBe(step.review.effects!.transactionId);
    expect(signed.signatures).toHaveLength(1);
    // Dry runs only (with rc_limit at the cap): the signature went to the dApp, the transaction to no node.
    expect(submits().map((c) => c.params?.broadcast ?? false)).toEqual([false, false]);
    expect(proxy.requests.some((body) => body.includes(signed.id!))).toBe(false);
  });

  it('releases nothing when the dry run fails: the step shows why, and the dApp is told why', async () => {
    const { approvals, ask, approveThenEffects, submits, nonce } = await setUp();
    const before = await nonce();
    const answer = ask('koinos_signAndSendTransaction', '1000000000000000000');
    answer.catch(() => undefined);
    const step = await approveThenEffects();
    expect(step.review.effects!.failure).toContain('insufficient balance');
    expect(step.review.effects!.transactionId).toBe('');
    await expect(approvals.answer({ requestId: step.id, approve: true })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await approvals.answer({ requestId: step.id, approve: false });
    const error = (await answer.catch((e: unknown) => e)) as WalletError;
    expect(error).toBeInstanceOf(WalletError);
    expect(error.shortMessage).toContain('insufficient balance');
    expect(submits().map((c) => c.params?.broadcast ?? false)).toEqual([false]);
    expect(await nonce()).toBe(before);
  });
});
