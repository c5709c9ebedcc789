// Public-key recovery for the devnet's signature checks (submissions, blocks, the recover_public_key system call), the
// public keys of its development keys and the signatures of its blocks: libsecp256k1, the library koinos-chain links,
// run natively through the `secp256k1` package's prebuilt N-API binding when it loads here, and compiled to
// WebAssembly (tiny-secp256k1) when it does not (another platform, a packaged app whose native files were left out).
// Same library, same answers; natively it is about five times faster (22,000 against 4,200 recoveries a second on one
// core of the benchmark machine), and recovery is what bounds the devnet's throughput.
import { createRequire } from 'node:module';
import * as wasm from 'tiny-secp256k1';
import { koinosSignature } from '../../koinos/keys.ts';

/** The recovered public key (compressed: 33 bytes, else 65), or null when the signature recovers no valid key. */
export type RecoverFunction = (
  digest: Uint8Array,
  compactSignature: Uint8Array,
  recoveryId: number,
  compressed: boolean,
) => Uint8Array | null;

/** The part of the `secp256k1` package's API used here (secp256k1/lib/index.js). */
interface NativeSecp256k1 {
  ecdsaRecover(signature: Uint8Array, recoveryId: number, digest: Uint8Array, compressed: boolean): Uint8Array;
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  ecdsaSign(digest: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
}

const requireModule = createRequire(import.meta.url);

/**
 * Where each implementation's module is, for the worker threads that load them by path (signatures.ts): the native
 * binding's entry (`secp256k1/bindings`, which throws when the binary cannot load, where the package's main entry
 * would fall back to a slow pure-JavaScript curve) and tiny-secp256k1.
 */
export const RECOVERY_MODULES = {
  native: resolveOrUndefined('secp256k1/bindings'),
  wasm: requireModule.resolve('tiny-secp256k1'),
};

function resolveOrUndefined(specifier: string): string | undefined {
  try {
    return requireModule.resolve(specifier);
  } catch {
    return undefined;
  }
}

function loadNative(): NativeSecp256k1 | undefined {
  if (RECOVERY_MODULES.native === undefined) return undefined;
  try {
    return requireModule(RECOVERY_MODULES.native) as NativeSecp256k1;
  } catch {
    return undefined;
  }
}

const native = loadNative();

/** Which implementation recovers on this thread: 'native' (libsecp256k1 as a binary) or 'wasm'. */
export const RECOVERY_IMPLEMENTATION: 'native' | 'wasm' = native ? 'native' : 'wasm';

/** The loaded implementation's recovery; it throws for a signature that recovers no valid key. */
const recoverOrThrow: RecoverFunction = native
  ? (digest, compactSignature, recoveryId, compressed) =>
      native.ecdsaRecover(compactSignature, recoveryId, digest, compressed)
  : (digest, compactSignature, recoveryId, compressed) =>
      wasm.recover(digest, compactSignature, recoveryId as 0 | 1 | 2 | 3, compressed);

/**
 * libsecp256k1's ecdsa_recover over a 32-byte digest and a 64-byte compact signature (r, s) with its recovery id.
 * @example
 * const key = recoverPublicKeyFrom(digest, signature.subarray(1), signature[0]! >> 5, true);
 */
export const recoverPublicKeyFrom: RecoverFunction = (digest, compactSignature, recoveryId, compressed) => {
  if (digest.length !== 32 || compactSignature.length !== 64 || recoveryId < 0 || recoveryId > 3) return null;
  try {
    return recoverOrThrow(digest, compactSignature, recoveryId, compressed);
  } catch {
    return null;
  }
};

/**
 * The compressed public key (33 bytes) of a private key: 30 µs natively, where node:crypto's OpenSSL takes ~480 and a
 * JavaScript curve first builds its tables in each new thread.
 * @throws Error for a key outside 1..n-1.
 */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  if (native) return native.publicKeyCreate(privateKey, true);
  const key = wasm.pointFromScalar(privateKey, true);
  if (!key) throw new Error('expected a private key in 1..n-1');
  return key;
}

