// README's "Develop a contract" as written: its two build commands compile the guestbook in a contract folder of its
// own, byte for byte the committed build the other tests use, its asconfig advice matches the guestbook's
// asconfig.json, and its koilib upload script uploads and calls the contract on a real devnet over HTTP.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { Contract, Provider, Signer } from 'koilib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { checkModule } from '../../../src-main/devnet/vm/checkModule.ts';
import { NO_PROTOC, buildContract, findProtoc, type BuiltContract } from '../../contracts/build.ts';
import { rpcError } from '../httpHelpers.ts';
import { included } from '../koilibContract.ts';
import { BUILT_CLI } from '../../helpers/builtApp.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf('## Develop a contract'));
/** Under the repository, so that the scripts find its node_modules as a contract project finds its own. */
const scratch = join(ROOT, 'test/contracts/.build', `readme-${process.pid}-${Date.now()}`);
/** A cold build runs protoc, as-proto-gen and asc: tens of seconds on a busy 2-core machine. */
const BUILD_TIMEOUT_MS = 300_000;
/**
 * A README script on the devnet: the CLI's five commands are five node processes, 2 s alone, 8-13 s in a clean-clone
 * run of the suite on a 2-core machine, and over 30 s (the unit tests' default timeout, which failed it) in one with two
 * busy loops beside it. The test waits longer than the script may run, so a script that hangs fails with its output.
 */
const SCRIPT_TIMEOUT_MS = 120_000;
const SCRIPT_TEST = { timeout: SCRIPT_TIMEOUT_MS + 10_000 };

let built: BuiltContract;
/** The guestbook built without exportStart and the disabled features (set by the build test). */
let templateBuild: Uint8Array | undefined;

