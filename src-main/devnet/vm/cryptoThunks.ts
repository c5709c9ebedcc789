// The cryptography system calls: hash (the five multicodecs the chain knows, charged per algorithm), recover_public_key
// (Koinos compact signatures over a sha256 multihash), verify_merkle_root and verify_vrf_proof, with the chain's errors.
import * as ecc from 'tiny-secp256k1';
import { sha1, ripemd160 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import { isCanonicalSignature } from '../../koinos/keys.ts';
import { vrfVerify } from '../../koinos/vrf.ts';
import { recoverRemembered } from './secp256k1Recovery.ts';
import type { ComputeName } from './computeRegistry.ts';
import { HOST_ERROR, type ExecutionContext } from './executionContext.ts';

const EMPTY = new Uint8Array(0);

/** secp256k1_ec_pubkey_parse of 33 bytes, as public_key::deserialize does it. */
function isValidCompressedKey(bytes: Uint8Array): boolean {
  return bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03) && ecc.isPoint(bytes);
}

interface HashAlgorithm {
  digest(data: Uint8Array): Uint8Array;
  base: ComputeName;
  perByte: ComputeName;
}

/** system_calls.cpp validate_hash_code / hash_compute_keys, by multicodec. */
const HASHES = new Map<bigint, HashAlgorithm>([
  [0x11n, { digest: sha1, base: 'sha1_base', perByte: 'sha1_per_byte' }],
  [0x12n, { digest: sha256, base: 'sha2_256_base', perByte: 'sha2_256_per_byte' }],
  [0x13n, { digest: sha512, base: 'sha2_512_base', perByte: 'sha2_512_per_byte' }],
  [0x1bn, { digest: keccak_256, base: 'keccak_256_base', perByte: 'keccak_256_per_byte' }],
  [0x1053n, { digest: ripemd160, base: 'ripemd_160_base', perByte: 'ripemd_160_per_byte' }],
]);

function varint(value: bigint): number[] {
  const out: number[] = [];
  let v = value;
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

/** A multihash as koinos serializes it: varint code, varint size, digest. */
function multihash(code: bigint, digest: Uint8Array): Uint8Array {
  return Uint8Array.from([...varint(code), ...varint(BigInt(digest.length)), ...digest]);
}

/** The digest of a serialized multihash (code and size varints, then the digest). */
function multihashDigest(bytes: Uint8Array): Uint8Array {
  let i = 0;
  const skip = (): number => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[i++];
      if (b === undefined) throw new ChainError(ERROR_CODE.failure, 'malformed multihash');
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 128;
    }
  };
  skip();
  const size = skip();
  if (i + size > bytes.length) throw new ChainError(ERROR_CODE.failure, 'malformed multihash');
  return bytes.subarray(i, i + size);
}

export function hash(
  ctx: ExecutionContext,
  args: { code?: bigint; obj?: Uint8Array; size?: bigint },
): { value: Uint8Array } {
  const code = args.code ?? 0n;
  const algorithm = HASHES.get(code);
  if (!algorithm) throw new ChainError(HOST_ERROR.unknown_hash_code, 'unknown hash code');
  const obj = args.obj ?? new Uint8Array(0);
  ctx.useCompute(ctx.compute(algorithm.base) + ctx.compute(algorithm.perByte) * obj.length);
  const full = algorithm.digest(obj);
  const size = Number(args.size ?? 0n);
  const digest = size > 0 && size < full.length ? full.subarray(0, size) : full;
  return { value: multihash(code, digest) };
}

export function recoverPublicKeyThunk(
  ctx: ExecutionContext,
  args: { type?: number; signature?: Uint8Array; digest?: Uint8Array; compressed?: boolean },
): { value: Uint8Array } {
  void ctx;
  if ((args.type ?? 0) !== 0) throw new ChainError(HOST_ERROR.unknown_dsa, 'unexpected dsa');
  const signature = args.signature ?? new Uint8Array(0);
  if (signature.length !== 65) throw new ChainError(ERROR_CODE.invalid_signature, 'unexpected signature length');
  if (!isCanonicalSignature(signature))
    throw new ChainError(ERROR_CODE.invalid_signature, 'signature must be canonical');
  const digest = multihashDigest(args.digest ?? new Uint8Array(0));
  // libsecp256k1 (secp256k1Recovery.ts, as the devnet's signature checks): a host call must be synchronous.
  // check_authority recovers a transaction's signatures over its id digest, which the node recovered when the
  // transaction came (chain/signatures.ts): found in the shared cache. The compute charged is unchanged.
  const key = recoverRemembered(signature, digest, args.compressed === true);
  if (!key) throw new ChainError(ERROR_CODE.invalid_signature, 'public key is invalid');
  return { value: key };
}

