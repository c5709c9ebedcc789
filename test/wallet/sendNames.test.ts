// Names in the send flow, through the wallet's handler table on a mainnet-shaped Local network: send:prepare resolves
// the typed name again and refuses a review whose address is not where the name points now; the review carries the
// recipient's names and the first-payment flag, which a submitted transfer clears; the recipient is remembered, and a
// failure to remember it does not turn a sent transfer into a failed one. A transfer to an address that begins and ends
// like an account, a contact or a recipient of the wallet is a risk to confirm that names the one it looks like, in Send
// and in the offline reviews (export, inspect, sign).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Provider, Signer } from 'koilib';
import { afterEach, describe, expect, it } from 'vitest';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import type { ApprovalRequest } from '../../src-main/ipc/contract.ts';
import { WalletError } from '../../src-main/koinos/errors.ts';
import { ADDRESS_BOOK_FILE } from '../../src-main/wallet/addressBook.ts';
import { createWalletApp, type WalletApp } from '../../src-main/wallet/walletApp.ts';
import { KEYTAR, PASSWORD, TEST_SCRYPT, removeService, uniqueService } from './vault/helpers.ts';
import { included } from '../devnet/koilibContract.ts';
import { lookalikeAddress } from '../helpers/lookalike.ts';

const NICKNAMES_MAINNET = '1KD9Es7LBBjA1FY3ViCgQJ7e6WH1ipKbhz';

