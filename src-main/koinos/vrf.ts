// The verifiable random function of Koinos: ECVRF-SECP256K1-SHA256-TAI as libsecp256k1-vrf (Aergo's module, suite
// 0xFE "for compatibility with witnet/vrf-rs") implements it and koinos-crypto-cpp calls it (verify_random_proof /
// generate_random_proof). Pure: no node:*, no electron. Reimplemented with @noble/secp256k1 and @noble/hashes.
import * as secp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { assertBytes, concatBytes, equalBytes } from './bytes.ts';
import { WalletError } from './errors.ts';

/** Length of a proof: Gamma (33-byte compressed point) || c (16 bytes) || s (32 bytes). */
export const VRF_PROOF_LENGTH = 81;
// libsecp256k1-vrf's suite byte. Unlike RFC 9381, no domain-separator byte 0x00 ends any of the hashed strings.
const SUITE = 0xfe;
const N = secp.Point.CURVE().n;
const COMPRESSED_LENGTH = 33;

function bytesToBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

function bigIntTo32(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = value;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** secp256k1_eckey_pubkey_parse with 33 bytes: a compressed point (02/03 prefix, x on the curve), else null. */
function parseCompressed(bytes: Uint8Array): secp.Point | null {
  if (bytes.length !== COMPRESSED_LENGTH || (bytes[0] !== 0x02 && bytes[0] !== 0x03)) return null;
  try {
    return secp.Point.fromBytes(bytes);
  } catch {
    return null;
  }
}

/**
 * vrf_hash_to_curve_tai: sha256(0xFE || 0x01 || compressed Y || alpha || ctr) for ctr = 0, 1, … (one byte, appended
 * after the message), read as the x coordinate of a point with even y (prefix 0x02), until that x is on the curve.
 */
function hashToCurve(publicKey: Uint8Array, alpha: Uint8Array): secp.Point {
  const input = concatBytes(Uint8Array.of(SUITE, 0x01), publicKey, alpha, Uint8Array.of(0));
  for (let ctr = 0; ; ctr = (ctr + 1) & 0xff) {
    input[input.length - 1] = ctr;
    const point = parseCompressed(concatBytes(Uint8Array.of(0x02), sha256(input)));
    if (point) return point;
  }
}

/** vrf_hash_points: the first 16 bytes of sha256(0xFE || 0x02 || H || Gamma || U || V), points compressed. */
function hashPoints(...points: secp.Point[]): Uint8Array {
  return sha256(concatBytes(Uint8Array.of(SUITE, 0x02), ...points.map((p) => p.toBytes(true)))).subarray(0, 16);
}

/** secp256k1_vrf_proof_to_hash: beta = sha256(0xFE || 0x03 || Gamma) (the cofactor of secp256k1 is 1). */
function outputOf(gamma: Uint8Array): Uint8Array {
  return sha256(concatBytes(Uint8Array.of(SUITE, 0x03), gamma));
}

/**
 * Verifies a VRF proof of `message` under a compressed public key and answers its output (beta, 32 bytes), or null
 * when the proof does not verify: secp256k1_vrf_verify, including its answer for a proof that is not 81 bytes, a key
 * or Gamma that is not a compressed curve point, and scalars out of range (libsecp256k1-vrf leaves those points
 * unset; here they make the proof invalid).
 * @throws WalletError INVALID_BYTES when an argument is not a Uint8Array.
 * @example
 * const output = vrfVerify(publicKey, proof, new TextEncoder().encode('sample'));
 * if (!output) throw new Error('invalid proof');
 */
export function vrfVerify(publicKey: Uint8Array, proof: Uint8Array, message: Uint8Array): Uint8Array | null {
  assertBytes(publicKey, undefined, 'a public key');
  assertBytes(proof, undefined, 'a VRF proof');
  assertBytes(message, undefined, 'a message');
  if (proof.length !== VRF_PROOF_LENGTH) return null;
  const y = parseCompressed(publicKey);
  const gammaBytes = proof.subarray(0, 33);
  const gamma = parseCompressed(gammaBytes);
  if (!y || !gamma) return null;
  const cBytes = proof.subarray(33, 49);
  const c = bytesToBigInt(cBytes);
  const s = bytesToBigInt(proof.subarray(49, 81));
  if (c === 0n || s === 0n || s >= N) return null;
  const h = hashToCurve(publicKey, message);
  // U = s*B - c*Y, V = s*H - c*Gamma; public data, so the variable-time multiplication is fine.
  const u = secp.Point.BASE.multiplyUnsafe(s).subtract(y.multiplyUnsafe(c));
  const v = h.multiplyUnsafe(s).subtract(gamma.multiplyUnsafe(c));
  if (u.is0() || v.is0()) return null;
  if (!equalBytes(hashPoints(h, gamma, u, v), cBytes)) return null;
  return outputOf(gammaBytes);
}

/**
 * secp256k1's nonce_function_rfc6979 (no extra data, no algorithm tag): HMAC-SHA256 DRBG seeded with key || msg32,
 * the first output in 1..n-1.
 */
function rfc6979Nonce(secret: Uint8Array, msg32: Uint8Array): bigint {
  const mac = (key: Uint8Array, ...parts: Uint8Array[]): Uint8Array => hmac(sha256, key, concatBytes(...parts));
  // libsecp256k1 reduces the message modulo n before seeding.
  const seed = concatBytes(secret, bigIntTo32(bytesToBigInt(msg32) % N));
  let k: Uint8Array = new Uint8Array(32);
  let v: Uint8Array = new Uint8Array(32).fill(1);
  k = mac(k, v, Uint8Array.of(0), seed);
  v = mac(k, v);
  k = mac(k, v, Uint8Array.of(1), seed);
  v = mac(k, v);
  for (;;) {
    v = mac(k, v);
    const candidate = bytesToBigInt(v);
    if (candidate > 0n && candidate < N) return candidate;
    k = mac(k, v, Uint8Array.of(0));
    v = mac(k, v);
  }
}

/**
 * Proves `message` with a private key as koinos-crypto-cpp's generate_random_proof does (secp256k1_vrf_prove, with
 * its deterministic RFC 6979 nonce over sha256(H)), for tests and tools: the 81-byte proof and its output (beta).
 * @throws WalletError INVALID_PRIVATE_KEY unless the key is 32 bytes in 1..n-1.
 * @example
 * const { proof, output } = vrfProve(privateKey, new TextEncoder().encode('sample'));
 */
export function vrfProve(privateKey: Uint8Array, message: Uint8Array): { proof: Uint8Array; output: Uint8Array } {
  assertBytes(message, undefined, 'a message');
  if (!(privateKey instanceof Uint8Array) || privateKey.length !== 32 || !secp.utils.isValidSecretKey(privateKey)) {
    throw new WalletError('INVALID_PRIVATE_KEY', 'expected a private key of 32 bytes in 1..n-1 to prove a VRF message');
  }
  const x = bytesToBigInt(privateKey);
  const publicKey = secp.Point.BASE.multiply(x).toBytes(true);
  const h = hashToCurve(publicKey, message);
  const hBytes = h.toBytes(true);
  const k = rfc6979Nonce(privateKey, sha256(hBytes));
  const gamma = h.multiply(x).toBytes(true);
  const c = hashPoints(h, secp.Point.fromBytes(gamma), secp.Point.BASE.multiply(k), h.multiply(k));
  const s = (bytesToBigInt(c) * x + k) % N;
  const proof = concatBytes(gamma, c, bigIntTo32(s));
  return { proof, output: outputOf(gamma) };
}
