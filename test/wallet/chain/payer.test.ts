// Someone else pays the mana, against real contracts on a devnet over HTTP: the free mana sharer of @koinosbox
// (uploaded as its author deploys it) pays for a token transfer of an account with no mana at all; another account of
// the wallet pays and signs under the same approval; an offline transfer with a separate payer is signed on two
// "machines" (each holding one key, no node) and sent; and when nobody can pay, the error says what to do. Until its
// block, a transfer another account pays for is listed as pending in the sender's history as in the payer's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { newPrivateKey, privateKeyToWif } from '../../../src-main/koinos/keys.ts';
import { PrivateKeySigner } from '../../../src-main/wallet/chain/privateKeySigner.ts';
import { DEFAULT_SHARER_CAP } from '../../../src-main/wallet/chain/payer.ts';
import { testServices, type TestServices } from './services.ts';
import { uploadFreeManaSharer } from './freeManaSharer.ts';
import { uploadKoinosbox, type UploadedToken } from './wasmToken.ts';
import { KOIN } from '../../helpers/constants.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const TKN = 100_000_000n; // 8 decimals
const SLOW = 240_000; // two uploads of wasm and a handful of blocks, on two shared cores

type Account = Devnet['accounts'][number];
let devnet: Devnet;
let a: Account;
let b: Account;
let token: UploadedToken;
let sharer: string;
/** An account of the wallet with TKN but no KOIN, so no mana of its own. */
const cKey = newPrivateKey();
const cWif = privateKeyToWif(cKey);
const c = new PrivateKeySigner([cKey]).addresses[0]!;

beforeAll(async () => {
  devnet = await startDevnet({
    port: 0,
    blockTimeMs: 0,
    accounts: 2,
    signatureThreads: 0,
    irreversibleDepth: 2,
    log: () => {},
  });
  [a, b] = devnet.accounts as [Account, Account];
  token = await uploadKoinosbox(`${devnet.url}/jsonrpc`, devnet.koinAddress, a, 'payer test token');
  await token.mint(c, 100n * TKN);
  sharer = await uploadFreeManaSharer(
    `${devnet.url}/jsonrpc`,
    devnet.koinAddress,
    a,
    'payer test free mana sharer',
    1000n * KOIN,
  );
}, SLOW);

afterAll(async () => {
  await devnet?.stop();
});

/** The wallet, holding the keys `wifs` (default: a, b and c), with the sharer's address told for the Local network. */
function wallet(wifs: string[] = [a.wif, b.wif, cWif]): TestServices {
  return testServices({ localUrl: async () => devnet.url, wifs }, { sharers: { local: sharer } });
}

async function manaOf(s: TestServices, address: string): Promise<bigint> {
  const { node } = await s.networks.node('local');
  return node.rc(addressFromString(address));
}

