// What the NFT part keeps between runs in chain-settings.json: the collections of each network and the image settings,
// read back by a new store, with damaged entries dropped rather than failing; and the IPC refusal of a bad token id.
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  CHAIN_SETTINGS_FILE,
  DEFAULT_NFT_IMAGES,
  FileChainSettings,
} from '../../../src-main/wallet/chain/chainSettings.ts';
import { parseArguments } from '../../../src-main/ipc/argumentParsers.ts';
import { tempDir } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const COLLECTION = { contract: '1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs', name: 'My NFT', symbol: 'NFT', uri: '' };

describe('NFT settings on disk', () => {
  it('keeps collections per network and the image settings across a restart, dropping damaged entries', async () => {
    const dir = await tempDir();
    const first = new FileChainSettings(dir);
    expect((await first.load()).nftImages).toEqual(DEFAULT_NFT_IMAGES);
    await first.update((d) => {
      d.nftCollections['testnet'] = [COLLECTION];
      d.nftImages = { enabled: false, ipfsGateway: 'https://gw.example/ipfs/' };
    });
    const again = await new FileChainSettings(dir).load();
    expect(again.nftCollections).toEqual({ testnet: [COLLECTION] });
    expect(again.nftImages).toEqual({ enabled: false, ipfsGateway: 'https://gw.example/ipfs/' });

    const path = `${dir}/${CHAIN_SETTINGS_FILE}`;
    const json = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    json['nftCollections'] = { testnet: [COLLECTION, { contract: 7 }], mainnet: 'not a list' };
    json['nftImages'] = { enabled: 'yes' };
    await writeFile(path, JSON.stringify(json));
    const damaged = await new FileChainSettings(dir).load();
    expect(damaged.nftCollections).toEqual({ testnet: [COLLECTION] });
    expect(damaged.nftImages).toEqual(DEFAULT_NFT_IMAGES);
  });

  it('refuses a token id that is not "0x" and whole bytes of hex over IPC', () => {
    expect(parseArguments('nfts:image', [{ contract: COLLECTION.contract, tokenId: '0x0aFF' }])).toEqual([
      { contract: COLLECTION.contract, tokenId: '0x0aFF' },
    ]);
    for (const tokenId of ['01', '0x1', '0x', '0xzz', `0x${'00'.repeat(129)}`]) {
      const error = expectWalletError(
        () => parseArguments('nfts:image', [{ contract: COLLECTION.contract, tokenId }]),
        'INVALID_ARGUMENT',
      );
      expect(error.shortMessage).toMatch(/^nfts:image: expected tokenId to be an NFT token id such as "0x01"/);
    }
  });
});
