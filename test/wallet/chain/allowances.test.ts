// The allowances an account gave, against a real devnet over HTTP: KOIN allowances given with koilib (as a dApp has
// its user sign them), a KCS-5 collection's operators and one NFT approved (@koinosbox/contracts' NFT as WebAssembly,
// which keeps an operator it took back as `false`), listed as the chain has them now; each kind taken back through
// review, approval, signature and submission, and two in one transaction; refused when it no longer stands, and
// nothing changed when the person rejects it.
import { Contract, Provider, Signer } from 'koilib';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOKEN_METHODS } from '../../../src-main/koinos/koin.ts';
import { U64_MAX } from '../../../src-main/koinos/tokenEvents.ts';
import {
  ALLOWANCE_PAGE,
  AllowanceService,
  MOST_ALLOWANCES,
  READS_AT_ONCE,
  limiter,
} from '../../../src-main/wallet/chain/allowances.ts';
import { readPages } from '../../../src-main/wallet/chain/pages.ts';
import { NftService, readKcs5 } from '../../../src-main/wallet/chain/nfts.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { KCS5_ABI } from '../../../src-main/wallet/chain/kcs5.ts';
import { write } from '../../devnet/koilibContract.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import { testDevnet, testServer } from './helpers.ts';
import { NFT_ABI, uploadCollection } from './nftFixtures.ts';
import { testServices } from './services.ts';

const SLOW = 240_000; // an upload of ~60 KB of wasm and a dozen transactions, on two shared cores

