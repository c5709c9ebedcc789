// The system token contracts a wallet recognizes without being told: KOIN and VHP of mainnet, the Harbinger testnet
// and the local devnet (protocol facts §4.2). `tx decode` and the signing checks use them to know a token call.
import { addressToString } from './address.ts';

/** A network whose system tokens are known. */
export type KnownNetwork = 'mainnet' | 'testnet' | 'devnet';
/** A system token. */
export type SystemToken = 'koin' | 'vhp';

/** One known system token contract. */
export interface KnownTokenContract {
  network: KnownNetwork;
  token: SystemToken;
  /** The contract id as base58. */
  address: string;
}

/**
 * KOIN and VHP of each network. Mainnet and Harbinger: facts §4.2 (cli `.koinosrc`, docs receipts). Devnet: the
 * label addresses of `src-main/devnet/chain/genesis.ts` (`koinos-devnet/koin`, `koinos-devnet/vhp`), the same on every devnet;
 * a test checks them against what a running devnet resolves.
 */
export const KNOWN_TOKEN_CONTRACTS: readonly KnownTokenContract[] = [
  { network: 'mainnet', token: 'koin', address: '15DJN4a8SgrbGhhGksSBASiSYjGnMU8dGL' },
  { network: 'mainnet', token: 'vhp', address: '18tWNU7E4yuQzz7hMVpceb9ixmaWLVyQsr' },
  { network: 'testnet', token: 'koin', address: '1FaSvLjQJsCJKq5ybmGsMMQs8RQYyVv8ju' },
  { network: 'testnet', token: 'vhp', address: '17n12ktwN79sR6ia9DDgCfmw77EgpbTyBi' },
  { network: 'devnet', token: 'koin', address: '1H36wK5ucwbKWghnovMdPzGRDrsDPLBA7E' },
  { network: 'devnet', token: 'vhp', address: '1Fvig7yRvXjX6bLQFV5mKvaqehbtX7anvA' },
];

const BY_ADDRESS = new Map(KNOWN_TOKEN_CONTRACTS.map((c) => [c.address, c]));

/**
 * The known system token whose contract id this is, or undefined (also for bytes that are not 25 long).
 * @example
 * knownTokenContract(addressFromString('15DJN4a8SgrbGhhGksSBASiSYjGnMU8dGL')); // { network: 'mainnet', token: 'koin', … }
 */
export function knownTokenContract(contractId: Uint8Array): KnownTokenContract | undefined {
  if (!(contractId instanceof Uint8Array) || contractId.length !== 25) return undefined;
  return BY_ADDRESS.get(addressToString(contractId));
}
