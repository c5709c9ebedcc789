// `koinos-wallet devnet` as a real process: the JSON first line, the printed URLs, chain ID and development accounts
// with the development-only banner, a clean stop on SIGINT and SIGTERM, persistence in --data-dir; and usage errors,
// run in process.
import { Contract, Provider, Signer, utils } from 'koilib';
import { describe, it, expect, afterEach } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { rpc, rest } from './httpHelpers.ts';
import { runDevnetToExit, spawnDevnet, type DevnetProcess } from './devnetProcess.ts';
import { tempDir } from '../helpers/tempDir.ts';
import { runCli } from '../helpers/cli.ts';

const running: DevnetProcess[] = [];

afterEach(async () => {
  for (const p of running.splice(0))
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

async function start(args: string[], env: Record<string, string> = {}): Promise<DevnetProcess> {
  const p = await spawnDevnet(args, { env });
  running.push(p);
  return p;
}

/** Asserts a failed run: the exit code, and exactly one stderr line without a stack trace. */
function expectOneLineError(
  r: { code: number | null; stdout: string; stderr: string },
  code: number,
  message: RegExp,
): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^koinos-wallet: /);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('koinos-wallet devnet', () => {
  it('prints a JSON line, the URLs, the chain ID and the development accounts with a loud banner, and stops on SIGINT', async () => {
    const p = await start(['--port', '0', '--manual', '--accounts', '3']);
    const { info } = p;
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.jsonrpc).toBe(`${info.url}/jsonrpc`);
    expect(info.rest).toBe(`${info.url}/v1`);
    expect(info.accounts).toHaveLength(3);

    // The printed endpoints answer, and agree with the printed chain ID and KOIN address.
    expect(await rpc(info.url, 'chain.get_chain_id')).toEqual({ chain_id: info.chain_id });
    const byName = await rest(info.url, `/v1/account/${info.accounts[0]!.address}/balance/koin`);
    expect(byName.status).toBe(200);
    expect(await rest(info.url, `/v1/account/${info.accounts[0]!.address}/balance/${info.koin_address}`)).toEqual(
      byName,
    );

    await waitForOutput(p, /Press Ctrl-C to stop/);
    const text = p.stdout();
    expect(text).toContain(`JSON-RPC   ${info.url}/jsonrpc`);
    expect(text).toContain(`REST       ${info.url}/v1`);
    expect(text).toContain(info.chain_id);
    expect(text).toMatch(/FOR DEVELOPMENT ONLY — never use these keys on mainnet/);
    for (const account of info.accounts) {
      expect(text).toContain(account.address);
      expect(text).toContain(account.wif);
    }

    // A block that carries a transaction gets its lines: the transaction, its mana and the block's resources.
    const provider = new Provider([info.jsonrpc]);
    const koin = new Contract({
      id: info.koin_address,
      abi: utils.tokenAbi,
      provider,
      signer: Object.assign(Signer.fromWif(info.accounts[0]!.wif), { provider }),
    });
    const { transaction } = await koin.functions['transfer']!({
      from: info.accounts[0]!.address,
      to: info.accounts[1]!.address,
      value: '100000000',
    });
    await rpc(info.url, 'devnet.produce_block');
    await waitForOutput(p, new RegExp(`\\n  ${transaction!.id}  mana [\\d.]+\\n`));
    expect(p.stdout()).toMatch(
      /\nBlock \d+  0x[0-9a-f]+  1 transaction  mana [\d.]+ \(disk [\d,]+ B, network [\d,]+ B, compute [\d,]+\)\n/,
    );

    p.child.kill('SIGINT');
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(p.stdout()).toMatch(/Devnet stopped\.\n$/);
    expect(p.stderr()).toBe('');
  });

  it('stops cleanly on SIGTERM, keeps the chain in --data-dir across restarts, and starts a new chain with --reset', async () => {
    const dir = await tempDir('koinos-devnet-cli-');
    const first = await start(['--port', '0', '--manual', '--accounts', '2', '--data-dir', dir]);
    const produced = await rpc(first.info.url, 'devnet.produce_block', {});
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const second = await start(['--port', '0', '--manual', '--accounts', '2', '--data-dir', dir]);
    expect(second.info.chain_id).toBe(first.info.chain_id);
    const head = (await rpc(second.info.url, 'chain.get_head_info')).head_topology;
    expect(head).toMatchObject({ id: produced.block_id, height: produced.block_height });
    second.child.kill('SIGINT');
    expect((await second.exited).code).toBe(0);

    const third = await start(['--port', '0', '--manual', '--accounts', '2', '--data-dir', dir, '--reset']);
    expect(third.info.chain_id).not.toBe(first.info.chain_id);
    third.child.kill('SIGINT');
    expect((await third.exited).code).toBe(0);
  });

  it('prints its usage with --help and exits 0', async () => {
    const r = await runDevnetToExit(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: koinos-wallet devnet/);
    // Every way to give the API key is documented, with the reason to prefer the file or the environment.
    expect(r.stdout).toMatch(/--api-key-file F +require the key read from file F/);
    expect(r.stdout).toMatch(/--api-key K .*\n.*process list, so prefer --api-key-file or KOINOS_DEVNET_API_KEY/);
    expect(r.stdout).toMatch(/KOINOS_DEVNET_API_KEY +the API key, when neither --api-key-file nor --api-key is given/);
    expect(r.stderr).toBe('');
  });

  it('rejects bad options with one line on stderr and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', 'eighty'], /--port .* whole number from 0 to 65535/],
      [['--port', '70000'], /--port/],
      [['--block-time', '-5'], /--block-time/],
      [['--accounts', '0'], /--accounts/],
      [['--manual', '--block-time', '100'], /exclude each other/],
      [['--frobnicate'], /unknown option --frobnicate/],
      [['extra'], /takes no arguments/],
      [['--api-key', ''], /--api-key/],
      [['--irreversible-depth', 'deep'], /--irreversible-depth .* whole number from 0 to 1000000/],
    ];
    // In process (main with captured streams): the options are refused before anything starts.
    for (const [args, message] of cases) expectOneLineError(await inProcess(args), 2, message);
  });

  it('reports a port in use as one line with exit code 1', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as { port: number }).port;
      const r = await runDevnetToExit(['--port', String(port), '--manual']);
      expectOneLineError(r, 1, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      blocker.close();
    }
  });
});

