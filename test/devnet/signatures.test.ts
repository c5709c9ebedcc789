// Signature recovery of the devnet: worker threads and the calling thread agree with the protocol library's
// recovery, and both give the node's error texts for malformed signatures.
import { describe, expect, it } from 'vitest';
import { utf8ToBytes } from '../../src-main/koinos/bytes.ts';
import { sha256 } from '../../src-main/koinos/hash.ts';
import { recoverPublicKey, signDigest } from '../../src-main/koinos/keys.ts';
import { inlineRecoverer, signatureFormatError, workerRecoverer } from '../../src-main/devnet/chain/signatures.ts';
import { key } from './helpers.ts';

function samples(count: number): { signature: Uint8Array; digest: Uint8Array }[] {
  return Array.from({ length: count }, (_, i) => {
    const digest = sha256(utf8ToBytes(`message ${i}`));
    return { signature: signDigest(digest, key(i % 3).privateKey), digest };
  });
}

describe('signature recovery', () => {
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
