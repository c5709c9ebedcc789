// Keys, addresses, WIF, compact signatures and recovery phrases against the shared known-answer vectors,
// plus the error each malformed input gets. Independent re-implementations here use the raw libraries, not keys.ts.
import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import * as secp from '@noble/secp256k1';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { Signer as KoilibSigner } from 'koilib';
import { fromBase64, fromHex, toBase64Url, toHex, utf8ToBytes } from '../../src-main/koinos/bytes.ts';
import type { WalletError } from '../../src-main/koinos/errors.ts';
import {
  addressFromHash160,
  addressFromPublicKey,
  addressFromString,
  addressToString,
  isAddress,
} from '../../src-main/koinos/address.ts';
import {
  assertMnemonic,
  derivationPath,
  isCanonicalSignature,
  isWif,
  newMnemonic,
  newPrivateKey,
  normalizeMnemonic,
  parsePrivateKey,
  phraseKeys,
  privateKeyFromHex,
  privateKeyFromMnemonic,
  privateKeyFromWif,
  privateKeyToWif,
  publicKeyFromPrivateKey,
  recoverAddress,
  recoverPublicKey,
  seedFromMnemonic,
  signDigest,
  koinosSignature,
  validateMnemonic,
  type Pbkdf2Sha512,
} from '../../src-main/koinos/keys.ts';
import { ripemd160, sha256 } from '../../src-main/koinos/hash.ts';
import { vector } from '../vectors.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Asserts no part of a secret (12+ characters of it) shows up in an error's text. */
function expectNoSecret(error: WalletError, secret: string): void {
  const text = [error.message, error.shortMessage, error.details ?? '', ...error.metaMessages].join('\n');
  for (let i = 0; i + 12 <= secret.length; i++) expect(text).not.toContain(secret.slice(i, i + 12));
  expect(error.cause).toBeUndefined();
}

/** Independent address rule (spec §3.7), with the raw hash libraries. */
function referenceAddress(publicKey: Uint8Array): string {
  const body = Uint8Array.of(0, ...nobleRipemd160(nobleSha256(publicKey)));
  return bs58.encode(Uint8Array.of(...body, ...nobleSha256(nobleSha256(body)).subarray(0, 4)));
}

/** Independent base58check encoder, for building malformed WIFs and addresses. */
function base58check(body: Uint8Array): string {
  return bs58.encode(Uint8Array.of(...body, ...nobleSha256(nobleSha256(body)).subarray(0, 4)));
}

function keyOf(vectorId: string): Uint8Array {
  return privateKeyFromHex(vector(vectorId).private_key_hex);
}

/** The 32-byte digest a tx/block id (`0x1220…`) carries. */
function digestOfId(id: string): Uint8Array {
  expect(id.startsWith('0x1220')).toBe(true);
  return fromHex(id.slice(6));
}

function scalarBytes(value: bigint): Uint8Array {
  return fromHex(value.toString(16).padStart(64, '0'));
}

