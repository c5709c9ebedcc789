// The strict JSON reader (codec fromJson with strict) and the checks before signing: mistyped addresses, misspelled
// or unknown fields, missing payer or transfer fields, and base58 or integer text too long to decode cheaply.
import { describe, expect, it } from 'vitest';
import { addressFromString, addressToString, MAX_ADDRESS_TEXT_LENGTH } from '../../src-main/koinos/address.ts';
import { fromBase58, toBase64Url } from '../../src-main/koinos/bytes.ts';
import { closestName } from '../../src-main/koinos/closestName.ts';
import { encode, fromJson } from '../../src-main/koinos/codec.ts';
import { KOIN_METHODS } from '../../src-main/koinos/koin.ts';
import { privateKeyFromWif } from '../../src-main/koinos/keys.ts';
import { signTransaction, transactionFromJson } from '../../src-main/koinos/transaction.ts';
import type { Transaction } from '../../src-main/koinos/types.ts';
import { parseTransactionText } from '../../src-main/koinos/transactionText.ts';
import { vector } from '../vectors.ts';
import { expectWalletError } from '../helpers/expectWalletError.ts';

const history = vector('mainnet-history-tx');
const key = privateKeyFromWif(vector('koilib-key-1').wif_compressed).privateKey;
const TRANSFER = KOIN_METHODS.transfer.argsType;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A valid address with its last character changed to the next base58 one (…QkEM → …QkEN): the checksum no longer matches. */
function mistype(address: string): string {
  const next = BASE58[(BASE58.indexOf(address.at(-1)!) + 1) % 58]!;
  return address.slice(0, -1) + next;
}

/** The mainnet vector's header and transfer, unsigned, with the transfer written decoded (as `tx decode` prints it). */
function decodedTransfer(args: Record<string, unknown>, header: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    header: {
      chain_id: history.chain_id,
      rc_limit: history.rc_limit,
      nonce: history.nonce,
      payer: history.payer,
      ...header,
    },
    operations: [{ call_contract: { contract_id: history.contract_id, entry_point: 'transfer', args } }],
  };
}

const from = history.payer as string;
const to = history.receipt.event.impacted[0] as string;

describe('strict reader: addresses', () => {
  it('refuses a transfer whose to address has one character changed, naming the field and the cause', () => {
    const bad = mistype(to);
    expect(addressToString(fromBase58(bad))).toBe(bad); // still base58 of 25 bytes: only the checksum tells
    const error = expectWalletError(
      () => parseTransactionText(JSON.stringify(decodedTransfer({ from, to: bad, value: '1' }))),
      'INVALID_ADDRESS',
    );
    expect(error.shortMessage).toMatch(
      /^operations\[0\]\.call_contract\.args\.to: the address checksum does not match: a character is mistyped \(expected checksum [0-9a-f]{8}, got [0-9a-f]{8}\)$/,
    );
  });

  it('refuses a mistyped payer in the header as "header.payer: the address checksum does not match"', () => {
    const json = { header: { payer: mistype(from) }, operations: [] };
    const error = expectWalletError(() => transactionFromJson(json), 'INVALID_ADDRESS');
    expect(error.shortMessage).toMatch(/^header\.payer: the address checksum does not match: a character is mistyped/);
  });

  it('checks addresses inside repeated and nested messages (event impacted, block transactions)', () => {
    const impacted = [to, mistype(from)];
    const error = expectWalletError(
      () => fromJson('koinos.protocol.event_data', { name: 'x', impacted }, { strict: true }),
      'INVALID_ADDRESS',
    );
    expect(error.shortMessage).toMatch(/^impacted\[1\]: the address checksum does not match/);
  });

  it('refuses base58 longer than any address before decoding it, and keeps contract ids unchecked but capped', () => {
    const long = '1'.repeat(40_000);
    expect(expectWalletError(() => addressFromString(long), 'INVALID_ADDRESS').shortMessage).toBe(
      `expected an address of at most ${MAX_ADDRESS_TEXT_LENGTH} characters, got 40000 characters`,
    );
    expect(
      expectWalletError(() => fromJson(TRANSFER, { to: long }, { strict: true }), 'INVALID_ADDRESS').shortMessage,
    ).toBe(`to: expected an address of at most ${MAX_ADDRESS_TEXT_LENGTH} characters, got 40000 characters`);
    // The lenient reader (the gateway's) caps too.
    expect(expectWalletError(() => fromJson(TRANSFER, { to: long }), 'INVALID_JSON').shortMessage).toMatch(
      /at most 35 characters .*got 40000 characters$/,
    );
    const call = 'koinos.protocol.call_contract_operation';
    expect(
      expectWalletError(() => fromJson(call, { contract_id: long }, { strict: true }), 'INVALID_JSON').shortMessage,
    ).toMatch(
      /^contract_id: expected base58 text of at most 35 characters \(an address or a contract id\), got 40000 characters$/,
    );
    // A contract id is not checksum-checked: contract ids need no checksum.
    const parsed = fromJson(call, { contract_id: mistype(history.contract_id) }, { strict: true });
    expect(parsed.contract_id).toHaveLength(25);
    expect(expectWalletError(() => fromBase58('2'.repeat(65)), 'INVALID_BYTES').shortMessage).toBe(
      'expected base58 as base58 text of at most 64 characters, got 65 characters',
    );
  });

  it('refuses an integer written with more digits than any 64-bit value before reading it', () => {
    const error = expectWalletError(
      () => transactionFromJson({ header: { rc_limit: '9'.repeat(100_000) } }),
      'INVALID_JSON',
    );
    expect(error.shortMessage).toBe(
      'header.rc_limit: expected an unsigned 64-bit integer of at most 20 digits, got 100000 characters',
    );
  });
});

