// `koinos-wallet devnet` as a real process: the JSON first line, the printed URLs, chain ID and development accounts
// with the development-only banner, a clean stop on SIGINT and SIGTERM, persistence in --data-dir, and usage errors.
import { describe, it, expect, afterEach } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc, rest } from './httpHelpers.ts';
import { runDevnetToExit, spawnDevnet, type DevnetProcess } from './devnetProcess.ts';

const running: DevnetProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const p of running.splice(0)) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function start(args: string[]): Promise<DevnetProcess> {
  const p = await spawnDevnet(args);
  running.push(p);
  return p;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'koinos-devnet-cli-'));
  dirs.push(dir);
  return dir;
}

/** Asserts a failed run: the exit code, and exactly one stderr line without a stack trace. */
function expectOneLineError(r: { code: number | null; stdout: string; stderr: string }, code: number, message: RegExp): void {
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
    expect(await rest(info.url, `/v1/account/${info.accounts[0]!.address}/balance/${info.koin_address}`)).toEqual(byName);

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

    p.child.kill('SIGINT');
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(p.stdout()).toMatch(/Devnet stopped\.\n$/);
    expect(p.stderr()).toBe('');
  });

  it('stops cleanly on SIGTERM, keeps the chain in --data-dir across restarts, and starts a new chain with --reset', async () => {
    const dir = await tempDir();
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

  it('requires the API key given with --api-key', async () => {
    const p = await start(['--port', '0', '--manual', '--api-key', 'cli-key']);
    expect((await rest(p.info.url, '/v1/chain/id')).status).toBe(401);
    expect(await rest(p.info.url, '/v1/chain/id', { headers: { 'X-API-KEY': 'cli-key' } })).toEqual({ status: 200, body: { value: p.info.chain_id } });
    p.child.kill('SIGINT');
    expect((await p.exited).code).toBe(0);
  });

  it('prints its usage with --help and exits 0', async () => {
    const r = await runDevnetToExit(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: koinos-wallet devnet/);
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
    ];
    const results = await Promise.all(cases.map(([args]) => runDevnetToExit(args)));
    results.forEach((r, i) => expectOneLineError(r, 2, cases[i]![1]));
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