describe('private keys, public keys and addresses (koilib-key-1)', () => {
  const v = vector('koilib-key-1');

  it('derives the private key as sha256 of the seed, like koilib Signer.fromSeed', () => {
    expect(toHex(nobleSha256(utf8ToBytes(v.seed)))).toBe(v.private_key_hex);
    expect(toHex(privateKeyFromHex(v.private_key_hex))).toBe(v.private_key_hex);
  });

  it('computes the compressed and uncompressed public keys', () => {
    const key = keyOf('koilib-key-1');
    expect(toHex(publicKeyFromPrivateKey(key))).toBe(v.public_key_compressed_hex);
    expect(toHex(publicKeyFromPrivateKey(key, false))).toBe(v.public_key_uncompressed_hex);
  });

  it('computes the address of each public key (the compressed one is the on-chain address)', () => {
    expect(addressToString(addressFromPublicKey(fromHex(v.public_key_compressed_hex)))).toBe(v.address_compressed);
    expect(addressToString(addressFromPublicKey(fromHex(v.public_key_uncompressed_hex)))).toBe(v.address_uncompressed);
    expect(addressToString(addressFromPublicKey(publicKeyFromPrivateKey(keyOf('koilib-key-1'))))).toBe(
      v.address_compressed,
    );
  });

  it('gives each caller its own copy of a remembered address', () => {
    const key = fromHex(v.public_key_compressed_hex);
    const first = addressFromPublicKey(key);
    first.fill(0); // a caller that reuses the bytes it was given
    const again = addressFromPublicKey(key);
    expect(addressToString(again)).toBe(v.address_compressed);
    expect(again).not.toBe(addressFromPublicKey(key));
  });

  it('writes both WIF forms and reads them back with their compression flag', () => {
    const key = keyOf('koilib-key-1');
    expect(privateKeyToWif(key)).toBe(v.wif_compressed);
    expect(privateKeyToWif(key, false)).toBe(v.wif_uncompressed);
    const compressed = privateKeyFromWif(v.wif_compressed);
    expect(toHex(compressed.privateKey)).toBe(v.private_key_hex);
    expect(compressed.compressed).toBe(true);
    const uncompressed = privateKeyFromWif(v.wif_uncompressed);
    expect(toHex(uncompressed.privateKey)).toBe(v.private_key_hex);
    expect(uncompressed.compressed).toBe(false);
  });

  it('parses a pasted key as WIF or hex, with or without 0x and surrounding whitespace', () => {
    for (const text of [
      v.wif_compressed,
      ` ${v.wif_uncompressed}\n`,
      v.private_key_hex,
      `  0x${v.private_key_hex.toUpperCase()}\t`,
    ]) {
      expect(toHex(parsePrivateKey(text).privateKey)).toBe(v.private_key_hex);
    }
    expect(parsePrivateKey(v.wif_uncompressed).compressed).toBe(false);
    expect(parsePrivateKey(v.private_key_hex).compressed).toBe(true);
  });

  it('round-trips an address through text and bytes', () => {
    const bytes = addressFromString(v.address_compressed);
    expect(bytes.length).toBe(25);
    expect(bytes[0]).toBe(0);
    expect(addressToString(bytes)).toBe(v.address_compressed);
  });
});

describe('addresses from a hash', () => {
  it('wrap RIPEMD160(SHA256(key)) as addressFromPublicKey does', () => {
    const v = vector('koilib-key-1');
    const hash = ripemd160(sha256(fromHex(v.public_key_compressed_hex)));
    expect(addressToString(addressFromHash160(hash))).toBe(v.address_compressed);
  });

  it('refuse a hash that is not 20 bytes', () => {
    expect(() => addressFromHash160(new Uint8Array(19))).toThrow('expected a RIPEMD160 hash of length 20, got 19');
  });
});

describe('checksum validity (koilib-checksum)', () => {
  const v = vector('koilib-checksum');

  it('accepts the valid addresses and WIFs', () => {
    for (const address of v.valid_addresses) {
      expect(isAddress(address)).toBe(true);
      expect(addressToString(addressFromString(address))).toBe(address);
    }
    for (const wif of v.valid_wifs) expect(isWif(wif)).toBe(true);
  });

  it('rejects each invalid address with the expected and found checksums', () => {
    for (const address of v.invalid_addresses) {
      expect(isAddress(address)).toBe(false);
      const error = expectWalletError(() => addressFromString(address), 'INVALID_ADDRESS');
      const bytes = bs58.decode(address);
      const expected = toHex(nobleSha256(nobleSha256(bytes.subarray(0, 21))).subarray(0, 4));
      expect(error.shortMessage).toBe(
        `the address checksum does not match: a character is mistyped (expected checksum ${expected}, got ${toHex(bytes.subarray(21))})`,
      );
    }
  });

  it('rejects each invalid WIF for its checksum without quoting it', () => {
    for (const wif of v.invalid_wifs) {
      expect(isWif(wif)).toBe(false);
      const error = expectWalletError(() => privateKeyFromWif(wif), 'INVALID_WIF');
      expect(error.shortMessage).toBe('WIF checksum does not match');
      expectNoSecret(error, wif);
    }
  });
});