describe('allowances', () => {
  it('reads every page, up to the most, and says when there were more', async () => {
    const limits = { page: ALLOWANCE_PAGE, most: MOST_ALLOWANCES };
    const id = (n: number) => String(n);
    const listOf = (count: number) => {
      const starts: (number | undefined)[] = [];
      const read = async (last: number | undefined) => {
        starts.push(last);
        const from = last === undefined ? 0 : last + 1;
        return Array.from({ length: Math.max(0, Math.min(ALLOWANCE_PAGE, count - from)) }, (_, i) => from + i);
      };
      return { starts, read: () => readPages(read, id, limits) };
    };
    const few = listOf(3);
    expect(await few.read()).toEqual({ entries: [0, 1, 2], cut: false });
    expect(few.starts).toEqual([undefined]);
    const onePage = listOf(ALLOWANCE_PAGE);
    expect((await onePage.read()).entries).toHaveLength(ALLOWANCE_PAGE);
    expect(onePage.starts).toEqual([undefined, ALLOWANCE_PAGE - 1]); // a full page: the next is asked for
    const most = listOf(MOST_ALLOWANCES);
    expect(await most.read()).toEqual({ entries: [...Array(MOST_ALLOWANCES).keys()], cut: false });
    const more = listOf(MOST_ALLOWANCES + 1);
    expect(await more.read()).toEqual({ entries: [...Array(MOST_ALLOWANCES).keys()], cut: true });
    // A contract that ignores `start` gives its first page again: each entry once, and the list ends there.
    const page = [...Array(ALLOWANCE_PAGE).keys()];
    let asked = 0;
    const same = await readPages(async () => (asked++, page), id, limits);
    expect([same, asked]).toEqual([{ entries: page, cut: false }, 2]);
  });

  it('reads at most READS_AT_ONCE contracts at a time, the others in the order they came', async () => {
    const limit = limiter(READS_AT_ONCE);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 3 * READS_AT_ONCE }, () => {
      let resolve = () => {};
      const promise = new Promise<void>((done) => (resolve = done));
      return { promise, resolve };
    });
    const jobs = gates.map((gate, i) =>
      limit(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await gate.promise;
        running--;
        return i;
      }),
    );
    await expect.poll(() => started.length).toBe(READS_AT_ONCE);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(jobs)).toEqual(gates.map((_, i) => i));
    expect(most).toBe(READS_AT_ONCE);
    expect(started).toEqual(gates.map((_, i) => i));
  });

  it('has the entry points of the KCS-5 methods it reads (sha256 of the name)', async () => {
    const { sha256 } = await import('@noble/hashes/sha2.js');
    for (const name of ['get_operator_approvals', 'is_approved_for_all', 'set_approval_for_all'] as const) {
      const digest = sha256(new TextEncoder().encode(name));
      expect(KCS5_ABI.method(name).entryPoint, name).toBe(Buffer.from(digest.subarray(0, 4)).readUInt32BE(0));
    }
  });

  it(
    'lists the KOIN allowances, NFT operators and approved NFTs an account gave, and takes each kind back through approval',
    async () => {
      const devnet = await testDevnet();
      const s = testServices(devnet);
      const nfts = new NftService({ networks: s.networks, settings: s.settings });
      const allowances = new AllowanceService({ ...s, nfts });
      const [a, b, dapp] = devnet.accounts;
      const owner = a!.address;
      /** The review of taking back the allowance of `kind` that `owner` gave `spender` on `contract`. */
      const revoke = (
        kind: 'token' | 'nft-operator' | 'nft-token',
        contract: string,
        spender: string,
        tokenId?: string,
      ) =>
        allowances.prepareRevoke({
          networkId: 'local',
          from: owner,
          items: [{ kind, contract, spender, ...(tokenId ? { tokenId } : {}) }],
        });

      const none = await allowances.list({ networkId: 'local', owner });
      expect(none).toEqual({
        networkId: 'local',
        networkName: 'Local (devnet)',
        owner,
        allowances: [],
        read: 2, // KOIN and VHP
        unread: [],
        cut: [],
      });

      // What a dApp has its user sign, signed with koilib.
      const provider = new Provider([`${devnet.url}/jsonrpc`]);
      const signer = Object.assign(Signer.fromWif(a!.wif), { provider });
      const koin = new Contract({ id: devnet.koinAddress, provider, signer });
      await koin.fetchAbi();
      await write(koin, 'approve', { owner, spender: dapp!.address, value: '500000000' });
      await write(koin, 'approve', { owner, spender: b!.address, value: U64_MAX.toString() });
      const uploaded = await uploadCollection(`${devnet.url}/jsonrpc`, devnet.koinAddress, a!, 'allowances collection');
      await uploaded.mint(owner, '0x01');
      const collection = new Contract({
        id: uploaded.address,
        abi: JSON.parse(readFileSync(NFT_ABI, 'utf8')) as ConstructorParameters<typeof Contract>[0]['abi'],
        provider,
        signer,
      });
      const operators = (operator: string, approved: boolean) =>
        write(collection, 'set_approval_for_all', {
          approver_address: owner,
          operator_address: operator,
          approved,
        });
      await operators(dapp!.address, true);
      await operators(b!.address, true);
      await operators(b!.address, false); // kept by the collection as false: not an allowance
      await uploaded.mint(owner, '0x02');
      await write(collection, 'approve', { approver_address: owner, to: dapp!.address, token_id: '0x02' });
      await nfts.add('local', uploaded.address);

      const koinAllowance = (spender: string, amount: bigint) => ({
        kind: 'token',
        contract: devnet.koinAddress,
        symbol: 'KOIN',
        decimals: 8,
        spender,
        amount: amount.toString(),
        unlimited: amount === U64_MAX,
      });
      const operator = (spender: string) => ({
        kind: 'nft-operator',
        contract: uploaded.address,
        name: 'My NFT',
        symbol: 'NFT',
        spender,
      });
      const given = await allowances.list({ networkId: 'local', owner });
      expect(given.read).toBe(3);
      expect(given.unread).toEqual([]);
      expect(given.allowances).toHaveLength(4);
      expect(given.allowances).toEqual(
        expect.arrayContaining([
          koinAllowance(dapp!.address, 500_000_000n),
          koinAllowance(b!.address, U64_MAX),
          operator(dapp!.address),
          { ...operator(dapp!.address), kind: 'nft-token', tokenId: '0x02' }, // 0x01 is approved to no one
        ]),
      );
      // Another account's list has none of them.
      expect((await allowances.list({ networkId: 'local', owner: b!.address })).allowances).toEqual([]);

      // Taken back: an approve of 0 on KOIN, reviewed in words, approved by the person, signed and sent.
      const review = await revoke('token', devnet.koinAddress, dapp!.address);
      expect(review.operations).toEqual([
        {
          contract: devnet.koinAddress,
          entryPoint: 'approve',
          args: { owner, spender: dapp!.address }, // a value of 0 is left out, as the chain's JSON does
          summary: `Set the allowance of ${dapp!.address} to 0 KOIN: it may spend nothing more from ${owner}`,
        },
      ]);
      expect(review.risks).toEqual([]);
      expect(review.payer).toBe(owner);
      const seen = s.person.seen.length;
      const receipt = await allowances.confirmRevoke(review.reviewId);
      expect(s.person.seen).toHaveLength(seen + 1);
      expect(s.person.seen.at(-1)!.review.operations).toEqual(review.operations);
      expect(receipt.reverted).toBe(false);
      expect(receipt.events.map((e) => e.name)).toEqual(['token.approve_event']);
      // It frees the allowance's bytes, credited at the end: rc_limit covers what it used before (rcNeeded), more than
      // rc_used and its 10 %, with which the chain turned it away ("insufficient rc").
      expect(BigInt(receipt.rcLimit)).toBeGreaterThan((BigInt(receipt.rcUsed) * 11n) / 10n);
      await s.follower.waitFor(receipt.transactionId, ['included', 'irreversible'], 30_000);

      // The NFT operator: a set_approval_for_all of false.
      const nftReview = await revoke('nft-operator', uploaded.address, dapp!.address);
      expect(nftReview.operations).toEqual([
        {
          contract: uploaded.address,
          entryPoint: 'set_approval_for_all',
          args: { owner, operator: dapp!.address },
          summary: `Take back from ${dapp!.address} the transfer of every NFT of My NFT (NFT, ${uploaded.address}) held by ${owner}, decoded with the KCS-5 standard`,
        },
      ]);
      expect(nftReview.risks).toEqual([]);
      const nftReceipt = await allowances.confirmRevoke(nftReview.reviewId);
      expect(nftReceipt.reverted).toBe(false);
      await s.follower.waitFor(nftReceipt.transactionId, ['included', 'irreversible'], 30_000);

      // One NFT: approved to its owner (`approve: false` would approve the operator again on this collection, and its
      // code traps on an approval to nobody).
      const tokenReview = await revoke('nft-token', uploaded.address, dapp!.address, '0x02');
      expect(tokenReview.operations).toEqual([
        {
          contract: uploaded.address,
          entryPoint: 'approve',
          args: { owner, operator: owner, token_id: '0x02' },
          summary: `Take back from ${dapp!.address} the transfer of NFT 0x02 of My NFT (NFT, ${uploaded.address}) held by ${owner}: it is approved to its owner instead, decoded with the KCS-5 standard`,
        },
      ]);
      expect(tokenReview.risks).toEqual([]);
      const tokenReceipt = await allowances.confirmRevoke(tokenReview.reviewId);
      expect(tokenReceipt.events.map((e) => e.summary)).toEqual([
        `Take back every approval of NFT 0x02 of ${uploaded.address} held by ${owner}`,
      ]);
      await s.follower.waitFor(tokenReceipt.transactionId, ['included', 'irreversible'], 30_000);
      const node = (await s.networks.node('local')).node;
      expect(await readKcs5(node, addressFromString(uploaded.address), 'get_approved', { token_id: '0x02' })).toEqual({
        value: owner,
      });
      expect((await allowances.list({ networkId: 'local', owner })).allowances).toEqual([
        koinAllowance(b!.address, U64_MAX),
      ]);

      // One that does not stand any more is refused before anything is prepared.
      const again = await expectWalletError(revoke('token', devnet.koinAddress, dapp!.address));
      expect(again.code).toBe('NOT_FOUND');
      expect(again.shortMessage).toBe(
        `There is no KOIN allowance of ${dapp!.address} from ${owner} on the chain now: it was spent or taken back already. List the allowances again.`,
      );
      const keptFalse = await expectWalletError(revoke('nft-operator', uploaded.address, b!.address));
      expect(keptFalse.code).toBe('NOT_FOUND');
      expect(keptFalse.shortMessage).toMatch(/^There is no grant of every NFT NFT to /);
      const noToken = await expectWalletError(revoke('nft-token', uploaded.address, dapp!.address, '0x02'));
      expect(noToken.shortMessage).toMatch(/^There is no approval of NFT 0x02 to /);

      // Rejected by the person: nothing is sent, the allowance stands.
      s.person.decision = 'reject';
      const rejected = await revoke('token', devnet.koinAddress, b!.address);
      expect((await expectWalletError(allowances.confirmRevoke(rejected.reviewId))).code).toBe('REJECTED');
      expect((await allowances.list({ networkId: 'local', owner })).allowances).toEqual([
        koinAllowance(b!.address, U64_MAX),
      ]);

      // A token whose allowances cannot be read (here a node that sends VHP's get_allowances to an entry point VHP
      // does not have, as for a token without the method) is named with the node's reason; the others are listed.
      const vhp = await s.tokens.resolve('local', 'vhp');
      const getAllowances = TOKEN_METHODS.get_allowances.entryPoint;
      const refusing = await testServer((req, res, body) => {
        const call = (req.url === '/jsonrpc' ? JSON.parse(body) : {}) as {
          method?: string;
          params?: { contract_id?: string; entry_point?: number };
        };
        const refused =
          call.method === 'chain.read_contract' &&
          call.params?.entry_point === getAllowances &&
          call.params.contract_id === vhp.contract;
        const sent = refused ? JSON.stringify({ ...call, params: { ...call.params, entry_point: 0x0badf00d } }) : body;
        void fetch(`${devnet.url}${req.url}`, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          ...(req.method === 'POST' ? { body: sent } : {}),
        })
          .then((answer) => answer.text())
          .then((text) => res.writeHead(200, { 'content-type': 'application/json' }).end(text));
      });
      const custom = await s.networks.add({ name: 'Refuses VHP', jsonRpcUrl: `${refusing.url}/jsonrpc` });
      const partial = await allowances.list({ networkId: custom.id, owner });
      expect(partial.networkName).toBe('Refuses VHP');
      expect(partial.unread).toEqual([{ contract: vhp.contract, symbol: 'VHP', reason: expect.any(String) }]);
      expect(partial.unread[0]!.reason).toMatch(/entry point/i);
      expect(partial.allowances).toEqual([koinAllowance(b!.address, U64_MAX)]);

      // Several at once: one transaction, one review of every call, one approval.
      s.person.decision = 'approve';
      await write(koin, 'approve', { owner, spender: dapp!.address, value: '100000000' });
      const both = [
        { kind: 'token' as const, contract: devnet.koinAddress, spender: b!.address },
        { kind: 'token' as const, contract: devnet.koinAddress, spender: dapp!.address },
      ];
      const twice = await expectWalletError(
        allowances.prepareRevoke({ networkId: 'local', from: owner, items: [both[0]!, both[0]!] }),
      );
      expect([twice.code, twice.shortMessage]).toEqual([
        'INVALID_ARGUMENT',
        'expected each allowance to take back once, got one of them twice',
      ]);
      expect((await expectWalletError(allowances.prepareRevoke({ from: owner, items: [] }))).shortMessage).toBe(
        'expected 1 to 20 allowances to take back, got 0',
      );
      const batch = await allowances.prepareRevoke({ networkId: 'local', from: owner, items: both });
      expect(batch.operations.map((o) => o.summary)).toEqual([
        `Set the allowance of ${b!.address} to 0 KOIN: it may spend nothing more from ${owner}`,
        `Set the allowance of ${dapp!.address} to 0 KOIN: it may spend nothing more from ${owner}`,
      ]);
      const seenBefore = s.person.seen.length;
      const batchReceipt = await allowances.confirmRevoke(batch.reviewId);
      expect(s.person.seen).toHaveLength(seenBefore + 1);
      expect(batchReceipt.events.map((e) => e.name)).toEqual(['token.approve_event', 'token.approve_event']);
      await s.follower.waitFor(batchReceipt.transactionId, ['included', 'irreversible'], 30_000);
      expect((await allowances.list({ networkId: 'local', owner })).allowances).toEqual([]);
    },
    SLOW,
  );
});