describe('koinos-wallet devnet API key', () => {
  const KEY = 'cli-key-0123456789abcdef';

  /** The command line of a running process as `ps` shows it to every user of the machine. */
  async function commandLine(p: DevnetProcess): Promise<string> {
    return (await readFile(`/proc/${p.child.pid}/cmdline`, 'utf8')).split('\0').join(' ');
  }

  /** The devnet answers REST only with this key, and JSON-RPC likewise. */
  async function expectKeyRequired(p: DevnetProcess, key: string): Promise<void> {
    expect(await rest(p.info.url, '/v1/chain/id')).toEqual({
      status: 401,
      body: { error: 'a valid API key is required: header "X-API-KEY"' },
    });
    expect((await rest(p.info.url, '/v1/chain/id', { headers: { 'X-API-KEY': `${key}x` } })).status).toBe(401);
    expect(await rest(p.info.url, '/v1/chain/id', { headers: { 'X-API-KEY': key } })).toEqual({
      status: 200,
      body: { value: p.info.chain_id },
    });
    const rpcAnswer = await fetch(`${p.info.jsonrpc}?apikey=${encodeURIComponent(key)}`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain.get_chain_id' }),
    });
    expect(await rpcAnswer.json()).toEqual({ jsonrpc: '2.0', result: { chain_id: p.info.chain_id }, id: 1 });
  }

  async function stop(p: DevnetProcess): Promise<void> {
    p.child.kill('SIGINT');
    expect((await p.exited).code).toBe(0);
  }

  it('reads the key from --api-key-file (trimmed), keeps it out of the process list and warns about nothing', async () => {
    const file = join(await tempDir('koinos-devnet-cli-'), 'api-key');
    await writeFile(file, `  ${KEY}\n\n`, { mode: 0o600 });
    const p = await start(['--port', '0', '--manual', '--api-key-file', file]);
    await expectKeyRequired(p, KEY);
    expect(await commandLine(p)).toContain(`--api-key-file ${file}`);
    expect(await commandLine(p)).not.toContain(KEY);
    await stop(p);
    expect(p.stderr()).toBe('');
    expect(p.stdout()).not.toContain(KEY);
    expect(p.stdout()).toMatch(/API key +required/);
  });

  it('reads the key from KOINOS_DEVNET_API_KEY when no option gives one, keeping it out of the process list', async () => {
    const p = await start(['--port', '0', '--manual'], { KOINOS_DEVNET_API_KEY: ` ${KEY}\n` });
    await expectKeyRequired(p, KEY);
    expect(await commandLine(p)).not.toContain(KEY);
    await stop(p);
    expect(p.stderr()).toBe('');
  });

  it('prefers --api-key-file over KOINOS_DEVNET_API_KEY', async () => {
    const file = join(await tempDir('koinos-devnet-cli-'), 'api-key');
    await writeFile(file, KEY);
    const p = await start(['--port', '0', '--manual', '--api-key-file', file], {
      KOINOS_DEVNET_API_KEY: 'the-environment-key',
    });
    await expectKeyRequired(p, KEY);
    expect((await rest(p.info.url, '/v1/chain/id', { headers: { 'X-API-KEY': 'the-environment-key' } })).status).toBe(
      401,
    );
    await stop(p);
  });

  it('still accepts --api-key, with a warning on stderr that other users of the machine can see it', async () => {
    const p = await start(['--port', '0', '--manual', '--api-key', KEY]);
    await expectKeyRequired(p, KEY);
    await stop(p);
    const lines = p
      .stderr()
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^koinos-wallet: warning: --api-key puts the key on the command line, where other users of this machine can read it \(ps\)/,
    );
    expect(lines[0]).toMatch(/prefer --api-key-file FILE or the KOINOS_DEVNET_API_KEY environment variable$/);
    expect(lines[0]).not.toContain(KEY);
  });

  it('refuses an empty or unreadable key file, an empty KOINOS_DEVNET_API_KEY, and both options at once, never echoing a key', async () => {
    const dir = await tempDir('koinos-devnet-cli-');
    const empty = join(dir, 'empty');
    await writeFile(empty, ' \n\t\n');
    const missing = join(dir, 'missing');
    const withKey = join(dir, 'key');
    await writeFile(withKey, KEY);
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [['--api-key-file', empty], {}, 1, /^koinos-wallet: expected an API key, got nothing in file ".*empty"$/],
      [
        ['--api-key-file', missing],
        {},
        1,
        /^koinos-wallet: cannot read an API key from file ".*missing": no such file$/,
      ],
      [['--api-key-file', dir], {}, 1, /cannot read an API key from file .*: it is a directory$/],
      [['--api-key-file='], {}, 2, /option --api-key-file of "devnet" expects a file name, got an empty string/],
      [
        [],
        { KOINOS_DEVNET_API_KEY: '  ' },
        1,
        /^koinos-wallet: environment variable KOINOS_DEVNET_API_KEY is set but empty: give it a key, or unset it to run without one$/,
      ],
      [
        ['--api-key', KEY, '--api-key-file', withKey],
        {},
        2,
        /options --api-key and --api-key-file of "devnet" exclude each other/,
      ],
    ];
    // In process when the environment is the runner's own (the command reads it from the process), else as a process.
    for (const [args, env, code, message] of cases) {
      const argv = ['--port', '0', '--manual', ...args];
      const r = Object.keys(env).length > 0 ? await runDevnetToExit(argv, { env }) : await inProcess(argv);
      expectOneLineError(r, code, message);
      expect(r.stderr).not.toContain(KEY);
    }
  });
});

/** Runs `koinos-wallet devnet ...args` in process, for the runs that fail before a node starts. */
async function inProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = await runCli(['devnet', ...args]);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function waitForOutput(p: DevnetProcess, pattern: RegExp, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(p.stdout())) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`no ${pattern} in output: ${p.stdout()}`);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        p.child.stdout!.off('data', done);
        resolve();
      };
      const timer = setTimeout(done, left);
      p.child.stdout!.on('data', done);
    });
  }
}
