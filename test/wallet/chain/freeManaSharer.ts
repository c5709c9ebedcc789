// Uploads the free mana sharer of @koinosbox/contracts (npm) to a devnet with koilib, as its author deploys it: with
// authorizes_transaction_application, so that the chain asks its `authorize` entry point instead of a signature, and
// funded with KOIN, whose mana it shares. Shared by the payer service tests and the CLI's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, Provider, Signer, utils } from 'koilib';
import { included, method } from '../../devnet/koilibContract.ts';

type Abi = ConstructorParameters<typeof Contract>[0]['abi'];
const DIR = join(import.meta.dirname, '../../../node_modules/@koinosbox/contracts/assembly/freemanasharer');

/**
 * Uploads the sharer at the address of the key made from `seed`, after `funder` gave that key `koin` base units of KOIN
 * (its mana pays for the upload first, then for the transactions it shares). Resolves to the sharer's address.
 */
export async function uploadFreeManaSharer(
  jsonRpcUrl: string,
  koinAddress: string,
  funder: { address: string; wif: string },
  seed: string,
  koin: bigint,
): Promise<string> {
  const provider = new Provider([jsonRpcUrl]);
  const key = Object.assign(Signer.fromSeed(seed), { provider });
  const funderSigner = Object.assign(Signer.fromWif(funder.wif), { provider });
  const token = new Contract({ id: koinAddress, abi: utils.tokenAbi, provider, signer: funderSigner });
  const funding = await method(
    token,
    'transfer',
  )({ from: funder.address, to: key.getAddress(), value: koin.toString() });
  await included(provider, funding.transaction);

  const abi = JSON.parse(readFileSync(join(DIR, 'freemanasharer-abi.json'), 'utf8')) as Abi;
  const bytecode = new Uint8Array(readFileSync(join(DIR, 'release/freemanasharer.wasm')));
  const contract = new Contract({ id: key.getAddress(), abi, provider, signer: key, bytecode });
  const deployed = await contract.deploy({ abi: JSON.stringify(abi), authorizesTransactionApplication: true });
  if (deployed.receipt?.reverted) throw new Error('the upload of the free mana sharer was reverted');
  await included(provider, deployed.transaction);
  return key.getAddress();
}
