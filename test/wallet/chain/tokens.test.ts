// Tokens other than KOIN end to end on a devnet: a KCS-4 test token (2 decimals) added by contract address, its
// balance on the dashboard, sent with its own decimals, decoded in history and in an offline export; VHP sent too. A
// token nobody added that calls itself KOIN is named by its address wherever its events are read.
import { describe, expect, it } from 'vitest';
import { BTYPE, bytesToJson, encode } from '../../../src-main/koinos/codec.ts';
import { fromBase64 } from '../../../src-main/koinos/bytes.ts';
import type { HeldSignature } from '../../../src-main/wallet/chain/approvedSubmit.ts';
import { describeEffects } from '../../../src-main/wallet/dapps/dappEffects.ts';
import { dappDecoder } from '../../../src-main/wallet/dapps/dappTransactions.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { HistoryService } from '../../../src-main/wallet/chain/history.ts';
import { exportHistory } from '../../../src-main/wallet/chain/historyExport.ts';
import { testDevnet } from './helpers.ts';
import { testServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

type TestDevnet = Awaited<ReturnType<typeof testDevnet>>;

/** A KCS-4 token the devnet creates for `owner` with the whole supply; its contract id (bytes) and address. */
async function createToken(
  devnet: TestDevnet,
  owner: string,
  token: { name: string; symbol: string; decimals: number; initialSupply: bigint },
): Promise<{ contractId: Uint8Array; contract: string }> {
  const { contractId } = await devnet.node.createToken({ ...token, owner: addressFromString(owner) });
  return { contractId, contract: bytesToJson(contractId, BTYPE.CONTRACT_ID) };
}

describe('tokens other than KOIN', () => {
  it('adds a KCS-4 token by address and sends, shows and decodes it with its own decimals', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const { contract } = await createToken(devnet, a!.address, {
      name: 'Test Dollar',
      symbol: 'TUSD',
      decimals: 2,
      initialSupply: 100_000n,
    });

    const token = await s.tokens.add('local', contract);
    expect(token).toEqual({ contract, name: 'Test Dollar', symbol: 'TUSD', decimals: 2 });
    expect((await s.tokens.list('local')).map((t) => t.symbol)).toEqual(['KOIN', 'VHP', 'TUSD']);
    const view = await s.dashboard.get({ address: a!.address });
    expect(view.balances.find((x) => x.token.symbol === 'TUSD')!.balance).toBe('100000');

    expect(
      (await expectWalletError(s.send.prepare({ from: a!.address, to: b!.address, token: contract, amount: '0.001' })))
        .code,
    ).toBe('INVALID_AMOUNT');
    expect(
      (
        await expectWalletError(
          s.send.prepare({ from: a!.address, to: b!.address, token: contract, amount: '1000.01' }),
        )
      ).code,
    ).toBe('INSUFFICIENT_BALANCE');
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: contract, amount: '12.34' });
    expect(review.operations[0]!.summary).toMatch(/^Transfer 12\.34 TUSD from /);
    await s.send.confirm(review.reviewId);
    expect(await s.tokens.balanceOf('local', token, b!.address)).toBe(1234n);

    const page = await s.history.page({ address: b!.address, limit: 5, ascending: false, irreversibleOnly: false });
    expect(page.records[0]!.entries).toEqual([
      expect.objectContaining({ kind: 'received', amount: '1234', counterparty: a!.address, token }),
    ]);

    const exported = await s.offline.exportUnsigned({
      from: b!.address,
      to: a!.address,
      token: contract,
      amount: '0.34',
    });
    expect(exported.operations[0]!.summary).toMatch(/^Transfer 0\.34 TUSD/);
    expect(exported.warnings.map((w) => w.code)).toEqual(['UNSIGNED']);

    expect(await s.tokens.remove('local', contract)).toHaveLength(2);
  });

  it("reads the tokens of a history page's events, however many, at once and while it finds their blocks", async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const symbols = ['ONE', 'TWO', 'SIX'];
    const contracts: string[] = [];
    for (const symbol of symbols) {
      const { contract } = await createToken(devnet, a!.address, {
        name: `Token ${symbol}`,
        symbol,
        decimals: 0,
        initialSupply: 10n,
      });
      contracts.push(contract);
      await s.tokens.add('local', contract);
      const review = await s.send.prepare({ from: a!.address, to: b!.address, token: contract, amount: '1' });
      await s.send.confirm(review.reviewId);
      // Not added any more: the history reads the token from its contract.
      await s.tokens.remove('local', contract);
    }

    // The calls of one page to its node, by what they ask, and which of them were under way at the same time.
    const underWay = new Map<string, number>();
    const together: Set<string>[] = [];
    const track = <T>(what: string, call: () => Promise<T>): Promise<T> => {
      underWay.set(what, (underWay.get(what) ?? 0) + 1);
      together.push(new Set([...underWay].filter(([, n]) => n > 0).map(([name]) => name)));
      return call().finally(() => underWay.set(what, underWay.get(what)! - 1));
    };
    const networks = Object.create(s.networks) as typeof s.networks;
    networks.node = async (id) => {
      const { network, node } = await s.networks.node(id);
      const watched = Object.create(node) as typeof node;
      watched.readContract = (contract, entryPoint, args) =>
        track(`read ${bytesToJson(contract, BTYPE.CONTRACT_ID)}`, () => node.readContract(contract, entryPoint, args));
      watched.transactionsById = (ids) => track('transactions', () => node.transactionsById(ids));
      return { network, node: watched };
    };
    const history = new HistoryService({ networks, tokens: s.tokens, pending: s.pending });
    const page = await history.page({ address: b!.address, limit: 10, ascending: false, irreversibleOnly: false });

    expect(page.records.map((r) => r.entries[0]?.token?.symbol)).toEqual([...symbols].reverse());
    expect(page.records.every((r) => r.blockHeight !== undefined)).toBe(true);
    const all = ['transactions', ...contracts.map((c) => `read ${c}`)];
    expect(together.some((names) => all.every((name) => names.has(name)))).toBe(true);
  });

  it('sends VHP, resolved by its system name', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const vhp = await s.tokens.resolve('local', 'vhp');
    const balance = await s.tokens.balanceOf('local', vhp, a!.address);
    if (balance === 0n)
      await devnet.node.setBalance({
        contract: addressFromString(vhp.contract),
        account: addressFromString(a!.address),
        value: 5n * 100_000_000n,
      });
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: 'vhp', amount: '1' });
    expect(review.operations[0]!.summary).toMatch(/^Transfer 1 VHP/);
    await s.send.confirm(review.reviewId);
    expect(await s.tokens.balanceOf('local', vhp, b!.address)).toBeGreaterThanOrEqual(100_000_000n);
  });
});