describe('WIF encoding (crypto-cpp-wif-foobar)', () => {
  const v = vector('crypto-cpp-wif-foobar');

  it('encodes and decodes the crypto-cpp key', () => {
    expect(toHex(nobleSha256(utf8ToBytes(v.secret)))).toBe(v.private_key_hex);
    const key = keyOf('crypto-cpp-wif-foobar');
    expect(privateKeyToWif(key)).toBe(v.wif_compressed);
    expect(privateKeyToWif(key, false)).toBe(v.wif_uncompressed);
    expect(privateKeyFromWif(v.wif_compressed)).toEqual({ privateKey: key, compressed: true });
    expect(privateKeyFromWif(v.wif_uncompressed)).toEqual({ privateKey: key, compressed: false });
  });

  it('rejects a WIF whose checksum was changed', () => {
    const error = expectWalletError(() => privateKeyFromWif(v.must_reject.bad_checksum), 'INVALID_WIF');
    expect(error.shortMessage).toBe('WIF checksum does not match');
    expectNoSecret(error, v.must_reject.bad_checksum);
  });

  it('rejects a WIF whose secret was changed (the stored checksum no longer matches)', () => {
    // The vector flips one byte of the key and keeps the old checksum, so the checksum is what fails.
    const error = expectWalletError(() => privateKeyFromWif(v.must_reject.bad_secret), 'INVALID_WIF');
    expect(error.shortMessage).toBe('WIF checksum does not match');
    expectNoSecret(error, v.must_reject.bad_secret);
  });

  it('rejects a WIF with another prefix byte, naming the byte', () => {
    const error = expectWalletError(() => privateKeyFromWif(v.must_reject.bad_prefix), 'INVALID_WIF');
    expect(error.shortMessage).toBe('WIF prefix byte must be 0x80, got 0x70');
    expectNoSecret(error, v.must_reject.bad_prefix);
  });
});

describe('malformed WIFs', () => {
  const key = () => keyOf('crypto-cpp-wif-foobar');

  it('rejects a zero key and a key not below n even with a valid checksum', () => {
    const zero = base58check(Uint8Array.of(0x80, ...new Uint8Array(32), 0x01));
    expect(expectWalletError(() => privateKeyFromWif(zero), 'INVALID_WIF').shortMessage).toMatch(/got zero$/);
    const n = base58check(Uint8Array.of(0x80, ...scalarBytes(N)));
    expect(expectWalletError(() => privateKeyFromWif(n), 'INVALID_WIF').shortMessage).toMatch(/not below n$/);
    const nMinus1 = base58check(Uint8Array.of(0x80, ...scalarBytes(N - 1n), 0x01));
    expect(toHex(privateKeyFromWif(nMinus1).privateKey)).toBe((N - 1n).toString(16));
  });

  it('rejects a payload of the wrong length, naming it', () => {
    const short = base58check(Uint8Array.of(0x80, ...key().subarray(0, 31)));
    expect(expectWalletError(() => privateKeyFromWif(short), 'INVALID_WIF').shortMessage).toBe(
      'expected a WIF private key of 37 or 38 bytes, got 36',
    );
    const long = base58check(Uint8Array.of(0x80, ...key(), 0x01, 0x01));
    expect(expectWalletError(() => privateKeyFromWif(long), 'INVALID_WIF').shortMessage).toBe(
      'expected a WIF private key of 37 or 38 bytes, got 39',
    );
  });

  it('rejects a compression flag other than 0x01', () => {
    const wif = base58check(Uint8Array.of(0x80, ...key(), 0x02));
    const error = expectWalletError(() => privateKeyFromWif(wif), 'INVALID_WIF');
    expect(error.shortMessage).toBe('WIF compression flag must be 0x01, got 0x02');
    expectNoSecret(error, wif);
  });

  it('rejects a character outside base58 by position, without quoting the WIF', () => {
    const wif = vector('crypto-cpp-wif-foobar').wif_compressed as string;
    const typo = wif.slice(0, 10) + '0' + wif.slice(11);
    const error = expectWalletError(() => privateKeyFromWif(typo), 'INVALID_WIF');
    expect(error.shortMessage).toBe(
      'expected a WIF private key in base58, got a character base58 does not use at character 11',
    );
    expectNoSecret(error, typo);
  });

  it('rejects empty and non-string input', () => {
    expectWalletError(() => privateKeyFromWif(''), 'INVALID_WIF');
    expectWalletError(() => privateKeyFromWif(42 as unknown as string), 'INVALID_WIF');
    expect(isWif(undefined)).toBe(false);
  });
});

