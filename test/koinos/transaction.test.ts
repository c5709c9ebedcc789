// Transactions and blocks against published known answers: merkle roots, ids, RFC 6979 signatures, signers.
import { describe, expect, it } from 'vitest';
import { decode, encode, fromJson, toJson } from '../../src-main/koinos/codec.ts';
import { fromBase64, fromHex, toBase64Url, toHex, utf8ToBytes } from '../../src-main/koinos/bytes.ts';
import { digestOfMultihash, multihashSha256, sha256 } from '../../src-main/koinos/hash.ts';
import { addressFromString, addressToString } from '../../src-main/koinos/address.ts';
import {
  blockId,
  checkTransaction,
  merkleRoot,
  nonceFromBytes,
  nonceToBytes,
  operationMerkleRoot,
  prepareTransaction,
  recoverSigners,
  signBlock,
  signTransaction,
  transactionFromBase64,
  transactionFromJson,
  transactionId,
  transactionToBase64,
  transactionToJson,
  transactionMerkleRoot,
} from '../../src-main/koinos/transaction.ts';
import { TYPES, type Operation, type Transaction } from '../../src-main/koinos/types.ts';
import { vector, type Vector } from '../vectors.ts';

const key1 = fromHex(vector('koilib-key-1').private_key_hex);

function callOp(v: Vector): Operation {
  return fromJson(TYPES.operation, {
    call_contract: { contract_id: v.contract_id, entry_point: v.entry_point, args: v.args },
  });
}

function unsignedTx(v: Vector, operations: Operation[]): Transaction {
  const header = fromJson(TYPES.transactionHeader, {
    chain_id: v.chain_id,
    rc_limit: v.rc_limit,
    nonce: v.nonce,
    payer: v.payer,
  });
  return { id: new Uint8Array(0), header, operations, signatures: [] };
}

describe('merkle root', () => {
  it('matches the nine-word tree, node by node', () => {
    const v = vector('merkle-words');
    const leaves = (v.words as string[]).map((w) => sha256(utf8ToBytes(w)));
    expect(leaves.map(toHex)).toEqual(v.leaf_hashes_hex);
    expect(toHex(merkleRoot(leaves.slice(0, 2)))).toBe(v.node_n01_hex);
    expect(toHex(merkleRoot(leaves.slice(0, 4)))).toBe(v.node_n0123_hex);
    expect(toHex(merkleRoot(leaves.slice(4, 8)))).toBe(v.node_n4567_hex);
    expect(toHex(merkleRoot(leaves.slice(0, 8)))).toBe(v.node_n01234567_hex);
    expect(toHex(merkleRoot(leaves.slice(8)))).toBe(v.node_n8_hex);
    expect(toHex(merkleRoot(leaves))).toBe(v.root_hex);
  });

  it('gives sha256 of nothing for an empty list', () => {
    const v = vector('merkle-empty');
    expect(toHex(merkleRoot([]))).toBe(v.root_hex);
    expect(toBase64Url(operationMerkleRoot([]))).toBe(v.root_multihash_base64url);
  });
});

describe('nonce', () => {
  it('encodes nonces as value_type{uint64_value}', () => {
    for (const c of vector('nonce-encoding').cases as { value: number; base64url: string; hex: string }[]) {
      expect(toHex(nonceToBytes(BigInt(c.value)))).toBe(c.hex);
      expect(toBase64Url(nonceToBytes(BigInt(c.value)))).toBe(c.base64url);
      expect(nonceFromBytes(fromBase64(c.base64url))).toBe(BigInt(c.value));
    }
  });

  it('decodes the larger nonces seen in public samples', () => {
    const v = vector('nonce-encoding');
    const more = [...(v.extra_derived.more as string).matchAll(/'([A-Za-z0-9_=-]+)'\s*(?:\([^)]*\))?\s*=\s*(\d+)/g)];
    expect(more.length).toBe(3);
    for (const [, b64, n] of more) expect(nonceFromBytes(fromBase64(b64!))).toBe(BigInt(n!));
    // The note lists the bytes and their value; its base64 text ('KOLwAw==') is 28 e2 f0 03, not the 28 c2 f0 03 it
    // lists, so the check uses the listed bytes (the discrepancy is reported on the issue).
    const [, value, bytes] = /uint64_value (\d+) \(((?:0x[0-9A-F]{2} ?)+)\)/.exec(v.extra_derived.note as string)!;
    expect(nonceFromBytes(fromHex(bytes!.replace(/0x| /g, '')))).toBe(BigInt(value!));
  });

  it('rejects a nonce in another value_type field, as the node does', () => {
    expect(() => nonceFromBytes(fromBase64('OAg='))).toThrow(/nonce did not contain uint64 value/);
  });
});