describe('a payer other than the sender', () => {
  it(
    'sends a token from an account with no mana, paid by the free mana sharer: only the sender signs, rc_limit within the cap',
    async () => {
      const s = wallet();
      const tkn = (await s.tokens.add('local', token.address)).contract;
      expect(await manaOf(s, c)).toBe(0n);
      const alone = await expectWalletError(s.send.prepare({ from: c, to: b.address, token: tkn, amount: '1' }));
      expect(alone.code).toBe('NOT_ENOUGH_MANA');
      expect(alone.shortMessage).toMatch(
        /^The account has no mana left .* Choose another account of this wallet or the network's free mana sharer to pay the mana/,
      );
      const overCap = await expectWalletError(
        s.send.prepare({
          from: c,
          to: b.address,
          token: tkn,
          amount: '1',
          payer: { kind: 'freeMana' },
          rcLimit: String(DEFAULT_SHARER_CAP + 1n),
        }),
      );
      expect([overCap.code, overCap.shortMessage]).toEqual([
        'NOT_ENOUGH_MANA',
        expect.stringContaining('the free mana sharer pays for now (its cap included)'),
      ]);

      const review = await s.send.prepare({
        from: c,
        to: b.address,
        token: tkn,
        amount: '1',
        payer: { kind: 'freeMana' },
      });
      expect([review.payerKind, review.payer, review.payee, review.signers]).toEqual(['freeMana', sharer, c, [c]]);
      expect(review.nonce).toBe('1'); // the sender's nonce, not the sharer's
      expect(BigInt(review.rcLimit)).toBe(DEFAULT_SHARER_CAP); // it holds 1000 mana: its cap bounds the limit
      const sharerBefore = await manaOf(s, sharer);
      const receipt = await s.send.confirm(review.reviewId);
      expect(receipt.reverted).toBe(false);
      expect(BigInt(receipt.rcLimit)).toBeLessThan(DEFAULT_SHARER_CAP); // sized by the dry run after the approval
      await s.follower.waitFor(receipt.transactionId, ['included', 'irreversible'], 30_000);

      expect(s.person.seen.map((r) => [r.review.signer, r.review.coSigners, r.review.payer, r.review.payee])).toEqual([
        [c, undefined, sharer, c],
      ]);
      expect(await s.tokens.balanceOf('local', await s.tokens.resolve('local', tkn), b.address)).toBe(TKN);
      expect(await manaOf(s, c)).toBe(0n);
      expect(await manaOf(s, sharer)).toBeLessThan(sharerBefore);
      const [record] = (
        await s.history.page({ address: b.address, limit: 1, ascending: false, irreversibleOnly: false })
      ).records;
      expect([record!.transactionId, record!.payer]).toEqual([receipt.transactionId, sharer]);
    },
    SLOW,
  );

  it(
    "sends paid by another account of the wallet: one approval names both signers, both sign, the payer's mana sizes the limit",
    async () => {
      const s = wallet();
      const tkn = (await s.tokens.add('local', token.address)).contract;
      const review = await s.send.prepare({
        from: c,
        to: b.address,
        token: tkn,
        amount: '2',
        payer: { kind: 'account', address: a.address },
      });
      expect([review.payerKind, review.payer, review.payee, review.signers]).toEqual([
        'account',
        a.address,
        c,
        [c, a.address],
      ]);
      expect(BigInt(review.availableMana)).toBe(await manaOf(s, a.address));
      const receipt = await s.send.confirm(review.reviewId);
      await s.follower.waitFor(receipt.transactionId, ['included', 'irreversible'], 30_000);
      expect(s.person.seen).toHaveLength(1);
      expect(s.person.seen[0]!.review).toMatchObject({ signer: c, coSigners: [a.address], payer: a.address, payee: c });
      const [record] = (
        await s.history.page({ address: b.address, limit: 1, ascending: false, irreversibleOnly: false })
      ).records;
      expect([record!.transactionId, record!.payer]).toEqual([receipt.transactionId, a.address]);
      expect(await manaOf(s, c)).toBe(0n);

      // A payer with no mana: the error names it and says what to do.
      const broke = await expectWalletError(
        s.send.prepare({
          from: b.address,
          to: a.address,
          token: 'koin',
          amount: '1',
          payer: { kind: 'account', address: c },
        }),
      );
      expect([broke.code, broke.shortMessage]).toEqual([
        'NOT_ENOUGH_MANA',
        expect.stringMatching(new RegExp(`^The payer ${c} has no mana left .* Choose another payer than ${c}`)),
      ]);
    },
    SLOW,
  );

  it("lists a transfer another account pays for as pending in its sender's history, and in its payer's", async () => {
    // Blocks only when told: the transfer waits in the mempool while the histories are read.
    const manual = await startDevnet({ port: 0, manual: true, accounts: 2, signatureThreads: 0, log: () => {} });
    try {
      const [x, y] = manual.accounts as [Account, Account];
      const s = testServices({ localUrl: async () => manual.url, wifs: [x.wif, y.wif] });
      const review = await s.send.prepare({
        from: y.address,
        to: x.address,
        token: 'koin',
        amount: '1',
        payer: { kind: 'account', address: x.address },
      });
      const { transactionId } = await s.send.confirm(review.reviewId);
      const newest = async (address: string) =>
        (await s.history.page({ address, limit: 5, ascending: false, irreversibleOnly: false })).records[0]!;

      for (const address of [y.address, x.address]) {
        const record = await newest(address);
        expect(record).toMatchObject({ status: 'pending', transactionId, payer: x.address });
      }
      expect((await newest(y.address)).entries).toEqual([
        expect.objectContaining({ kind: 'sent', amount: String(KOIN), counterparty: x.address }),
      ]);

      await manual.node.produceBlock();
      await s.follower.waitFor(transactionId, ['included', 'irreversible'], 30_000);
      expect(await newest(y.address)).toMatchObject({ transactionId, status: expect.not.stringMatching(/^pending$/) });
    } finally {
      await manual.stop();
    }
  });

  it(
    'exports a transfer with a separate payer, signed by the payer and the sender on two machines, and sends it',
    async () => {
      const online = wallet([]);
      const tkn = (await online.tokens.add('local', token.address)).contract;
      const exported = await online.offline.exportUnsigned({
        from: c,
        to: b.address,
        token: tkn,
        amount: '3',
        payer: { kind: 'account', address: a.address },
      });
      expect([exported.payer, exported.payee, exported.signaturesPresent, exported.signaturesNeeded]).toEqual([
        a.address,
        c,
        [],
        [a.address, c],
      ]);

      // Each machine holds one key and reaches no node.
      const offlineMachine = (wif: string) =>
        testServices({ localUrl: async () => 'http://127.0.0.1:9', wifs: [wif] }, { timeoutMs: 500 });
      const byPayer = await offlineMachine(a.wif).offline.sign(exported.base64, a.address);
      expect([byPayer.signaturesPresent, byPayer.signaturesNeeded]).toEqual([[a.address], [c]]);
      const bySender = await offlineMachine(cWif).offline.sign(byPayer.base64, c);
      expect([bySender.signaturesPresent, bySender.signaturesNeeded]).toEqual([[a.address, c], []]);
      expect((await online.offline.inspect(bySender.base64)).signaturesNeeded).toEqual([]);

      const receipt = await online.offline.submit(bySender.base64, true);
      expect(receipt.reverted).toBe(false);
      await online.follower.waitFor(receipt.transactionId, ['included', 'irreversible'], 30_000);
      expect(await online.tokens.balanceOf('local', await online.tokens.resolve('local', tkn), b.address)).toBe(
        6n * TKN,
      );

      // With the free mana sharer as payer only the sender's signature is needed: the node says the payer is a contract.
      const shared = await online.offline.exportUnsigned({
        from: c,
        to: b.address,
        token: tkn,
        amount: '1',
        payer: { kind: 'freeMana' },
      });
      expect([shared.payer, shared.signaturesNeeded]).toEqual([sharer, [c]]);
      expect(BigInt(shared.rcLimit)).toBeLessThanOrEqual(DEFAULT_SHARER_CAP);
      expect((await online.offline.inspect(shared.base64)).signaturesNeeded).toEqual([c]);
      const signed = await offlineMachine(cWif).offline.sign(shared.base64, c);
      expect(signed.signaturesPresent).toEqual([c]);
      expect((await online.offline.inspect(signed.base64)).signaturesNeeded).toEqual([]);
      const sent = await online.offline.submit(signed.base64, true);
      expect(sent.reverted).toBe(false);
    },
    SLOW,
  );
});
