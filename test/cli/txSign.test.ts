// `tx sign` run in process (main with captured streams): a signature that `tx decode` recovers to the signing key,
// several signatures, and refusals (missing header fields, both inputs on stdin, a second signature by the same key,
// also with the merkle root left out, which tx decode then reads from the content; risks not allowed), and the review
// of what it signs, printed on stderr first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, expect } from 'vitest';
import { vector } from '../vectors.ts';
import { failsWith, okJson, reviewsIn, runCli } from '../helpers/cli.ts';

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
  const header: Record<string, string> = {
    chain_id: history.chain_id,
    rc_limit: history.rc_limit,
    nonce: history.nonce,
    payer: history.payer,
  };
  if (omit) delete header[omit];
  return JSON.stringify({
    header,
    operations: [
      { call_contract: { contract_id: history.contract_id, entry_point: history.entry_point, args: history.args } },
    ],
  });
}

describe('tx sign', () => {
  const key1File = file('key1.wif', `${key1.wif_compressed}\n`);

  it('fills in the merkle root and id and adds a signature that tx decode recovers to the key, then a second one', async () => {
    const r = await runCli(['tx', 'sign', '--wif-file', key1File], unsignedJson());
    const signed = okJson(r);
    expect(typeof signed).toBe('string');
    // What it signs, on stderr before anything else, as the app's approval dialog words it: the amount in KOIN (the
    // mainnet contract is known offline), both parties and the payer in full, the mana cap, the nonce and the network.
    const [review] = reviewsIn(r.stderr);
    expect(review).toMatch(/^koinos-wallet: signing: Sign on Koinos Mainnet\n/);
    expect(review).toContain(`  Transfer 0.0001 KOIN from ${history.payer} to `);
    expect(review).toContain('  Nonce: 1\n');
    expect(review).toContain(`  Chain ID: ${history.chain_id}\n`);
    expect(r.stderr).toMatch(
      new RegExp(`warning: the signing key's address ${key1.address_compressed} is not the payer`),
    );

    const decoded = okJson(await runCli(['tx', 'decode', signed]));
    expect(decoded.computed_id).toBe(history.transaction_id); // same header as the mainnet transaction
    expect(decoded.id_matches).toBe(true);
    expect(decoded.operation_merkle_root_matches).toBe(true);
    expect(decoded.transaction.header.operation_merkle_root).toBe(history.operation_merkle_root);
    expect(decoded.signers).toEqual([key1.address_compressed]);
    // What it does, in the words of the signing review: the network named, the nonce a number, the mana cap in mana.
    expect(decoded.summary).toEqual({
      network: 'Koinos Mainnet',
      nonce: '1',
      mana_limit: '1', // rc_limit 100000000
      operations: [
        expect.stringMatching(new RegExp(`^Transfer 0\\.0001 KOIN from ${history.payer} to 1[1-9A-HJ-NP-Za-km-z]+$`)),
      ],
    });

    // The key from stdin this time, the transaction as an argument, and the result as JSON.
    const twice = okJson(await runCli(['tx', 'sign', signed, '--json'], foobar.wif_compressed));
    expect(twice.id).toBe(history.transaction_id);
    expect(twice.signatures).toHaveLength(2);
    expect(twice.signatures[0]).toBe(decoded.transaction.signatures[0]);
    const both = okJson(await runCli(['tx', 'decode', JSON.stringify(twice)]));
    expect(both.signers[0]).toBe(key1.address_compressed);
    expect(both.signers).toHaveLength(2);
    expect(both.signers[1]).not.toBe(key1.address_compressed);

    failsWith(
      await runCli(['tx', 'sign', signed, '--wif-file', key1File]),
      1,
      new RegExp(`already signed by ${key1.address_compressed}`),
    );
    // The same, with the merkle root left out of the header: the signers are read from the content as signed.
    const { operation_merkle_root: _dropped, ...header } = decoded.transaction.header;
    const stripped = JSON.stringify({ ...decoded.transaction, header });
    failsWith(
      await runCli(['tx', 'sign', stripped, '--wif-file', key1File]),
      1,
      new RegExp(`already signed by ${key1.address_compressed}`),
    );
    const strippedDecoded = okJson(await runCli(['tx', 'decode', stripped]));
    expect(strippedDecoded.signers).toEqual([key1.address_compressed]);
    expect(strippedDecoded.note).toBe(
      'the transaction has signatures but no operation merkle root: its signers are read from its content as "tx sign" computes it',
    );
  });

  it('refuses a transaction without rc_limit, nonce or chain_id, naming the field', async () => {
    for (const field of ['rc_limit', 'nonce', 'chain_id']) {
      failsWith(
        await runCli(['tx', 'sign', '--wif-file', key1File], unsignedJson(field)),
        1,
        new RegExp(`got none for ${field}\\b`),
      );
    }
    // A nonce written as its number: the error says the form, with an example.
    const written = JSON.parse(unsignedJson()) as { header: Record<string, string> };
    written.header.nonce = '2';
    failsWith(
      await runCli(['tx', 'sign', '--wif-file', key1File], JSON.stringify(written)),
      1,
      /expected header\.nonce \(base64\), got "2" with a length that no base64 text has\. A nonce is the base64 of its value_type message: nonce 1 is "KAE=", 2 is "KAI="\./,
    );
  });

  it('refuses to read both the transaction and the key from stdin, and a key given with --wif', async () => {
    failsWith(
      await runCli(['tx', 'sign'], unsignedJson()),
      2,
      /cannot read both the transaction and the key from stdin/,
    );
    const line = failsWith(
      await runCli(['tx', 'sign', '--wif', key1.wif_compressed], unsignedJson()),
      2,
      /--wif is not accepted/,
    );
    expect(line).not.toContain(key1.wif_compressed);
  });
});