/** The body of the first fenced block of `lang` after `heading` in the section. */
function blockAfter(heading: string, lang: string): string {
  const from = SECTION.indexOf(heading);
  expect(from, `README's "Develop a contract" has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(SECTION.slice(from));
  expect(match, `no ${lang} block after "${heading}"`).not.toBeNull();
  return match![1]!;
}

beforeAll(async () => {
  if (NO_PROTOC !== undefined) return;
  mkdirSync(scratch, { recursive: true });
  built = await buildContract('guestbook');
}, BUILD_TIMEOUT_MS);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(NO_PROTOC !== undefined)("README's Develop a contract", () => {
  it('names what the build needs: protoc from protobuf-compiler, the SDK, outFile, _start, no bulk memory or sign extension', () => {
    for (const needed of [
      'protobuf-compiler',
      '@koinos/sdk-as@1.4.0',
      'assemblyscript@0.27.37',
      '"outFile"',
      '"exportStart": "_start"',
      '"disable": ["sign-extension", "bulk-memory"]',
      'yarn',
    ]) {
      expect(SECTION).toContain(needed);
    }
    const asconfig = JSON.parse(readFileSync(join(ROOT, 'test/contracts/guestbook/asconfig.json'), 'utf8'));
    expect(asconfig.options).toMatchObject({ exportStart: '_start', disable: ['sign-extension', 'bulk-memory'] });
    expect(asconfig.targets.release.outFile).toBe('build/contract.wasm');
  });

  it(
    'builds the guestbook with its two commands in a contract folder',
    async () => {
      const folder = join(scratch, 'guestbook');
      cpSync(join(ROOT, 'test/contracts/guestbook'), folder, { recursive: true });
      mkdirSync(join(folder, 'koinos'));
      cpSync(join(ROOT, 'proto/koinos/options.proto'), join(folder, 'koinos/options.proto'));
      symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
      // The system's protoc first, as in a shell without npm's node_modules/.bin on PATH.
      const path = [
        join(findProtoc(), '..'),
        ...(process.env.PATH ?? '').split(delimiter).filter((d) => !d.includes('node_modules')),
      ].join(delimiter);
      await run('bash', ['-euo', 'pipefail', '-c', blockAfter('What it takes', 'sh')], {
        cwd: folder,
        env: { ...process.env, PATH: path },
        timeout: BUILD_TIMEOUT_MS,
      });
      const wasm = new Uint8Array(readFileSync(join(folder, 'build/contract.wasm')));
      expect(checkModule(wasm).exports.map((e) => e.name)).toContain('_start');
      expect(existsSync(join(folder, 'assembly/proto/guestbook.ts'))).toBe(true);
      // The guestbook the other tests use (test/contracts/built/, committed) is what these commands make, byte for byte.
      expect(
        Buffer.from(wasm).equals(Buffer.from(built.bytecode)),
        'the README build differs from the guestbook used',
      ).toBe(true);

      // Without the two options (as koinos-sdk-as-cli's template builds), asc 0.27 uses bulk memory and a wasm start
      // section: the module the next test uploads. Built unoptimized (-O0): the features are in the module at any
      // level, and optimizing costs 3 s of CPU more.
      const asconfig = JSON.parse(readFileSync(join(folder, 'asconfig.json'), 'utf8'));
      asconfig.targets.release.outFile = 'build/template.wasm';
      asconfig.options = {};
      writeFileSync(join(folder, 'template.json'), JSON.stringify(asconfig));
      await run('npx', ['asc', 'assembly/index.ts', '--config', 'template.json', '--target', 'release', '-O0'], {
        cwd: folder,
        env: { ...process.env, PATH: path },
        timeout: BUILD_TIMEOUT_MS,
      });
      templateBuild = new Uint8Array(readFileSync(join(folder, 'build/template.wasm')));
    },
    BUILD_TIMEOUT_MS,
  );

  describe('on a devnet', () => {
    let devnet: Devnet;
    beforeAll(async () => {
      devnet = await startDevnet({ port: 0, blockTimeMs: 0, accounts: 1, log: () => {} });
    });
    afterAll(async () => {
      await devnet?.stop();
    });

    it('uploads and calls the contract with the koilib script as written', SCRIPT_TEST, async () => {
      const script = join(scratch, 'upload.mjs');
      writeFileSync(script, blockAfter('### Upload and call it', 'js'));
      const [account] = devnet.accounts;
      // Asynchronous: the devnet answers from this process while the script runs.
      const { stdout } = await run(process.execPath, [script, built.dir], {
        cwd: scratch,
        env: { ...process.env, DEVNET: `${devnet.url}/jsonrpc`, WIF: account!.wif },
        timeout: SCRIPT_TIMEOUT_MS,
      });
      const [signed, count] = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(signed.event).toBe('guestbook.signed');
      expect(signed.args).toEqual({ number: '1', signer: account!.address, message: 'hello, devnet' });
      expect(BigInt(signed.compute)).toBeGreaterThan(100_000n);
      expect(count).toEqual({ value: '1' });
    });

    it('refuses, when called, a build without the asconfig options, naming bulk memory as the chain would', async () => {
      expect(templateBuild, 'the build test made it').toBeDefined();
      const key = Object.assign(Signer.fromSeed('koinos-wallet sdk-as template build key'), {
        provider: new Provider([`${devnet.url}/jsonrpc`]),
      });
      const payer = Object.assign(Signer.fromWif(devnet.accounts[0]!.wif), { provider: key.provider });
      const contract = new Contract({
        id: key.getAddress(),
        abi: built.abi as ConstructorParameters<typeof Contract>[0]['abi'],
        provider: key.provider,
        signer: key,
        bytecode: templateBuild!,
      });
      // The chain does not parse a module at upload: the upload goes through.
      const deployed = await contract.deploy({
        payer: payer.getAddress(),
        signTransaction: false,
        sendTransaction: false,
      });
      const signed = await payer.signTransaction(await key.signTransaction(deployed.transaction!));
      await included(key.provider!, (await key.provider!.sendTransaction(signed)).transaction);
      const error = await rpcError(devnet.url, 'chain.read_contract', {
        contract_id: key.getAddress(),
        entry_point: built.abi.methods.count!.entry_point,
        args: '',
      });
      expect(error.message).toMatch(
        /^could not parse fizzy module - FizzyErrorMalformedModule: .*needs bulk memory, which WebAssembly 1.0 \(the chain's fizzy\) does not have at byte \d+/,
      );
    });

    it('uploads, calls and reads the contract with the CLI commands as written', SCRIPT_TEST, async () => {
      const folder = join(scratch, 'cli');
      mkdirSync(join(folder, 'build'), { recursive: true });
      cpSync(join(built.dir, 'contract.wasm'), join(folder, 'build/contract.wasm'));
      cpSync(join(built.dir, 'abi.json'), join(folder, 'abi.json'));
      writeFileSync(join(folder, 'alice.wif'), devnet.accounts[0]!.wif);
      // The CLI of this checkout (its build, made first when a source is newer); its contract commands are pointed at
      // this devnet instead of the default local one.
      const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)}`;
      const wrapper = `cli() { if [ "$1" = contract ]; then ${cli} "$@" --network "$DEVNET_URL"; else ${cli} "$@"; fi; }\n`;
      const script = wrapper + blockAfter('### Or with the CLI', 'sh').replaceAll('npm run --silent cli --', 'cli');
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: folder,
        env: { ...process.env, DEVNET_URL: devnet.url },
        timeout: SCRIPT_TIMEOUT_MS,
      });
      // key new wrote guestbook.json; then upload, call, read and abi print one JSON document each.
      const key = JSON.parse(readFileSync(join(folder, 'guestbook.json'), 'utf8')) as { address: string };
      const [upload, call, read, abi] = stdout.split(/\n(?=\{)/).map((doc) => JSON.parse(doc));
      expect(upload.contract_id).toBe(key.address);
      expect(call.receipt.events).toEqual([
        {
          source: key.address,
          name: 'guestbook.signed',
          data: { number: '1', signer: key.address, message: 'hello' },
          impacted: [key.address],
        },
      ]);
      expect(read).toEqual({ value: '1' });
      // What was uploaded, plus the JSON types the CLI derives from it.
      expect(abi.abi).toMatchObject(built.abi);
    });
  });
});
