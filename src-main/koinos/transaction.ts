// Transactions and blocks: nonce encoding, merkle roots, ids, signing, signer recovery and the checks a node
// makes on the content (id and merkle root match), plus the JSON and base64 forms wallets exchange.
import { decode, encode, fromJson, toJson, type JsonObject } from './codec.ts';
import { concatAll, equalBytes, fromBase64, toBase64Url, toHex } from './bytes.ts';
import { WalletError, describe } from './errors.ts';
import { digestOfMultihash, multihashSha256, sha256 } from './hash.ts';
import { addressToString } from './address.ts';
import { recoverAddress, signDigest } from './keys.ts';
import { assertReadyToSign } from './signingChecks.ts';
import {
  TYPES,
  type Block,
  type BlockHeader,
  type Operation,
  type Transaction,
  type TransactionHeader,
} from './types.ts';

/**
 * `header.nonce` bytes: a serialized `koinos.chain.value_type{uint64_value: n}` (0 → `28 00`, 1 → `28 01`).
 * @example toBase64Url(nonceToBytes(1n)) // 'KAE='
 */
export function nonceToBytes(nonce: bigint): Uint8Array {
  return encode(TYPES.valueType, { uint64_value: nonce });
}

/**
 * The nonce a `header.nonce` (or `chain.get_account_nonce` result) holds.
 * @throws WalletError INVALID_TRANSACTION when the bytes are not a value_type with uint64_value, as the node requires.
 */
export function nonceFromBytes(bytes: Uint8Array): bigint {
  let value: { uint64_value?: bigint };
  try {
    value = decode(TYPES.valueType, bytes);
  } catch (cause) {
    throw new WalletError(
      'INVALID_TRANSACTION',
      `expected the nonce as a serialized value_type, got ${bytes.length} bytes that do not decode`,
      { cause },
    );
  }
  if (value.uint64_value === undefined) {
    throw new WalletError(
      'INVALID_TRANSACTION',
      `expected the nonce as a value_type with uint64_value (bytes 28 ...), got bytes ${toHex(bytes)}: nonce did not contain uint64 value`,
    );
  }
  return value.uint64_value;
}

/**
 * Merkle root over 32-byte digests: pairs hashed left to right, an odd last node carried up unchanged,
 * the empty list giving sha256 of nothing. Returns the raw 32-byte root. `hash` is the sha256 to use (the devnet passes
 * node:crypto's, which is faster on its hot paths; the default runs in the renderer too).
 */
export function merkleRoot(leaves: Uint8Array[], hash: (data: Uint8Array) => Uint8Array = sha256): Uint8Array {
  if (leaves.length === 0) return hash(new Uint8Array(0));
  let level = leaves;
  const pair = new Uint8Array(64);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      if (i + 1 === level.length) {
        next.push(level[i]!);
        continue;
      }
      pair.set(level[i]!, 0);
      pair.set(level[i + 1]!, 32);
      next.push(hash(pair));
    }
    level = next;
  }
  return level[0]!;
}

/** The operation merkle root multihash (`12 20` + root) of a transaction's operations. */
export function operationMerkleRoot(operations: Operation[]): Uint8Array {
  return multihashSha256(merkleRoot(operations.map((op) => sha256(encode(TYPES.operation, op)))));
}

/** Canonical bytes of a transaction header. */
export function headerBytes(header: TransactionHeader): Uint8Array {
  return encode(TYPES.transactionHeader, header);
}

/** Transaction id: multihash sha256 of the canonical header bytes (`0x1220...` in JSON). */
export function transactionId(header: TransactionHeader): Uint8Array {
  return multihashSha256(sha256(headerBytes(header)));
}

function requireHeader(tx: Transaction): TransactionHeader {
  if (!tx.header) throw new WalletError('INVALID_TRANSACTION', 'expected a transaction with a header, got one without');
  return tx.header;
}

/** Fills `operation_merkle_root` from the operations and `id` from the header; returns a new transaction. */
export function prepareTransaction(tx: Transaction): Transaction {
  const header = { ...requireHeader(tx), operation_merkle_root: operationMerkleRoot(tx.operations) };
  return { ...tx, header, id: transactionId(header) };
}

/**
 * Computes merkle root and id from the content and appends the signature of `privateKey` over the id digest, after
 * {@link assertReadyToSign} has found nothing missing or mistyped.
 * @throws WalletError INVALID_TRANSACTION when chain_id, nonce, rc_limit or payer is missing, an address is invalid, or
 *   a KOIN/VHP transfer lacks from, to or value (see assertReadyToSign).
 * @example
 * const signed = signTransaction(tx, privateKey); // signed.signatures.length === tx.signatures.length + 1
 */