describe('strict reader: fields', () => {
  it('refuses "amount" instead of "value" in a transfer, naming the field and the closest valid name', () => {
    const error = expectWalletError(
      () => parseTransactionText(JSON.stringify(decodedTransfer({ from, to, amount: '1' }))),
      'INVALID_JSON',
    );
    expect(error.shortMessage).toBe(
      'operations[0].call_contract.args.amount: expected a field of koinos.contracts.token.transfer_arguments, got an unknown field; the closest valid name is "value"',
    );
    expect(error.metaMessages).toEqual(['Valid fields: from, to, value, memo.']);
  });

  it('refuses "too" instead of "to", suggesting "to"', () => {
    const error = expectWalletError(
      () => parseTransactionText(JSON.stringify(decodedTransfer({ from, too: to, value: '1' }))),
      'INVALID_JSON',
    );
    expect(error.shortMessage).toMatch(
      /^operations\[0\]\.call_contract\.args\.too: .* the closest valid name is "to"$/,
    );
  });

  it('refuses an unknown header field and an unknown top-level field', () => {
    const header = expectWalletError(() => transactionFromJson({ header: { payr: from } }), 'INVALID_JSON');
    expect(header.shortMessage).toBe(
      'header.payr: expected a field of koinos.protocol.transaction_header, got an unknown field; the closest valid name is "payer"',
    );
    const top = expectWalletError(() => transactionFromJson({ header: {}, operation: [] }), 'INVALID_JSON');
    expect(top.shortMessage).toMatch(/^operation: .* the closest valid name is "operations"$/);
  });

  it('accepts lowerCamelCase names, and the lenient (gateway) reader still discards unknown keys', () => {
    const tx = transactionFromJson({ header: { rcLimit: '5', payer: from } });
    expect(tx.header!.rc_limit).toBe(5n);
    expect(fromJson(TRANSFER, { amount: '1', value: '2' }).value).toBe(2n);
    // The devnet's mode: addresses checked, unknown keys discarded as the gateway does.
    expect(fromJson(TRANSFER, { amount: '1' }, { strict: true, unknownFields: 'discard' })).toMatchObject({
      value: 0n,
    });
    expectWalletError(
      () => fromJson(TRANSFER, { to: mistype(to) }, { strict: true, unknownFields: 'discard' }),
      'INVALID_ADDRESS',
    );
  });

  it('requires from, to and a value above 0 in a transfer written decoded', () => {
    for (const [args, missing] of [
      [{ to, value: '1' }, 'from'],
      [{ from, value: '1' }, 'to'],
      [{ from, to }, 'value'],
      [{ from, to, value: '0' }, 'value'],
    ] as const) {
      const error = expectWalletError(
        () => parseTransactionText(JSON.stringify(decodedTransfer(args))),
        'INVALID_JSON',
      );
      expect(error.shortMessage).toBe(
        `operations[0].call_contract.args: expected a transfer with from, to and a value above 0, got none for ${missing}`,
      );
    }
  });

  it('names the closest of a set of candidates by edit distance, with a few known synonyms', () => {
    expect(closestName('too', ['from', 'to', 'value', 'memo'])).toBe('to');
    expect(closestName('amount', ['from', 'to', 'value', 'memo'])).toBe('value');
    expect(closestName('recipient', ['from', 'to', 'value'])).toBe('to');
    expect(closestName('rc_limt', ['chain_id', 'rc_limit', 'nonce'])).toBe('rc_limit');
    expect(closestName('x'.repeat(1_000_000), ['a', 'b'])).toBe('a'); // capped: no million-by-n table
    expect(closestName('x', [])).toBeUndefined();
  });
});