/**
 * Signs a 32-byte digest with the same bytes as the protocol library's signDigest (RFC 6979, low-S, header
 * recovery id + 31), through libsecp256k1: the devnet signs every block it produces with it. Natively ~60 µs, where
 * the JavaScript curve takes ~600 µs and first spends 70-90 ms building its tables in each new thread, and each devnet
 * has a thread of its own.
 * @throws Error for a digest of another length than 32 bytes or a key outside 1..n-1.
 */
export function signDigestWithLibsecp256k1(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  if (native) {
    const { signature, recid } = native.ecdsaSign(digest, privateKey);
    return koinosSignature(recid, signature);
  }
  const { signature, recoveryId } = wasm.signRecoverable(digest, privateKey);
  return koinosSignature(recoveryId, signature);
}

// ---------------------------------------------------------------------------------------------------------------
// Keys recovered already

/**
 * Recovered keys by signature, digest and form, on this thread: recovery is a pure function and the costliest check a
 * node makes. The node's signature checks (chain/signatures.ts) fill it and read it, and so does the recover_public_key
 * system call, so that a contract's check_authority finds the keys of the transaction's signatures. The oldest entry
 * goes when it is full.
 */
const recovered = new Map<string, Uint8Array | null>();
const RECOVERED_CACHE_SIZE = 4096;
const PAIR_SCRATCH = Buffer.allocUnsafeSlow(256);

/**
 * The cache key: the signature's length, the signature, the digest and the form as one latin1 text; null when the pair
 * is longer than any real one. The length comes first so that no two pairs share a key: a contract's recover_public_key
 * may pass bytes of any length, and a 66-byte signature with a 31-byte digest must not answer for a 65 and a 32.
 */
function pairText(signature: Uint8Array, digest: Uint8Array, compressed: boolean): string | null {
  const size = 1 + signature.length + digest.length + 1;
  if (size > PAIR_SCRATCH.length) return null;
  PAIR_SCRATCH[0] = signature.length;
  PAIR_SCRATCH.set(signature, 1);
  PAIR_SCRATCH.set(digest, 1 + signature.length);
  PAIR_SCRATCH[size - 1] = compressed ? 1 : 0;
  return PAIR_SCRATCH.toString('latin1', 0, size);
}

/** Remembers what `signature` over `digest` recovers to (`null`: no valid key). */
export function rememberRecovered(
  signature: Uint8Array,
  digest: Uint8Array,
  compressed: boolean,
  key: Uint8Array | null,
): void {
  const text = pairText(signature, digest, compressed);
  if (text !== null) remember(text, key);
}

function remember(text: string, key: Uint8Array | null): void {
  if (recovered.size >= RECOVERED_CACHE_SIZE) recovered.delete(recovered.keys().next().value!);
  recovered.set(text, key);
}

/**
 * The key `signature` (65 bytes, header first) over `digest` recovers to, from the cache when it was recovered here
 * already, else recovered now and remembered: what the node's signature checks and the recover_public_key system call
 * both do. `null` when it recovers no valid key.
 * @example
 * const key = recoverRemembered(signature, digest, true); // the 33-byte compressed public key
 */
export function recoverRemembered(signature: Uint8Array, digest: Uint8Array, compressed: boolean): Uint8Array | null {
  const text = pairText(signature, digest, compressed);
  const known = text === null ? undefined : recovered.get(text);
  if (known !== undefined) return known;
  const key = recoverSignature(signature, digest, compressed);
  if (text !== null) remember(text, key);
  return key;
}

/**
 * The key `signature` (65 bytes, header first) over `digest` recovers to, without the cache: for a batch whose keys
 * the caller remembers itself (the signature workers' fallback). `null` when it recovers no valid key.
 */
export function recoverSignature(signature: Uint8Array, digest: Uint8Array, compressed: boolean): Uint8Array | null {
  // Header = recovery id + 31; the node reads the recovery id as header >> 5 (keys.ts recoverPublicKey).
  return recoverPublicKeyFrom(digest, signature.subarray(1), signature[0]! >> 5, compressed);
}

/** What `signature` over `digest` was found to recover to, or undefined when it was not recovered here yet. */
export function knownRecovered(
  signature: Uint8Array,
  digest: Uint8Array,
  compressed: boolean,
): Uint8Array | null | undefined {
  const text = pairText(signature, digest, compressed);
  return text === null ? undefined : recovered.get(text);
}