describe('malformed addresses', () => {
  const good = () => vector('koilib-key-1').address_compressed as string;

  it('names the byte length when it is not 25', () => {
    const bytes = addressFromString(good());
    const short = bs58.encode(bytes.subarray(0, 24));
    expect(expectWalletError(() => addressFromString(short), 'INVALID_ADDRESS').shortMessage).toBe(
      'expected an address of 25 bytes, got 24',
    );
  });

  it('names the version byte when it is not 0x00', () => {
    const body = addressFromString(good()).slice(0, 21);
    body[0] = 0x05;
    const p2sh = base58check(body);
    expect(expectWalletError(() => addressFromString(p2sh), 'INVALID_ADDRESS').shortMessage).toBe(
      'expected the address version byte 0x00, got 0x05',
    );
  });

  it('names a character outside base58 and its position', () => {
    const typo = good().slice(0, 4) + 'O' + good().slice(5);
    expect(expectWalletError(() => addressFromString(typo), 'INVALID_ADDRESS').shortMessage).toBe(
      'expected an address in base58, got "O" at character 5, which base58 does not use',
    );
  });

  it('rejects empty and non-string input, and bytes of the wrong length when encoding', () => {
    expect(expectWalletError(() => addressFromString(''), 'INVALID_ADDRESS').shortMessage).toBe(
      'expected an address as base58 text, got an empty string',
    );
    expect(isAddress(null)).toBe(false);
    expect(expectWalletError(() => addressToString(new Uint8Array(24)), 'INVALID_ADDRESS').shortMessage).toBe(
      'expected an address of 25 bytes, got 24',
    );
  });

  it('rejects a public key that is neither 33 nor 65 bytes with the right prefix', () => {
    const compressed = fromHex(vector('koilib-key-1').public_key_compressed_hex);
    expectWalletError(() => addressFromPublicKey(compressed.subarray(1)), 'INVALID_ARGUMENT');
    expectWalletError(() => addressFromPublicKey(Uint8Array.of(0x04, ...compressed.subarray(1))), 'INVALID_ARGUMENT');
  });
});