describe('transaction id and merkle root', () => {
  it('matches koilib for a transaction with all four operation kinds', () => {
    const v = vector('koilib-tx-4ops');
    const ops = (v.operations_json as unknown[]).map((o) => fromJson(TYPES.operation, o));
    const tx = prepareTransaction(unsignedTx(v, ops));
    expect(toBase64Url(tx.header!.operation_merkle_root)).toBe(v.operation_merkle_root);
    expect(`0x${toHex(tx.id)}`).toBe(v.transaction_id);
  });

  it('matches koilib for an empty transaction, and the id changes with rc_limit', () => {
    const v = vector('koilib-tx-empty');
    const tx = signTransaction(unsignedTx(v, []), key1);
    expect(toBase64Url(tx.header!.operation_merkle_root)).toBe(v.operation_merkle_root);
    expect(`0x${toHex(tx.id)}`).toBe(v.transaction_id);
    expect(tx.signatures.map(toBase64Url)).toEqual(v.signatures);
    expect(recoverSigners(tx)).toEqual([{ address: v.expected_signer }]);
    const rc12 = prepareTransaction({ ...tx, header: { ...tx.header!, rc_limit: 12n } });
    expect(`0x${toHex(rc12.id)}`).toBe(v.transaction_id_rc_limit_12);
  });

  it('matches koilib for an upload_contract transaction, signature included', () => {
    const v = vector('koilib-tx-upload');
    const op = fromJson(TYPES.operation, {
      upload_contract: { contract_id: v.contract_id, bytecode: v.bytecode_base64url },
    });
    const tx = signTransaction(unsignedTx(v, [op]), key1);
    expect(toBase64Url(tx.header!.operation_merkle_root)).toBe(v.operation_merkle_root);
    expect(`0x${toHex(tx.id)}`).toBe(v.transaction_id);
    expect(tx.signatures.map(toBase64Url)).toEqual(v.signatures);
  });

  it('reproduces a real mainnet transfer: root, id, and the signer recovered from the signature', () => {
    const v = vector('mainnet-history-tx');
    const tx: Transaction = {
      ...prepareTransaction(unsignedTx(v, [callOp(v)])),
      signatures: (v.signatures as string[]).map((s) => fromBase64(s)),
    };
    expect(toBase64Url(tx.header!.operation_merkle_root)).toBe(v.operation_merkle_root);
    expect(`0x${toHex(tx.id)}`).toBe(v.transaction_id);
    const check = checkTransaction(tx);
    expect(check.idMatches && check.merkleRootMatches).toBe(true);
    expect(check.signers).toEqual([{ address: v.expected_signer }]);
  });

  it('reproduces the koinos-cli offline transaction byte for byte, from JSON and from base64', () => {
    const v = vector('docs-cli-offline-tx');
    const signed = {
      ...prepareTransaction(unsignedTx(v, [callOp(v)])),
      signatures: (v.signatures as string[]).map((s) => fromBase64(s)),
    };
    expect(transactionToBase64(signed)).toBe(v.full_transaction_base64url);
    const parsed = transactionFromBase64(v.full_transaction_base64url);
    expect(transactionToJson(parsed)).toEqual(transactionToJson(signed));
    expect(transactionToBase64(transactionFromJson(transactionToJson(parsed)))).toBe(v.full_transaction_base64url);
    expect(recoverSigners(parsed)).toEqual([{ address: v.expected_signer }]);
  });

  it('detects an id or merkle root that does not match the content', () => {
    const v = vector('docs-cli-offline-tx');
    const tx = transactionFromBase64(v.full_transaction_base64url);
    const tampered: Transaction = { ...tx, header: { ...tx.header!, rc_limit: tx.header!.rc_limit + 1n } };
    expect(checkTransaction(tampered).idMatches).toBe(false);
    const otherOps: Transaction = { ...tx, operations: [] };
    expect(checkTransaction(otherOps).merkleRootMatches).toBe(false);
    // the signature no longer recovers to the payer once the header changed
    expect(recoverSigners(tampered)[0]!.address).not.toBe(v.expected_signer);
  });

  it('allows several signatures, each recovering to its signer', () => {
    const v = vector('koilib-tx-empty');
    const other = sha256(utf8ToBytes('another key'));
    const twice = signTransaction(signTransaction(unsignedTx(v, []), key1), other);
    const signers = recoverSigners(twice).map((s) => s.address);
    expect(signers[0]).toBe(v.expected_signer);
    expect(signers[1]).toMatch(/^1/);
    expect(signers[1]).not.toBe(signers[0]);
  });

  it('refuses to sign without chain_id, nonce or rc_limit', () => {
    const v = vector('koilib-tx-empty');
    const base = unsignedTx(v, []);
    expect(() => signTransaction({ ...base, header: { ...base.header!, rc_limit: 0n } }, key1)).toThrow(/rc_limit/);
    expect(() => signTransaction({ ...base, header: { ...base.header!, nonce: new Uint8Array(0) } }, key1)).toThrow(
      /nonce/,
    );
    expect(() => signTransaction({ ...base, header: { ...base.header!, chain_id: new Uint8Array(0) } }, key1)).toThrow(
      /chain_id/,
    );
  });

  it('computes the id from the header bytes only', () => {
    const v = vector('docs-cli-offline-tx');
    const tx = transactionFromBase64(v.full_transaction_base64url);
    expect(toHex(transactionId(tx.header!))).toBe(toHex(tx.id));
    expect(toHex(transactionId(tx.header!))).toBe(
      toHex(multihashSha256(sha256(encode(TYPES.transactionHeader, tx.header!)))),
    );
  });
});

