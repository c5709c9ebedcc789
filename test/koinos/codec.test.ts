// The codec: canonical bytes whatever the input object looks like, tolerant decoding, and gateway JSON.
import { describe, expect, it } from 'vitest';
import { Serializer } from 'koilib';
import protobuf from 'protobufjs';
import {
  createCodec,
  decode,
  encode,
  fromJson,
  hasType,
  lengthDelimitedFields,
  toJson,
  type JsonObject,
  type JsonValue,
} from '../../src-main/koinos/codec.ts';
import { multihashSha256, sha256 } from '../../src-main/koinos/hash.ts';
import { fromBase64, fromHex, toBase64Url, toHex } from '../../src-main/koinos/bytes.ts';
import { WalletError } from '../../src-main/koinos/errors.ts';
import { TYPES } from '../../src-main/koinos/types.ts';
import { DESCRIPTOR } from '../../src-main/koinos/generated/descriptor.ts';
import { vector } from '../vectors.ts';

const offline = vector('docs-cli-offline-tx');

describe('canonical encoding', () => {
  it('encodes the same message to the same bytes whatever the key order and explicit defaults', () => {
    const a = encode(TYPES.transactionHeader, {
      chain_id: fromBase64(offline.chain_id),
      rc_limit: BigInt(offline.rc_limit),
      nonce: fromBase64(offline.nonce),
      payer: new Uint8Array([1, 2, 3]),
    });
    const b = encode(TYPES.transactionHeader, {
      payee: new Uint8Array(0),
      payer: new Uint8Array([1, 2, 3]),
      operation_merkle_root: new Uint8Array(0),
      nonce: fromBase64(offline.nonce),
      rc_limit: BigInt(offline.rc_limit),
      chain_id: fromBase64(offline.chain_id),
    });
    expect(toHex(b)).toBe(toHex(a));
    // fields in ascending number order: chain_id (0a) first, then rc_limit (10), nonce (1a), payer (2a)
    expect(Array.from(a.subarray(0, 1))).toEqual([0x0a]);
    expect(a.indexOf(0x10)).toBeGreaterThan(0);
  });

  it('omits scalars set explicitly to zero, false or empty, as the node does (protobufjs would write them)', () => {
    expect(encode(TYPES.transactionHeader, { rc_limit: 0n, nonce: new Uint8Array(0) }).length).toBe(0);
    expect(
      encode('koinos.protocol.upload_contract_operation', { authorizes_call_contract: false, abi: '' }).length,
    ).toBe(0);
    expect(toHex(encode(TYPES.transactionHeader, { rc_limit: 10n }))).toBe('100a');
  });

  it('writes a oneof member that is set even when it is zero (nonce 0 is 28 00)', () => {
    expect(toHex(encode(TYPES.valueType, { uint64_value: 0n }))).toBe('2800');
  });

  it('writes present sub-messages even when empty', () => {
    const op = encode('koinos.protocol.set_system_call_operation', { call_id: 0, target: {} });
    expect(toHex(op)).toBe('1200');
  });

  it('rejects a value of the wrong type, naming the field', () => {
    // @ts-expect-error a string where the message has a uint64: the run-time check is what is tested
    expect(() => encode(TYPES.transactionHeader, { rc_limit: 'ten' })).toThrow(
      /transaction_header\.rc_limit: expected an unsigned 64-bit integer/,
    );
    expect(() => encode(TYPES.transactionHeader, { rc_limit: -1n })).toThrow(/between 0 and 18446744073709551615/);
    expect(() => encode(TYPES.operation, { call_contract: {}, upload_contract: {} })).toThrow(
      'koinos.protocol.operation: expected one member of oneof op, got upload_contract and call_contract',
    );
  });

  it('names the field deep in a message and its index in a list, for encode, toJson and fromJson alike', () => {
    const op = (args: unknown) => ({ call_contract: { contract_id: new Uint8Array(25), entry_point: 1, args } });
    const tx = { operations: [op(new Uint8Array(1)), op('not bytes')] };
    const path = 'koinos.protocol.transaction.operations[1].call_contract.args';
    expect(() => encode(TYPES.transaction, tx as never)).toThrow(`${path}: expected bytes (a Uint8Array), got`);
    expect(() => toJson('koinos.protocol.block', { transactions: [{}, { signatures: 'x' }] } as never)).toThrow(
      'koinos.protocol.block.transactions[1].signatures: expected an array',
    );
    expect(() => fromJson(TYPES.transaction, { operations: [{}, { call_contract: { entry_point: 'x' } }] })).toThrow(
      'koinos.protocol.transaction.operations[1].call_contract.entry_point: expected',
    );
    expect(() =>
      fromJson(TYPES.transaction, { operations: [{}, { call_contract: { entry_point: 'x' } }] }, { strict: true }),
    ).toThrow(/^operations\[1\]\.call_contract\.entry_point: expected/);
  });

  it('encodes the largest uint64 and decodes it back exactly', () => {
    const max = 2n ** 64n - 1n;
    const bytes = encode(TYPES.transactionHeader, { rc_limit: max });
    expect(decode(TYPES.transactionHeader, bytes).rc_limit).toBe(max);
  });
});