describe('private keys from hex', () => {
  it('accepts 1 and n-1 and rejects 0 and n', () => {
    expect(toHex(privateKeyFromHex('0'.repeat(63) + '1'))).toBe('0'.repeat(63) + '1');
    expect(toHex(privateKeyFromHex((N - 1n).toString(16)))).toBe((N - 1n).toString(16));
    expect(expectWalletError(() => privateKeyFromHex('0'.repeat(64)), 'INVALID_PRIVATE_KEY').shortMessage).toMatch(
      /got zero$/,
    );
    expect(expectWalletError(() => privateKeyFromHex(N.toString(16)), 'INVALID_PRIVATE_KEY').shortMessage).toMatch(
      /not below n$/,
    );
  });

  it('names the digit count and the position of a non-hex character without quoting the key', () => {
    const hex = vector('koilib-key-1').private_key_hex as string;
    const short = expectWalletError(() => privateKeyFromHex(hex.slice(1)), 'INVALID_PRIVATE_KEY');
    expect(short.shortMessage).toBe('expected a private key as 64 hex digits, got 63');
    expectNoSecret(short, hex.slice(1));
    const typo = hex.slice(0, 20) + 'g' + hex.slice(21);
    const bad = expectWalletError(() => privateKeyFromHex(typo), 'INVALID_PRIVATE_KEY');
    expect(bad.shortMessage).toBe(
      'expected a private key as 64 hex digits, got a character that is not a hex digit at character 21',
    );
    expectNoSecret(bad, typo);
  });

  it('reports a mistyped pasted key as hex or WIF, whichever it resembles', () => {
    const v = vector('koilib-key-1');
    expect(
      expectWalletError(() => parsePrivateKey(v.private_key_hex.slice(2)), 'INVALID_PRIVATE_KEY').shortMessage,
    ).toBe('expected a private key as 64 hex digits, got 62');
    expectWalletError(() => parsePrivateKey(v.wif_compressed.slice(1)), 'INVALID_WIF');
    expectWalletError(() => parsePrivateKey('   '), 'INVALID_PRIVATE_KEY');
  });

  it('makes new random keys that are valid and distinct', () => {
    const a = newPrivateKey();
    const b = newPrivateKey();
    expect(a.length).toBe(32);
    expect(toHex(a)).not.toBe(toHex(b));
    expect(privateKeyFromWif(privateKeyToWif(a)).privateKey).toEqual(a);
  });

  it('rejects a private key of the wrong length where one is used', () => {
    expect(
      expectWalletError(() => publicKeyFromPrivateKey(new Uint8Array(31)), 'INVALID_PRIVATE_KEY').shortMessage,
    ).toBe('expected a private key of 32 bytes, got 31');
    expectWalletError(() => signDigest(new Uint8Array(32), new Uint8Array(32)), 'INVALID_PRIVATE_KEY');
  });
});

