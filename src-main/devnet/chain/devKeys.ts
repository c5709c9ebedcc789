// The devnet's development keys: a fixed, published recovery phrase, the pre-funded accounts derived from it,
// and the genesis key that signs every block. FOR DEVELOPMENT ONLY: anyone can spend from these keys.
import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey } from '@scure/bip32';
import { toHex } from '../../koinos/bytes.ts';
import { addressFromPublicKey, addressToString } from '../../koinos/address.ts';
import { derivationPath, privateKeyToWif, publicKeyFromPrivateKey } from '../../koinos/keys.ts';
import type { DevAccount } from '../types.ts';

/**
 * The published development recovery phrase (the one Hardhat and Anvil use). Importing it into Kondor or any
 * BIP44 Koinos wallet (path m/44'/659'/N'/0/0) shows the devnet accounts 0, 1, 2, ...
 * FOR DEVELOPMENT ONLY: never send real value to an address derived from it.
 */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * Account index of the genesis key (the block signer and the only key that may mint KOIN). It is kept apart from
 * the development accounts 0..N-1 so that the block records the account history adds for the block signer
 * (one per block, as the real account history service does) do not fill a development account's history.
 */
export const GENESIS_KEY_INDEX = 1000;

/** A development account together with its private key (devnet-internal: the key never leaves the main process). */
export interface DevKey extends DevAccount {
  privateKey: Uint8Array;
  /** 25-byte address */
  addressBytes: Uint8Array;
}

let master: HDKey | undefined;
const cache = new Map<number, DevKey>();

/**
 * The development key of account `index` of {@link DEV_MNEMONIC}, derived as `privateKeyFromMnemonic` does
 * (m/44'/659'/index'/0/0) but from a seed computed once, because a devnet may fund hundreds of accounts and
 * the BIP39 seed stretching costs ~30 ms per call.
 * @throws WalletError INVALID_ARGUMENT for an index outside 0..2^31-1.
 * @example
 * devKey(0).address; // the first development account, base58
 */
export function devKey(index: number): DevKey {
  const cached = cache.get(index);
  if (cached) return cached;
  const path = derivationPath(index); // validates the index
  master ??= HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC));
  const privateKey = master.derive(path).privateKey;
  if (!privateKey) throw new Error(`BIP32 derivation of ${path} returned no private key`);
  const publicKey = publicKeyFromPrivateKey(privateKey);
  const addressBytes = addressFromPublicKey(publicKey);
  const key: DevKey = {
    index,
    address: addressToString(addressBytes),
    publicKey: toHex(publicKey),
    wif: privateKeyToWif(privateKey),
    privateKey: Uint8Array.from(privateKey),
    addressBytes,
  };
  cache.set(index, key);
  return key;
}