describe('decoding', () => {
  it('accepts fields in any order', () => {
    // rc_limit (field 2) before chain_id (field 1)
    const reordered = fromHex('100a0a03010203');
    const header = decode(TYPES.transactionHeader, reordered);
    expect(header.rc_limit).toBe(10n);
    expect(Array.from(header.chain_id)).toEqual([1, 2, 3]);
    expect(toHex(encode(TYPES.transactionHeader, header))).toBe('0a03010203100a');
  });

  it('skips fields it does not know, so older code reads newer messages', () => {
    // field 15 varint, field 16 length-delimited, field 17 fixed64, field 18 fixed32, around a known field
    const newer = fromHex('7801' + '8201' + '03616263' + '100a' + '890100000000000000ff' + '950101020304');
    const header = decode(TYPES.transactionHeader, newer);
    expect(header.rc_limit).toBe(10n);
    expect(toHex(encode(TYPES.transactionHeader, header))).toBe('100a');
  });

  it('gives every absent bytes field empty bytes of its own, from bytes and from JSON alike', () => {
    // Only rc_limit is set: chain_id, nonce, the merkle root, payer and payee are absent.
    const read = [
      decode(TYPES.transactionHeader, fromHex('100a')),
      decode(TYPES.transactionHeader, fromHex('100a')),
      fromJson(TYPES.transactionHeader, { rc_limit: '10' }),
    ];
    const absent = ['chain_id', 'nonce', 'operation_merkle_root', 'payer', 'payee'] as const;
    const all = read.flatMap((header) => absent.map((field) => header[field]));
    for (const bytes of all) {
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(bytes.length).toBe(0);
    }
    // Each its own: every buffer can be handed to another thread (transferring a buffer a second time throws).
    expect(new Set(all.map((bytes) => bytes.buffer)).size).toBe(all.length);
    for (const { buffer } of all) {
      expect(() => structuredClone(buffer, { transfer: [buffer as ArrayBuffer] })).not.toThrow();
    }
  });

  it('reads packed repeated numbers as protobufjs writes them, and writes the same bytes', () => {
    // proto3 packs repeated scalars: one length-delimited field. The items start after the length's own bytes (a
    // reader that counted from before them took the last items for field tags, and failed).
    const type = 'koinos.rpc.chain.propose_block_response';
    const indices = [1, 300, 70_000, 2 ** 32 - 1];
    const oracle = protobuf.Root.fromJSON(DESCRIPTOR).lookupType(type);
    const bytes = oracle.encode({ failed_transaction_indices: indices }).finish();
    expect(toHex(bytes)).toBe('120b01ac02f0a204ffffffff0f');
    expect(decode(type, bytes).failed_transaction_indices).toEqual(indices);
    expect(toHex(encode(type, { failed_transaction_indices: indices }))).toBe(toHex(bytes));
    // A contract's repeated uint64, read through its ABI's codec.
    const abi = createCodec(
      { nested: { r: { fields: { v: { rule: 'repeated', type: 'uint64', id: 1 } } } } },
      'an ABI',
    );
    expect(abi.decode('r', fromHex('0a0401ac0207'))).toEqual({ v: [1n, 300n, 7n] });
  });

  it('reports truncated bytes instead of returning a partial message', () => {
    const full = fromBase64(offline.full_transaction_base64url);
    expect(() => decode(TYPES.transaction, full.subarray(0, full.length - 5))).toThrow(WalletError);
    expect(() => decode(TYPES.transaction, full.subarray(0, full.length - 5))).toThrow(
      /bytes that end in the middle of a field/,
    );
  });

  it("reads a real mainnet transaction's header and operation bytes out of it, skipping other wire types", () => {
    const full = fromBase64(offline.full_transaction_base64url);
    const fields = lengthDelimitedFields(TYPES.transaction, full);
    expect(fields.map((f) => f.field)).toEqual([1, 2, 3, 4]);
    const header = fields.find((f) => f.field === 2)!.bytes;
    // The id is the multihash of the header's canonical bytes: these are they, as they sit in the transaction.
    expect(`0x${toHex(multihashSha256(sha256(header)))}`).toBe(offline.transaction_id);
    const operation = decode(TYPES.operation, fields.find((f) => f.field === 3)!.bytes);
    expect(toBase64Url(operation.call_contract!.args)).toBe(offline.args);
    // In the header, rc_limit (field 2, a varint) is skipped; chain_id, nonce, merkle root and payer are read.
    const inHeader = lengthDelimitedFields(TYPES.transactionHeader, header);
    expect(inHeader.map((f) => f.field)).toEqual([1, 3, 4, 5]);
    expect(toBase64Url(inHeader[0]!.bytes)).toBe(offline.chain_id);
    expect(() => lengthDelimitedFields(TYPES.transaction, full.subarray(0, full.length - 5))).toThrow(
      /bytes that end in the middle of a field/,
    );
  });

  it('re-encodes a real mainnet transaction byte for byte', () => {
    const full = fromBase64(offline.full_transaction_base64url);
    expect(toBase64Url(encode(TYPES.transaction, decode(TYPES.transaction, full)))).toBe(
      offline.full_transaction_base64url,
    );
  });
});

