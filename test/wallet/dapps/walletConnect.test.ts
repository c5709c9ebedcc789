// WalletConnect end to end in one process: a relay on 127.0.0.1, the wallet (createWalletApp over a devnet on port 0,
// approvals answered as the renderer answers them, with the password) and a dApp-side SignClient. Every koinos_*
// method, approval and rejection, signatures checked with koilib, refusals, a restart, and a disconnect from each side.
// A transaction is approved in two steps: its review, then the effects of its signed dry run before anything is released.
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { Contract, Signer as KoilibSigner, utils as koilibUtils, type TransactionJson } from 'koilib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccountInfo, ApprovalRequest } from '../../../src-main/ipc/contract.ts';
import { nonceToBytes } from '../../../src-main/koinos/transaction.ts';
import { createWalletApp, type WalletApp } from '../../../src-main/wallet/walletApp.ts';
import { unmetRequirements } from '../../../src-main/wallet/dapps/walletConnect.ts';
import { openSealedState, sealState, storageKey } from '../../../src-main/wallet/dapps/walletConnectStorage.ts';
import { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { KEYTAR, NO_KEYCHAIN, PASSWORD, TEST_SCRYPT, removeService, uniqueService } from '../vault/helpers.ts';
import { closeDapp, dappClient, proposeSession, SDK_METHODS, type DappClient } from './dappClient.ts';
import { startTestRelay, type TestRelay } from './relay.ts';
import { until } from '../../helpers/until.ts';

describe('WalletConnect: a dApp connected to the wallet over a relay on 127.0.0.1', () => {
  const service = uniqueService();
  let relay: TestRelay;
  let dataDir: string;
  let wallet: WalletApp;
  let dapp: DappClient;
  let topic: string;
  let chain: string;
  let signer: AccountInfo;
  let watcher: AccountInfo;
  let koin: string;
  const outside: string[] = [];
  const realFetch = globalThis.fetch;

  const open = () =>
    createWalletApp({
      dataDir,
      keychain: KEYTAR,
      vault: { keychainService: service, scryptCost: TEST_SCRYPT },
      devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 2 } },
      polling: { headMs: 50, transactionsMs: 50 },
      env: { KOINOS_WALLET_WC_RELAY_URL: relay.url, KOINOS_WALLET_WC_PROJECT_ID: 'test-project' },
      log: () => {},
    });

  /** Opens the wallet again on the same folder (once it closed), unlocks it, and waits for its session to come back. */
  const reopen = async () => {
    wallet = await open();
    await wallet.handlers['vault:unlock']({ password: PASSWORD });
    await until('the session restored', async () =>
      (await wallet.handlers['dapps:list']()).walletConnect.state === 'connected' ? true : undefined,
    );
  };

  /**
   * The key walletconnect.json is sealed with, read by a vault of the test's own on the data folder (once, while the
   * wallet is closed: it does not change).
   */
  let fileKey: Uint8Array | undefined;
  const walletConnectFile = () => join(dataDir, 'walletconnect.json');
  /** What the wallet's client keeps in walletconnect.json. */
  const readState = async (): Promise<Record<string, unknown>> => {
    if (!fileKey) {
      const vault = await Vault.open({ dataDir, keychain: KEYTAR, keychainService: service, scryptCost: TEST_SCRYPT });
      await vault.unlock({ password: PASSWORD });
      fileKey = await storageKey(vault.apiKeys, walletConnectFile());
      vault.lock();
    }
    const entries = openSealedState(fileKey, await readFile(walletConnectFile(), 'utf8'));
    expect(entries, 'walletconnect.json sealed with its key').toBeDefined();
    return Object.fromEntries(entries!);
  };

  /** The next request waiting for a decision, as the approval panel sees it. */
  const pendingRequest = (kind?: ApprovalRequest['review']['kind']) =>
    until('an approval request', async () =>
      (await wallet.handlers['approvals:list']()).pending.find((r) => kind === undefined || r.review.kind === kind),
    );
  const approve = async (extra: { accounts?: string[] } = {}) => {
    const request = await pendingRequest();
    await wallet.handlers['approvals:answer']({
      requestId: request.id,
      approve: true,
      password: PASSWORD,
      acknowledgedRisks: request.review.risks.map((r) => r.code),
      ...extra,
    });
    return request;
  };
  const reject = async () => {
    const request = await pendingRequest();
    await wallet.handlers['approvals:answer']({ requestId: request.id, approve: false });
    return request;
  };
  /** The second step of a transaction: its effects, as the panel shows them after the signed dry run. */
  const effectsStep = () =>
    until('the effects step', async () =>
      (await wallet.handlers['approvals:list']()).pending.find((r) => r.review.effects !== undefined),
    );
  /** Confirms the effects step (no password: the first step approved the signature); returns what it showed. */
  const confirmEffects = async () => {
    const request = await effectsStep();
    await wallet.handlers['approvals:answer']({ requestId: request.id, approve: true });
    return request.review.effects!;
  };
  /** True once `promise` settled (polled, never awaited: a dApp's answer must not come before the effects step). */
  const settled = (promise: Promise<unknown>) => {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    return () => done;
  };
  const ask = (method: string, params: unknown, on = dapp, sessionTopic = topic) =>
    on.request({ topic: sessionTopic, chainId: chain, request: { method, params } });

  /** Pairs `client` with the wallet and approves the grant of `accounts`; the session topic. */
  async function connect(client: DappClient, accounts: string[]): Promise<string> {
    const { uri, session } = await proposeSession(client, {
      requiredNamespaces: { koinos: { chains: [chain], methods: SDK_METHODS, events: [] } },
    });
    await wallet.handlers['dapps:pair']({ uri });
    await approve({ accounts });
    return (await session).topic;
  }

  /** A KOIN transfer as the dApp builds it (koilib, the token ABI), header left to the wallet. */
  async function transferJson(value: string): Promise<TransactionJson> {
    const contract = new Contract({ id: koin, abi: koilibUtils.tokenAbi });
    const operation = await contract.encodeOperation({
      name: 'transfer',
      args: { from: signer.address, to: watcher.address, value },
    });
    return { operations: [operation] };
  }

  beforeAll(async () => {
    // Nothing may leave this machine: every fetch the WalletConnect clients make is recorded.
    globalThis.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!/^https?:\/\/127\.0\.0\.1[:/]/.test(url)) outside.push(url);
      return realFetch(input, init);
    };
    relay = await startTestRelay();
    dataDir = await mkdtemp(join(tmpdir(), 'koinos-wc-'));
    wallet = await open();
    await wallet.handlers['vault:create']({ password: PASSWORD });
    signer = await wallet.handlers['devnet:importAccount']({ index: 0, watchOnly: false });
    watcher = await wallet.handlers['devnet:importAccount']({ index: 1, watchOnly: true });
    const status = await wallet.handlers['devnet:status']();
    chain = `koinos:${status.chainId!.slice(0, 32)}`;
    koin = (await wallet.handlers['tokens:list']({})).find((t) => t.system === 'koin')!.contract;
    dapp = await dappClient(relay.url);
    topic = await connect(dapp, [signer.address, watcher.address]);
  });

  // A case that fails or times out prints what the relay saw (the clients' subscriptions and messages, in order): where
  // an exchange stopped. One clean run saw "ends the dApp's session…" time out, and none since.
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => console.error(`The relay's trace:\n${relay.trace.join('\n')}`));
  });

  afterAll(async () => {
    globalThis.fetch = realFetch;
    if (dapp) await closeDapp(dapp);
    await wallet?.close();
    await relay?.stop();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    await removeService(service).catch(() => undefined);
  });

  it('grants the accounts the person chose, as koinos:<chain>:<address>, and lists the grant with its origin', async () => {
    const session = dapp.session.get(topic);
    expect(session.namespaces['koinos']!.accounts).toEqual([
      `${chain}:${signer.address}`,
      `${chain}:${watcher.address}`,
    ]);
    const { grants, walletConnect } = await wallet.handlers['dapps:list']();
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      origin: 'https://dapp.example',
      name: 'Test dApp',
      transport: 'walletconnect',
      chains: [chain],
      accounts: [signer.address, watcher.address],
    });
    expect(grants[0]!.methods).not.toContain('koinos_signHash');
    expect(grants[0]!.methods).toContain('koinos_signAndSendTransaction');
    expect(walletConnect).toMatchObject({ relayUrl: relay.url, source: 'env', state: 'connected', hasProjectId: true });
  });

  it("answers the reads within the grant, as koilib's provider does", async () => {
    const head = (await ask('koinos_getHeadInfo', {})) as { head_topology: { id: string; height: string } };
    expect(head.head_topology.id).toMatch(/^0x1220/);
    expect(await ask('koinos_getChainId', {})).toBe((await wallet.handlers['devnet:status']()).chainId);
    const nonce = await ask('koinos_getNonce', { address: signer.address });
    expect(typeof nonce).toBe('number');
    expect(await ask('koinos_getNextNonce', { address: signer.address })).toBe(
      koilibUtils.encodeBase64url(nonceToBytes(BigInt(nonce as number) + 1n)),
    );
    expect(BigInt(String(await ask('koinos_getAccountRc', { address: signer.address })))).toBeGreaterThan(0n);
    const contract = new Contract({ id: koin, abi: koilibUtils.tokenAbi });
    const op = await contract.encodeOperation({ name: 'balanceOf', args: { owner: signer.address } });
    const read = (await ask('koinos_readContract', { operation: op.call_contract })) as { result: string };
    const balance = await contract.serializer!.deserialize(read.result, 'token.uint64');
    expect(BigInt(balance['value'] as string)).toBeGreaterThan(0n);
    expect(
      await ask('koinos_JsonRpcCall', { method: 'chain.get_account_rc', params: { account: signer.address } }),
    ).toHaveProperty('rc');
    await expect(ask('koinos_JsonRpcCall', { method: 'chain.submit_transaction', params: {} })).rejects.toMatchObject({
      message: expect.stringContaining('only read methods'),
    });
  });

  it("signs a text message once approved; koilib recovers the signer from the SDK's decoding of the answer", async () => {
    const message = 'Sign in to dapp.example\nnonce: 42';
    const answer = ask('koinos_signMessage', { address: signer.address, message });
    const request = await approve();
    expect(request.review).toMatchObject({
      kind: 'message',
      origin: 'https://dapp.example',
      message,
      signer: signer.address,
    });
    const signature = koilibUtils.decodeBase64(String(await answer));
    expect(signature).toHaveLength(65);
    expect(KoilibSigner.recoverAddress(sha256(new TextEncoder().encode(message)), signature)).toBe(signer.address);
  });

  it("answers a rejected message with WalletConnect's user-rejected error, and signs nothing", async () => {
    const answer = ask('koinos_signMessage', { address: signer.address, message: 'no' });
    await reject();
    await expect(answer).rejects.toMatchObject({ code: 5000 });
  });

  it('refuses koinos_signHash and messages that are not text or are header-shaped, before anyone is asked', async () => {
    await expect(
      ask('koinos_signHash', { address: signer.address, hash: koilibUtils.encodeBase64(new Uint8Array(32)) }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('does not sign bare hashes'),
    });
    const header = koilibUtils.decodeBase64url('CiISIHiOQ8yXW6jEeZLHsc1-2mHD-z1DNwbWWqUVKbIiuGOOEIDC1y8aCAj6vsmGAhAB');
    await expect(
      ask('koinos_signMessage', { address: signer.address, message: String.fromCharCode(...header) }),
    ).rejects.toMatchObject({ message: expect.stringContaining('readable text') });
    // A printable text whose bytes are a header naming a chain ID (field 1, 34 bytes): refused too.
    await expect(
      ask('koinos_signMessage', { address: signer.address, message: `\n"${'A'.repeat(34)}` }),
    ).rejects.toMatchObject({ message: expect.stringContaining('readable text') });
    expect((await wallet.handlers['approvals:list']()).pending).toEqual([]);
  });

  it("answers a watch-only account's signing request with a clear error", async () => {
    await expect(ask('koinos_signMessage', { address: watcher.address, message: 'hello' })).rejects.toMatchObject({
      message: expect.stringContaining('watch-only'),
    });
  });

  it('refuses an account outside the grant', async () => {
    const outsider = '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs';
    await expect(ask('koinos_getNonce', { address: outsider })).rejects.toMatchObject({ code: 3001 });
  });

  it('prepares a transaction by filling only the missing header fields', async () => {
    const tx = await transferJson('100');
    const prepared = (await ask('koinos_prepareTransaction', {
      address: signer.address,
      transaction: tx,
    })) as TransactionJson;
    expect(prepared.header).toMatchObject({
      chain_id: (await wallet.handlers['devnet:status']()).chainId,
      payer: signer.address,
    });
    expect(prepared.header!.rc_limit ?? '0').toBe('0'); // sized after the approval
    const own = (await ask('koinos_prepareTransaction', {
      address: signer.address,
      transaction: { ...tx, header: { nonce: 'KP8B' } },
    })) as TransactionJson;
    expect(own.header!.nonce).toBe('KP8B');
  });

  it('signs a transaction after the review (decoded transfer, mana cap) and a dry run; koilib recovers the signer', async () => {
    const answer = ask('koinos_signTransaction', {
      address: signer.address,
      transaction: await transferJson('12345'),
      options: { abis: {} },
    });
    const request = await approve();
    expect(request.review).toMatchObject({
      kind: 'sign',
      origin: 'https://dapp.example',
      signer: signer.address,
      payer: signer.address,
    });
    expect(request.review.operations[0]!.summary).toBe(
      `Transfer 0.00012345 KOIN from ${signer.address} to ${watcher.address}`,
    );
    expect(BigInt(request.review.rcLimit)).toBeGreaterThan(0n);
    const effects = await confirmEffects();
    const signed = (await answer) as TransactionJson;
    expect(effects.transactionId).toBe(signed.id);
    expect(effects.rcLimit).toBe(signed.header!.rc_limit);
    expect(await KoilibSigner.recoverAddresses(signed)).toEqual([signer.address]);
    // Signed and handed back: not sent.
    expect(await ask('koinos_getTransactionsById', { transactionIds: [signed.id] })).not.toHaveProperty(
      'transactions.0.containing_blocks',
    );
  });

  it('refuses a nonce the dApp set other than the next one, before anyone is asked', async () => {
    const stored = BigInt((await ask('koinos_getNonce', { address: signer.address })) as number);
    const withNonce = async (nonce: bigint) => ({
      ...(await transferJson('100')),
      header: { nonce: koilibUtils.encodeBase64url(nonceToBytes(nonce)) },
    });
    // A later nonce: the signature could be kept and sent after the person's next transactions, with no dry run.
    await expect(
      ask('koinos_signTransaction', { address: signer.address, transaction: await withNonce(stored + 2n) }),
    ).rejects.toMatchObject({
      message: expect.stringContaining(
        `The dApp set nonce ${stored + 2n}, but the next nonce of ${signer.address} is ${stored + 1n}: a signature for a later nonce could be kept`,
      ),
    });
    await expect(
      ask('koinos_signTransaction', { address: signer.address, transaction: await withNonce(stored) }),
    ).rejects.toMatchObject({ message: expect.stringContaining('that nonce is used already') });
    expect((await wallet.handlers['approvals:list']()).pending).toEqual([]);
  });

  it("never lets a dApp's ABI rename a token method: refused on a known token, shown undecoded elsewhere", async () => {
    // A transfer whose arguments start with a field the wallet's strict decoder refuses, and that a token reading
    // leniently (as-proto's) takes for a transfer all the same; the dApp's ABI calls its entry point claim_reward.
    const transfer = (await transferJson('500000000')).operations![0]!.call_contract!;
    const disguised = (contract: string) => ({
      call_contract: {
        contract_id: contract,
        entry_point: transfer.entry_point,
        args: koilibUtils.encodeBase64url(
          Uint8Array.from([0x08, 0x00, ...koilibUtils.decodeBase64url(transfer.args as string)]),
        ),
      },
    });
    const claimAbi = {
      methods: { claim_reward: { entry_point: transfer.entry_point, argument: '', return: '', read_only: false } },
    };
    await expect(
      ask('koinos_signTransaction', {
        address: signer.address,
        transaction: { operations: [disguised(koin)] },
        options: { abis: { [koin]: claimAbi } },
      }),
    ).rejects.toMatchObject({
      message: expect.stringContaining(`Operation 1 calls transfer on the token ${koin} with arguments that do not`),
    });
    expect((await wallet.handlers['approvals:list']()).pending).toEqual([]);

    const other = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
    const answer = ask('koinos_signTransaction', {
      address: signer.address,
      transaction: { operations: [disguised(other)] },
      options: { abis: { [other]: claimAbi } },
    });
    const request = await pendingRequest('sign');
    // Shown as the bytes it is, under its entry point's number: not as the dApp named it.
    expect(request.review.operations[0]).toMatchObject({ contract: other, entryPoint: String(transfer.entry_point) });
    expect(JSON.stringify(request.review.operations)).not.toContain('claim_reward');
    expect(request.review.risks.map((r) => r.code)).toEqual(['UNKNOWN_CONTRACT', 'NO_ABI']);
    await reject();
    await expect(answer).rejects.toMatchObject({ code: 5000 });
  });

  it("decodes a call with the dApp's ABI and flags what has none, an unknown contract and an upload over the signer", async () => {
    const abi = {
      methods: {
        greet: { entry_point: 0x12345678, argument: 'token.balance_of_args', return: 'token.uint64', read_only: false },
      },
      koilib_types: koilibUtils.tokenAbi.koilib_types,
    };
    const greeter = '1AGNa15ZQXAZUgFiqJ2i7Z2DPU2J6hW62i';
    const greet = await new Contract({ id: greeter, abi }).encodeOperation({
      name: 'greet',
      args: { owner: signer.address },
    });
    const opaque = {
      call_contract: { contract_id: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', entry_point: 1, args: 'AQID' },
    };
    const upload = { upload_contract: { contract_id: signer.address, bytecode: 'AGFzbQEAAAA' } };
    const answer = ask('koinos_signTransaction', {
      address: signer.address,
      transaction: { operations: [greet, opaque, upload] },
      options: { abis: { [greeter]: abi } },
    });
    const request = await pendingRequest('sign');
    expect(request.review.operations[0]).toEqual({
      contract: greeter,
      entryPoint: 'greet',
      args: { owner: signer.address },
      summary: `Call greet on ${greeter}`,
    });
    expect(request.review.operations[1]).toMatchObject({
      contract: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
      entryPoint: '1',
      args: 'AQID',
    });
    expect(request.review.risks.map((r) => r.code)).toEqual([
      'REPLACES_ACCOUNT',
      'UPLOAD_CONTRACT',
      'UNKNOWN_CONTRACT',
      'NO_ABI',
    ]);
    expect(request.review.risks.find((r) => r.code === 'NO_ABI')!.message).not.toContain(greeter);
    // A flagged request is not approved without each warning confirmed.
    await expect(
      wallet.handlers['approvals:answer']({ requestId: request.id, approve: true, password: PASSWORD }),
    ).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    await reject();
    await expect(answer).rejects.toMatchObject({ code: 5000 });
  });

  it('rejects a signTransaction: nothing is signed, the nonce stays', async () => {
    const before = await ask('koinos_getNonce', { address: signer.address });
    const answer = ask('koinos_signAndSendTransaction', {
      address: signer.address,
      transaction: await transferJson('1'),
      options: {},
    });
    await reject();
    await expect(answer).rejects.toMatchObject({ code: 5000 });
    expect(await ask('koinos_getNonce', { address: signer.address })).toBe(before);
  });

  it("shows a transfer's Transfer event and its mana in the effects step, and releases nothing before it is confirmed", async () => {
    const before = await ask('koinos_getNonce', { address: signer.address });
    const answer = ask('koinos_signAndSendTransaction', {
      address: signer.address,
      transaction: await transferJson('7000'),
      options: {},
    });
    const answered = settled(answer);
    await approve();
    const step = await effectsStep();
    expect(step.review).toMatchObject({ kind: 'send', origin: 'https://dapp.example', signer: signer.address });
    const effects = step.review.effects!;
    expect(effects.dryRun).toBe(true);
    const transfer = effects.events.find((e) => e.name.endsWith('transfer_event'))!;
    expect(transfer).toMatchObject({
      contract: koin,
      summary: `Transfer 0.00007 KOIN from ${signer.address} to ${watcher.address}`,
    });
    expect(transfer.data).toEqual({ from: signer.address, to: watcher.address, value: '7000' });
    const used = BigInt(effects.rcUsed!);
    expect(used).toBeGreaterThan(0n);
    expect(used).toBeLessThanOrEqual(BigInt(effects.rcLimit));
    expect(BigInt(effects.rcLimit)).toBeLessThan(BigInt(step.review.rcLimit)); // sized under the first step's cap
    // Signed and held: the dApp has no answer, the chain has no transaction, the nonce stays.
    expect(answered()).toBe(false);
    expect(await ask('koinos_getTransactionsById', { transactionIds: [effects.transactionId] })).not.toHaveProperty(
      'transactions.0',
    );
    expect(await ask('koinos_getNonce', { address: signer.address })).toBe(before);
    await wallet.handlers['approvals:answer']({ requestId: step.id, approve: true });
    const { transaction } = (await answer) as { transaction: TransactionJson };
    expect(transaction.id).toBe(effects.transactionId);
    await ask('koinos_waitForTransaction', { transactionId: transaction.id, type: 'byBlock', timeout: 15_000 });
  });

  it('shows a dry run that fails in the effects step, which can only be closed, and tells the dApp why', async () => {
    const before = await ask('koinos_getNonce', { address: signer.address });
    const answer = ask('koinos_signAndSendTransaction', {
      address: signer.address,
      transaction: await transferJson('1000000000000000000'),
      options: {},
    });
    const answered = settled(answer);
    await approve();
    const step = await effectsStep();
    expect(step.review.effects!.failure).toContain('insufficient balance');
    expect(answered()).toBe(false);
    await expect(
      wallet.handlers['approvals:answer']({ requestId: step.id, approve: true, password: PASSWORD }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await wallet.handlers['approvals:answer']({ requestId: step.id, approve: false });
    await expect(answer).rejects.toMatchObject({ message: expect.stringContaining('insufficient balance') });
    expect(await ask('koinos_getNonce', { address: signer.address })).toBe(before);
  });

  it("signs and sends a transfer, which the dApp waits for and the wallet's history shows", async () => {
    const answer = ask('koinos_signAndSendTransaction', {
      address: signer.address,
      transaction: await transferJson('250000000'),
      options: {},
    });
    const request = await approve();
    await confirmEffects();
    expect(request.review.kind).toBe('send');
    // The signTransaction above was dry-run after its approval: its cost is this origin's estimate now.
    expect(BigInt(request.review.rcEstimate!)).toBeGreaterThan(0n);
    expect(BigInt(request.review.rcEstimate!)).toBeLessThan(BigInt(request.review.rcLimit));
    const { receipt, transaction } = (await answer) as {
      receipt: { id: string; rc_used: string; events: unknown[] };
      transaction: TransactionJson;
    };
    expect(receipt.id).toBe(transaction.id);
    expect(receipt.events.length).toBeGreaterThan(0);
    const included = (await ask('koinos_waitForTransaction', {
      transactionId: transaction.id,
      type: 'byBlock',
      timeout: 15_000,
    })) as { blockId: string; blockNumber: number };
    expect(included.blockId).toMatch(/^0x1220/);
    // The blocks, as the dApp's provider reads them.
    const block = (await ask('koinos_getBlock', { height: included.blockNumber })) as {
      block_id: string;
      block_height: string;
    };
    expect(block).toMatchObject({ block_id: included.blockId, block_height: String(included.blockNumber) });
    const byId = (await ask('koinos_getBlocksById', { blockIds: [included.blockId] })) as {
      block_items: { block_height: string }[];
    };
    expect(byId.block_items[0]!.block_height).toBe(String(included.blockNumber));
    const blocks = (await ask('koinos_getBlocks', { height: 1, numBlocks: included.blockNumber })) as {
      block_height: string;
    }[];
    expect(blocks.map((b) => b.block_height)).toEqual(
      Array.from({ length: included.blockNumber }, (_, i) => String(i + 1)),
    );
    const found = (await ask('koinos_getTransactionsById', { transactionIds: [transaction.id] })) as {
      transactions: { containing_blocks: string[] }[];
    };
    expect(found.transactions[0]!.containing_blocks).toEqual([included.blockId]);
    const history = await until('the transfer in the history', async () => {
      const page = await wallet.handlers['history:page']({
        accountId: signer.id,
        limit: 10,
        ascending: false,
        irreversibleOnly: false,
      });
      return page.records.find((r) => r.transactionId === transaction.id);
    });
    expect(history.entries[0]).toMatchObject({ kind: 'sent', amount: '250000000', counterparty: watcher.address });
  });

  it('keeps one signing request per origin: a second one while the first waits is refused', async () => {
    const first = ask('koinos_signMessage', { address: signer.address, message: 'first' });
    await pendingRequest('message');
    await expect(ask('koinos_signMessage', { address: signer.address, message: 'second' })).rejects.toMatchObject({
      message: expect.stringContaining('still waiting'),
    });
    await reject();
    await expect(first).rejects.toMatchObject({ code: 5000 });
  });

  it('asks a locked wallet to be unlocked first, then for the approval', async () => {
    await wallet.handlers['vault:lock']();
    const answer = ask('koinos_signMessage', { address: signer.address, message: 'after unlock' });
    // Locked: nothing to approve yet (the wallet shows its unlock screen).
    await new Promise((resolve) => setImmediate(resolve));
    expect((await wallet.handlers['approvals:list']()).pending).toEqual([]);
    await wallet.handlers['vault:unlock']({ password: PASSWORD });
    await approve();
    expect(koilibUtils.decodeBase64(String(await answer))).toHaveLength(65);
  });

  it('answers a request still open when the wallet closes, and keeps the session across a restart', async () => {
    const refused = expect(ask('koinos_signMessage', { address: signer.address, message: 'at close' })).rejects;
    const atClose = refused.toMatchObject({ code: 5000, data: 'REJECTED' });
    await pendingRequest();
    await wallet.close();
    // By then the dApp has its refusal and the client's file holds what the answer changed: no request pending, and
    // nothing left to write into a folder the wallet has let go of.
    await atClose;
    const stored = await readState();
    expect(stored['wc@2:client:0.3//request']).toEqual([]);
    await reopen();
    const head = (await ask('koinos_getHeadInfo', {})) as { head_topology: { height: string } };
    expect(BigInt(head.head_topology.height)).toBeGreaterThan(0n);
    expect((await wallet.handlers['dapps:list']()).grants.map((g) => g.origin)).toEqual(['https://dapp.example']);
  });

  it("keeps the session's key and the client's own key sealed in walletconnect.json", async () => {
    const symKey = dapp.core.crypto.keychain.get(topic);
    expect(symKey).toMatch(/^[0-9a-f]{64}$/);
    const stored = await readState();
    expect(JSON.stringify(stored['wc@2:core:0.3//keychain'])).toContain(symKey);
    const raw = await readFile(walletConnectFile(), 'utf8');
    expect(raw).not.toContain(symKey);
    expect(raw).not.toContain('client_ed25519_seed');
    expect(raw).not.toContain(topic);
  });

  it('writes no answered request as pending when requests come in as the client starts', async () => {
    // One second after it starts, WalletConnect's client takes in again every message it has not acknowledged yet: a
    // request it is still taking in then is recorded as pending once more if the wallet answered it meanwhile, and the
    // next start would emit it again with no dApp waiting. Requests refused at once, back to back over that second.
    await wallet.close();
    await reopen();
    const restored = Date.now();
    const hash = koilibUtils.encodeBase64(new Uint8Array(32));
    let asked = 0;
    for (; Date.now() - restored < 1_500; asked++) {
      await expect(ask('koinos_signHash', { address: signer.address, hash })).rejects.toMatchObject({
        message: expect.stringContaining('does not sign bare hashes'),
      });
    }
    await wallet.close();
    const stored = await readState();
    expect(stored['wc@2:client:0.3//request'], `after ${asked} requests`).toEqual([]);
    await reopen();
  });

  it('does not take in again, after a restart, a request it answered before the client noted taking it in', async () => {
    // The client notes that it took a message in only after the wallet has the request, in a write of its own: a wallet
    // that ended before that write (killed; or closed, as one clean run saw before the storage's close waited for it)
    // finds the message not taken in at the next start, and the client takes it in again. Its answer went out: the
    // person must not be asked again.
    const refused = expect(ask('koinos_signMessage', { address: signer.address, message: 'answered once' })).rejects;
    await reject();
    await refused.toMatchObject({ code: 5000 });
    await wallet.close();
    const stored = (await readState()) as Record<string, Record<string, Record<string, string>>>;
    const seen = Object.entries(stored['wc@2:core:0.3//messages']![topic]!);
    const decoded = await Promise.all(
      seen.map(async ([hash, message]) => ({ hash, message, payload: await dapp.core.crypto.decode(topic, message) })),
    );
    // The dApp's request (the wallet's answer does not repeat the message).
    const answered = decoded.find(({ payload }) => JSON.stringify(payload).includes('"answered once"'))!;
    stored['wc@2:core:0.3//messages_withoutClientAck'] = { [topic]: { [answered.hash]: answered.message } };
    await writeFile(walletConnectFile(), sealState(fileKey!, new Map(Object.entries(stored))));

    await reopen();
    const after = await until('the message taken in again', async () => {
      const now = (await readState()) as Record<string, Record<string, unknown>>;
      return now['wc@2:core:0.3//messages_withoutClientAck']?.[topic] === undefined ? now : undefined;
    });
    expect(after['wc@2:client:0.3//request']).toEqual([]);
    expect((await wallet.handlers['approvals:list']()).pending).toEqual([]);
  });

  it('ends the grant when the dApp disconnects', async () => {
    await dapp.disconnect({ topic, reason: { code: 6000, message: 'bye' } });
    await until('the grant gone', async () =>
      (await wallet.handlers['dapps:list']()).grants.length === 0 ? true : undefined,
    );
  });

  it("ends the dApp's session when the wallet revokes the grant", async () => {
    const other = await dappClient(relay.url, 'https://other.example');
    try {
      const otherTopic = await connect(other, [signer.address]);
      expect((await wallet.handlers['dapps:list']()).grants.map((g) => g.origin)).toEqual(['https://other.example']);
      await wallet.handlers['dapps:revoke']({ origin: 'https://other.example' });
      await until('the dApp told', () =>
        other.session.getAll().some((s) => s.topic === otherTopic) ? undefined : true,
      );
      expect((await wallet.handlers['dapps:list']()).grants).toEqual([]);
    } finally {
      await closeDapp(other);
    }
  });

  it('starts without sessions from a walletconnect.json sealed with another key, kept aside and named', async () => {
    // A data folder copied from another machine: its file is sealed with a key this keychain does not hold.
    const other = await dappClient(relay.url, 'https://other.example');
    try {
      await connect(other, [signer.address]);
      await wallet.close();
      const foreign = sealState(new Uint8Array(32).fill(7), new Map(Object.entries(await readState())));
      await writeFile(walletConnectFile(), foreign);
      wallet = await open();
      await wallet.handlers['vault:unlock']({ password: PASSWORD });
      const list = await until('the file kept aside and the grant of its session ended', async () => {
        const now = await wallet.handlers['dapps:list']();
        return now.walletConnect.keptAside !== undefined && now.grants.length === 0 ? now : undefined;
      });
      expect(list.walletConnect.keptAside).toMatch(/walletconnect\.json\.damaged-[0-9a-f]{12}$/);
      expect(await readFile(list.walletConnect.keptAside!, 'utf8')).toBe(foreign);
      // The file is the wallet's own again, sealed with its key, without the sessions it could not read.
      expect((await readState())['wc@2:client:0.3//session'] ?? []).toEqual([]);
    } finally {
      await closeDapp(other);
    }
  });

  // With file storage the key is a sealed entry of the vault: a missing one is a damaged vault, not this case.
  it.skipIf(NO_KEYCHAIN !== undefined)(
    'says on the dApps screen that the keychain kept the key back, leaves the file, and starts anew once it is moved',
    async () => {
      const other = await dappClient(relay.url, 'https://third.example');
      try {
        await connect(other, [signer.address]);
        await wallet.close();
        // A keychain that answers "nothing" for the key (as one may while locked).
        const { installId } = JSON.parse(await readFile(join(dataDir, 'wallet.json'), 'utf8')) as { installId: string };
        expect(await KEYTAR.deletePassword(service, `install-${installId}/apikey/walletconnect-storage`)).toBe(true);
        const before = await readFile(walletConnectFile());
        wallet = await open();
        const problem = await until(
          'the problem said',
          async () => (await wallet.handlers['dapps:list']()).walletConnect.problem,
        );
        expect(problem).toContain(
          `The WalletConnect sessions were not opened: expected the key of the WalletConnect sessions in ${walletConnectFile()} from the system keychain`,
        );
        expect(problem).toContain('or move the file away to start without the sessions');
        expect(await readFile(walletConnectFile())).toEqual(before);
        // Moved away: the next start of the client (at the unlock) makes a new key and a file without the sessions.
        await rename(walletConnectFile(), `${walletConnectFile()}.moved`);
        await wallet.handlers['vault:unlock']({ password: PASSWORD });
        await until('started without the sessions', async () => {
          const now = await wallet.handlers['dapps:list']();
          return now.walletConnect.problem === undefined && now.grants.length === 0 ? true : undefined;
        });
      } finally {
        await closeDapp(other);
      }
    },
  );

  /**
   * Pairs a new dApp of `origin` whose proposal requires `required` (as a dApp on an older sign-client sends it: 2.25
   * moves required namespaces to the optional ones) and offers `offered`; checks that it is refused with `refusal`
   * before anyone is asked, and that no grant is left.
   */
  async function refusedBeforeAsking(
    origin: string,
    required: Record<string, { chains: string[]; methods: string[]; events: string[] }>,
    offered: string[],
    refusal: { code: number; message: string },
  ): Promise<void> {
    const other = await dappClient(relay.url, origin);
    try {
      const engine = (other as unknown as { engine: { sendProposeSession: (p: unknown) => Promise<unknown> } }).engine;
      const send = engine.sendProposeSession.bind(engine);
      engine.sendProposeSession = (p) => {
        (p as { proposal: { requiredNamespaces: unknown } }).proposal.requiredNamespaces = required;
        return send(p);
      };
      const { uri, session } = await proposeSession(other, {
        optionalNamespaces: { koinos: { chains: offered, methods: SDK_METHODS, events: [] } },
      });
      await wallet.handlers['dapps:pair']({ uri });
      expect(
        await session.then(
          () => undefined,
          (error: unknown) => error,
        ),
      ).toMatchObject(refusal);
      expect((await wallet.handlers['approvals:list']()).pending).toEqual([]);
      expect((await wallet.handlers['dapps:list']()).grants.map((g) => g.origin)).not.toContain(origin);
    } finally {
      await closeDapp(other);
    }
  }

  it('refuses a proposal that requires what the session cannot hold before anyone is asked, with the code that says what', async () => {
    await refusedBeforeAsking(
      'https://multichain.example',
      {
        koinos: { chains: [chain], methods: SDK_METHODS, events: [] },
        eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: [] },
      },
      [chain],
      { code: 5104, message: 'This wallet answers only the "koinos" namespace; the dApp requires eip155.' },
    );
    expect(unmetRequirements({ koinos: { chains: [chain], methods: ['koinos_signMessage', 'eth_sign'] } })).toEqual({
      code: 5101,
      message: 'The dApp requires eth_sign, which this wallet does not answer.',
    });
    expect(unmetRequirements({ koinos: { chains: [chain], events: ['accountsChanged'] } })?.code).toBe(5102);
    expect(unmetRequirements({ [chain]: { methods: SDK_METHODS } })).toBeUndefined();
  });

  it('refuses a proposal that requires a chain no network of the wallet is on, before anyone is asked', async () => {
    const nowhere = `koinos:${'Q'.repeat(32)}`;
    await refusedBeforeAsking(
      'https://elsewhere.example',
      { koinos: { chains: [nowhere], methods: SDK_METHODS, events: [] } },
      [chain, nowhere],
      { code: 5100, message: `Test dApp requires ${nowhere}, and no network of this wallet is on it now.` },
    );
  });

  it('takes one connection request of a pairing at a time: another, whatever address it declares, is refused at once', async () => {
    const other = await dappClient(relay.url, 'https://first.example');
    try {
      const requiredNamespaces = { koinos: { chains: [chain], methods: SDK_METHODS, events: [] } };
      const first = await proposeSession(other, { requiredNamespaces });
      await wallet.handlers['dapps:pair']({ uri: first.uri });
      expect((await pendingRequest('connect')).review.origin).toBe('https://first.example');
      // The same pairing (`wc:<pairing topic>@2?…`), proposing again as another address while the first one waits.
      // The SDK makes a new pairing while its first proposal is unanswered; a dApp that wants to stack requests need
      // not: marked active, the client proposes over the pairing the wallet has.
      const pairingTopic = first.uri.slice('wc:'.length, first.uri.indexOf('@'));
      await other.core.pairing.activate({ topic: pairingTopic });
      (other as unknown as { metadata: { url: string } }).metadata = {
        ...other.metadata,
        url: 'https://second.example',
      };
      const second = await proposeSession(other, { pairingTopic, requiredNamespaces });
      const answered = settled(second.session);
      const waiting = async () => (await wallet.handlers['approvals:list']()).pending.map((r) => r.review.origin);
      await until('the second proposal answered, or put before the person', async () =>
        answered() || (await waiting()).length > 1 ? true : undefined,
      );
      expect(await waiting()).toEqual(['https://first.example']);
      expect(await second.session.then(undefined, (error: unknown) => error)).toMatchObject({
        code: 5000,
        message: 'Another connection request of this dApp is waiting for a decision. Answer it first.',
      });
      await reject();
      expect(await first.session.then(undefined, (error: unknown) => error)).toMatchObject({ code: 5000 });
      // Answered, the pairing may ask again.
      const third = await proposeSession(other, { pairingTopic, requiredNamespaces });
      expect((await pendingRequest('connect')).review.origin).toBe('https://second.example');
      await reject();
      expect(await third.session.then(undefined, (error: unknown) => error)).toMatchObject({ code: 5000 });
    } finally {
      await closeDapp(other);
    }
  });

  it('sent nothing anywhere but 127.0.0.1', () => {
    expect(outside).toEqual([]);
  });
});
