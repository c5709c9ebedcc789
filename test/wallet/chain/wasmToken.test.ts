// A KCS-4 token uploaded to the devnet as real WebAssembly (@koinosbox/contracts' prebuilt token) is a token like any
// other in the wallet: inspected and added by address, its balance, a send through review and confirm, and the
// history of both sides decoded with its symbol and decimals; with clear refusals for what is not such a token.
import { describe, expect, it } from 'vitest';
import { BTYPE, bytesToJson } from '../../../src-main/koinos/codec.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { testDevnet } from './helpers.ts';
import { testServices } from './services.ts';
import { uploadKoinosbox } from './wasmToken.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const TKN = 100_000_000n; // 8 decimals
const SLOW = 180_000; // two uploads of ~60 KB and a handful of blocks, on two shared cores

describe('an uploaded KCS-4 token in the wallet', () => {
  it(
    'is inspected and added by address, shows its balance, sends through review and confirm, and is decoded on both sides',
    async () => {
      const devnet = await testDevnet();
      const s = testServices(devnet);
      const [a, b] = devnet.accounts;
      const token = await uploadKoinosbox(`${devnet.url}/jsonrpc`, devnet.koinAddress, a!, 'wallet test token');
      await token.mint(a!.address, 1000n * TKN);

      const seen = await s.tokens.inspect('local', token.address);
      expect(seen).toEqual({ contract: token.address, name: 'My Token', symbol: 'TKN', decimals: 8 });
      expect((await s.tokens.list('local')).map((t) => t.symbol)).toEqual(['KOIN', 'VHP']); // inspecting remembers nothing
      expect(await s.tokens.add('local', ` ${token.address} `)).toEqual(seen);
      expect((await s.tokens.list('local')).map((t) => t.symbol)).toEqual(['KOIN', 'VHP', 'TKN']);
      // Tokens are per network: another network (here a second devnet) does not list it.
      const elsewhere = await testDevnet();
      const other = await s.networks.add({ name: 'Second devnet', jsonRpcUrl: `${elsewhere.url}/jsonrpc` });
      expect((await s.tokens.list(other.id)).map((t) => t.symbol)).toEqual(['KOIN', 'VHP']);

      const before = await s.dashboard.get({ address: a!.address });
      expect(before.balances.find((x) => x.token.contract === token.address)).toEqual({
        token: seen,
        balance: String(1000n * TKN),
      });

      const review = await s.send.prepare({ from: a!.address, to: b!.address, token: token.address, amount: '12.5' });
      expect(review.operations[0]!.summary).toMatch(/^Transfer 12\.5 TKN from /);
      expect(BigInt(review.rcEstimate)).toBeGreaterThan(100_000n); // measured by a dry run of the wasm: far above a native call
      expect(BigInt(review.rcLimit)).toBeGreaterThan(BigInt(review.rcEstimate));
      expect(review.chainId).toBe(devnet.chainId);
      const receipt = await s.send.confirm(review.reviewId);
      expect(receipt.reverted).toBe(false);
      await s.follower.waitFor(receipt.transactionId, ['included', 'irreversible'], 30_000);
      expect(await s.tokens.balanceOf('local', seen, b!.address)).toBe((1250n * TKN) / 100n);
      expect(await s.tokens.balanceOf('local', seen, a!.address)).toBe(1000n * TKN - (1250n * TKN) / 100n);

      const sender = await s.history.page({
        address: a!.address,
        limit: 10,
        ascending: false,
        irreversibleOnly: false,
      });
      const entries = sender.records.flatMap((r) => r.entries).filter((e) => e.contract === token.address);
      expect(entries).toEqual([
        {
          kind: 'sent',
          amount: String((1250n * TKN) / 100n),
          counterparty: b!.address,
          contract: token.address,
          token: seen,
        },
        { kind: 'minted', amount: String(1000n * TKN), contract: token.address, token: seen },
      ]);
      const sent = sender.records.find((r) => r.transactionId === receipt.transactionId)!;
      expect(sent.entries).toHaveLength(1); // the transfer call is explained by its event, not listed twice

      const recipient = await s.history.page({
        address: b!.address,
        limit: 5,
        ascending: false,
        irreversibleOnly: false,
      });
      expect(recipient.records[0]).toMatchObject({ transactionId: receipt.transactionId, payer: a!.address });
      expect(recipient.records[0]!.entries).toEqual([
        {
          kind: 'received',
          amount: String((1250n * TKN) / 100n),
          counterparty: a!.address,
          contract: token.address,
          token: seen,
        },
      ]);

      expect((await s.tokens.remove('local', token.address)).map((t) => t.symbol)).toEqual(['KOIN', 'VHP']);
      // Still decoded in the history once removed: its name, symbol and decimals are read from the contract again.
      const after = await s.history.page({ address: b!.address, limit: 1, ascending: false, irreversibleOnly: false });
      expect(after.records[0]!.entries[0]).toMatchObject({ kind: 'received', token: seen });
    },
    SLOW,
  );

  it(
    'refuses an invalid address, an address without a contract and a contract that is not KCS-4, saying what it found',
    async () => {
      const devnet = await testDevnet();
      const s = testServices(devnet);
      const [a] = devnet.accounts;

      const typo = await expectWalletError(
        s.tokens.inspect('local', `${a!.address.slice(0, -1)}${a!.address.endsWith('a') ? 'b' : 'a'}`),
      );
      expect(typo.code).toBe('INVALID_ADDRESS');
      expect(typo.shortMessage).toMatch(/^The token's contract address is not a valid Koinos address \(.*checksum/);

      const nobody = await expectWalletError(s.tokens.add('local', devnet.accounts[2]!.address));
      expect(nobody.code).toBe('NOT_FOUND');
      expect(nobody.shortMessage).toContain(`There is no contract at ${devnet.accounts[2]!.address} on this network`);
      expect(nobody.details).toBe('contract does not exist');

      const nft = await uploadKoinosbox(`${devnet.url}/jsonrpc`, devnet.koinAddress, a!, 'wallet test nft', 'nft');
      const notToken = await expectWalletError(s.tokens.add('local', nft.address));
      expect(notToken.code).toBe('UNKNOWN_TOKEN');
      expect(notToken.shortMessage).toMatch(
        new RegExp(
          `^expected a KCS-4 token at ${nft.address} \\(answering name, symbol and decimals\\), found a contract that answers name ".*", symbol ".*" and refuses decimals \\(.+\\)\\. Only KCS-4 tokens can be added`,
        ),
      );
      expect((await s.tokens.list('local')).map((t) => t.symbol)).toEqual(['KOIN', 'VHP']);

      // KOIN's own address is the system token, not a second KOIN.
      expect(await s.tokens.inspect('local', devnet.koinAddress)).toMatchObject({ symbol: 'KOIN', system: 'koin' });
    },
    SLOW,
  );

  it("shows plainly that a token's contract is gone after a restart of the network, and the other balances still", async () => {
    const first = await testDevnet();
    const second = await testDevnet();
    let url = first.url;
    const s = testServices({ localUrl: async () => url, wifs: first.accounts.map((x) => x.wif) });
    const [a] = first.accounts;
    const created = await first.node.createToken({
      name: 'Test Dollar',
      symbol: 'TUSD',
      decimals: 2,
      initialSupply: 100n,
      owner: addressFromString(a!.address),
    });
    const contract = bytesToJson(created.contractId, BTYPE.CONTRACT_ID);
    await s.tokens.add('local', contract);

    url = second.url; // the same network, restarted: the chain starts again without the token
    const view = await s.dashboard.get({ address: a!.address });
    const gone = view.balances.find((x) => x.token.contract === contract)!;
    expect(gone.balance).toBeUndefined();
    expect(gone.problem).toBe(
      `No contract answers at ${contract} on this network any more (a restart of a test network removes its contracts). Remove TUSD, or add it again at its new address.`,
    );
    expect(view.balances.find((x) => x.token.system === 'koin')!.balance).toMatch(/^[1-9]\d*$/);
  });
});
