// End to end: a KCS-5 collection (real WebAssembly) is refused where it is not one and added on the NFTs screen; its
// tokens show no images on the local network, and main's fetched image (PNG shown; SVG and an address on the user's own
// network refused) on the same chain as a custom network; one NFT is sent through review and approval to the recipient;
// the grants of NFTs the account gave elsewhere are listed under Allowances and taken back in one transaction; the NFTs
// of a network the user has left, come late, are not shown on the one chosen since.
import { readFileSync } from 'node:fs';
import { Contract, Provider, Signer } from 'koilib';
import { afterEach, describe, expect, it } from 'vitest';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { NFT_ABI, png, SVG, uploadCollection } from '../wallet/chain/nftFixtures.ts';
import { write } from '../devnet/koilibContract.ts';
import { testDevnet, testServer } from '../wallet/chain/helpers.ts';
import {
  addCustomNetwork,
  alertText,
  approve,
  chooseNetwork,
  chromiumMissing,
  go,
  holdNext,
  releaseToPage,
  selectAccount,
  useE2eWallet,
  type E2eWallet,
} from './harness.ts';

const missing = chromiumMissing();
const PNG = png(32, [40, 110, 220]);

describe.skipIf(missing !== undefined)('NFTs in the browser', () => {
  let e2e: E2eWallet | undefined;
  afterEach(async () => {
    await e2e?.stop();
    e2e = undefined;
  });

  it('adds a collection by address, shows an NFT with its image where images are fetched, and sends it through the review', async () => {
    // The media server listens on 127.0.0.1, which the wallet refuses unless its constructor says otherwise.
    const ready = await useE2eWallet({ name: 'nfts', nftMedia: { allowLoopbackForTests: true }, devAccounts: [0] });
    e2e = ready;
    const { page, shots, wallet } = ready;
    const ownAddress = ready.own;
    const devAddress = ready.dev[0]!;
    await selectAccount(page, 'Devnet account 0');

    const media = await testServer((req, res) => {
      if (req.url === '/blue.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else if (req.url === '/script.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG);
      else res.writeHead(404).end();
    });
    const devnet = await wallet.handlers['devnet:status']();
    const koin = (await wallet.handlers['tokens:list']({ networkId: 'local' })).find((t) => t.system === 'koin')!;
    const collection = await uploadCollection(`${devnet.url}/jsonrpc`, koin.contract, devKey(2), 'e2e nft collection');
    await collection.mint(devAddress, '0x01');
    await collection.mint(devAddress, '0x02');
    await collection.mint(devAddress, '0x03');
    await collection.setMetadata('0x01', {
      name: 'Blue square',
      description: 'A square, in blue.',
      image: `${media.url}/blue.png`,
    });
    await collection.setMetadata('0x02', { name: 'Script', image: `${media.url}/script.svg` });
    await collection.setMetadata('0x03', { name: 'Router page', image: 'http://192.168.1.1/logo.png' });

    await go(page, 'NFTs');
    await page.getByText('No collection is added on this network yet.').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Add a collection' }).click();
    const field = page.getByLabel('Collection contract address');
    await field.fill(koin.contract); // a contract, but a KCS-4 token
    await page.getByRole('button', { name: 'Look up' }).click();
    expect(await alertText(page, /Expected a KCS-5 NFT collection/)).toContain(
      `Expected a KCS-5 NFT collection at ${koin.contract}`,
    );
    await field.fill(collection.address);
    await page.getByRole('button', { name: 'Look up' }).click();
    const found = page.getByRole('region', { name: 'Collection found' });
    await found.waitFor({ timeout: 30_000 });
    expect((await found.textContent())?.replace(/\s+/g, ' ')).toContain(
      `Name My NFT Symbol NFT Metadata address none (metadata on chain) Contract ${collection.address} Network Local (devnet)`,
    );
    await shots.take(page, 'collection-found');
    await page.getByRole('button', { name: 'Add NFT' }).click();

    // On the local network nothing is fetched: the tokens come with their names, and no image.
    const tokens = page.getByRole('list', { name: 'My NFT tokens' });
    await expect.poll(() => tokens.getByRole('listitem').count(), { timeout: 20_000 }).toBe(3);
    expect(await page.getByTestId('images-state').textContent()).toContain(
      'Images are not loaded on the local network',
    );
    expect(await tokens.getByRole('img').count()).toBe(0);
    expect(media.requests).toHaveLength(0);
    await shots.take(page, 'nfts-local-no-images');

    // The same chain as a custom network: collections are per network; there the image is fetched by main.
    await addCustomNetwork(page, 'Devnet by URL', `${devnet.url}/jsonrpc`);
    await go(page, 'NFTs');
    await page.getByText('No collection is added on this network yet.').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Add a collection' }).click();
    await page.getByLabel('Collection contract address').fill(collection.address);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('button', { name: 'Add NFT' }).click();
    const image = page.getByRole('img', { name: 'Image of Blue square' });
    await image.waitFor({ timeout: 20_000 });
    expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    await expect
      .poll(() =>
        image.evaluate((element) => {
          const img = element as unknown as { complete: boolean; naturalWidth: number }; // no DOM types in the test config
          return img.complete ? img.naturalWidth : 0;
        }),
      )
      .toBe(32); // drawn under the CSP
    const script = page.getByRole('listitem', { name: 'Script' });
    await expect
      .poll(() => script.getByTestId('nft-image-placeholder').textContent(), { timeout: 20_000 })
      .toContain('is not a PNG, JPEG, GIF or WebP image');
    expect(await script.getByRole('img').count()).toBe(0);
    // An image on the user's own network is refused by main before it connects, and the token says so.
    const router = page.getByRole('listitem', { name: 'Router page' });
    await expect
      .poll(() => router.getByTestId('nft-image-placeholder').textContent(), { timeout: 20_000 })
      .toContain(
        'The image at http://192.168.1.1/logo.png is on your own network (192.168.1.1 is a private address): NFT images and metadata are not loaded from addresses on your own network.',
      );
    expect(await router.getByRole('img').count()).toBe(0);
    await shots.take(page, 'nfts-with-image');

    await page.getByRole('button', { name: 'Send Blue square' }).click();
    await page.getByLabel('Recipient address').fill(ownAddress);
    await page.getByRole('button', { name: 'Review' }).click();
    const review = page.getByRole('region', { name: 'Review what will be signed' });
    await review.waitFor({ timeout: 30_000 });
    expect((await review.textContent())?.replace(/\s+/g, ' ')).toContain(
      `Transfer NFT 0x01 of My NFT (NFT, ${collection.address}) from ${devAddress} to ${ownAddress}, decoded with the collection's ABI`,
    );
    await shots.take(page, 'review-nft');
    await page.getByRole('button', { name: 'Sign and send' }).click();
    const dialog = await approve(page, { shots, shot: 'approval-nft' });
    expect(dialog.replace(/\s+/g, ' ')).toContain(`Transfer NFT 0x01 of My NFT (NFT, ${collection.address})`);
    await expect
      .poll(() => page.getByTestId('tx-status').textContent(), { timeout: 30_000 })
      .toMatch(/Included in block|Irreversible/);
    // The receipt says what the collection's event did, addresses in full.
    expect(
      await page.getByText(`Transfer NFT 0x01 of ${collection.address} from ${devAddress} to ${ownAddress}`).count(),
    ).toBe(1);
    await shots.take(page, 'nft-sent');
    await page.getByRole('button', { name: 'Back to the NFTs' }).click();
    await expect.poll(() => tokens.getByRole('listitem').count(), { timeout: 20_000 }).toBe(2);
    expect(await page.getByRole('listitem', { name: 'Blue square' }).count()).toBe(0);

    await selectAccount(page, 'Account 1');
    await expect
      .poll(() => page.getByRole('img', { name: 'Image of Blue square' }).count(), { timeout: 20_000 })
      .toBe(1);
    await shots.take(page, 'nfts-recipient');
    // Both histories name the NFT that moved, and its collection: received here, sent by the development account.
    await go(page, 'History');
    const short = (address: string) => `${address.slice(0, 8)}…${address.slice(-6)}`;
    const received = page.getByRole('listitem').filter({ hasText: 'Received NFT 0x01 of ' });
    await expect.poll(() => received.count(), { timeout: 20_000 }).toBe(1);
    expect(await received.textContent()).toContain(
      `Received NFT 0x01 of ${short(collection.address)} from Devnet account 0 (${short(devAddress)})`,
    );
    await shots.take(page, 'history-nft-received');
    await selectAccount(page, 'Devnet account 0');
    const sent = page.getByRole('listitem').filter({ hasText: 'Sent NFT 0x01 of ' });
    await expect.poll(() => sent.count(), { timeout: 20_000 }).toBe(1);
    expect(await sent.textContent()).toContain(
      `Sent NFT 0x01 of ${short(collection.address)} to Account 1 (${short(ownAddress)})`,
    );

    // Grants the development account gave a marketplace outside the wallet (signed with koilib): every NFT of the
    // collection, and NFT 0x02 alone. The dApps screen lists both under Allowances.
    const market = Signer.fromSeed('e2e nft market').getAddress();
    const provider = new Provider([`${devnet.url}/jsonrpc`]);
    const asOwner = new Contract({
      id: collection.address,
      abi: JSON.parse(readFileSync(NFT_ABI, 'utf8')) as ConstructorParameters<typeof Contract>[0]['abi'],
      provider,
      signer: Object.assign(Signer.fromWif(devKey(0).wif), { provider }),
    });
    await write(asOwner, 'set_approval_for_all', {
      approver_address: devAddress,
      operator_address: market,
      approved: true,
    });
    await write(asOwner, 'approve', { approver_address: devAddress, to: market, token_id: '0x02' });
    await go(page, 'dApps');
    const rows = page.getByTestId('allowance');
    await expect
      .poll(() => rows.allTextContents(), { timeout: 20_000 })
      .toEqual([
        expect.stringContaining('An address may move every NFT of My NFT (NFT), now and later'),
        expect.stringContaining('An address may move NFT 0x02 of My NFT (NFT)'),
      ]);
    expect(await rows.first().locator('[data-address]').getAttribute('data-address')).toBe(market);
    await shots.take(page, 'allowances-nfts');
    // Both taken back in one transaction: one review of the two calls, one approval.
    await page.getByRole('button', { name: 'Take back all 2 at once' }).click();
    const both = page.getByTestId('transaction-review');
    await both.waitFor();
    const text = (await both.textContent())?.replace(/\s+/g, ' ');
    expect(text).toContain(`Take back from ${market} the transfer of every NFT of My NFT`);
    expect(text).toContain(`Take back from ${market} the transfer of NFT 0x02 of My NFT`);
    await shots.take(page, 'allowances-nfts-review');
    await page.getByRole('button', { name: 'Sign and send' }).click();
    await approve(page);
    await page.getByRole('button', { name: 'Back to the allowances' }).click();
    await page.getByTestId('no-allowances').waitFor({ timeout: 20_000 });

    // The NFTs of a network the user has left come late: they are not shown on the network chosen since.
    const empty = await testDevnet();
    await addCustomNetwork(page, 'Empty devnet', `${empty.url}/jsonrpc`);
    await go(page, 'NFTs');
    const none = page.getByText('No collection is added on this network yet.');
    await none.waitFor({ timeout: 20_000 });
    const late = holdNext(wallet.handlers, 'nfts:owned');
    await chooseNetwork(ready, 'Devnet by URL');
    expect((await late.answered).collections.length).toBe(1);
    await chooseNetwork(ready, 'Empty devnet');
    await none.waitFor({ timeout: 20_000 });
    await releaseToPage(page, late, 'nfts:owned');
    expect(await none.count()).toBe(1);
    expect(await page.getByRole('listitem', { name: 'Blue square' }).count()).toBe(0);
  });
});