describe('blocks', () => {
  it('computes the block id and the RFC 6979 block signature koilib publishes', () => {
    const v = vector('koilib-block-signed');
    const header = fromJson(TYPES.blockHeader, v.header);
    expect(`0x${toHex(blockId(header))}`).toBe(v.block_id);
    const block = signBlock({ id: new Uint8Array(0), header, transactions: [], signature: new Uint8Array(0) }, key1);
    expect(toBase64Url(block.signature)).toBe(v.signature);
    expect(toBase64Url(transactionMerkleRoot([]))).toBe(v.header.transaction_merkle_root);
  });

  it('uses two leaves per transaction in the block merkle root', () => {
    const tx = transactionFromBase64(vector('docs-cli-offline-tx').full_transaction_base64url);
    const expected = merkleRoot([sha256(encode(TYPES.transactionHeader, tx.header!)), sha256(tx.signatures[0]!)]);
    expect(toHex(digestOfMultihash(transactionMerkleRoot([tx])))).toBe(toHex(expected));
  });
});

describe('chain ids', () => {
  it('reads the published chain ids as sha2-256 multihashes', () => {
    const v = vector('chain-ids');
    const ids = [v.mainnet, v.harbinger, v.harbinger_old] as string[];
    for (const id of ids) expect(digestOfMultihash(fromBase64(id), 'chain id')).toHaveLength(32);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('addresses in transactions', () => {
  it('keeps payer bytes as the 25-byte address', () => {
    const v = vector('docs-cli-offline-tx');
    const tx = transactionFromBase64(v.full_transaction_base64url);
    expect(addressToString(tx.header!.payer)).toBe(v.payer);
    expect(toHex(tx.header!.payer)).toBe(toHex(addressFromString(v.payer)));
    expect(toJson(TYPES.transaction, decode(TYPES.transaction, encode(TYPES.transaction, tx)))).toEqual(
      transactionToJson(tx),
    );
  });
});