describe('tx sign and the risks of a transaction', () => {
  const keyFile = file('risk-key.wif', `${key1.wif_compressed}\n`);
  const me = key1.address_compressed as string;
  const header = { chain_id: history.chain_id, rc_limit: history.rc_limit, nonce: history.nonce, payer: me };
  const upload = JSON.stringify({
    header,
    operations: [
      {
        upload_contract: {
          contract_id: me,
          bytecode: 'AGFzbQEAAAA=',
          abi: '',
          authorizes_call_contract: false,
          authorizes_transaction_application: false,
          authorizes_upload_contract: true,
        },
      },
    ],
  });

  it('lists them in tx decode, addresses in full', async () => {
    const out = okJson(await runCli(['tx', 'decode', upload]));
    expect(out.risks.map((r: { name: string }) => r.name)).toEqual(['replaces-account', 'upload-contract']);
    expect(out.risks[0]).toEqual({
      code: 'REPLACES_ACCOUNT',
      name: 'replaces-account',
      message: expect.stringContaining(
        `over ${me}, the signer's own account: this replaces this account with contract code`,
      ),
    });
    // A KOIN transfer of mainnet to another account has none.
    expect(okJson(await runCli(['tx', 'decode', unsignedJson()])).risks).toEqual([]);
  });

  it("refuses an upload over the signing key's own account until each risk is allowed by name, then signs it", async () => {
    const refused = failsWith(
      await runCli(['tx', 'sign', upload, '--wif-file', keyFile]),
      1,
      /refused to sign: the transaction needs --allow-risk replaces-account --allow-risk upload-contract to be signed; nothing was signed or sent/,
    );
    expect(refused).toMatch(
      /replaces-account: It uploads contract code over .*upload-contract: It uploads contract code to/,
    );
    failsWith(
      await runCli(['tx', 'sign', upload, '--wif-file', keyFile, '--allow-risk', 'upload-contract']),
      1,
      /needs --allow-risk replaces-account to be signed/,
    );
    const signed = okJson(
      await runCli([
        'tx',
        'sign',
        upload,
        '--wif-file',
        keyFile,
        '--allow-risk',
        'upload-contract',
        '--allow-risk=replaces-account',
      ]),
    );
    expect(okJson(await runCli(['tx', 'decode', signed])).signers).toEqual([me]);
  });

  it('refuses a call to an unknown contract with arguments it cannot decode, and an unknown risk name', async () => {
    const call = JSON.stringify({
      header,
      operations: [{ call_contract: { contract_id: me, entry_point: 1234, args: 'AQID' } }],
    });
    failsWith(
      await runCli(['tx', 'sign', call, '--wif-file', keyFile]),
      1,
      /needs --allow-risk unknown-contract --allow-risk no-abi to be signed/,
    );
    expect(
      typeof okJson(
        await runCli([
          'tx',
          'sign',
          call,
          '--wif-file',
          keyFile,
          '--allow-risk',
          'unknown-contract',
          '--allow-risk',
          'no-abi',
        ]),
      ),
    ).toBe('string');
    failsWith(
      await runCli(['tx', 'sign', call, '--wif-file', keyFile, '--allow-risk', 'everything']),
      1,
      /--allow-risk: expected one of replaces-account, upload-contract, .*, got "everything"/,
    );
  });

  it('signs an unflagged transaction without any --allow-risk', async () => {
    const decoded = okJson(await runCli(['tx', 'decode', unsignedJson()]));
    expect(decoded.risks).toEqual([]);
    expect(typeof okJson(await runCli(['tx', 'sign', '--wif-file', keyFile], unsignedJson()))).toBe('string');
  });
});
