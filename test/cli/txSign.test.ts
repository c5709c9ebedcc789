// `tx sign` run as a process: a signature that `tx decode` recovers to the signing key, several signatures,
// and refusals (missing header fields, both inputs on stdin, a second signature by the same key).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, expect } from 'vitest';
import { vector } from '../vectors.ts';
import { failsWith, okJson, runCli } from './runCli.ts';

const dir = mkdtempSync(join(tmpdir(), 'koinos-cli-sign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

const history = vector('mainnet-history-tx');
const key1 = vector('koilib-key-1');
const foobar = vector('crypto-cpp-wif-foobar');

/** An unsigned transaction (no id, no merkle root, no signature) with the header and operation of the mainnet vector. */
function unsignedJson(omit?: string): string {
  const header: Record<string, string> = { chain_id: history.chain_id, rc_limit: history.rc_limit, nonce: history.nonce, payer: history.payer };
  if (omit) delete header[omit];
  return JSON.stringify({ header, operations: [{ call_contract: { contract_id: history.contract_id, entry_point: history.entry_point, args: history.args } }] });
}

describe('tx sign', () => {
  const key1File = file('key1.wif', `${key1.wif_compressed}\n`);

  it('fills in the merkle root and id and adds a signature that tx decode recovers to the key, then a second one', () => {
    const r = runCli(['tx', 'sign', '--wif-file', key1File], unsignedJson());
    const signed = okJson(r);
    expect(typeof signed).toBe('string');
    expect(r.stderr).toMatch(new RegExp(`warning: the signing key's address ${key1.address_compressed} is not the payer`));

    const decoded = okJson(runCli(['tx', 'decode', signed]));
    expect(decoded.computed_id).toBe(history.transaction_id); // same header as the mainnet transaction
    expect(decoded.id_matches).toBe(true);
    expect(decoded.operation_merkle_root_matches).toBe(true);
    expect(decoded.transaction.header.operation_merkle_root).toBe(history.operation_merkle_root);
    expect(decoded.signers).toEqual([key1.address_compressed]);

    // The key from stdin this time, the transaction as an argument, and the result as JSON.
    const twice = okJson(runCli(['tx', 'sign', signed, '--json'], foobar.wif_compressed));
    expect(twice.id).toBe(history.transaction_id);
    expect(twice.signatures).toHaveLength(2);
    expect(twice.signatures[0]).toBe(decoded.transaction.signatures[0]);
    const both = okJson(runCli(['tx', 'decode', JSON.stringify(twice)]));
    expect(both.signers[0]).toBe(key1.address_compressed);
    expect(both.signers).toHaveLength(2);
    expect(both.signers[1]).not.toBe(key1.address_compressed);

    failsWith(runCli(['tx', 'sign', signed, '--wif-file', key1File]), 1, new RegExp(`already signed by ${key1.address_compressed}`));
  });

  it('refuses a transaction without rc_limit, nonce or chain_id, naming the field', () => {
    for (const field of ['rc_limit', 'nonce', 'chain_id']) {
      failsWith(runCli(['tx', 'sign', '--wif-file', key1File], unsignedJson(field)), 1, new RegExp(`got none for ${field}\\b`));
    }
  });

  it('refuses to read both the transaction and the key from stdin, and a key given with --wif', () => {
    failsWith(runCli(['tx', 'sign'], unsignedJson()), 2, /cannot read both the transaction and the key from stdin/);
    const line = failsWith(runCli(['tx', 'sign', '--wif', key1.wif_compressed], unsignedJson()), 2, /--wif is not accepted/);
    expect(line).not.toContain(key1.wif_compressed);
  });
});
