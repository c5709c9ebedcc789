// The devnet's development keys: a fixed, published recovery phrase, the pre-funded accounts derived from it,
// and the genesis key that signs every block. FOR DEVELOPMENT ONLY: anyone can spend from these keys.
import { createHmac, pbkdf2Sync } from 'node:crypto';
import { fromHex, toHex } from '../../koinos/bytes.ts';
import { addressFromPublicKey, addressToString } from '../../koinos/address.ts';
import { CURVE_ORDER, derivationPath, KOINOS_COIN_PATH, privateKeyToWif, seedFromMnemonic } from '../../koinos/keys.ts';
import type { DevAccount } from '../types.ts';
import { publicKeyOf } from '../vm/secp256k1Recovery.ts';

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

/** A BIP32 node: its private key and chain code. */
interface ExtendedKey {
  key: Uint8Array;
  chainCode: Uint8Array;
}

const HARDENED = 0x80000000;

/** BIP32's split of HMAC-SHA512: IL as a number below n (else the derivation has no key at this index), and IR. */
function split(mac: Buffer, what: string): { tweak: bigint; chainCode: Uint8Array } {
  const tweak = BigInt(`0x${mac.subarray(0, 32).toString('hex')}`);
  if (tweak >= CURVE_ORDER) throw new Error(`BIP32 ${what}: IL is not below n, there is no key here`);
  return { tweak, chainCode: new Uint8Array(mac.subarray(32)) };
}

/** A private key as 32 bytes, big-endian; BIP32 has no key where it is zero. */
function keyBytes(value: bigint, what: string): Uint8Array {
  if (value === 0n) throw new Error(`BIP32 ${what}: the key is zero`);
  return fromHex(value.toString(16).padStart(64, '0'));
}

/** BIP32 CKDpriv: the child `index` of `parent` (hardened from 2^31). */
function childKey(parent: ExtendedKey, index: number): ExtendedKey {
  const data = Buffer.alloc(37);
  if (index >= HARDENED) data.set(parent.key, 1);
  else data.set(publicKeyOf(parent.key), 0);
  data.writeUInt32BE(index, 33);
  const { tweak, chainCode } = split(createHmac('sha512', parent.chainCode).update(data).digest(), `child ${index}`);
  return { key: keyBytes((tweak + BigInt(`0x${toHex(parent.key)}`)) % CURVE_ORDER, `child ${index}`), chainCode };
}

/** The indexes of a path below `m` ("m/44'/659'" -> [2^31 + 44, 2^31 + 659]). */
function pathIndexes(path: string): number[] {
  return path
    .split('/')
    .slice(1)
    .map((part) => (part.endsWith("'") ? Number(part.slice(0, -1)) + HARDENED : Number(part)));
}

/** The node m/44'/659' of {@link DEV_MNEMONIC}, whose children index'/0/0 are the development accounts. */
let coinNode: ExtendedKey | undefined;
const cache = new Map<number, DevKey>();

/** BIP32 from the seed of {@link DEV_MNEMONIC} (stretched by node:crypto, ~1 ms) down to m/44'/659'. */
function devCoinNode(): ExtendedKey {
  const seed = seedFromMnemonic(DEV_MNEMONIC, '', (password, salt, rounds, length) =>
    pbkdf2Sync(password, salt, rounds, length, 'sha512'),
  );
  const { tweak, chainCode } = split(createHmac('sha512', 'Bitcoin seed').update(seed).digest(), 'master key');
  return pathIndexes(KOINOS_COIN_PATH).reduce(childKey, { key: keyBytes(tweak, 'master key'), chainCode });
}

/**
 * The development key of account `index` of {@link DEV_MNEMONIC}: the key `privateKeyFromMnemonic` derives
 * (m/44'/659'/index'/0/0), from the node m/44'/659' derived once. A devnet may fund hundreds of accounts, and every
 * devnet thread derives its own, in a new thread where a JavaScript curve would first build its tables (a fifth of a
 * devnet's start with @scure/bip32): BIP32 is computed here with node:crypto's HMAC-SHA512 and libsecp256k1's public
 * keys (secp256k1Recovery.ts), three an account.
 * @throws WalletError INVALID_ARGUMENT for an index outside 0..2^31-1.
 * @example
 * devKey(0).address; // the first development account, base58
 */
export function devKey(index: number): DevKey {
  const cached = cache.get(index);
  if (cached) return cached;
  const path = derivationPath(index); // validates the index
  coinNode ??= devCoinNode();
  const privateKey = pathIndexes(`m${path.slice(KOINOS_COIN_PATH.length)}`).reduce(childKey, coinNode).key;
  const publicKey = publicKeyOf(privateKey);
  const addressBytes = addressFromPublicKey(publicKey);
  const key: DevKey = {
    index,
    address: addressToString(addressBytes),
    publicKey: toHex(publicKey),
    wif: privateKeyToWif(privateKey),
    privateKey,
    addressBytes,
  };
  cache.set(index, key);
  return key;
}