describe('checks before signing', () => {
  /** The mainnet transfer as a decoded transaction (args as bytes), with `change` applied to header and args. */
  function transfer(change: { header?: Record<string, unknown>; args?: Record<string, unknown> } = {}): Transaction {
    const args = encode(TRANSFER, {
      from: addressFromString(from),
      to: addressFromString(to),
      value: 1n,
      ...change.args,
    });
    return transactionFromJson({
      header: {
        chain_id: history.chain_id,
        rc_limit: history.rc_limit,
        nonce: history.nonce,
        payer: from,
        ...change.header,
      },
      operations: [
        {
          call_contract: {
            contract_id: history.contract_id,
            entry_point: history.entry_point,
            args: toBase64Url(args),
          },
        },
      ],
    });
  }

  it('signs a complete transfer', () => {
    expect(signTransaction(transfer(), key).signatures).toHaveLength(1);
  });

  it('refuses a header without payer', () => {
    const error = expectWalletError(
      () => signTransaction(transfer({ header: { payer: '' } }), key),
      'INVALID_TRANSACTION',
    );
    expect(error.shortMessage).toBe('header.payer: expected an address, got none');
  });

  it('refuses a payer whose bytes (from base64, not base58) carry a wrong checksum', () => {
    const tx = transfer();
    const payer = tx.header!.payer.slice();
    payer[24]! ^= 1;
    const error = expectWalletError(
      () => signTransaction({ ...tx, header: { ...tx.header!, payer } }, key),
      'INVALID_TRANSACTION',
    );
    expect(error.shortMessage).toMatch(/^header\.payer: the address checksum does not match/);
  });

  it('refuses a KOIN transfer without from, to or value, or with a mistyped recipient in its encoded arguments', () => {
    const empty = new Uint8Array(0);
    for (const [args, message] of [
      [{ from: empty }, 'operations[0].call_contract.args.from: expected an address, got none'],
      [{ to: empty }, 'operations[0].call_contract.args.to: expected an address, got none'],
      [{ value: 0n }, 'operations[0].call_contract.args.value: expected a transfer value above 0, got none'],
    ] as const) {
      expect(
        expectWalletError(() => signTransaction(transfer({ args }), key), 'INVALID_TRANSACTION').shortMessage,
      ).toBe(message);
    }
    const bad = addressFromString(to).slice();
    bad[24]! ^= 1;
    expect(
      expectWalletError(() => signTransaction(transfer({ args: { to: bad } }), key), 'INVALID_TRANSACTION')
        .shortMessage,
    ).toMatch(/^operations\[0\]\.call_contract\.args\.to: the address checksum does not match/);
  });
});