describe('JSON', () => {
  const txJson = {
    id: offline.transaction_id,
    header: {
      chain_id: offline.chain_id,
      rc_limit: offline.rc_limit,
      nonce: offline.nonce,
      operation_merkle_root: offline.operation_merkle_root,
      payer: offline.payer,
    },
    operations: [
      { call_contract: { contract_id: offline.contract_id, entry_point: offline.entry_point, args: offline.args } },
    ],
    signatures: offline.signatures,
  };

  it('renders bytes by btype: ids as 0x hex, addresses as base58, other bytes as padded URL-safe base64', () => {
    const tx = decode(TYPES.transaction, fromBase64(offline.full_transaction_base64url));
    expect(toJson(TYPES.transaction, tx)).toEqual(txJson);
  });

  it('round-trips JSON -> bytes -> JSON as the identity', () => {
    const bytes = encode(TYPES.transaction, fromJson(TYPES.transaction, txJson));
    expect(toBase64Url(bytes)).toBe(offline.full_transaction_base64url);
    expect(toJson(TYPES.transaction, decode(TYPES.transaction, bytes))).toEqual(txJson);
  });

  it('accepts base64 with or without padding and in either alphabet', () => {
    const url = offline.chain_id as string;
    const std = url.replace(/-/g, '+').replace(/_/g, '/');
    for (const form of [url, url.replace(/=+$/, ''), std, std.replace(/=+$/, '')]) {
      const h = fromJson(TYPES.transactionHeader, { chain_id: form });
      expect(toBase64Url(h.chain_id)).toBe(url);
    }
  });

  it('renders 64-bit integers as strings, 32-bit as numbers, and omits defaults', () => {
    const json = toJson(TYPES.transactionReceipt, {
      rc_used: 5n,
      disk_storage_used: 0n,
      reverted: false,
      events: [{ sequence: 2, name: 'x' }],
    });
    expect(json).toEqual({ rc_used: '5', events: [{ sequence: 2, name: 'x' }] });
  });

  it('renders an account with no mana as an empty object', () => {
    expect(toJson('koinos.rpc.chain.get_account_rc_response', { rc: 0n })).toEqual({});
  });

  it('rejects wrong JSON with the path, the expected form and what it found', () => {
    expect(() => fromJson(TYPES.transaction, { header: { rc_limit: 1.5 } })).toThrow(
      'koinos.protocol.transaction.header.rc_limit: expected an unsigned 64-bit integer as a decimal string, got number 1.5',
    );
    expect(() => fromJson(TYPES.transaction, { id: '1220ab' })).toThrow(/"0x" followed by hex/);
    expect(() => fromJson(TYPES.transaction, { header: { payer: '0OIl' } })).toThrow(/base58/);
    expect(() => fromJson(TYPES.transaction, { signatures: ['***'] })).toThrow(/base64/);
    expect(() => fromJson(TYPES.transaction, [])).toThrow(/expected a JSON object/);
  });

  it('ignores unknown JSON keys, as the gateway does', () => {
    expect(toJson(TYPES.transactionHeader, fromJson(TYPES.transactionHeader, { rc_limit: '7', surprise: 1 }))).toEqual({
      rc_limit: '7',
    });
  });
});

