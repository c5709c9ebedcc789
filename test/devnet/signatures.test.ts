// Signature recovery of the devnet: worker threads and the calling thread agree with the protocol library's
// recovery, and both give the node's error texts for malformed signatures; the native libsecp256k1 loads here and
// answers as its WebAssembly build does, for recoveries, for the development keys' public keys and for the signatures
// of the devnet's blocks.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src-main/koinos/hash.ts';
import { fromHex, toBase64Url, toHex, utf8ToBytes } from '../../src-main/koinos/bytes.ts';
import { fromJson } from '../../src-main/koinos/codec.ts';
import { koinosSignature, publicKeyFromPrivateKey, recoverPublicKey, signDigest } from '../../src-main/koinos/keys.ts';
import { signBlock } from '../../src-main/koinos/transaction.ts';
import { TYPES } from '../../src-main/koinos/types.ts';
import {
  defaultSignatureThreads,
  inlineRecoverer,
  signatureFormatError,
  workerRecoverer,
} from '../../src-main/devnet/chain/signatures.ts';
import * as wasm from 'tiny-secp256k1';
import {
  knownRecovered,
  publicKeyOf,
  RECOVERY_IMPLEMENTATION,
  recoverPublicKeyFrom,
  recoverRemembered,
  rememberRecovered,
  signDigestWithLibsecp256k1,
} from '../../src-main/devnet/vm/secp256k1Recovery.ts';
import { key } from './helpers.ts';
import { vector } from '../vectors.ts';

/**
 * `count` signatures over digests of `label`: a test that counts where signatures are recovered uses a label of its
 * own, as a signature recovered once on this thread is found in the recovery cache afterwards.
 */
function samples(count: number, label = 'message'): { signature: Uint8Array; digest: Uint8Array }[] {
  return Array.from({ length: count }, (_, i) => {
    const digest = sha256(utf8ToBytes(`${label} ${i}`));
    return { signature: signDigest(digest, key(i % 3).privateKey), digest };
  });
}

describe('signature recovery', () => {
  it('starts workers on the other cores, none on one or two cores when recovery runs natively', () => {
    const choices = [1, 2, 3, 4, 16].map((cores) => [
      defaultSignatureThreads(cores, true),
      defaultSignatureThreads(cores, false),
    ]);
    expect(choices).toEqual([
      [0, 1],
      [0, 1],
      [2, 2],
      [2, 2],
      [2, 2],
    ]);
  });

  it('recovers the same keys on workers, on this thread and with the protocol library', async () => {
    const items = samples(40);
    const workers = workerRecoverer(1);
    try {
      const [fromWorkers, fromHere] = await Promise.all([workers.recover(items), inlineRecoverer().recover(items)]);
      expect(fromWorkers).toEqual(fromHere);
      items.forEach((item, i) =>
        expect(fromWorkers[i]).toEqual({ publicKey: recoverPublicKey(item.signature, item.digest) }),
      );
    } finally {
      await workers.close();
    }
  });

  it('answers many concurrent requests in order', async () => {
    const items = samples(60);
    const workers = workerRecoverer(2);
    try {
      const results = await Promise.all(items.map((item) => workers.recover([item])));
      results.forEach((r, i) =>
        expect(r[0]).toEqual({ publicKey: recoverPublicKey(items[i]!.signature, items[i]!.digest) }),
      );
    } finally {
      await workers.close();
    }
  });

  it('recovers a lone signature on this thread while the workers idle, and a burst of concurrent ones on the workers', async () => {
    const items = samples(12, 'lone and burst');
    const expected = items.map((item) => ({ publicKey: recoverPublicKey(item.signature, item.digest) }));
    const workers = workerRecoverer(1, 2);
    try {
      // One submission at a time (a user, a test): each signature alone in its turn, no worker needed.
      for (const [i, item] of items.slice(0, 3).entries()) expect(await workers.recover([item])).toEqual([expected[i]]);
      expect(workers.offloaded).toBe(0);
      // Concurrent submissions arrive in the same turn: they go to a worker as one batch.
      const burst = await Promise.all(items.slice(3).map((item) => workers.recover([item])));
      expect(burst.map((r) => r[0])).toEqual(expected.slice(3));
      expect(workers.offloaded).toBe(9);
    } finally {
      await workers.close();
    }
  });

  it('gives the node texts for a bad length, a high S and an unrecoverable signature', async () => {
    const [{ signature, digest }] = samples(1) as [{ signature: Uint8Array; digest: Uint8Array }];
    expect(signatureFormatError(signature.subarray(0, 64))).toBe('unexpected signature length');
    const highS = Uint8Array.from(signature);
    highS.fill(0xff, 33);
    expect(signatureFormatError(highS)).toBe('signature must be canonical');
    const noPoint = Uint8Array.from(signature);
    noPoint.fill(0, 1, 33); // r = 0 is not a curve x coordinate
    noPoint[32] = 5;
    const workers = workerRecoverer(1);
    try {
      const results = await workers.recover([
        { signature: noPoint, digest },
        { signature: highS, digest },
      ]);
      expect(results[1]).toEqual({ error: 'signature must be canonical' });
      expect(results[0]).toEqual(
        await inlineRecoverer()
          .recover([{ signature: noPoint, digest }])
          .then((r) => r[0]),
      );
    } finally {
      await workers.close();
    }
  });
});

