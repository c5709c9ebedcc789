// How the devnet reads a submitted transaction (chain/applyTransaction.ts prepareTransaction): the header's and the
// operations' canonical bytes are read out of the transaction's own (not encoded again), and a request the strict
// JSON reader already completed is read as it is (not decoded again from its bytes). Both shortcuts must give exactly
// what the long way gives, for every shape of transaction.
import { describe, expect, it } from 'vitest';
import { prepareTransaction, transactionParts } from '../../src-main/devnet/chain/applyTransaction.ts';
import { addressFromPublicKey } from '../../src-main/koinos/address.ts';
import { encode, fromJson } from '../../src-main/koinos/codec.ts';
import { privateKeyFromHex, publicKeyFromPrivateKey } from '../../src-main/koinos/keys.ts';
import { nonceToBytes, signTransaction, transactionToJson } from '../../src-main/koinos/transaction.ts';
import type { Operation, Transaction } from '../../src-main/koinos/types.ts';

const KEYS = ['11', '22', '33'].map((hex) => privateKeyFromHex(hex.repeat(32)));
const ADDRESSES = KEYS.map((key) => addressFromPublicKey(publicKeyFromPrivateKey(key)));
const CONTRACT = ADDRESSES[2]!;

const OPERATIONS: Record<string, Operation> = {
  call: { call_contract: { contract_id: CONTRACT, entry_point: 0x27f576ca, args: new Uint8Array([1, 2, 3]) } },
  // Over 127 bytes: the operation's length and the bytecode's are varints of two bytes and more.
  upload: {
    upload_contract: {
      contract_id: CONTRACT,
      bytecode: new Uint8Array(20_000).map((_, i) => i % 251),
      abi: '{"methods":{}}',
      authorizes_call_contract: true,
      authorizes_transaction_application: false,
      authorizes_upload_contract: true,
    },
  },
  systemCall: { set_system_call: { call_id: 101, target: { thunk_id: 7 } } },
  systemContract: { set_system_contract: { contract_id: CONTRACT, system_contract: true } },
  empty: {},
};

/** A signed transaction with `operations`, paid by key 0 (or by `payee`'s nonce), signed by `signers`. */
function transaction(operations: Operation[], { payee = false, signers = [0] } = {}): Transaction {
  const unsigned: Transaction = {
    id: new Uint8Array(0),
    header: {
      chain_id: new Uint8Array(32).fill(9),
      rc_limit: 12_345_678n,
      nonce: nonceToBytes(300n),
      operation_merkle_root: new Uint8Array(0),
      payer: ADDRESSES[0]!,
      payee: payee ? ADDRESSES[1]! : new Uint8Array(0),
    },
    operations,
    signatures: [],
  };
  return signers.reduce((tx, signer) => signTransaction(tx, KEYS[signer]!), unsigned);
}

const SHAPES: [string, Transaction][] = [
  ['one call', transaction([OPERATIONS.call!])],
  ['a payee and two signatures', transaction([OPERATIONS.call!], { payee: true, signers: [0, 1] })],
  ['every kind of operation, one large', transaction(Object.values(OPERATIONS))],
  ['no operation', transaction([])],
];

describe('prepareTransaction', () => {
  it("reads the header's and each operation's bytes out of the transaction's, equal to encoding them alone", () => {
    for (const [shape, tx] of SHAPES) {
      const parts = transactionParts(encode('koinos.protocol.transaction', tx));
      expect(parts.header, shape).toEqual(encode('koinos.protocol.transaction_header', tx.header!));
      expect(parts.operations, shape).toEqual(tx.operations.map((op) => encode('koinos.protocol.operation', op)));
    }
    // A transaction without a header has none to read (prepareTransaction then refuses it as missing).
    expect(transactionParts(encode('koinos.protocol.transaction', { id: new Uint8Array([1]) })).header).toEqual(
      new Uint8Array(0),
    );
  });

  it('gives for a request the strict reader completed exactly what it gives through a decode of its bytes', () => {
    for (const [shape, tx] of SHAPES) {
      const read = fromJson('koinos.protocol.transaction', transactionToJson(tx), { strict: true });
      const direct = prepareTransaction(read, true);
      expect(direct, shape).toEqual(prepareTransaction(read));
      expect(direct.idMatches && direct.merkleMatches, shape).toBe(true);
      expect(direct.operationLengths, shape).toEqual(
        tx.operations.map((op) => encode('koinos.protocol.operation', op).length),
      );
    }
  });
});
