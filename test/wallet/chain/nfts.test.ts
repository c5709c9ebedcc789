// NFTs in the wallet against a real KCS-5 collection on the devnet (@koinosbox/contracts' NFT as WebAssembly): added by
// address once it answers as the standard says (and refused when it does not), per network; the tokens an account
// owns with their on-chain metadata (each once, from a node that lists them twice); images fetched only where they may
// be (not on the local network, not when turned off), as data URLs of raster bytes; and a transfer through review,
// approval, dry run, signature and submission.
import { describe, expect, it } from 'vitest';
import { KCS5_ABI } from '../../../src-main/wallet/chain/kcs5.ts';
import { NftService, readKcs5 } from '../../../src-main/wallet/chain/nfts.ts';
import { NftTransferService } from '../../../src-main/wallet/chain/nftTransfer.ts';
import { addressFromString } from '../../../src-main/koinos/address.ts';
import { png, SVG, uploadCollection } from './nftFixtures.ts';
import { testDevnet, testServer } from './helpers.ts';
import { testServices } from './services.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';
import { lookalikeAddress } from '../../helpers/lookalike.ts';
import type { KnownAddress } from '../../../src-main/wallet/chain/types.ts';

const SLOW = 240_000; // an upload of ~60 KB of wasm, mints and transfers, on two shared cores
const PNG = png(8, [30, 120, 200]);

