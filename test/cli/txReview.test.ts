// Offline review and refusals of `tx decode` / `tx sign` run in process: an unsigned transaction has no id yet (it is
// not "tampered"), KOIN and VHP calls of every known network decode without --koin, and what must not be signed is not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { toBase64Url } from '../../src-main/koinos/bytes.ts';
import { encodeKoinArgs } from '../../src-main/koinos/koin.ts';
import { KNOWN_TOKEN_CONTRACTS } from '../../src-main/koinos/knownContracts.ts';
import { vector } from '../vectors.ts';
import { failsWith, okJson, runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'koinos-cli-review-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const history = vector('mainnet-history-tx');
const key1 = vector('koilib-key-1');
const from = history.payer as string;
const to = history.receipt.event.impacted[0] as string;

/** An unsigned transfer (no id, no merkle root, no signature) on `contract`, its arguments as base64. */
function unsigned(contract: string, header: Record<string, string> = {}): Record<string, unknown> {
  const args = toBase64Url(
    encodeKoinArgs('transfer', { from: addressFromString(from), to: addressFromString(to), value: 5n }),
  );
  return {
    header: { chain_id: history.chain_id, rc_limit: history.rc_limit, nonce: history.nonce, payer: from, ...header },
    operations: [{ call_contract: { contract_id: contract, entry_point: history.entry_point, args } }],
  };
}

describe('tx decode review', () => {
  it('says an unsigned transaction has no id yet instead of reporting a mismatch', async () => {
    const out = okJson(await runCli(['tx', 'decode', JSON.stringify(unsigned(history.contract_id))]));
    expect(out.id_matches).toBeNull();
    expect(out.operation_merkle_root_matches).toBeNull();
    expect(out.note).toBe(
      'the transaction has no id and operation merkle root yet: it is unsigned; "tx sign" computes them from the content',
    );
    expect(out.computed_id).toMatch(/^0x1220[0-9a-f]{64}$/); // what the id will be once the merkle root is filled in
  });

  it('decodes KOIN and VHP calls of mainnet, testnet and the devnet without --koin', async () => {
    for (const c of KNOWN_TOKEN_CONTRACTS) {
      const out = okJson(await runCli(['tx', 'decode', JSON.stringify(unsigned(c.address))]));
      expect(out.operations, `${c.network} ${c.token}`).toEqual([
        { call_contract: { contract_id: c.address, entry_point: 'transfer', args: { from, to, value: '5' } } },
      ]);
    }
  });

  it('refuses a --koin value that is not a valid address, naming the option', async () => {
    const bad = history.contract_id.slice(0, -1) + (history.contract_id.endsWith('L') ? 'M' : 'L');
    failsWith(
      await runCli(['tx', 'decode', JSON.stringify(unsigned(history.contract_id)), '--koin', bad]),
      1,
      /^koinos-wallet: --koin: the address checksum does not match/,
    );
  });
});

describe('tx sign refusals', () => {
  const keyFile = join(dir, 'key.wif');
  writeFileSync(keyFile, key1.wif_compressed, { mode: 0o600 });

  it('refuses a transfer to a mistyped address and a misspelled field, before reading any key', async () => {
    const tx = unsigned(history.contract_id) as any;
    const call = tx.operations[0].call_contract;
    const mistyped = to.slice(0, -1) + (to.endsWith('9') ? '8' : '9');
    const decoded = {
      ...tx,
      operations: [{ call_contract: { ...call, entry_point: 'transfer', args: { from, to: mistyped, value: '5' } } }],
    };
    failsWith(
      await runCli(['tx', 'sign', '--wif-file', keyFile], JSON.stringify(decoded)),
      1,
      /^koinos-wallet: operations\[0\]\.call_contract\.args\.to: the address checksum does not match: a character is mistyped/,
    );
    const misspelled = {
      ...tx,
      operations: [{ call_contract: { ...call, entry_point: 'transfer', args: { from, to, amount: '5' } } }],
    };
    failsWith(
      await runCli(['tx', 'sign', '--wif-file', keyFile], JSON.stringify(misspelled)),
      1,
      /args\.amount: .*the closest valid name is "value"/,
    );
  });

  it('refuses a transaction without payer', async () => {
    const tx = unsigned(history.contract_id) as any;
    delete tx.header.payer;
    failsWith(
      await runCli(['tx', 'sign', '--wif-file', keyFile], JSON.stringify(tx)),
      1,
      /^koinos-wallet: header\.payer: expected an address, got none$/,
    );
  });
});