describe('a token the wallet does not list', () => {
  it('is named by its address beside the symbol it claims, in history and in the effects of a dry run', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const created = await createToken(devnet, a!.address, {
      name: 'Koin',
      symbol: 'KOIN',
      decimals: 8,
      initialSupply: 1_000n * 100_000_000n,
    });
    const fake = created.contract;
    const review = await s.send.prepare({ from: a!.address, to: b!.address, token: fake, amount: '1000' });
    await s.send.confirm(review.reviewId);

    const page = await s.history.page({ address: b!.address, limit: 1, ascending: false, irreversibleOnly: false });
    expect(page.records[0]!.entries).toEqual([
      expect.objectContaining({
        kind: 'received',
        amount: String(1_000n * 100_000_000n),
        token: expect.objectContaining({ contract: fake, symbol: 'KOIN', unlisted: true }),
      }),
    ]);
    // In an export too, so that a sum by symbol leaves it out.
    const exported = JSON.parse((await exportHistory(s.history, { address: b!.address, format: 'json' })).content) as {
      rows: { token: string; token_contract: string }[];
    };
    expect(exported.rows.find((r) => r.token_contract === fake)!.token).toBe('KOIN (unlisted)');
    // The real KOIN is listed: no mark.
    const koin = (await s.tokens.list('local'))[0]!;
    expect(koin.unlisted).toBeUndefined();

    // A dApp's dry run whose events hold the look-alike's transfer: the effects step names its address.
    const { node, network } = await s.networks.node('local');
    const event = {
      sequence: 0,
      source: created.contractId,
      name: 'koinos.contracts.token.transfer_event',
      data: encode('koinos.contracts.token.transfer_event', {
        from: addressFromString(a!.address),
        to: addressFromString(b!.address),
        value: 100_000_000n,
      }),
      impacted: [],
    };
    const held = {
      approval: {} as HeldSignature['approval'],
      signed: { id: new Uint8Array(34), operations: [], signatures: [] },
      rcLimit: 1n,
      dryRun: { events: [event], rc_used: 1n } as unknown as HeldSignature['dryRun'],
    } as HeldSignature;
    const ctx = { chain: '', network, node, chainId: fromBase64(devnet.chainId) };
    const effects = await describeEffects(ctx, held, [koin], dappDecoder(ctx, {}));
    expect(effects.events[0]!.summary).toBe(
      `Transfer 1 KOIN (unlisted token ${fake}) from ${a!.address} to ${b!.address}`,
    );
  });
});
