// The transport-neutral core on its own, as a later page transport would use it: a request from an origin without a
// grant asks for one first; a grant limits accounts, methods and chains; revoking ends it. Real vault, real devnet.
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src-main/ipc/contract.ts';
import type { JsonObject } from '../../../src-main/koinos/codec.ts';
import { ApprovalQueue } from '../../../src-main/wallet/approvals/approvalQueue.ts';
import { chainOf } from '../../../src-main/wallet/dapps/chains.ts';
import { DappService, shownDappName } from '../../../src-main/wallet/dapps/dappService.ts';
import { DappStore } from '../../../src-main/wallet/dapps/dappStore.ts';
import { Vault } from '../../../src-main/wallet/vault/vault.ts';
import { rpc, transferJson } from '../../devnet/httpHelpers.ts';
import { until } from '../../helpers/until.ts';
import { testDevnet } from '../chain/helpers.ts';
import { testServices } from '../chain/services.ts';
import { KEYTAR, PASSWORD, TEST_SCRYPT, removeService, tempDir, uniqueService } from '../vault/helpers.ts';

describe('DappService', () => {
  const service = uniqueService();
  afterEach(async () => {
    await removeService(service).catch(() => undefined);
  });

  async function setUp() {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const dataDir = await tempDir();
    const vault = await Vault.open({ dataDir, keychain: KEYTAR, keychainService: service, scryptCost: TEST_SCRYPT });
    await vault.create({ password: PASSWORD });
    const signer = await vault.importKey({ key: devnet.accounts[0]!.wif, name: 'Dev 0' }, { developmentOnly: true });
    const seen: ApprovalRequest[] = [];
    let decide = true;
    // Held, a request waits for a decision until something else settles it.
    let hold = false;
    const approvals = new ApprovalQueue({
      approver: {
        mode: 'dialog',
        decide: (r) => (seen.push(r), hold ? new Promise<boolean>(() => {}) : Promise.resolve(decide)),
      },
    });
    const store = await DappStore.open(dataDir);
    const dapps = new DappService({
      vault,
      networks: s.networks,
      tokens: s.tokens,
      pending: s.pending,
      follower: s.follower,
      approvals,
      store,
    });
    const chain = chainOf(await (await s.networks.node('local')).node.chainId());
    return {
      devnet,
      dapps,
      vault,
      store,
      signer,
      chain,
      seen,
      approvals,
      setDecision: (d: boolean) => (decide = d),
      holdDecisions: () => (hold = true),
    };
  }

  /**
   * `ask()`'s request once it waits for the vault's unlock, that is once it listens for one (in an object: an async
   * function would wait for the request itself).
   */
  async function onceWaitingForUnlock<T>(vault: Vault, ask: () => Promise<T>): Promise<{ asked: Promise<T> }> {
    const original = vault.onLockChange;
    const listening = new Promise<void>((resolve) => {
      vault.onLockChange = (listener) => {
        vault.onLockChange = original;
        resolve();
        return original.call(vault, listener);
      };
    });
    const asked = ask();
    await listening;
    return { asked };
  }

  it("shows a dApp's declared name on one line, at most 64 characters, in the dialog and the grant", async () => {
    expect(shownDappName('koinscan.io?\n\nVerified by\u2028Koinos\u200bWallet', 'https://x.io')).toBe(
      'koinscan.io? Verified by Koinos Wallet',
    );
    expect(shownDappName(' \n\t ', 'https://x.io')).toBe('https://x.io');
    expect(shownDappName('é'.repeat(70), 'https://x.io')).toBe(`${'é'.repeat(63)}…`);
    expect(shownDappName('Koinos Swap', 'https://x.io')).toBe('Koinos Swap');

    const { dapps, chain, seen } = await setUp();
    const declared = `koinscan.io?\n\nVerified by Koinos Wallet${' padding'.repeat(10)}`;
    await dapps.connect({
      origin: 'https://page.example',
      name: declared,
      url: 'https://page.example',
      transport: 'walletconnect',
      chains: [chain],
      methods: ['koinos_getNonce'],
    });
    const shown = seen[0]!.review.connection!.name;
    expect(shown).toBe(shownDappName(declared, 'https://page.example'));
    expect(shown).not.toMatch(/\n/);
    expect([...shown].length).toBeLessThanOrEqual(64);
    expect(shown).toMatch(/^koinscan\.io\? Verified by Koinos Wallet padding.*…$/);
    expect(dapps.grants()[0]!.name).toBe(shown);
  });

  it('asks an origin without a grant for one first, then answers within it', async () => {
    const { dapps, signer, chain, seen } = await setUp();
    const nonce = await dapps.handle({
      origin: 'https://page.example',
      transport: 'walletconnect',
      chain,
      method: 'koinos_getNonce',
      params: { address: signer.address },
    });
    expect(nonce).toBe(0);
    expect(seen.map((r) => r.review.kind)).toEqual(['connect']);
    expect(seen[0]!.review.connection).toMatchObject({
      methods: ['koinos_getNonce'],
      accounts: [signer.address],
      chains: [{ chain, networkName: 'Local (devnet)' }],
    });
    expect(dapps.grants()).toMatchObject([
      { origin: 'https://page.example', accounts: [signer.address], methods: ['koinos_getNonce'] },
    ]);
    // Outside the grant: another method is refused without asking anyone.
    await expect(
      dapps.handle({
        origin: 'https://page.example',
        transport: 'walletconnect',
        chain,
        method: 'koinos_getAccountRc',
        params: { address: signer.address },
      }),
    ).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    await expect(
      dapps.handle({
        origin: 'https://page.example',
        transport: 'walletconnect',
        chain: 'koinos:EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3e',
        method: 'koinos_getNonce',
        params: {},
      }),
    ).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    expect(seen).toHaveLength(1);
  });

  it('refuses a request waiting for an unlock when the wallet closes, and every later one that would wait', async () => {
    const { dapps, vault, signer, chain } = await setUp();
    const signMessage = (message: string) =>
      dapps.handle({
        origin: 'https://page.example',
        transport: 'walletconnect',
        chain,
        method: 'koinos_signMessage',
        params: { address: signer.address, message },
      });
    expect(await signMessage('granted and signed')).toMatch(/^[A-Za-z0-9+/]+=*$/);
    vault.lock();
    const { asked: waiting } = await onceWaitingForUnlock(vault, () => signMessage('asked while locked'));
    dapps.close();
    const closed = { code: 'VAULT_LOCKED', message: expect.stringContaining('The wallet closed while it was locked') };
    await expect(waiting).rejects.toMatchObject(closed);
    await expect(signMessage('asked once closed')).rejects.toMatchObject(closed);
  });

  it('answers nothing when the grant is refused, and again nothing once it is revoked', async () => {
    const { dapps, signer, chain, setDecision } = await setUp();
    setDecision(false);
    await expect(
      dapps.handle({
        origin: 'https://page.example',
        transport: 'walletconnect',
        chain,
        method: 'koinos_getNonce',
        params: { address: signer.address },
      }),
    ).rejects.toMatchObject({ code: 'REJECTED' });
    expect(dapps.grants()).toEqual([]);
    setDecision(true);
    await dapps.handle({
      origin: 'https://page.example',
      transport: 'walletconnect',
      chain,
      method: 'koinos_getNonce',
      params: { address: signer.address },
    });
    expect(await dapps.revoke('https://page.example')).toBe(true);
    expect(dapps.grants()).toEqual([]);
  });

  it("refuses a chain none of the wallet's networks is on, and unknown or refused methods, before anyone is asked", async () => {
    const { dapps, chain, seen } = await setUp();
    await expect(
      dapps.handle({
        origin: 'https://page.example',
        transport: 'walletconnect',
        chain: 'koinos:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        method: 'koinos_getHeadInfo',
        params: {},
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      dapps.handle({
        origin: 'https://page.example',
        transport: 'walletconnect',
        chain,
        method: 'eth_sign',
        params: {},
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(
      dapps.handle({
        origin: 'https://page.example',
        transport: 'walletconnect',
        chain,
        method: 'koinos_submitBlock',
        params: {},
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(seen).toEqual([]);
  });

  it('waits for at most 8 transactions of one origin at once, and refuses a ninth until one of them is included', async () => {
    const { devnet, dapps, chain } = await setUp();
    const PAGE = 'https://page.example';
    const OTHER = 'https://other.example';
    for (const origin of [PAGE, OTHER]) {
      await dapps.connect({
        origin,
        name: origin,
        url: origin,
        transport: 'walletconnect',
        chains: [chain],
        methods: ['koinos_waitForTransaction'],
      });
    }
    const wait = (origin: string, transaction: JsonObject) =>
      dapps.handle({
        origin,
        transport: 'walletconnect',
        chain,
        method: 'koinos_waitForTransaction',
        params: { transactionId: transaction['id'], timeout: 60_000 },
      }) as Promise<{ blockId: string }>;
    const submit = (transaction: JsonObject) =>
      rpc(devnet.url, 'chain.submit_transaction', { transaction, broadcast: true });
    // Ten transfers of the first development account, signed and not sent yet: each wait polls the node until then.
    const transfers = Array.from({ length: 10 }, (_, i) => transferJson(devnet, 0, 1, 1n, BigInt(i + 1)));

    const first = transfers.slice(0, 8).map((t) => wait(PAGE, t));
    await expect(wait(PAGE, transfers[8]!)).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringContaining(
        'https://page.example is waiting for 8 transactions already, the most one dApp may wait for at once.',
      ),
    });
    // The bound is the origin's: another dApp's wait is taken.
    const other = wait(OTHER, transfers[9]!);

    for (const t of transfers.slice(0, 8)) await submit(t);
    const included = await Promise.all(first);
    expect(included.map((w) => w.blockId)).toHaveLength(8);
    expect(new Set(included.map((w) => w.blockId)).size).toBe(8);
    // Its waits over, the origin may wait again.
    const ninth = wait(PAGE, transfers[8]!);
    await submit(transfers[8]!);
    await submit(transfers[9]!);
    expect((await ninth).blockId).toMatch(/^0x1220[0-9a-f]{64}$/);
    expect((await other).blockId).toMatch(/^0x1220[0-9a-f]{64}$/);
  });

  it("ends a dApp's waits for transactions when its page closes, it is disconnected or the wallet closes", async () => {
    const { devnet, dapps, chain } = await setUp();
    const PAGE = 'https://page.example';
    const OTHER = 'https://other.example';
    const transportOf = (origin: string) => (origin === PAGE ? 'window' : 'walletconnect');
    for (const origin of [PAGE, OTHER]) {
      await dapps.connect({
        origin,
        name: origin,
        url: origin,
        transport: transportOf(origin),
        chains: [chain],
        methods: ['koinos_waitForTransaction'],
      });
    }
    // Waits of a minute for transfers signed and never sent but the first: each would poll the node for all that minute.
    const wait = (origin: string, transaction: JsonObject) =>
      dapps.handle({
        origin,
        transport: transportOf(origin),
        chain,
        method: 'koinos_waitForTransaction',
        params: { transactionId: transaction['id'], timeout: 60_000 },
      }) as Promise<{ blockId: string }>;
    const transfers = Array.from({ length: 6 }, (_, i) => transferJson(devnet, 0, 1, 1n, BigInt(i + 1)));
    const ended = (reason: string) => ({
      code: 'REJECTED',
      message: `The wait for the transaction ended: ${reason}.`,
    });

    const fromOther = wait(OTHER, transfers[0]!);
    const fromPage = [wait(PAGE, transfers[1]!), wait(PAGE, transfers[2]!)];
    dapps.pageClosed(PAGE);
    for (const w of fromPage) await expect(w).rejects.toMatchObject(ended('the dApp page was closed'));
    // The WalletConnect dApp's wait goes on: it ends once its transaction is included.
    await rpc(devnet.url, 'chain.submit_transaction', { transaction: transfers[0]!, broadcast: true });
    expect((await fromOther).blockId).toMatch(/^0x1220[0-9a-f]{64}$/);

    const beforeRevoke = wait(OTHER, transfers[3]!);
    await dapps.revoke(OTHER);
    await expect(beforeRevoke).rejects.toMatchObject(ended('the dApp was disconnected'));

    // A page opened again waits again (the grant stays when a page closes), until the wallet closes.
    const beforeClose = [wait(PAGE, transfers[4]!), wait(PAGE, transfers[5]!)];
    dapps.close();
    for (const w of beforeClose) await expect(w).rejects.toMatchObject(ended('the wallet closed'));
  });

  it('asks a dApp window the person refused no more until its page closes; a lock or a closed page is no refusal', async () => {
    const { dapps, vault, chain, seen, approvals, setDecision, holdDecisions } = await setUp();
    const PAGE = 'https://page.example';
    const connect = () =>
      dapps.connect({
        origin: PAGE,
        name: 'Page',
        url: PAGE,
        transport: 'window',
        chains: [chain],
        methods: ['koinos_getNonce'],
      });
    setDecision(false);
    await expect(connect()).rejects.toMatchObject({ code: 'REJECTED' });
    expect(seen).toHaveLength(1);
    // The page asks again at once: refused without a question.
    await expect(connect()).rejects.toMatchObject({
      code: 'REJECTED',
      message: expect.stringContaining(
        `You refused to connect ${PAGE} in this window. Close the dApp's window and open it again to be asked again.`,
      ),
    });
    expect(seen).toHaveLength(1);
    // Its next page is asked, and may be granted.
    dapps.pageClosed(PAGE);
    setDecision(true);
    expect((await connect()).origin).toBe(PAGE);
    expect(seen).toHaveLength(2);
    await dapps.revoke(PAGE);

    // Refused by a lock (the app rejects what waits when the wallet locks), then by its page's close: the person
    // refused nothing, so the next request is asked.
    holdDecisions();
    const beforeLock = connect();
    await until('the request before the person', () => (seen.length === 3 ? true : undefined));
    vault.lock();
    approvals.rejectAll('the wallet locked');
    await expect(beforeLock).rejects.toMatchObject({ code: 'REJECTED' });
    await vault.unlock({ password: PASSWORD });
    const beforeClose = connect();
    await until('the request before the person', () => (seen.length === 4 ? true : undefined));
    dapps.pageClosed(PAGE);
    await expect(beforeClose).rejects.toMatchObject({ code: 'REJECTED' });
    const asked = connect();
    await until('the request before the person', () => (seen.length === 5 ? true : undefined));
    approvals.rejectAll('the test ends');
    await expect(asked).rejects.toMatchObject({ code: 'REJECTED' });
  });

  it("refuses what a closed dApp page (or a disconnected dApp) asked, waiting for a decision or the unlock; a WalletConnect dApp's requests stay", async () => {
    const { dapps, vault, signer, chain, seen, approvals, holdDecisions } = await setUp();
    const PAGE = 'https://page.example';
    const OTHER = 'https://other.example';
    for (const [origin, transport] of [
      [PAGE, 'window'],
      [OTHER, 'walletconnect'],
    ] as const) {
      await dapps.connect({
        origin,
        name: origin,
        url: origin,
        transport,
        chains: [chain],
        methods: ['koinos_signMessage'],
      });
    }
    holdDecisions();
    const signMessage = (origin: string, message: string) =>
      dapps.handle({
        origin,
        transport: origin === PAGE ? 'window' : 'walletconnect',
        chain,
        method: 'koinos_signMessage',
        params: { address: signer.address, message },
      });
    const waiting = () => approvals.state().pending.map((r) => r.review.origin);
    const fromPage = signMessage(PAGE, 'asked by the page');
    const fromOther = signMessage(OTHER, 'asked over WalletConnect');
    await until('both requests before the person', () => (seen.length === 4 ? true : undefined));
    expect(waiting().sort()).toEqual([OTHER, PAGE]);

    dapps.pageClosed(PAGE);
    await expect(fromPage).rejects.toMatchObject({ code: 'REJECTED' });
    // The WalletConnect dApp has no page of the wallet's: closing one of its address changes nothing.
    dapps.pageClosed(OTHER);
    expect(waiting()).toEqual([OTHER]);

    // A request that waits for the unlock is refused too, when the page closes or the dApp is disconnected.
    vault.lock();
    const { asked: whileLocked } = await onceWaitingForUnlock(vault, () => signMessage(PAGE, 'asked while locked'));
    dapps.pageClosed(PAGE);
    await expect(whileLocked).rejects.toMatchObject({
      code: 'REJECTED',
      message: expect.stringContaining(
        'The request was refused: the dApp page was closed while the wallet was locked.',
      ),
    });
    const { asked: beforeRevoke } = await onceWaitingForUnlock(vault, () =>
      signMessage(PAGE, 'asked before the revoke'),
    );
    await dapps.revoke(PAGE);
    await expect(beforeRevoke).rejects.toMatchObject({
      code: 'REJECTED',
      message: expect.stringContaining(
        'The request was refused: the dApp was disconnected while the wallet was locked.',
      ),
    });
    expect(seen).toHaveLength(4);
    approvals.rejectAll('the test ends');
    await expect(fromOther).rejects.toMatchObject({ code: 'REJECTED' });
  });
});