describe('NFT collections in the wallet', () => {
  it(
    'adds a KCS-5 collection by address, lists owned tokens with metadata and images, and transfers one through review and approval',
    async () => {
      const devnet = await testDevnet();
      const s = testServices(devnet);
      const nfts = new NftService({
        networks: s.networks,
        settings: s.settings,
        media: { timeoutMs: 5_000, allowLoopbackForTests: true },
      });
      // The addresses the person knows, which the recipient is compared with.
      const known: KnownAddress[] = [];
      const transfers = new NftTransferService({ ...s, nfts, knownAddresses: async () => known });
      const [a, b] = devnet.accounts;
      const media = await testServer((req, res) => {
        if (req.url === '/one.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        else if (req.url === '/ipfs/bafyMeta/0x03')
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ name: 'Off chain', image: 'ipfs://bafyImages/3.png' }));
        else if (req.url === '/ipfs/bafyImages/3.png') res.writeHead(200).end(PNG);
        else if (req.url === '/two.svg') res.writeHead(200, { 'content-type': 'image/png' }).end(SVG);
        else res.writeHead(404).end();
      });

      const collection = await uploadCollection(
        `${devnet.url}/jsonrpc`,
        devnet.koinAddress,
        a!,
        'wallet test collection',
      );
      await collection.mint(a!.address, '0x01');
      await collection.mint(a!.address, '0x02');
      await collection.setMetadata('0x01', {
        name: 'Blue square',
        description: 'The first',
        image: `${media.url}/one.png`,
      });
      await collection.setMetadata('0x02', { name: 'Script', image: `${media.url}/two.svg` });
      await collection.mint(a!.address, '0x03'); // no metadata on chain: KCS-2's `${uri}/${tokenId}` is read instead

      // Checked against the standard before anything is remembered.
      const notCollection = await expectWalletError(nfts.add('local', devnet.koinAddress));
      expect(notCollection.code).toBe('UNKNOWN_COLLECTION');
      expect(notCollection.shortMessage).toMatch(
        new RegExp(
          `^expected a KCS-5 NFT collection at ${devnet.koinAddress} \\(answering name, symbol, uri and get_tokens_by_owner\\), found a contract that answers name "Koin", symbol "KOIN" and refuses uri \\(.+\\), get_tokens_by_owner \\(.+\\)\\.`,
        ),
      );
      const nothing = await expectWalletError(nfts.add('local', b!.address));
      expect(nothing.code).toBe('NOT_FOUND');
      expect((await expectWalletError(nfts.add('local', `${collection.address.slice(0, -1)}1`))).code).toBe(
        'INVALID_ADDRESS',
      );
      const info = { contract: collection.address, name: 'My NFT', symbol: 'NFT', uri: '' };
      expect(await nfts.inspect('local', collection.address)).toEqual(info);
      expect(await nfts.list('local')).toEqual([]);
      expect(await nfts.add('local', ` ${collection.address} `)).toEqual(info);
      expect(await nfts.list('local')).toEqual([info]);

      // On the local network nothing is fetched from outside the chain: names come from metadata_of, images stay off.
      const local = await nfts.owned('local', a!.address);
      expect(local).toEqual({
        networkId: 'local',
        images: 'off-local',
        collections: [
          {
            collection: info,
            tokens: [
              {
                contract: collection.address,
                tokenId: '0x01',
                name: 'Blue square',
                description: 'The first',
                hasImage: true,
              },
              { contract: collection.address, tokenId: '0x02', name: 'Script', hasImage: true },
              { contract: collection.address, tokenId: '0x03', hasImage: false },
            ],
          },
        ],
      });
      expect(media.requests).toHaveLength(0);
      expect((await expectWalletError(nfts.image('local', collection.address, '0x01'))).shortMessage).toBe(
        'Images are not fetched on the local network: it works offline.',
      );
      expect(media.requests).toHaveLength(0);

      // The same chain as a custom network: collections are per network, and images are fetched there.
      const custom = await s.networks.add({ name: 'Devnet by URL', jsonRpcUrl: `${devnet.url}/jsonrpc` });
      expect((await nfts.owned(custom.id, a!.address)).collections).toEqual([]);
      await nfts.add(custom.id, collection.address);
      const online = await nfts.owned(custom.id, a!.address);
      expect(online.images).toBe('on');
      // A node (or a collection) that lists every id twice: each token is listed once (the screen keys its list by id).
      const listsTwice = await testServer((req, res, body) => {
        const call = (req.url === '/jsonrpc' ? JSON.parse(body) : {}) as {
          method?: string;
          params?: { entry_point?: number };
        };
        const tokensByOwner = KCS5_ABI.method('get_tokens_by_owner').entryPoint;
        const doubled = call.method === 'chain.read_contract' && call.params?.entry_point === tokensByOwner;
        void fetch(`${devnet.url}${req.url}`, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          ...(req.method === 'POST' ? { body } : {}),
        })
          .then((answer) => answer.text())
          .then((text) => {
            const answer = JSON.parse(text) as { result?: { result?: string } };
            if (doubled && answer.result?.result) {
              const page = Buffer.from(answer.result.result, 'base64url');
              answer.result.result = Buffer.concat([page, page]).toString('base64url');
            }
            res.writeHead(200, { 'content-type': 'application/json' }).end(doubled ? JSON.stringify(answer) : text);
          });
      });
      const twice = await s.networks.add({ name: 'Lists twice', jsonRpcUrl: `${listsTwice.url}/jsonrpc` });
      await nfts.add(twice.id, collection.address);
      const listed = (await nfts.owned(twice.id, a!.address)).collections[0]!.tokens.map((t) => t.tokenId);
      expect(listed).toEqual(['0x01', '0x02', '0x03']);
      expect((await nfts.image(custom.id, collection.address, '0x01')).dataUrl).toBe(
        `data:image/png;base64,${PNG.toString('base64')}`,
      );
      const svg = await expectWalletError(nfts.image(custom.id, collection.address, '0x02'));
      expect(svg.code).toBe('IMAGE_REFUSED');
      expect(svg.shortMessage).toBe(
        `The image at ${media.url}/two.svg is not a PNG, JPEG, GIF or WebP image; other kinds (SVG among them) are not shown.`,
      );
      // A collection whose uri is an ipfs:// folder (the @koinosbox contract's is "", so the stored one stands in): the
      // metadata and the image both come through the configured gateway.
      await nfts.updateImageSettings({ ipfsGateway: `${media.url}/ipfs/` });
      await s.settings.update((d) => {
        d.nftCollections[custom.id] = [{ ...info, uri: 'ipfs://bafyMeta/' }];
      });
      const offChain = (await nfts.owned(custom.id, a!.address)).collections[0]!.tokens.find(
        (t) => t.tokenId === '0x03',
      );
      expect(offChain).toEqual({ contract: collection.address, tokenId: '0x03', name: 'Off chain', hasImage: true });
      expect((await nfts.image(custom.id, collection.address, '0x03')).dataUrl).toBe(
        `data:image/png;base64,${PNG.toString('base64')}`,
      );
      expect(media.requests.length).toBe(4); // one.png, two.svg, the metadata and 3.png
      await nfts.owned(custom.id, a!.address);
      expect(media.requests.length).toBe(4); // fetched metadata is kept
      await nfts.updateImageSettings({ enabled: false });
      expect((await nfts.owned(custom.id, a!.address)).images).toBe('off-setting');
      expect((await expectWalletError(nfts.image(custom.id, collection.address, '0x01'))).shortMessage).toBe(
        'Images are turned off in the NFT settings.',
      );
      expect(await nfts.updateImageSettings({ enabled: true, ipfsGateway: 'https://gw.example/ipfs' })).toEqual({
        enabled: true,
        ipfsGateway: 'https://gw.example/ipfs/',
      });
      expect((await expectWalletError(nfts.updateImageSettings({ ipfsGateway: 'ftp://gw.example/' }))).code).toBe(
        'INVALID_ARGUMENT',
      );

      // Nor to the collection's own contract, which could never give it back.
      const toCollection = await expectWalletError(
        transfers.prepare({
          networkId: 'local',
          from: a!.address,
          to: collection.address,
          contract: collection.address,
          tokenId: '0x01',
        }),
        'INVALID_ADDRESS',
      );
      expect(toCollection.shortMessage).toMatch(/^The recipient is the \S+ contract, not an account/);

      // Someone else's token cannot be sent.
      const notOwner = await expectWalletError(
        transfers.prepare({
          networkId: 'local',
          from: b!.address,
          to: a!.address,
          contract: collection.address,
          tokenId: '0x01',
        }),
      );
      expect(notOwner.code).toBe('INSUFFICIENT_BALANCE');
      expect(notOwner.shortMessage).toBe(
        `${b!.address} does not own NFT 0x01: ${a!.address} does. List the account's NFTs again.`,
      );
      expect(
        (
          await expectWalletError(
            transfers.prepare({
              networkId: 'local',
              from: a!.address,
              to: b!.address,
              contract: collection.address,
              tokenId: '0x09',
            }),
          )
        ).code,
      ).toBe('NOT_FOUND');

      // A rejected review sends nothing.
      s.person.decision = 'reject';
      const rejected = await transfers.prepare({
        networkId: 'local',
        from: a!.address,
        to: b!.address,
        contract: collection.address,
        tokenId: '0x01',
      });
      expect((await expectWalletError(transfers.confirm(rejected.reviewId))).code).toBe('REJECTED');
      const ownerOf = async (id: string) =>
        (
          await readKcs5((await s.networks.node('local')).node, addressFromString(collection.address), 'owner_of', {
            token_id: id,
          })
        )['value'];
      expect(await ownerOf('0x01')).toBe(a!.address);

      s.person.decision = 'approve';
      const review = await transfers.prepare({
        networkId: 'local',
        from: a!.address,
        to: b!.address,
        contract: collection.address,
        tokenId: '0x01',
      });
      expect(review.operations).toEqual([
        {
          contract: collection.address,
          entryPoint: 'transfer',
          args: { from: a!.address, to: b!.address, token_id: '0x01' },
          summary: `Transfer NFT 0x01 of My NFT (NFT, ${collection.address}) from ${a!.address} to ${b!.address}, decoded with the collection's ABI`,
        },
      ]);
      expect(review.risks).toEqual([]); // an added collection, decoded with its ABI
      expect(review.payer).toBe(a!.address);
      expect(review.estimateSource).toBe('default');
      const seenBefore = s.person.seen.length;
      const receipt = await transfers.confirm(review.reviewId);
      expect(s.person.seen).toHaveLength(seenBefore + 1);
      expect(s.person.seen.at(-1)!.review.operations).toEqual(review.operations);
      expect(receipt.reverted).toBe(false);
      expect(BigInt(receipt.rcLimit)).toBeLessThan(BigInt(review.rcLimit)); // sized by the dry run after approval
      expect(receipt.events.map((e) => [e.name, e.summary])).toEqual([
        [
          'collections.transfer_event',
          `Transfer NFT 0x01 of ${collection.address} from ${a!.address} to ${b!.address}`,
        ],
      ]);
      await s.follower.waitFor(receipt.transactionId, ['included', 'irreversible'], 30_000);
      expect(await ownerOf('0x01')).toBe(b!.address);
      expect((await nfts.owned('local', a!.address)).collections[0]!.tokens.map((t) => t.tokenId)).toEqual([
        '0x02',
        '0x03',
      ]);
      expect((await nfts.owned('local', b!.address)).collections[0]!.tokens.map((t) => t.tokenId)).toEqual(['0x01']);
      expect((await expectWalletError(transfers.confirm(review.reviewId))).code).toBe('NOT_FOUND'); // one confirmation per review

      // The next review's estimate is the measured cost of this one.
      const next = await transfers.prepare({
        networkId: 'local',
        from: a!.address,
        to: b!.address,
        contract: collection.address,
        tokenId: '0x02',
      });
      expect(next.estimateSource).toBe('measured');
      // With a contact at an address like the recipient's, the recipient is flagged as made to look like it.
      const bea = lookalikeAddress(b!.address);
      known.push({ address: bea, label: 'your contact Bea' });
      const flagged = await transfers.prepare({
        networkId: 'local',
        from: a!.address,
        to: b!.address,
        contract: collection.address,
        tokenId: '0x02',
      });
      expect(flagged.risks.map((r) => [r.name, r.message.split(':')[0]])).toEqual([
        ['lookalike-recipient', `It transfers to ${b!.address}, not your contact Bea (${bea})`],
      ]);
    },
    SLOW,
  );
});
