// The community contracts a shaped devnet deploys (nicknames, free mana sharer, an NFT collection): the prebuilt
// WebAssembly and ABIs that @koinosbox/contracts ships (MIT, joticajulian/koinos-contracts-as), read from the package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { WalletError } from '../../koinos/errors.ts';
import type { CommunityContractName } from '../chain/shapes.ts';

/** A community contract ready to place: its bytecode and its ABI text (the contract meta store answers it). */
export interface CommunityContract {
  name: CommunityContractName;
  bytecode: Uint8Array;
  abi: string;
  /** Uploaded with authorizes_transaction_application (the free mana sharer pays as a contract payer). */
  authorizesTransactionApplication: boolean;
}

const FILES: Record<CommunityContractName, { wasm: string; abi: string }> = {
  nicknames: { wasm: 'assembly/nicknames/release/nicknames.wasm', abi: 'assembly/nicknames/nicknames-abi.json' },
  freemanasharer: {
    wasm: 'assembly/freemanasharer/release/freemanasharer.wasm',
    abi: 'assembly/freemanasharer/freemanasharer-abi.json',
  },
  nft: { wasm: 'assembly/nft/release/nft.wasm', abi: 'assembly/nft/nft-abi.json' },
};

const cache = new Map<CommunityContractName, CommunityContract>();

/**
 * Reads a community contract from the installed @koinosbox/contracts package.
 * @throws WalletError INTERNAL when the package (a development dependency) is not installed.
 */
export function loadCommunityContract(name: CommunityContractName): CommunityContract {
  const cached = cache.get(name);
  if (cached) return cached;
  let root: string;
  try {
    root = dirname(createRequire(import.meta.url).resolve('@koinosbox/contracts/package.json'));
  } catch (cause) {
    throw new WalletError(
      'INTERNAL',
      `a network shape deploys the ${name} contract from @koinosbox/contracts, which is not installed here`,
      {
        details: 'install the development dependencies (npm install), or run the devnet without --like',
        cause,
      },
    );
  }
  const files = FILES[name];
  const contract: CommunityContract = {
    name,
    bytecode: new Uint8Array(readFileSync(join(root, files.wasm))),
    abi: readFileSync(join(root, files.abi), 'utf8'),
    authorizesTransactionApplication: name === 'freemanasharer',
  };
  cache.set(name, contract);
  return contract;
}
