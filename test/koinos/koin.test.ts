// KOIN contract codecs: entry points, transfer arguments, and decoding of operations and events for display.
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64Url, toHex } from '../../src-main/koinos/bytes.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import {
  decodeEventJson,
  decodeKoinArgs,
  decodeOperationJson,
  encodeKoinArgs,
  entryPoint,
  KOIN_METHODS,
  koinMethodByEntryPoint,
  koinOperation,
} from '../../src-main/koinos/koin.ts';
import { equalBytes } from '../../src-main/koinos/bytes.ts';
import { tokenEventType } from '../../src-main/koinos/tokenEvents.ts';
import { transactionFromBase64 } from '../../src-main/koinos/transaction.ts';
import { vector } from '../vectors.ts';

describe('entry points', () => {
  it('are the first four bytes of sha256 of the method name, for every published entry point', () => {
    const table = vector('koin-entry-points').entry_points as Record<string, { hex: string; dec?: number }>;
    for (const [label, ep] of Object.entries(table)) {
      const name = label.split(' ')[0]!;
      expect(`0x${entryPoint(name).toString(16).padStart(8, '0')}`).toBe(ep.hex);
      if (ep.dec !== undefined) expect(entryPoint(name)).toBe(ep.dec);
    }
  });

  it('maps every KOIN method the library knows to the published entry point', () => {
    const table = vector('koin-entry-points').entry_points as Record<string, { hex: string }>;
    for (const m of Object.values(KOIN_METHODS)) {
      expect(`0x${m.entryPoint.toString(16).padStart(8, '0')}`).toBe(table[m.name]!.hex);
      expect(koinMethodByEntryPoint(m.entryPoint)).toBe(m);
    }
  });
});

describe('transfer arguments', () => {
  it('encode as koilib encodes them', () => {
    const v = vector('koilib-transfer-args');
    const bytes = encodeKoinArgs('transfer', {
      from: addressFromString(v.from),
      to: addressFromString(v.to),
      value: BigInt(v.value),
    });
    expect(toBase64Url(bytes)).toBe(v.args_base64url);
    expect(toHex(bytes.subarray(0, 2))).toBe('0a19');
  });

  it('decode the mainnet transfer arguments', () => {
    const v = vector('docs-cli-offline-tx');
    const args = decodeKoinArgs('transfer', fromBase64(v.args));
    // The vector's koinos-cli command names the value in base units: "1.23 (=> value 123000000)".
    expect(args.value).toBe(BigInt(/value (\d+)/.exec(v.cli_command)![1]!));
    expect(equalBytes(args.from, addressFromString(v.payer))).toBe(true);
  });
});

describe('decoded operations', () => {
  it('show the method name and the argument object for KOIN calls', () => {
    const v = vector('docs-cli-offline-tx');
    const tx = transactionFromBase64(v.full_transaction_base64url);
    const koin = addressFromString(v.contract_id);
    const decoded = decodeOperationJson(tx.operations[0]!, (id) => equalBytes(id, koin));
    expect(decoded).toEqual({
      call_contract: {
        contract_id: v.contract_id,
        entry_point: 'transfer',
        args: { from: v.payer, to: expect.stringMatching(/^1/), value: /value (\d+)/.exec(v.cli_command)![1] },
      },
    });
  });

  it('leave other contracts encoded', () => {
    const v = vector('docs-cli-offline-tx');
    const tx = transactionFromBase64(v.full_transaction_base64url);
    expect(decodeOperationJson(tx.operations[0]!, () => false)).toEqual({
      call_contract: { contract_id: v.contract_id, entry_point: v.entry_point, args: v.args },
    });
  });

  it('build a KOIN operation the decoder reads back', () => {
    const v = vector('koilib-transfer-args');
    const koin = addressFromString(vector('docs-cli-offline-tx').contract_id);
    const op = koinOperation(koin, 'transfer', {
      from: addressFromString(v.from),
      to: addressFromString(v.to),
      value: 1000n,
    });
    expect(toBase64Url(op.call_contract!.args)).toBe(v.args_base64url);
    expect(decodeOperationJson(op, () => true)).toMatchObject({
      call_contract: { entry_point: 'transfer', args: { value: '1000' } },
    });
  });
});

describe('decoded events', () => {
  it('match token event names by suffix', () => {
    expect(tokenEventType('koinos.contracts.token.transfer_event')).toBe('koinos.contracts.token.transfer_event');
    expect(tokenEventType('token.transfer_event')).toBe('koinos.contracts.token.transfer_event');
    expect(tokenEventType('chain.contracts.token.burn_event')).toBe('koinos.contracts.token.burn_event');
    expect(tokenEventType('token.mint_event')).toBe('koinos.contracts.token.mint_event');
    expect(tokenEventType('koin.transfer')).toBe('koinos.contracts.token.transfer_event');
    expect(tokenEventType('mygame.transfer_event')).toBeUndefined();
  });

  it('decode the mainnet transfer event into from, to and value', () => {
    const v = vector('mainnet-history-tx');
    const ev = v.receipt.event;
    const event = {
      sequence: ev.sequence,
      source: addressFromString(ev.source),
      name: ev.name,
      data: fromBase64(v.args), // the vector says the event data equals the call arguments
      impacted: (ev.impacted as string[]).map(addressFromString),
    };
    expect(ev.data_equals_args).toBe(true);
    const json = decodeEventJson(event);
    expect(json).toEqual({
      sequence: ev.sequence,
      source: ev.source,
      name: ev.name,
      data: { from: v.payer, to: ev.impacted[0], value: expect.stringMatching(/^\d+$/) },
      impacted: ev.impacted,
    });
  });
});