describe('signatures', () => {
  const signed = [
    {
      id: 'koilib-block-signed',
      digestId: 'block_id',
      signature: (v: Record<string, any>) => v.signature,
      signer: (v: Record<string, any>) => v.header.signer,
    },
    {
      id: 'koilib-tx-empty',
      digestId: 'transaction_id',
      signature: (v: Record<string, any>) => v.signatures[0],
      signer: (v: Record<string, any>) => v.expected_signer,
    },
    {
      id: 'koilib-tx-upload',
      digestId: 'transaction_id',
      signature: (v: Record<string, any>) => v.signatures[0],
      signer: (v: Record<string, any>) => v.expected_signer,
    },
  ];

  for (const c of signed) {
    it(`signs the ${c.id} digest exactly as koilib (RFC 6979, low S) and recovers the signer`, () => {
      const v = vector(c.id);
      const key = keyOf(v.signer_private_key);
      const digest = digestOfId(v[c.digestId]);
      const signature = signDigest(digest, key);
      expect(toBase64Url(signature)).toBe(c.signature(v));
      expect(isCanonicalSignature(signature)).toBe(true);
      expect(toHex(recoverPublicKey(signature, digest))).toBe(toHex(publicKeyFromPrivateKey(key)));
      expect(addressToString(recoverAddress(signature, digest))).toBe(c.signer(v));
    });
  }

  for (const id of ['mainnet-history-tx', 'docs-cli-offline-tx']) {
    it(`recovers the signer of the ${id} signature from its transaction id`, () => {
      const v = vector(id);
      const digest = digestOfId(v.transaction_id);
      const signature = fromBase64(v.signatures[0]);
      expect(isCanonicalSignature(signature)).toBe(true);
      expect(addressToString(recoverAddress(signature, digest))).toBe(v.expected_signer);
    });
  }

  it('recovers a different address when the digest changes', () => {
    const v = vector('mainnet-history-tx');
    const digest = digestOfId(v.transaction_id);
    digest[0] = digest[0]! ^ 1;
    expect(addressToString(recoverAddress(fromBase64(v.signatures[0]), digest))).not.toBe(v.expected_signer);
  });

  it('round-trips random keys and digests', () => {
    for (let i = 0; i < 5; i++) {
      const key = newPrivateKey();
      const digest = nobleSha256(Uint8Array.of(i));
      const signature = signDigest(digest, key);
      expect([31, 32]).toContain(signature[0]);
      expect(recoverPublicKey(signature, digest)).toEqual(publicKeyFromPrivateKey(key));
    }
  });

  it('normalizes a high S to n - S (the RFC 6979 k is kept, only S is negated)', () => {
    const key = keyOf('koilib-key-1');
    // The first digest sha256([i]) whose plain RFC 6979 signature has a high S.
    let digest = new Uint8Array(0);
    let raw = new Uint8Array(0);
    for (let i = 0; raw.length === 0 || BigInt('0x' + toHex(raw.subarray(32))) <= N / 2n; i++) {
      digest = nobleSha256(Uint8Array.of(i));
      raw = secp.sign(digest, key, { prehash: false, lowS: false });
    }
    const signature = signDigest(digest, key);
    expect(isCanonicalSignature(signature)).toBe(true);
    expect(toHex(signature.subarray(1, 33))).toBe(toHex(raw.subarray(0, 32)));
    expect(BigInt('0x' + toHex(signature.subarray(33)))).toBe(N - BigInt('0x' + toHex(raw.subarray(32))));
    expect(recoverPublicKey(signature, digest)).toEqual(publicKeyFromPrivateKey(key));
  });

  it('rejects a signature that is not 65 bytes', () => {
    const digest = new Uint8Array(32);
    expect(
      expectWalletError(() => recoverPublicKey(new Uint8Array(64), digest), 'INVALID_SIGNATURE').shortMessage,
    ).toBe('unexpected signature length: expected 65 bytes, got 64');
    expect(isCanonicalSignature(new Uint8Array(64))).toBe(false);
  });

  it('accepts header bytes 31 to 33 only, reading 33 as the node does (like 32)', () => {
    const v = vector('koilib-block-signed');
    const digest = digestOfId(v.block_id);
    const signature = fromBase64(v.signature);
    expect(signature[0]).toBe(32);
    const as33 = Uint8Array.from(signature);
    as33[0] = 33;
    expect(recoverPublicKey(as33, digest)).toEqual(recoverPublicKey(signature, digest));
    for (const header of [27, 30, 34, 0]) {
      const bad = Uint8Array.from(signature);
      bad[0] = header;
      expect(isCanonicalSignature(bad)).toBe(false);
      expect(expectWalletError(() => recoverPublicKey(bad, digest), 'INVALID_SIGNATURE').shortMessage).toBe(
        `unexpected signature header byte ${header}: expected 31, 32 or 33 (recovery id + 31, compressed key)`,
      );
    }
  });

  it('rejects the high-S twin of a valid signature as not canonical', () => {
    const v = vector('koilib-tx-upload');
    const digest = digestOfId(v.transaction_id);
    const signature = fromBase64(v.signatures[0]);
    const s = BigInt('0x' + toHex(signature.subarray(33)));
    const twin = Uint8Array.from(signature);
    twin[0] = signature[0] === 31 ? 32 : 31; // negating s flips the parity of R
    twin.set(scalarBytes(N - s), 33);
    expect(isCanonicalSignature(twin)).toBe(false);
    expect(expectWalletError(() => recoverPublicKey(twin, digest), 'INVALID_SIGNATURE').shortMessage).toMatch(
      /^signature must be canonical/,
    );
  });

  it('rejects a signature with r = 0 or r ≥ n as unrecoverable', () => {
    const signature = fromBase64(vector('koilib-tx-upload').signatures[0]);
    const digest = digestOfId(vector('koilib-tx-upload').transaction_id);
    for (const r of [0n, N]) {
      const bad = Uint8Array.from(signature);
      bad.set(scalarBytes(r), 1);
      expect(isCanonicalSignature(bad)).toBe(false);
      expect(expectWalletError(() => recoverPublicKey(bad, digest), 'INVALID_SIGNATURE').shortMessage).toBe(
        'signature does not recover a public key',
      );
    }
  });

  it('makes the 65-byte form of another library’s signature, refusing a recovery id the node cannot read', () => {
    const key = keyOf('koilib-key-1');
    const digest = nobleSha256(Uint8Array.of(1));
    const recovered = secp.sign(digest, key, { prehash: false, lowS: true, format: 'recovered' });
    expect(koinosSignature(recovered[0]!, recovered.subarray(1))).toEqual(signDigest(digest, key));
    expect(expectWalletError(() => koinosSignature(2, recovered.subarray(1)), 'INTERNAL').shortMessage).toBe(
      'signature has recovery id 2, which the Koinos node cannot recover',
    );
    expectWalletError(() => koinosSignature(0, recovered), 'INVALID_BYTES');
  });

  it('rejects a digest that is not 32 bytes', () => {
    const key = keyOf('koilib-key-1');
    expectWalletError(() => signDigest(new Uint8Array(34), key), 'INVALID_BYTES');
    expectWalletError(() => recoverPublicKey(signDigest(new Uint8Array(32), key), new Uint8Array(31)), 'INVALID_BYTES');
  });
});