describe('libsecp256k1 recovery (secp256k1Recovery.ts)', () => {
  it('runs natively wherever the secp256k1 package ships a prebuilt binding (CI: Linux x64)', () => {
    // When the binding stops loading, the devnet still works (WebAssembly) at a fifth of the speed: this says so.
    const prebuilds = join(dirname(createRequire(import.meta.url).resolve('secp256k1/package.json')), 'prebuilds');
    const platforms = readdirSync(prebuilds);
    expect(platforms).toContain('linux-x64');
    if (platforms.includes(`${process.platform}-${process.arch}`)) expect(RECOVERY_IMPLEMENTATION).toBe('native');
  });

  it('gives the WebAssembly build’s answer for valid, high-S, zero and out-of-range signatures and both recovery ids', () => {
    const cases: [Uint8Array, Uint8Array, number][] = [];
    for (const { signature, digest } of samples(12)) {
      cases.push([digest, signature.subarray(1), signature[0]! >> 5]);
      cases.push([digest, signature.subarray(1), 1 - (signature[0]! >> 5)]);
    }
    const digest = sha256(utf8ToBytes('edge cases'));
    const ones = new Uint8Array(64).fill(0xff); // r and s beyond the curve order
    const zeros = new Uint8Array(64);
    const highS = samples(1)[0]!.signature.slice(1);
    highS.set(new Uint8Array(32).fill(0xf0), 32);
    for (const compact of [ones, zeros, highS]) for (const id of [0, 1, 2, 3]) cases.push([digest, compact, id]);
    for (const [d, compact, id] of cases) {
      for (const compressed of [true, false]) {
        let expected: Uint8Array | null;
        try {
          expected = wasm.recover(d, compact, id as 0 | 1 | 2 | 3, compressed);
        } catch {
          expected = null;
        }
        expect(recoverPublicKeyFrom(d, compact, id, compressed)).toEqual(expected);
      }
    }
    expect(recoverPublicKeyFrom(digest.subarray(1), highS, 0, true)).toBeNull();
  });

  it('gives the public key of a private key as the protocol library and the WebAssembly build do, and none for 0 or n', () => {
    for (let i = 0; i < 8; i++) {
      const privateKey = sha256(utf8ToBytes(`private key ${i}`));
      expect(publicKeyOf(privateKey)).toEqual(publicKeyFromPrivateKey(privateKey));
      expect(publicKeyOf(privateKey)).toEqual(wasm.pointFromScalar(privateKey, true));
    }
    const n = Uint8Array.from(Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex'));
    for (const invalid of [new Uint8Array(32), n]) expect(() => publicKeyOf(invalid)).toThrow();
  });
});

describe('libsecp256k1 signing of the devnet’s blocks (secp256k1Recovery.ts)', () => {
  it('gives the protocol library’s bytes, and the WebAssembly build’s, for any key and digest', () => {
    for (let i = 0; i < 16; i++) {
      const privateKey = sha256(utf8ToBytes(`block signer ${i}`));
      const digest = sha256(utf8ToBytes(`block ${i}`));
      const signature = signDigestWithLibsecp256k1(digest, privateKey);
      expect(signature).toEqual(signDigest(digest, privateKey));
      const { signature: compact, recoveryId } = wasm.signRecoverable(digest, privateKey);
      expect(signature).toEqual(koinosSignature(recoveryId, compact));
    }
  });

  it('signs the block koilib publishes with koilib’s signature', () => {
    const v = vector('koilib-block-signed');
    const header = fromJson(TYPES.blockHeader, v.header);
    const key1 = fromHex(vector('koilib-key-1').private_key_hex);
    const block = signBlock(
      { id: new Uint8Array(0), header, transactions: [], signature: new Uint8Array(0) },
      key1,
      signDigestWithLibsecp256k1,
    );
    expect(`0x${toHex(block.id)}`).toBe(v.block_id);
    expect(toBase64Url(block.signature)).toBe(v.signature);
  });

  it('refuses a key of 0 or n and a digest that is not 32 bytes', () => {
    const n = Uint8Array.from(Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex'));
    const digest = sha256(utf8ToBytes('block'));
    for (const invalid of [new Uint8Array(32), n]) expect(() => signDigestWithLibsecp256k1(digest, invalid)).toThrow();
    expect(() => signDigestWithLibsecp256k1(digest.subarray(1), key(0).privateKey)).toThrow(/32/);
  });
});

describe('the cache of recovered keys', () => {
  it('answers only for the same signature, digest and form', async () => {
    const [{ signature, digest }] = samples(1, 'cache') as [{ signature: Uint8Array; digest: Uint8Array }];
    expect(knownRecovered(signature, digest, true)).toBeUndefined();
    const [result] = await inlineRecoverer().recover([{ signature, digest }]);
    expect(knownRecovered(signature, digest, true)).toEqual((result as { publicKey: Uint8Array }).publicKey);
    expect(knownRecovered(signature, digest, false)).toBeUndefined();
    expect(knownRecovered(signature, sha256(digest), true)).toBeUndefined();
  });

  it('is read before recovering, and filled by a recovery', () => {
    type Sample = { signature: Uint8Array; digest: Uint8Array };
    const [first, second] = samples(2, 'read or recover') as [Sample, Sample];
    // A key remembered for the pair is answered as it is, without recovering (a recovery would give the real key).
    const remembered = new Uint8Array(33).fill(2);
    rememberRecovered(first.signature, first.digest, true, remembered);
    expect(recoverRemembered(first.signature, first.digest, true)).toEqual(remembered);
    // An unknown pair is recovered, in the form asked for, and remembered for the next check.
    const { signature, digest } = second;
    const compressed = recoverRemembered(signature, digest, true);
    expect(compressed).toEqual(recoverPublicKey(signature, digest));
    expect(knownRecovered(signature, digest, true)).toEqual(compressed);
    expect(knownRecovered(signature, digest, false)).toBeUndefined();
    const uncompressed = recoverRemembered(signature, digest, false);
    expect(uncompressed).toHaveLength(65);
    expect(knownRecovered(signature, digest, false)).toEqual(uncompressed);
  });

  it('keeps pairs of other lengths apart, even when their bytes run on alike', () => {
    const [{ signature, digest }] = samples(1, 'cache lengths') as [{ signature: Uint8Array; digest: Uint8Array }];
    // A contract's recover_public_key may pass any lengths: 66 bytes and 31 make the same run of bytes as 65 and 32.
    const longer = Uint8Array.from([...signature, digest[0]!]);
    rememberRecovered(longer, digest.subarray(1), true, null);
    expect(knownRecovered(longer, digest.subarray(1), true)).toBeNull();
    expect(knownRecovered(signature, digest, true)).toBeUndefined();
  });
});