describe('round trips over every vector', () => {
  /** The transaction JSON a vector describes: header, operations, and id/signatures where it publishes them. */
  function vectorTransactionJson(id: string): Record<string, unknown> {
    const v = vector(id);
    const operations =
      v.operations_json ??
      (v.bytecode_base64url
        ? [{ upload_contract: { contract_id: v.contract_id, bytecode: v.bytecode_base64url } }]
        : v.entry_point
          ? [{ call_contract: { contract_id: v.contract_id, entry_point: v.entry_point, args: v.args } }]
          : undefined);
    const json: Record<string, unknown> = {
      id: v.transaction_id,
      header: {
        chain_id: v.chain_id,
        rc_limit: v.rc_limit,
        nonce: v.nonce,
        operation_merkle_root: v.operation_merkle_root,
        payer: v.payer,
      },
    };
    if (operations) json.operations = operations;
    if (v.signatures) json.signatures = v.signatures;
    return json;
  }

  it.each(['koilib-tx-4ops', 'koilib-tx-upload', 'koilib-tx-empty', 'mainnet-history-tx', 'docs-cli-offline-tx'])(
    'JSON -> bytes -> JSON is the identity for %s',
    (id) => {
      const json = vectorTransactionJson(id);
      const bytes = encode(TYPES.transaction, fromJson(TYPES.transaction, json));
      expect(toJson(TYPES.transaction, decode(TYPES.transaction, bytes))).toEqual(json);
    },
  );

  it('JSON -> bytes -> JSON is the identity for the block header vector', () => {
    const header = vector('koilib-block-signed').header;
    const bytes = encode(TYPES.blockHeader, fromJson(TYPES.blockHeader, header));
    expect(toJson(TYPES.blockHeader, decode(TYPES.blockHeader, bytes))).toEqual(header);
  });
});