describe('recovery phrases (BIP39) and account keys (BIP32)', () => {
  // The BIP39 reference test phrase (all-zero entropy); its seed is the published BIP39 known answer.
  const TEST_PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
  const TEST_SEED_HEX =
    '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4';

  const addressOf = (key: Uint8Array) => addressToString(addressFromPublicKey(publicKeyFromPrivateKey(key)));

  it('makes new 12- and 24-word phrases that validate and differ', () => {
    const twelve = newMnemonic();
    const twentyFour = newMnemonic(24);
    expect(twelve.split(' ')).toHaveLength(12);
    expect(twentyFour.split(' ')).toHaveLength(24);
    expect(validateMnemonic(twelve)).toBe(true);
    expect(validateMnemonic(twentyFour)).toBe(true);
    expect(newMnemonic()).not.toBe(twelve);
    expectWalletError(() => newMnemonic(13 as 12), 'INVALID_ARGUMENT');
  });

  it('derives the same key from a new phrase every time, and a different key per account', () => {
    const phrase = newMnemonic();
    const a = privateKeyFromMnemonic(phrase, 0);
    expect(privateKeyFromMnemonic(phrase, 0)).toEqual(a);
    expect(toHex(privateKeyFromMnemonic(phrase, 1))).not.toBe(toHex(a));
  });

  it("derives account N at m/44'/659'/N'/0/0 (checked with @scure/bip32, the BIP39 seed and koilib)", () => {
    const seed = mnemonicToSeedSync(TEST_PHRASE);
    expect(toHex(seed)).toBe(TEST_SEED_HEX);
    for (const index of [0, 1, 7]) {
      const reference = HDKey.fromMasterSeed(seed).derive(`m/44'/659'/${index}'/0/0`).privateKey!;
      const key = privateKeyFromMnemonic(TEST_PHRASE, index);
      expect(toHex(key)).toBe(toHex(reference));
      expect(addressOf(key)).toBe(referenceAddress(publicKeyFromPrivateKey(key)));
      expect(addressOf(key)).toBe(new KoilibSigner({ privateKey: toHex(reference) }).getAddress());
    }
    // Pinned after the three independent derivations above agreed, so a change to any of them is noticed.
    expect(addressOf(privateKeyFromMnemonic(TEST_PHRASE, 0))).toBe('1DFF1akeStY8SfomzFsSYsZPesQcbnF1vR');
    expect(derivationPath(3)).toBe("m/44'/659'/3'/0/0");
  });

  it('derives many accounts of one phrase from one seed, the same keys as one at a time', () => {
    const keys = phraseKeys(TEST_PHRASE, 'TREZOR');
    for (const index of [0, 1, 7, 2 ** 31 - 1]) {
      const { privateKey, publicKey } = keys.keyAt(index);
      expect(toHex(privateKey)).toBe(toHex(privateKeyFromMnemonic(TEST_PHRASE, index, 'TREZOR')));
      expect(toHex(publicKey)).toBe(toHex(publicKeyFromPrivateKey(privateKey)));
    }
    expectWalletError(() => keys.keyAt(2 ** 31), 'INVALID_ARGUMENT');
    keys.wipe();
    expect(() => keys.keyAt(0)).toThrow();
    expectWalletError(() => phraseKeys(TEST_PHRASE.replace(/about$/, 'abuot')), 'INVALID_MNEMONIC');
  });

  it('computes the BIP39 seed with its own PBKDF2 or the one it is given, the passphrase in NFKD', () => {
    const native: Pbkdf2Sha512 = (password, salt, rounds, length) =>
      pbkdf2Sync(password, salt, rounds, length, 'sha512');
    // BIP39's first test vector (trezor/python-mnemonic vectors.json), with its passphrase TREZOR.
    const TREZOR_SEED_HEX =
      'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04';
    for (const pbkdf2 of [undefined, native]) {
      expect(toHex(seedFromMnemonic(TEST_PHRASE, '', pbkdf2))).toBe(TEST_SEED_HEX);
      expect(toHex(seedFromMnemonic(TEST_PHRASE, 'TREZOR', pbkdf2))).toBe(TREZOR_SEED_HEX);
      // "café" composed and decomposed are one passphrase.
      expect(toHex(seedFromMnemonic(TEST_PHRASE, 'caf\u00e9', pbkdf2))).toBe(
        toHex(mnemonicToSeedSync(TEST_PHRASE, 'cafe\u0301')),
      );
    }
    expect(privateKeyFromMnemonic(TEST_PHRASE, 3, 'TREZOR', native)).toEqual(
      privateKeyFromMnemonic(TEST_PHRASE, 3, 'TREZOR'),
    );
  });

  it('ignores case and extra whitespace, but not the passphrase', () => {
    const messy = `  ${TEST_PHRASE.toUpperCase().replaceAll(' ', ' \n\t ')}  `;
    expect(normalizeMnemonic(messy)).toBe(TEST_PHRASE);
    expect(privateKeyFromMnemonic(messy)).toEqual(privateKeyFromMnemonic(TEST_PHRASE));
    const withPassphrase = privateKeyFromMnemonic(TEST_PHRASE, 0, 'TREZOR');
    const reference = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_PHRASE, 'TREZOR')).derive(
      "m/44'/659'/0'/0/0",
    ).privateKey!;
    expect(withPassphrase).toEqual(reference);
    expect(toHex(withPassphrase)).not.toBe(toHex(privateKeyFromMnemonic(TEST_PHRASE)));
  });

  it('names the position of the first unknown word without quoting the phrase', () => {
    const phrase = TEST_PHRASE.replace(/^(\w+ \w+) abandon/, '$1 abandn').replace(/ about$/, ' abuot');
    const error = expectWalletError(() => privateKeyFromMnemonic(phrase), 'INVALID_MNEMONIC');
    expect(error.shortMessage).toBe('word 3 of the recovery phrase is not in the BIP39 English word list');
    expect(error.message).not.toContain('abandn');
    expect(error.message).not.toContain('abandon');
    expect(validateMnemonic(phrase)).toBe(false);
  });

  it('names a word count that BIP39 does not allow', () => {
    const eleven = TEST_PHRASE.split(' ').slice(1).join(' ');
    expect(expectWalletError(() => assertMnemonic(eleven), 'INVALID_MNEMONIC').shortMessage).toBe(
      'expected a recovery phrase of 12, 15, 18, 21 or 24 words, got 11',
    );
    expect(expectWalletError(() => assertMnemonic(' \n '), 'INVALID_MNEMONIC').shortMessage).toBe(
      'expected a recovery phrase of 12, 15, 18, 21 or 24 words, got none',
    );
  });

  it('rejects a phrase of known words whose checksum does not match', () => {
    const error = expectWalletError(() => assertMnemonic('abandon '.repeat(12)), 'INVALID_MNEMONIC');
    expect(error.shortMessage).toBe('recovery phrase checksum does not match');
    expect(error.message).not.toContain('abandon');
  });

  it('rejects account indexes outside 0..2^31-1', () => {
    for (const index of [-1, 1.5, 2 ** 31, Number.NaN]) {
      expectWalletError(() => privateKeyFromMnemonic(TEST_PHRASE, index), 'INVALID_ARGUMENT');
    }
  });
});