/** A serialized multihash: its code and digest (koinos util converter to<multihash>). */
function parseMultihash(bytes: Uint8Array): { code: bigint; digest: Uint8Array } {
  let i = 0;
  const read = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = bytes[i++];
      if (b === undefined || shift > 63n) throw new ChainError(ERROR_CODE.failure, 'malformed multihash');
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
      shift += 7n;
    }
  };
  const code = read();
  const size = Number(read());
  if (i + size > bytes.length) throw new ChainError(ERROR_CODE.failure, 'malformed multihash');
  return { code, digest: bytes.subarray(i, i + size) };
}

/** koinos-chain system_calls.cpp hashes_per_leaves: the hashes a merkle tree over `leaves` leaves computes. */
function hashesPerLeaves(leaves: number): number {
  if (leaves <= 2) return 1;
  const even = Math.ceil(leaves / 2) * 2;
  if ((even & (even - 1)) === 0) return even - 1;
  return even / 2 + hashesPerLeaves(even / 2);
}

/**
 * verify_merkle_root: charged for deserializing every multihash and for the tree's hashes, then the root of the
 * leaves (koinos-crypto merkle_tree: pairs of digests hashed left to right, an odd last node carried up, no leaves
 * the hash of nothing) compared with `root`.
 */
export function verifyMerkleRoot(
  ctx: ExecutionContext,
  args: { root?: Uint8Array; hashes?: Uint8Array[] },
): { value: boolean } {
  const rootBytes = args.root ?? new Uint8Array(0);
  const hashes = args.hashes ?? [];
  ctx.useCompute(
    (hashes.length + 1) *
      (ctx.compute('deserialize_multihash_base') + rootBytes.length * ctx.compute('deserialize_multihash_per_byte')),
  );
  const root = parseMultihash(rootBytes);
  const algorithm = HASHES.get(root.code);
  if (!algorithm) throw new ChainError(HOST_ERROR.unknown_hash_code, 'unknown hash code');
  ctx.useCompute(
    hashesPerLeaves(hashes.length) *
      (ctx.compute(algorithm.base) + 2 * root.digest.length * ctx.compute(algorithm.perByte)),
  );
  const size = root.digest.length;
  // Inner nodes and the empty tree are full-size digests (crypto::hash with the default size).
  const digestOf = (data: Uint8Array): Uint8Array => algorithm.digest(data);
  let level = hashes.map((bytes) => {
    const leaf = parseMultihash(bytes);
    if (leaf.code !== root.code)
      throw new ChainError(HOST_ERROR.unknown_hash_code, 'leaf and merkle root hash codes do not match');
    if (leaf.digest.length !== size)
      throw new ChainError(HOST_ERROR.unknown_hash_code, 'leaf and merkle root hash sizes do not match');
    return leaf.digest;
  });
  if (level.length === 0) level = [digestOf(new Uint8Array(0))];
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const right = level[i + 1];
      next.push(right ? digestOf(Uint8Array.from([...level[i]!, ...right])) : level[i]!);
    }
    level = next;
  }
  const computed = level[0]!;
  return { value: computed.length === size && computed.every((b, i) => b === root.digest[i]) };
}

/**
 * koinos util converter to<multihash> as verify_vrf_proof reads `hash`: the code and size varints, then `size` bytes
 * (a short read leaves zeros); nothing is refused, a malformed hash simply does not equal the proof's.
 */
function isSha256MultihashOf(bytes: Uint8Array, digest: Uint8Array): boolean {
  let i = 0;
  const read = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = bytes[i++];
      if (b === undefined) return v;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80 || shift > 63n) return v;
      shift += 7n;
    }
  };
  if (read() !== 0x12n || read() !== BigInt(digest.length)) return false;
  return digest.every((b, j) => (bytes[i + j] ?? 0) === b);
}

/**
 * verify_vrf_proof (system_calls.cpp): the dsa must be secp256k1; the public key is read as 33 compressed bytes (a
 * key that does not parse is koinos-crypto's key_serialization_error, code 1); then public_key::verify_random_proof
 * (libsecp256k1-vrf, vrf.ts) and its output compared with `hash` as a sha2-256 multihash. A proof that does not verify,
 * including one that is not 81 bytes ("proof must be 81 bytes"), is a vrf_validation_error the chain catches: false.
 */
export function verifyVrfProof(
  ctx: ExecutionContext,
  args: { type?: number; public_key?: Uint8Array; proof?: Uint8Array; hash?: Uint8Array; message?: Uint8Array },
): { value: boolean } {
  void ctx;
  if ((args.type ?? 0) !== 0) throw new ChainError(HOST_ERROR.unknown_dsa, 'unexpected dsa');
  const publicKey = (args.public_key ?? EMPTY).subarray(0, 33);
  if (!isValidCompressedKey(publicKey))
    throw new ChainError(ERROR_CODE.reversion, 'unknown error during public key deserialization');
  const output = vrfVerify(publicKey, args.proof ?? EMPTY, args.message ?? EMPTY);
  return { value: output !== null && isSha256MultihashOf(args.hash ?? EMPTY, output) };
}
