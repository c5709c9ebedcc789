// Benchmark: raw secp256k1 signing against complete KOIN transfers built and signed by the protocol library.
// Goal (issue 2): the library's transfer signing reaches at least 80% of the raw sign rate.
import * as secp from '@noble/secp256k1';
import { sha256 } from '../../src-main/koinos/hash.ts';
import { utf8ToBytes } from '../../src-main/koinos/bytes.ts';
import { addressFromPublicKey } from '../../src-main/koinos/address.ts';
import { publicKeyFromPrivateKey, signDigest } from '../../src-main/koinos/keys.ts';
import { koinOperation } from '../../src-main/koinos/koin.ts';
import { encode } from '../../src-main/koinos/codec.ts';
import { nonceToBytes, signTransaction } from '../../src-main/koinos/transaction.ts';
import { TYPES, type Transaction } from '../../src-main/koinos/types.ts';

/** Runs `fn` repeatedly for about `ms` and returns operations per second. */
export function rate(fn: (i: number) => void, ms = 2000): number {
  for (let i = 0; i < 50; i++) fn(i); // warm up the JIT and noble's precomputed tables
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) {
    for (let k = 0; k < 20; k++) fn(n++);
  }
  return n / ((performance.now() - start) / 1000);
}

export function benchSigning(): { rawSignsPerSec: number; transfersPerSec: number; ratio: number } {
  const priv = sha256(utf8ToBytes('benchmark key'));
  const from = addressFromPublicKey(publicKeyFromPrivateKey(priv));
  const to = addressFromPublicKey(publicKeyFromPrivateKey(sha256(utf8ToBytes('receiver'))));
  const koin = addressFromPublicKey(publicKeyFromPrivateKey(sha256(utf8ToBytes('koin'))));
  const chainId = new Uint8Array([0x12, 0x20, ...sha256(utf8ToBytes('chain'))]);
  const digests = Array.from({ length: 256 }, (_, i) => sha256(new Uint8Array([i, i >> 8])));

  const rawSignsPerSec = rate((i) => {
    signDigest(digests[i & 255]!, priv);
  });
  // The raw figure without the library's wrapper too, so a slow wrapper would show.
  const nobleSignsPerSec = rate((i) => {
    secp.sign(digests[i & 255]!, priv, { prehash: false, format: 'recovered' });
  });

  const transfersPerSec = rate((i) => {
    const tx: Transaction = {
      id: new Uint8Array(0),
      header: {
        chain_id: chainId,
        rc_limit: 10_000_000n,
        nonce: nonceToBytes(BigInt(i + 1)),
        operation_merkle_root: new Uint8Array(0),
        payer: from,
        payee: new Uint8Array(0),
      },
      operations: [koinOperation(koin, 'transfer', { from, to, value: BigInt(1000 + i) })],
      signatures: [],
    };
    encode(TYPES.transaction, signTransaction(tx, priv));
  });

  const raw = Math.max(rawSignsPerSec, nobleSignsPerSec);
  return { rawSignsPerSec: raw, transfersPerSec, ratio: transfersPerSec / raw };
}