describe('names in send:prepare and send:confirm', () => {
  let opened: { wallet: WalletApp; dataDir: string; service: string } | undefined;
  afterEach(async () => {
    if (!opened) return;
    await opened.wallet.close();
    await rm(opened.dataDir, { recursive: true, force: true });
    await removeService(opened.service).catch(() => undefined);
    opened = undefined;
  });

  /**
   * A new wallet (created, its approvals granted at once) on an embedded devnet of three accounts, shaped as `shape`
   * says; what it logs goes to `logged`.
   */
  async function newWallet(
    shape: { like: 'mainnet' } | undefined,
    logged: string[] = [],
    seen: ApprovalRequest[] = [],
  ) {
    const dataDir = await mkdtemp(join(tmpdir(), 'koinos-send-names-'));
    const service = uniqueService();
    const wallet = await createWalletApp({
      dataDir,
      keychain: KEYTAR,
      vault: { keychainService: service, scryptCost: TEST_SCRYPT },
      devnet: { port: 0, devnet: { blockTimeMs: 0, accounts: 3, ...(shape ? { shape } : {}) } },
      approver: { mode: 'dialog', decide: async (request) => (seen.push(request), true) },
      log: (line) => logged.push(line),
    });
    opened = { wallet, dataDir, service };
    await wallet.handlers['vault:create']({ password: PASSWORD });
    return { wallet, dataDir };
  }

  it('re-resolves the typed name, names the recipient, and warns of a first payment only until one was sent', async () => {
    const logged: string[] = [];
    const { wallet, dataDir } = await newWallet({ like: 'mainnet' }, logged);
    const h = wallet.handlers;
    const from = await h['devnet:importAccount']({ index: 0, watchOnly: false });
    const { url } = await h['devnet:status']();
    const dave = devKey(1);
    const provider = new Provider([`${url}/jsonrpc`]);
    const nicknames = new Contract({
      id: NICKNAMES_MAINNET,
      provider,
      signer: Object.assign(Signer.fromWif(dave.wif), { provider }),
    });
    await nicknames.fetchAbi();
    const { transaction } = await nicknames.functions['mint']!({
      to: dave.address,
      token_id: `0x${Buffer.from('dave').toString('hex')}`,
    });
    await included(provider, transaction);

    const input = { fromAccountId: from.id, to: dave.address, token: 'koin', amount: '1', recipientName: '@dave' };
    const review = await h['send:prepare'](input);
    expect(review.recipientName).toMatchObject({ name: '@dave', address: dave.address, source: 'nickname' });
    expect(review.names).toEqual([{ address: dave.address, nickname: '@dave', kap: [] }]);
    expect(review.firstPayment).toBe(true);

    // The page says @dave, but the address it sends is another: main refuses to prepare it.
    const moved = await h['send:prepare']({ ...input, to: devKey(2).address }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(moved).toBeInstanceOf(WalletError);
    expect((moved as WalletError).code).toBe('NAME_CHANGED');

    const receipt = await h['send:confirm']({ reviewId: review.reviewId });
    expect(receipt.reverted).toBe(false);
    const book = await h['contacts:list']({});
    expect(book.recent.map((r) => [r.address, r.name])).toEqual([[dave.address, '@dave']]);
    expect((await h['send:prepare']({ ...input, amount: '2' })).firstPayment).toBe(false);
    // One of the wallet's own accounts is never a first payment.
    const own = await h['devnet:importAccount']({ index: 2, watchOnly: true });
    expect(
      (await h['send:prepare']({ fromAccountId: from.id, to: own.address, token: 'koin', amount: '1' })).firstPayment,
    ).toBe(false);

    // A send whose recipient the address book cannot remember (its file cannot be written) is still a send: its
    // receipt comes back, and the log says what was not remembered. Else it would read as failed, and be sent again.
    await rm(join(dataDir, ADDRESS_BOOK_FILE));
    await mkdir(join(dataDir, ADDRESS_BOOK_FILE));
    const third = await h['send:prepare']({ ...input, amount: '3' });
    const sent = await h['send:confirm']({ reviewId: third.reviewId });
    expect(sent.reverted).toBe(false);
    expect(logged.filter((l) => l.startsWith('[address book]'))).toEqual([
      expect.stringContaining(`${sent.transactionId} was sent, but its recipient was not remembered`),
    ]);
  }, 120_000);

  it('flags a transfer to an address that begins and ends like an account, contact or recipient of the wallet, naming it', async () => {
    const { wallet } = await newWallet(undefined);
    const h = wallet.handlers;
    const from = await h['devnet:importAccount']({ index: 0, watchOnly: false });
    const prepare = (to: string) => h['send:prepare']({ fromAccountId: from.id, to, token: 'koin', amount: '1' });
    /** The look-alike flag's sentence up to its colon: the address, and whose it is not. */
    const flagged = (review: { risks: { code: string; message: string }[] }) =>
      review.risks.filter((r) => r.code === 'LOOKALIKE_RECIPIENT').map((r) => r.message.split(':')[0]);

    // Sent to once: an address like it is flagged as not the earlier recipient; the recipient itself is not.
    const recipient = devKey(1).address;
    const first = await prepare(recipient);
    const { networkId } = first;
    await h['send:confirm']({ reviewId: first.reviewId });
    const fake = lookalikeAddress(recipient);
    const likeRecipient = await prepare(fake);
    expect(likeRecipient.firstPayment).toBe(true);
    expect(flagged(likeRecipient)).toEqual([`It transfers to ${fake}, not an address you sent to (${recipient})`]);
    expect(flagged(await prepare(recipient))).toEqual([]);
    // A contact, by its label; one of the wallet's own accounts, by its name.
    const contact = devKey(2).address;
    await h['contacts:add']({ label: 'Carol', address: contact, networkId });
    expect(flagged(await prepare(lookalikeAddress(contact)))).toEqual([
      `It transfers to ${lookalikeAddress(contact)}, not your contact Carol (${contact})`,
    ]);
    expect(flagged(await prepare(lookalikeAddress(from.address)))).toEqual([
      `It transfers to ${lookalikeAddress(from.address)}, not your account ${from.name} (${from.address})`,
    ]);
    // An address like none of them: a first payment, flagged as nothing.
    const stranger = await prepare(devKey(3).address);
    expect(stranger.firstPayment).toBe(true);
    expect(stranger.risks).toEqual([]);
  }, 120_000);

  it('flags a transfer to a look-alike of a contact or an account in the offline reviews: exported, inspected and signed', async () => {
    const seen: ApprovalRequest[] = [];
    const { wallet } = await newWallet(undefined, [], seen);
    const h = wallet.handlers;
    const from = await h['devnet:importAccount']({ index: 0, watchOnly: false });
    const contact = devKey(2).address;
    const { networkId } = await h['send:prepare']({ fromAccountId: from.id, to: contact, token: 'koin', amount: '1' });
    await h['contacts:add']({ label: 'Carol', address: contact, networkId });
    const exportTo = (to: string) =>
      h['offline:exportUnsigned']({ fromAccountId: from.id, to, token: 'koin', amount: '1' });
    const lookalikes = (review: { risks: { code: string; message: string }[] }) =>
      review.risks.filter((r) => r.code === 'LOOKALIKE_RECIPIENT').map((r) => r.message);

    const fake = lookalikeAddress(contact);
    const exported = await exportTo(fake);
    expect(lookalikes(exported)).toEqual([
      `It transfers to ${fake}, not your contact Carol (${contact}): an address that begins and ends like one you know but is another. Addresses are made to look alike to be copied by mistake from a history: compare every character with the address you mean before signing.`,
    ]);
    // Read back on this computer, and signed after its approval: the same flag, in the review the person approves.
    expect(lookalikes(await h['offline:inspect']({ input: exported.base64 }))).toEqual(lookalikes(exported));
    await h['offline:sign']({ input: exported.base64, accountId: from.id });
    expect(seen.map((r) => r.review.risks.map((k) => k.code))).toEqual([['LOOKALIKE_RECIPIENT']]);
    // An address like one of the wallet's accounts, by its name; the contact itself and a stranger are not flagged.
    expect(lookalikes(await exportTo(lookalikeAddress(from.address)))).toEqual([
      expect.stringContaining(`, not your account ${from.name} (${from.address}):`),
    ]);
    expect(lookalikes(await exportTo(contact))).toEqual([]);
    expect(lookalikes(await exportTo(devKey(3).address))).toEqual([]);
  }, 120_000);
});
