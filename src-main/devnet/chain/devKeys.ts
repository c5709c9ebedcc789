// The devnet's development keys: a fixed, published recovery phrase, the pre-funded accounts derived from it,
// and the genesis key that signs every block. FOR DEVELOPMENT ONLY: anyone can spend from these keys.
import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { toHex } from '../../koinos/bytes.ts';
import { addressFromPublicKey, addressToString } from '../../koinos/address.ts';
import { derivationPath, KOINOS_COIN_PATH, privateKeyToWif, seedFromMnemonic } from '../../koinos/keys.ts';
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

/** The node m/44'/659' of {@link DEV_MNEMONIC}, whose children index'/0/0 are the development accounts. */
let coinNode: HDKey | undefined;
const cache = new Map<number, DevKey>();

/**
 * The development key of account `index` of {@link DEV_MNEMONIC}: the key `privateKeyFromMnemonic` derives
 * (m/44'/659'/index'/0/0), but from the node m/44'/659' derived once, with the public key BIP32 computed on the way. A
 * devnet may fund hundreds of accounts, and every devnet thread derives its own: the seed is stretched once (by
 * node:crypto, ~1 ms), and each level of a path costs one multiplication on the curve, so three where a key from the
 * master took six.
 * @throws WalletError INVALID_ARGUMENT for an index outside 0..2^31-1.
 * @example
 * devKey(0).address; // the first development account, base58
 */
export function devKey(index: number): DevKey {
  const cached = cache.get(index);
  if (cached) return cached;
  const path = derivationPath(index); // validates the index
  coinNode ??= HDKey.fromMasterSeed(
    seedFromMnemonic(DEV_MNEMONIC, '', (password, salt, rounds, length) =>
      pbkdf2Sync(password, salt, rounds, length, 'sha512'),
    ),
  ).derive(KOINOS_COIN_PATH);
  const { privateKey, publicKey } = coinNode.derive(`m${path.slice(KOINOS_COIN_PATH.length)}`);
  if (!privateKey || !publicKey) throw new Error(`BIP32 derivation of ${path} returned no key`);
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
