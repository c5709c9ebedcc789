// `koinos-wallet contract upload | read | call | abi` run in process against a real devnet over HTTP: the prebuilt
// KCS-4 token of @koinosbox/contracts uploaded with its ABI, minted, transferred and read by method name, with
// one-line errors that say what was expected (the ABI's methods, the field, a WebAssembly module), and nothing signed
// without the --allow-risk of an upload (it replaces the key's account) or of a call to a contract the network does
// not hold as a system contract.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { addressFromPublicKey, addressToString } from '../../src-main/koinos/address.ts';
import { parsePrivateKey, publicKeyFromPrivateKey } from '../../src-main/koinos/keys.ts';
import { KOIN } from '../devnet/helpers.ts';
import { cutBalanceUnderWaiting, testDevnet } from '../wallet/chain/helpers.ts';
import { failsWith, runCli, type CliResult } from '../helpers/cli.ts';
import { uploadCollection } from '../wallet/chain/nftFixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = join(ROOT, 'node_modules/@koinosbox/contracts/assembly/token');
const dir = mkdtempSync(join(tmpdir(), 'koinos-cli-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ok(r: CliResult): any {
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

describe('contract commands of the CLI', () => {
  it("refuses to sign a collection's grant of every NFT to another account without --allow-risk nft-allowance, and lists and takes back allowances", async () => {
    const devnet = await testDevnet();
    const [alice, bob] = devnet.accounts;
    const collection = await uploadCollection(`${devnet.url}/jsonrpc`, devnet.koinAddress, bob!, 'cli nft grant');
    await collection.mint(alice!.address, '0x01');
    const grant = (...allow: string[]) =>
      runCli([
        ...['contract', 'call', collection.address, 'set_approval_for_all'],
        JSON.stringify({ approver_address: alice!.address, operator_address: bob!.address, approved: true }),
        ...['--key-file', file('grant.wif', `${alice!.wif}\n`), '--network', `${devnet.url}/jsonrpc`],
        ...['--allow-risk', 'unknown-contract', ...allow.flatMap((name) => ['--allow-risk', name])],
      ]);
    const refused = failsWith(await grant(), 1, /--allow-risk nft-allowance/);
    expect(refused).toContain(`${bob!.address} (every NFT of ${collection.address} held by ${alice!.address})`);
    const granted = ok(await grant('nft-allowance'));
    expect(granted.receipt.reverted ?? false).toBe(false);
    expect(granted.receipt.events.map((e: { name: string }) => e.name)).toEqual([
      'collections.operator_approval_event',
    ]);

    // `allowances` lists it with a KOIN allowance given with `contract call`; both are taken back the way its help
    // says, and the list is empty. Setting an allowance to 0 frees its bytes: rc_limit covers what it used before.
    const net = ['--network', `${devnet.url}/jsonrpc`];
    const key = [
      '--key-file',
      file(
        'allowances.wif',
        `${alice!.wif}
`,
      ),
    ];
    const approve = (value: string, ...allow: string[]) =>
      runCli([
        ...['contract', 'call', 'koin', 'approve'],
        JSON.stringify({ owner: alice!.address, spender: bob!.address, value }),
        ...key,
        ...net,
        ...allow,
      ]);
    ok(await approve('250000000', '--allow-risk', 'token-allowance'));
    const listed = ok(await runCli(['allowances', alice!.address, '--collection', collection.address, ...net]));
    expect(listed).toEqual({
      address: alice!.address,
      network: expect.any(String),
      allowances: [
        {
          kind: 'token',
          contract: devnet.koinAddress,
          symbol: 'KOIN',
          spender: bob!.address,
          amount: '2.5',
          base_units: '250000000',
          unlimited: false,
        },
        {
          kind: 'nft-operator',
          contract: collection.address,
          name: 'My NFT',
          symbol: 'NFT',
          operator: bob!.address,
        },
      ],
      read: 3,
      unread: [],
      cut: [],
    });
    expect(ok(await approve('0')).receipt.reverted ?? false).toBe(false);
    ok(
      await runCli([
        ...['contract', 'call', collection.address, 'set_approval_for_all'],
        JSON.stringify({ approver_address: alice!.address, operator_address: bob!.address, approved: false }),
        ...key,
        ...net,
        ...['--allow-risk', 'unknown-contract'],
      ]),
    );
    const after = ok(await runCli(['allowances', alice!.address, '--collection', collection.address, ...net]));
    expect(after.allowances).toEqual([]);
    // A collection that is not one is refused, saying what it found.
    failsWith(
      await runCli(['allowances', alice!.address, '--collection', devnet.koinAddress, ...net]),
      1,
      /expected a KCS-5 NFT collection/,
    );
  });

  it("exits with the chain's reason, on one line, when the chain includes a call but reverts it", async () => {
    const devnet = await testDevnet({ manual: true });
    const [a, b] = devnet.accounts;
    const calling = runCli([
      'contract',
      'call',
      'koin',
      'transfer',
      JSON.stringify({ from: a!.address, to: b!.address, value: String(KOIN) }),
      '--key-file',
      file('reverted.wif', `${a!.wif}\n`),
      '--network',
      `${devnet.url}/jsonrpc`,
    ]);
    await cutBalanceUnderWaiting(devnet, a!.address);
    failsWith(
      await calling,
      1,
      /Included in block \d+, but the chain reverted it: account 'from' has insufficient balance\. Nothing was changed but the mana it used\./,
    );
  });

  it(
    'uploads the KCS-4 token with its ABI, then mints, transfers and reads it by method name',
    { timeout: 240_000 },
    async () => {
      const devnet = await testDevnet({ initialBalance: 1_000_000n * KOIN });
      const [alice, bob] = devnet.accounts;
      const net = ['--network', `${devnet.url}/jsonrpc`];
      // The token's key: a fresh account funded by alice (the contract id is the key's address).
      const tokenWif = 'L59UtJcTdNBnrH2QSBA5beSUhRufRu3g6tScDTite6Msuj7U93tM';
      const tokenAddress = addressToString(
        addressFromPublicKey(publicKeyFromPrivateKey(parsePrivateKey(tokenWif).privateKey, true)),
      );
      const aliceKey = file('alice.wif', `${alice!.wif}\n`);
      const tokenKey = file('token.wif', `${tokenWif}\n`);
      ok(
        await runCli([
          'transfer',
          '--from',
          alice!.address,
          '--to',
          tokenAddress,
          '--amount',
          '100',
          '--wif-file',
          aliceKey,
          ...net,
        ]),
      );

      const uploadArgs = [
        'contract',
        'upload',
        join(TOKEN, 'release/token.wasm'),
        '--abi',
        join(TOKEN, 'token-abi.json'),
        '--key-file',
        tokenKey,
        ...net,
      ];
      failsWith(
        await runCli(uploadArgs),
        1,
        /refused to sign: the transaction needs --allow-risk replaces-account --allow-risk upload-contract to be signed; nothing was signed or sent\. replaces-account: .*this replaces this account with contract code/,
      );
      failsWith(
        await runCli([...uploadArgs, '--allow-risk', 'upload-contract']),
        1,
        /needs --allow-risk replaces-account to be signed/,
      );
      failsWith(await runCli(['contract', 'abi', tokenAddress, ...net]), 1, /the node has no ABI for contract/); // nothing was uploaded
      const uploaded = ok(
        await runCli([...uploadArgs, '--allow-risk', 'replaces-account', '--allow-risk', 'upload-contract']),
      );
      expect(uploaded).toMatchObject({
        contract_id: tokenAddress,
        status: expect.stringMatching(/^(included|irreversible)$/),
        receipt: { payer: tokenAddress },
      });
      expect(uploaded.block_height).toBeDefined();
      const abi = ok(await runCli(['contract', 'abi', tokenAddress, ...net]));
      expect(abi.abi.methods.transfer).toMatchObject({ entry_point: 670398154, read_only: false });

      // The token is no system contract of this network: a call to it, and a transfer of it, need --allow-risk unknown-contract.
      const unknown = ['--allow-risk', 'unknown-contract'];
      const mint = [
        'contract',
        'call',
        tokenAddress,
        'mint',
        JSON.stringify({ to: alice!.address, value: '1000' }),
        '--key-file',
        tokenKey,
        ...net,
      ];
      failsWith(
        await runCli(mint),
        1,
        new RegExp(
          `needs --allow-risk unknown-contract to be signed; nothing was signed or sent\\. unknown-contract: It calls ${tokenAddress}, a contract that is neither`,
        ),
      );
      const minted = ok(await runCli([...mint, ...unknown]));
      expect(minted.receipt.events).toEqual([
        {
          source: tokenAddress,
          name: 'token.mint_event',
          data: { to: alice!.address, value: '1000' },
          impacted: [alice!.address],
        },
      ]);
      // rc_limit came from the dry run: the used mana plus a margin, far below the account's mana.
      expect(BigInt(minted.receipt.rc_limit)).toBeGreaterThanOrEqual(BigInt(minted.receipt.rc_used));
      expect(BigInt(minted.receipt.rc_limit)).toBeLessThan(BigInt(minted.receipt.max_payer_rc));

      const sent = ok(
        await runCli([
          'contract',
          'call',
          tokenAddress,
          'transfer',
          JSON.stringify({ from: alice!.address, to: bob!.address, value: '300' }),
          '--key-file',
          aliceKey,
          ...net,
          ...unknown,
        ]),
      );
      expect(sent.receipt.events[0]).toMatchObject({
        name: 'token.transfer_event',
        data: { from: alice!.address, to: bob!.address, value: '300' },
      });

      // Another account pays (koinos-cli's `payer`): it signs too, and the key's account stays the nonce account (payee).
      const bobKey = file('bob.wif', `${bob!.wif}\n`);
      const paid = ok(
        await runCli([
          'contract',
          'call',
          tokenAddress,
          'transfer',
          JSON.stringify({ from: alice!.address, to: bob!.address, value: '1' }),
          '--key-file',
          aliceKey,
          '--payer-key-file',
          bobKey,
          ...net,
          ...unknown,
        ]),
      );
      expect(paid.receipt.payer).toBe(bob!.address);
      expect(
        ok(
          await runCli([
            'contract',
            'read',
            tokenAddress,
            'balance_of',
            JSON.stringify({ owner: alice!.address }),
            ...net,
          ]),
        ),
      ).toEqual({ value: '699' });

      expect(
        ok(
          await runCli([
            'contract',
            'read',
            tokenAddress,
            'balance_of',
            JSON.stringify({ owner: bob!.address }),
            ...net,
          ]),
        ),
      ).toEqual({ value: '301' });
      // `transfer` signs through the same gate: the token is refused before its dry run is signed, then sent when allowed.
      const transfer = [
        'transfer',
        '--from',
        alice!.address,
        '--to',
        bob!.address,
        '--amount',
        '0.00000002',
        '--token',
        tokenAddress,
        '--wif-file',
        aliceKey,
        ...net,
      ];
      failsWith(
        await runCli(transfer),
        1,
        /needs --allow-risk unknown-contract to be signed; nothing was signed or sent/,
      );
      expect(
        ok(
          await runCli([
            'contract',
            'read',
            tokenAddress,
            'balance_of',
            JSON.stringify({ owner: bob!.address }),
            ...net,
          ]),
        ),
      ).toEqual({ value: '301' });
      ok(await runCli([...transfer, ...unknown]));
      expect(
        ok(
          await runCli([
            'contract',
            'read',
            tokenAddress,
            'balance_of',
            JSON.stringify({ owner: bob!.address }),
            ...net,
          ]),
        ),
      ).toEqual({ value: '303' });
      // KOIN by its system name needs no --allow-risk: the node names it.
      ok(
        await runCli([
          'contract',
          'call',
          'koin',
          'transfer',
          JSON.stringify({ from: alice!.address, to: bob!.address, value: '1' }),
          '--key-file',
          aliceKey,
          ...net,
        ]),
      );
      expect(ok(await runCli(['contract', 'read', tokenAddress, 'symbol', ...net]))).toMatchObject({
        value: expect.any(String),
      });
      // A system contract by name, through the ABI the devnet serves for it.
      expect(
        ok(await runCli(['contract', 'read', 'koin', 'balance_of', JSON.stringify({ owner: tokenAddress }), ...net]))
          .value,
      ).toMatch(/^\d+$/);

      failsWith(
        await runCli(['contract', 'read', tokenAddress, 'balance', '{}', ...net]),
        1,
        /method: expected one of the ABI's methods \(name, symbol, decimals, .*balance_of.*\), got "balance"/,
      );
      failsWith(
        await runCli(['contract', 'read', tokenAddress, 'balance_of', '{"ownr": "x"}', ...net]),
        1,
        /arguments of balance_of: ownr: .*closest valid name is "owner"/,
      );
      failsWith(
        await runCli(['contract', 'read', tokenAddress, 'balance_of', '{owner}', ...net]),
        1,
        /arguments of balance_of: expected a JSON object such as/,
      );
      failsWith(
        await runCli(['contract', 'read', tokenAddress, 'transfer', '{}', ...net]),
        1,
        /expected a read-only method .* use "contract call"/,
      );
      failsWith(await runCli(['contract', 'abi', bob!.address, ...net]), 1, /the node has no ABI for contract/);
      failsWith(
        await runCli(['contract', 'upload', join(TOKEN, 'token-abi.json'), '--key-file', tokenKey, ...net]),
        1,
        /WASM: expected a WebAssembly module/,
      );
      failsWith(
        await runCli([...mint, '--allow-risk', 'all']),
        1,
        /--allow-risk: expected one of replaces-account, .*, got "all"/,
      );
      failsWith(
        await runCli([
          'contract',
          'upload',
          join(TOKEN, 'release/token.wasm'),
          '--abi',
          file('bad-abi.json', '{"methods": 1}'),
          '--key-file',
          tokenKey,
          ...net,
        ]),
        1,
        /ABI methods: expected an object/,
      );
      failsWith(
        await runCli(['contract', 'deploy', ...net]),
        2,
        /unknown contract command "deploy"; expected upload, read, call or abi/,
      );
    },
  );
});