export function signTransaction(tx: Transaction, privateKey: Uint8Array): Transaction {
  assertReadyToSign(tx);
  const prepared = prepareTransaction(tx);
  const signature = signDigest(digestOfMultihash(prepared.id), privateKey);
  return { ...prepared, signatures: [...prepared.signatures, signature] };
}

export interface SignerResult {
  /** The base58 address recovered from the signature, or undefined when it does not recover. */
  address?: string;
  error?: string;
}

/** Recovers the address behind each signature from the transaction's id digest (computed from the header). */
export function recoverSigners(tx: Transaction): SignerResult[] {
  const digest = sha256(headerBytes(requireHeader(tx)));
  return tx.signatures.map((sig) => {
    try {
      return { address: addressToString(recoverAddress(sig, digest)) };
    } catch (e) {
      return { error: e instanceof WalletError ? e.shortMessage : 'signature does not recover' };
    }
  });
}

export interface TransactionCheck {
  computedId: Uint8Array;
  idMatches: boolean;
  computedMerkleRoot: Uint8Array;
  merkleRootMatches: boolean;
  signers: SignerResult[];
}

/** What a node would check of the content: the id and the merkle root against the content, and who signed. */
export function checkTransaction(tx: Transaction): TransactionCheck {
  const header = requireHeader(tx);
  const computedId = transactionId(header);
  const computedMerkleRoot = operationMerkleRoot(tx.operations);
  return {
    computedId,
    idMatches: equalBytes(computedId, tx.id),
    computedMerkleRoot,
    merkleRootMatches: equalBytes(computedMerkleRoot, header.operation_merkle_root),
    signers: recoverSigners(tx),
  };
}

/** The transaction's full protobuf bytes as URL-safe base64 (the form koinos-cli exchanges). */
export function transactionToBase64(tx: Transaction): string {
  return toBase64Url(encode(TYPES.transaction, tx));
}

/** @throws WalletError INVALID_TRANSACTION when the text is not base64 of a transaction's protobuf bytes. */
export function transactionFromBase64(text: string): Transaction {
  try {
    return decode(TYPES.transaction, fromBase64(text.trim(), 'transaction'));
  } catch (cause) {
    const reason = cause instanceof WalletError ? cause.shortMessage : describe(cause);
    throw new WalletError(
      'INVALID_TRANSACTION',
      `expected the URL-safe base64 of a transaction's protobuf bytes: ${reason}`,
      { cause },
    );
  }
}

export function transactionToJson(tx: Transaction): JsonObject {
  return toJson(TYPES.transaction, tx);
}

/**
 * Reads a transaction's JSON with the strict reader: unknown keys are refused (naming the closest valid one) and every
 * address is checked (length, version, checksum).
 * @throws WalletError INVALID_JSON / INVALID_ADDRESS naming the field path (`header.payer: …`).
 * @example
 * transactionFromJson({ header: { payr: '1…' } }); // throws 'header.payr: expected a field of …; the closest valid name is "payer"'
 */
export function transactionFromJson(json: unknown): Transaction {
  return fromJson(TYPES.transaction, json, { strict: true });
}

// ---------------------------------------------------------------------------------------------
// Blocks

/** Block id: multihash sha256 of the canonical block header bytes. */
export function blockId(header: BlockHeader): Uint8Array {
  return multihashSha256(sha256(encode(TYPES.blockHeader, header)));
}

/** Block transaction merkle root: two leaves per transaction, sha256(header bytes) then sha256(all signatures). */
export function transactionMerkleRoot(transactions: Transaction[]): Uint8Array {
  const leaves: Uint8Array[] = [];
  for (const tx of transactions) {
    leaves.push(sha256(headerBytes(requireHeader(tx))));
    leaves.push(sha256(concatAll(tx.signatures)));
  }
  return multihashSha256(merkleRoot(leaves));
}

/**
 * Signs a block: sets `id` from the header and `signature` over the id digest, by `sign` (any signer that gives
 * {@link signDigest}'s bytes; the devnet's is libsecp256k1).
 */
export function signBlock(
  block: Block,
  privateKey: Uint8Array,
  sign: (digest: Uint8Array, privateKey: Uint8Array) => Uint8Array = signDigest,
): Block {
  if (!block.header) throw new WalletError('INVALID_ARGUMENT', 'expected a block with a header, got one without');
  const id = blockId(block.header);
  return { ...block, id, signature: sign(digestOfMultihash(id), privateKey) };
}

/** Chain id: multihash sha256 of the serialized genesis data. */
export function chainIdFromGenesis(genesis: {
  entries: { space?: object; key: Uint8Array; value: Uint8Array }[];
}): Uint8Array {
  return multihashSha256(sha256(encode(TYPES.genesisData, genesis)));
}
