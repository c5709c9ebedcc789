// Tokens other than KOIN end to end on a devnet: a KCS-4 test token (2 decimals) added by contract address, its
// balance on the dashboard, sent with its own decimals, decoded in history and in an offline export; VHP sent too.
import { describe, expect, it } from 'vitest';
import { BTYPE, bytesToJson } from '../../../src-main/koinos/codec.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { HistoryService } from '../../../src-main/wallet/chain/history.ts';
import { testDevnet } from './helpers.ts';
import { testServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

describe('tokens other than KOIN', () => {
  it('adds a KCS-4 token by address and sends, shows and decodes it with its own decimals', async () => {
    const devnet = await testDevnet();
    const s = testServices(devnet);
    const [a, b] = devnet.accounts;
    const created = await devnet.node.createToken({
      name: 'Test Dollar',
      symbol: 'TUSD',
      decimals: 2,
      initialSupply: 100_000n,
      owner: addressFromString(a!.address),
    });
    const contract = bytesToJson(created.contractId, BTYPE.CONTRACT_ID);

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
      const created = await devnet.node.createToken({
        name: `Token ${symbol}`,
        symbol,
        decimals: 0,
        initialSupply: 10n,
        owner: addressFromString(a!.address),
      });
      const contract = bytesToJson(created.contractId, BTYPE.CONTRACT_ID);
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
