// No single request may hold the devnet's event loop: the worst inputs found (base58 text and decimal numbers of up to a
// megabyte, whose decoding costs the square of their length, and JSON nested a million levels deep) are sent over real
// HTTP while chain.get_head_info is asked again and again, and both the longest event-loop stall and the slowest
// head_info answer are measured. Before the caps, a 40,000-character address alone held the loop for 3 s.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { rest, rpc, rpcRaw, transferJson } from './httpHelpers.ts';

/**
 * A generous bound, for a loaded machine shared with other test files (here, at a load of 20 on 2 cores, the capped
 * requests stall it up to about 300 ms): unbounded, the nested JSON alone holds the loop for one to several seconds, a
 * megabyte of digits for 1.5 s or more, and a megabyte of base58 for hours.
 */
const MAX_STALL_MS = 1000;
const MIB = 1024 * 1024;

let devnet: Devnet;
let url: string;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, manual: true, accounts: 3, signatureThreads: 0, log: () => {} });
  url = devnet.url;
});
afterAll(async () => {
  await devnet?.stop();
});

/** A JSON-RPC body of just under 1 MiB (the body limit) whose `params` are built around `filler` characters. */
function body(method: string, params: (filler: string) => unknown, char: string): string {
  const probe = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params('') });
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params(char.repeat(MIB - probe.length - 64)) });
}

describe('bounded cost per request', () => {
  it('answers head_info quickly while megabyte-long base58, numbers and nested JSON arrive at once', async () => {
    const account = devnet.accounts[0]!.address;
    const tx = transferJson(devnet, 0, 1, 1n, 1n) as any;
    const nested = (depth: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"chain.get_account_rc","params":{"account":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    // The bodies are built before the measurement starts: only the node's work is measured, not the client's.
    const bodies = [
      body('chain.get_account_rc', (f) => ({ account: f }), 'z'),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'chain.get_account_nonce',
        params: { account: 'z'.repeat(40_000) },
      }),
      body('chain.read_contract', (f) => ({ contract_id: f, entry_point: 1 }), 'z'),
      body('chain.submit_transaction', (f) => ({ transaction: { ...tx, header: { ...tx.header, payer: f } } }), 'z'),
      body('chain.submit_transaction', (f) => ({ transaction: { ...tx, header: { ...tx.header, rc_limit: f } } }), '9'),
      body('block_store.get_blocks_by_height', (f) => ({ ancestor_start_height: f, num_blocks: 1 }), '9'),
      // Three at once: without the nesting cap, a head_info call queued behind them waits for all three to be parsed.
      ...Array.from({ length: 3 }, () => nested(Math.floor((MIB - 200) / 2))),
    ];
    const attacks: (() => Promise<unknown>)[] = [
      ...bodies.map((text) => () => rpcRaw(url, text)),
      () => rest(url, `/v1/account/${'z'.repeat(12_000)}/mana`),
      () => rest(url, `/v1/account/${account}/balance/${'z'.repeat(12_000)}`),
      () => rest(url, `/v1/account/${account}/history?limit=${'9'.repeat(12_000)}`),
      () => rest(url, `/v1/block/${'9'.repeat(12_000)}`),
      () =>
        rest(url, '/v1/decode/operations', { method: 'POST', body: `${'['.repeat(500_000)}${']'.repeat(500_000)}` }),
    ];

    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const cpuBefore = process.cpuUsage();
    let done = false;
    const latencies: number[] = [];
    const poll = (async () => {
      while (!done) {
        const started = performance.now();
        await rpc(url, 'chain.get_head_info');
        latencies.push(performance.now() - started);
      }
    })();
    const answers = await Promise.all(attacks.map((send) => send()));
    done = true;
    await poll;
    loop.disable();
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;

    // Every attack was answered with an error (nothing crashed, nothing hung), the nested JSON before it was parsed.
    for (const answer of answers as { status: number; body: any }[]) {
      expect(answer.status === 400 || answer.body?.error !== undefined, JSON.stringify(answer).slice(0, 300)).toBe(
        true,
      );
    }
    for (const answer of answers.slice(bodies.length - 3, bodies.length) as { body: any }[]) {
      expect(answer.body.error).toEqual({
        code: -32700,
        message: 'Unable to parse request',
        data: 'expected JSON nested at most 64 levels deep, got deeper',
      });
    }
    const stallMs = loop.max / 1e6;
    const slowest = Math.max(...latencies);
    expect(latencies.length).toBeGreaterThan(0);
    expect(stallMs, `longest event-loop stall ${stallMs.toFixed(1)} ms`).toBeLessThan(MAX_STALL_MS);
    expect(slowest, `slowest head_info ${slowest.toFixed(1)} ms`).toBeLessThan(3 * MAX_STALL_MS);
    console.log(
      `bounded cost: CPU ${cpuMs.toFixed(0)} ms, longest stall ${stallMs.toFixed(1)} ms, slowest head_info ${slowest.toFixed(1)} ms over ${latencies.length} calls`,
    );
  });
});