describe('proto/', () => {
  it('declares no map field, since map order is not fixed and signed bytes must be', () => {
    const maps: string[] = [];
    const visit = (
      ns: { nested?: Record<string, unknown>; fields?: Record<string, { keyType?: string }> },
      path: string,
    ): void => {
      for (const [name, field] of Object.entries(ns.fields ?? {})) if (field.keyType) maps.push(`${path}.${name}`);
      for (const [name, child] of Object.entries(ns.nested ?? {}))
        visit(child as typeof ns, path ? `${path}.${name}` : name);
    };
    visit(DESCRIPTOR as Parameters<typeof visit>[0], '');
    expect(maps).toEqual([]);
    expect(Object.keys(DESCRIPTOR.nested ?? {})).toContain('koinos');
  });

  it('reads and writes every message of proto/ as a codec planned by protobufjs does, in the bytes koilib writes', async () => {
    // Two oracles: a codec planned through protobufjs's reflection of the same descriptor (what the codec built at
    // every start before), and koilib's Serializer. Every message gets a sample with every field set to a value that
    // is not its default (one member per oneof): a field type resolved otherwise fails to read or changes the bytes.
    const root = protobuf.Root.fromJSON(DESCRIPTOR);
    root.resolveAll();
    const reflected = createCodec(DESCRIPTOR, 'proto/ through protobufjs');
    const koilib = new Serializer(DESCRIPTOR);
    const address = '1pVJaALjb2fqumng21HvvBy5Bjv7u3vNZ';
    const scalar = (field: protobuf.Field): JsonValue => {
      // By number: koilib reads no enum names.
      if (field.resolvedType instanceof protobuf.Enum) return Object.values(field.resolvedType.values).at(-1)!;
      if (field.type === 'bool') return true;
      if (field.type === 'string') return 'text';
      if (field.type === 'double' || field.type === 'float') return 1.5;
      if (field.type !== 'bytes') return /64/.test(field.type) ? '7' : 7;
      const btype = (field.options ?? {})['(koinos.btype)'];
      if (btype === 'ADDRESS' || btype === 'CONTRACT_ID' || btype === 'BASE58') return address;
      if (btype === 'HEX' || btype === 'BLOCK_ID' || btype === 'TRANSACTION_ID') return '0x1220ab';
      return 'AQID';
    };
    const sample = (type: protobuf.Type, depth: number): JsonObject => {
      const out: JsonObject = {};
      const oneofsSet = new Set<string>();
      for (const field of type.fieldsArray) {
        const oneof = field.partOf && !(field.options ?? {}).proto3_optional ? field.partOf.name : undefined;
        if (oneof && oneofsSet.has(oneof)) continue;
        let value: JsonValue;
        if (field.resolvedType instanceof protobuf.Type) {
          if (depth >= 3) continue;
          value = sample(field.resolvedType, depth + 1);
        } else value = scalar(field);
        if (oneof) oneofsSet.add(oneof);
        out[field.name] = field.repeated ? [value, value] : value;
      }
      return out;
    };
    const types: protobuf.Type[] = [];
    const collect = (ns: protobuf.NamespaceBase): void => {
      for (const item of ns.nestedArray) {
        if (item instanceof protobuf.Type) types.push(item);
        if (item instanceof protobuf.Namespace) collect(item);
      }
    };
    collect(root);
    expect(types.length).toBeGreaterThan(200);
    for (const type of types) {
      const name = type.fullName.slice(1);
      expect(hasType(name), name).toBe(true);
      const json = sample(type, 0);
      const bytes = encode(name, fromJson(name, json));
      expect(toHex(bytes), name).toBe(toHex(reflected.encode(name, reflected.fromJson(name, json))));
      expect(toHex(bytes), name).toBe(toHex(await koilib.serialize(json, name)));
      expect(toJson(name, decode(name, bytes)), name).toEqual(reflected.toJson(name, reflected.decode(name, bytes)));
    }
  });
});
