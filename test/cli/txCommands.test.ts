// `tx decode` and `tx encode` run in process on the real mainnet transactions of the vectors: ids, merkle roots,
// signers, KOIN operations decoded and encoded back byte for byte, and one-line errors for malformed input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, expect } from 'vitest';
import { fromBase64 } from '../../src-main/koinos/bytes.ts';
import { decodeKoinArgs } from '../../src-main/koinos/koin.ts';
import { addressToString } from '../../src-main/koinos/address.ts';
import { vector, type Vector } from '../vectors.ts';
import { failsWith, okJson, runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'koinos-cli-tx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const offline = vector('docs-cli-offline-tx');
const history = vector('mainnet-history-tx');

/** A signed transaction's JSON, as the gateway renders it, from a transaction vector's fields. */
function transactionJson(v: Vector): Record<string, any> {
  return {
    id: v.transaction_id,
    header: {
      chain_id: v.chain_id,
      rc_limit: v.rc_limit,
      nonce: v.nonce,
      operation_merkle_root: v.operation_merkle_root,
      payer: v.payer,
    },
    operations: [{ call_contract: { contract_id: v.contract_id, entry_point: v.entry_point, args: v.args } }],
    signatures: v.signatures,
  };
}

/** The transfer arguments of a vector, rendered as `tx decode` shows them. */
function transferArgs(v: Vector): { from: string; to: string; value: string } {
  const args = decodeKoinArgs('transfer', fromBase64(v.args));
  return { from: addressToString(args.from), to: addressToString(args.to), value: args.value.toString() };
}

describe('tx decode', () => {
  it('decodes the koinos-cli base64 of a mainnet transfer: id, merkle root, signer and the transfer', async () => {
    const out = okJson(await runCli(['tx', 'decode', offline.full_transaction_base64url]));
    expect(out.computed_id).toBe(offline.transaction_id);
    expect(out.transaction.id).toBe(offline.transaction_id);
    expect(out.id_matches).toBe(true);
    expect(out.operation_merkle_root_matches).toBe(true);
    expect(out.signers).toEqual([offline.expected_signer]);
    expect(out.signer_errors).toBeUndefined();
    expect(out.transaction.operations[0].call_contract.args).toBe(offline.args);
    const value = /value (\d+)/.exec(offline.cli_command)![1];
    expect(value).toBe('123000000');
    expect(out.operations).toEqual([
      {
        call_contract: {
          contract_id: offline.contract_id,
          entry_point: 'transfer',
          args: { from: offline.payer, to: transferArgs(offline).to, value },
        },
      },
    ]);
  });

  it('decodes a transaction given as JSON on stdin and as @file the same way', async () => {
    const fromStdin = okJson(await runCli(['tx', 'decode'], JSON.stringify(transactionJson(history))));
    const file = join(dir, 'history.json');
    writeFileSync(file, JSON.stringify(transactionJson(history)));
    const fromFile = okJson(await runCli(['tx', 'decode', `@${file}`]));
    for (const out of [fromStdin, fromFile]) {
      expect(out.computed_id).toBe(history.transaction_id);
      expect(out.id_matches).toBe(true);
      expect(out.operation_merkle_root_matches).toBe(true);
      expect(out.signers).toEqual([history.expected_signer]);
      expect(out.operations[0].call_contract).toEqual({
        contract_id: history.contract_id,
        entry_point: 'transfer',
        args: transferArgs(history),
      });
    }
  });

  it('decodes calls to another contract only when --koin names it, and reports a signature that does not recover', async () => {
    const contract = vector('koilib-key-1').address_compressed as string;
    const tx = transactionJson(offline);
    tx.operations[0].call_contract.contract_id = contract;
    tx.signatures = [`G${offline.signatures[0].slice(1)}`]; // header byte 27: not a Koinos compact signature
    const plain = okJson(await runCli(['tx', 'decode', JSON.stringify(tx)]));
    expect(plain.operations[0].call_contract.entry_point).toBe(offline.entry_point);
    expect(plain.operation_merkle_root_matches).toBe(false);
    expect(plain.signers).toEqual([null]);
    expect(plain.signer_errors).toEqual([{ signature: 0, error: expect.stringMatching(/header byte 27/) }]);
    const withKoin = okJson(await runCli(['tx', 'decode', '--koin', contract, JSON.stringify(tx)]));
    expect(withKoin.operations[0].call_contract.entry_point).toBe('transfer');
  });

  it('rejects malformed input with exit code 1 and one line saying what was expected', async () => {
    failsWith(
      await runCli(['tx', 'decode', 'not a transaction']),
      1,
      /expected a transaction as base64 or JSON, got "not a transaction"/,
    );
    failsWith(
      await runCli(['tx', 'decode'], '{"header": '),
      1,
      /expected a transaction as base64 or JSON, got .*JSON that does not parse/,
    );
    failsWith(
      await runCli(['tx', 'decode', 'AAAA']),
      1,
      /expected the URL-safe base64 of a transaction's protobuf bytes/,
    );
    failsWith(
      await runCli(['tx', 'decode', `@${join(dir, 'missing.json')}`]),
      1,
      /cannot read a transaction .* no such file/,
    );
  });
});

describe('tx encode', () => {
  it('encodes JSON with the transfer written decoded to the koinos-cli bytes, byte for byte', async () => {
    const tx = transactionJson(offline);
    tx.operations = [
      { call_contract: { contract_id: offline.contract_id, entry_point: 'transfer', args: transferArgs(offline) } },
    ];
    expect(okJson(await runCli(['tx', 'encode'], JSON.stringify(tx)))).toBe(offline.full_transaction_base64url);
  });

  it('re-encodes the output of tx decode to the same bytes', async () => {
    const decoded = (await runCli(['tx', 'decode', offline.full_transaction_base64url])).stdout;
    expect(okJson(await runCli(['tx', 'encode', '-'], decoded))).toBe(offline.full_transaction_base64url);
  });

  it('rejects an operation naming a method KOIN does not have', async () => {
    const tx = transactionJson(offline);
    tx.operations = [{ call_contract: { contract_id: offline.contract_id, entry_point: 'steal', args: {} } }];
    failsWith(
      await runCli(['tx', 'encode', JSON.stringify(tx)]),
      1,
      /operations\[0\]\.call_contract\.entry_point: expected .*KOIN method name .*got "steal"/,
    );
  });
});
