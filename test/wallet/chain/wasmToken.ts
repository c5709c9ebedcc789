// Uploads the prebuilt contracts of @koinosbox/contracts (npm) to a devnet with koilib, as a contract developer would:
// the KCS-4 token (name "My Token", symbol TKN, 8 decimals), minted by its own key, and the NFT contract, which answers
// name and symbol but has no decimals (a contract that is not a KCS-4 token). Shared by the service and e2e tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, Provider, Signer, utils } from 'koilib';
import { included, method } from '../../devnet/koilibContract.ts';

type Abi = ConstructorParameters<typeof Contract>[0]['abi'];
const PACKAGE = join(import.meta.dirname, '../../../node_modules/@koinosbox/contracts/assembly');

function artifact(name: 'token' | 'nft'): { abi: Abi; bytecode: Uint8Array } {
  const dir = join(PACKAGE, name);
  return {
    abi: JSON.parse(readFileSync(join(dir, `${name}-abi.json`), 'utf8')) as Abi,
    bytecode: new Uint8Array(readFileSync(join(dir, `release/${name}.wasm`))),
  };
}

export interface UploadedToken {
  /** The contract address (the address of the key that uploaded it). */
  address: string;
  /** Mints `value` base units to `to`, signed by the contract's key; resolves once included. */
  mint(to: string, value: bigint): Promise<void>;
}

/**
 * Uploads a @koinosbox contract at the address of the key made from `seed`, after `funder` gave that key 100 KOIN of
 * mana (an upload pays the network bytes of ~60 KB of bytecode).
 */
export async function uploadKoinosbox(
  jsonRpcUrl: string,
  koinAddress: string,
  funder: { address: string; wif: string },
  seed: string,
  name: 'token' | 'nft' = 'token',
): Promise<UploadedToken> {
  const provider = new Provider([jsonRpcUrl]);
  const signer = Signer.fromSeed(seed);
  signer.provider = provider;
  const funderSigner = Object.assign(Signer.fromWif(funder.wif), { provider });
  const koin = new Contract({ id: koinAddress, abi: utils.tokenAbi, provider, signer: funderSigner });
  const funding = await method(
    koin,
    'transfer',
  )({ from: funder.address, to: signer.getAddress(), value: (100n * 100_000_000n).toString() });
  await included(provider, funding.transaction);

  const { abi, bytecode } = artifact(name);
  const contract = new Contract({ id: signer.getAddress(), abi, provider, signer, bytecode });
  const deployed = await contract.deploy({ abi: JSON.stringify(abi) });
  if (deployed.receipt?.reverted) throw new Error(`the upload of ${name} was reverted`);
  await included(provider, deployed.transaction);

  return {
    address: signer.getAddress(),
    async mint(to, value) {
      const minted = await method(contract, 'mint')({ to, value: value.toString() });
      if (minted.receipt?.reverted) throw new Error('the mint was reverted');
      await included(provider, minted.transaction);
    },
  };
}
