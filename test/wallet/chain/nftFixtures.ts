// Test data for NFTs: a real PNG made here (so the browser can draw it), an SVG and HTML posing as images, and the
// KCS-5 collection of @koinosbox/contracts uploaded to a devnet with koilib, with mint and set_metadata by its owner.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { Contract, Provider, Signer } from 'koilib';
import { included, method } from '../../devnet/koilibContract.ts';
import { uploadKoinosbox } from './wasmToken.ts';

type Abi = ConstructorParameters<typeof Contract>[0]['abi'];
export const NFT_ABI = join(
  import.meta.dirname,
  '../../../node_modules/@koinosbox/contracts/assembly/nft/nft-abi.json',
);

function chunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid `size` x `size` PNG of one colour (8-bit RGB). */
export function png(size: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** An SVG that would run a script if a page ever loaded it as a document. */
export const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>';

export interface UploadedCollection {
  address: string;
  /** Mints `tokenId` ("0x…") to `to`, signed by the collection's owner key; resolves once included. */
  mint(to: string, tokenId: string): Promise<void>;
  /** Sets the on-chain metadata (KCS-5 metadata_of) of a token. */
  setMetadata(tokenId: string, metadata: object): Promise<void>;
}

/** Uploads the @koinosbox NFT collection (name "My NFT", symbol NFT, uri "") at the key of `seed`. */
export async function uploadCollection(
  jsonRpcUrl: string,
  koinAddress: string,
  funder: { address: string; wif: string },
  seed: string,
): Promise<UploadedCollection> {
  const uploaded = await uploadKoinosbox(jsonRpcUrl, koinAddress, funder, seed, 'nft');
  const provider = new Provider([jsonRpcUrl]);
  const signer = Object.assign(Signer.fromSeed(seed), { provider });
  const abi = JSON.parse(readFileSync(NFT_ABI, 'utf8')) as Abi;
  const contract = new Contract({ id: uploaded.address, abi, provider, signer });
  const write = async (name: string, args: Record<string, unknown>) => {
    const answer = await method(contract, name)(args);
    if (answer.receipt?.reverted) throw new Error(`${name} was reverted`);
    await included(provider, answer.transaction);
  };
  return {
    address: uploaded.address,
    mint: (to, tokenId) => write('mint', { to, token_id: tokenId }),
    setMetadata: (tokenId, metadata) =>
      write('set_metadata', { token_id: tokenId, metadata: JSON.stringify(metadata) }),
  };
}
