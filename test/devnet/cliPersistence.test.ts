// The kill-at-any-moment rule: a devnet with --data-dir is SIGKILLed during a burst of transfers, restarted on the same
// directory, and must be consistent: same chain, no lost head, every transaction the client saw included still there
// with its effects (nonces and balances agree), the accounts' sum and the KOIN supply unchanged.
import { describe, it, expect, afterEach } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transactionToJson } from '../../src-main/koinos/transaction.ts';
import { decodeKoinResult, KOIN_METHODS } from '../../src-main/koinos/koin.ts';
import { fromBase64 } from '../../src-main/koinos/bytes.ts';
import { koinBalance, nextNonce, rest, rpc, signedTransfer } from './httpHelpers.ts';
import { spawnDevnet, type DevnetInfo, type DevnetProcess } from './devnetProcess.ts';

const SENDERS = 4;
const VALUE = 1_000n;
/** Transfers the client must have seen included before it pulls the plug. */
const INCLUDED_BEFORE_KILL = 24;

const running: DevnetProcess[] = [];
let dir: string | undefined;

afterEach(async () => {
  for (const p of running.splice(0))
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function start(dataDir: string): Promise<DevnetProcess> {
  const p = await spawnDevnet([
    '--port',
    '0',
    '--block-time',
    '0',
    '--accounts',
    String(SENDERS),
    '--data-dir',
    dataDir,
  ]);
  running.push(p);
  return p;
}

interface Seen {
  id: string;
  sender: number;
  nonce: bigint;
  block: string;
}

/** Raw JSON-RPC call that reports failure instead of failing the test (the process may die under it). */
async function tryRpc(url: string, method: string, params: unknown): Promise<any> {
  try {
    const response = await fetch(`${url}/jsonrpc`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown };
    return body.result;
  } catch {
    return undefined;
  }
}

/**
 * Sends transfers i -> i+1 from every account concurrently and watches which get included; SIGKILLs the process
 * once `INCLUDED_BEFORE_KILL` more are seen, while submissions are still in flight.
 */
async function burstAndKill(p: DevnetProcess, seen: Seen[]): Promise<{ maxHeight: bigint }> {
  const { info } = p;
  const url = info.url;
  let alive = true;
  let sendersLeft = SENDERS;
  let maxHeight = 0n;
  const deadline = Date.now() + 60_000;
  const accepted = new Map<string, { sender: number; nonce: bigint }>();
  const goal = seen.length + INCLUDED_BEFORE_KILL;

  const sender = async (i: number) => {
    try {
      await send(i);
    } finally {
      sendersLeft--;
    }
  };
  const send = async (i: number) => {
    let nonce = await nextNonce(url, info.accounts[i]!.address);
    while (alive) {
      const tx = signedTransfer({
        chainId: info.chain_id,
        koinAddress: info.koin_address,
        fromWif: info.accounts[i]!.wif,
        from: info.accounts[i]!.address,
        to: info.accounts[(i + 1) % SENDERS]!.address,
        value: VALUE,
        nonce,
        rcLimit: 10_000_000n,
      });
      const json = transactionToJson(tx);
      const result = await tryRpc(url, 'chain.submit_transaction', { transaction: json, broadcast: true });
      if (!result?.receipt) return; // the process is gone (or refused): stop this sender
      accepted.set(json.id as string, { sender: i, nonce });
      nonce += 1n;
    }
  };

  const watcher = async () => {
    while (alive) {
      const pendingIds = [...accepted.keys()].filter((id) => !seen.some((s) => s.id === id));
      if (pendingIds.length > 0) {
        const found = await tryRpc(url, 'transaction_store.get_transactions_by_id', { transaction_ids: pendingIds });
        for (const item of found?.transactions ?? []) {
          const block = item.containing_blocks?.[0];
          if (!item.transaction || !block) continue;
          const meta = accepted.get(item.transaction.id)!;
          seen.push({ id: item.transaction.id, sender: meta.sender, nonce: meta.nonce, block });
        }
      }
      const head = await tryRpc(url, 'chain.get_head_info', {});
      if (head?.head_topology?.height)
        maxHeight = BigInt(head.head_topology.height) > maxHeight ? BigInt(head.head_topology.height) : maxHeight;
      if (seen.length >= goal) {
        // Pull the plug while the senders are mid-request.
        p.child.kill('SIGKILL');
        alive = false;
      }
      if (p.child.exitCode !== null || p.child.signalCode !== null) alive = false;
      if (alive && (sendersLeft === 0 || Date.now() > deadline)) {
        p.child.kill('SIGKILL');
        throw new Error(
          `only ${seen.length} of ${goal} transfers were seen included before the senders stopped; stderr: ${p.stderr()}`,
        );
      }
    }
  };

  await Promise.all([watcher(), ...Array.from({ length: SENDERS }, (_, i) => sender(i))]);
  const exit = await p.exited;
  expect(exit.signal).toBe('SIGKILL');
  return { maxHeight };
}

async function totalSupply(url: string, koinAddress: string): Promise<bigint> {
  const { result } = await rpc(url, 'chain.read_contract', {
    contract_id: koinAddress,
    entry_point: KOIN_METHODS.total_supply.entryPoint,
    args: '',
  });
  return decodeKoinResult('total_supply', result ? fromBase64(result) : new Uint8Array(0)).value;
}

/** Checks the restarted chain against everything the client saw before the kill. */
async function expectConsistent(
  info: DevnetInfo,
  before: DevnetInfo,
  seen: Seen[],
  maxHeight: bigint,
  initial: bigint[],
  supply: bigint,
): Promise<void> {
  const url = info.url;
  expect(info.chain_id).toBe(before.chain_id);
  const head = (await rpc(url, 'chain.get_head_info')).head_topology;
  expect(BigInt(head.height)).toBeGreaterThanOrEqual(maxHeight);

  // Every transaction seen included is still stored, in the same block, and that block is on the chain.
  const { transactions } = await rpc(url, 'transaction_store.get_transactions_by_id', {
    transaction_ids: seen.map((s) => s.id),
  });
  expect(transactions).toHaveLength(seen.length);
  seen.forEach((s, i) => {
    expect(transactions[i].transaction.id).toBe(s.id);
    expect(transactions[i].containing_blocks).toContain(s.block);
  });
  const blocks = [...new Set(seen.map((s) => s.block))];
  const { block_items: items } = await rpc(url, 'block_store.get_blocks_by_id', {
    block_ids: blocks,
    return_block: true,
    return_receipt: false,
  });
  expect(items).toHaveLength(blocks.length);
  for (const item of items) {
    const onChain = await rpc(url, 'block_store.get_blocks_by_height', {
      head_block_id: head.id,
      ancestor_start_height: item.block_height,
      num_blocks: 1,
      return_block: false,
      return_receipt: false,
    });
    expect(onChain.block_items[0].block_id).toBe(item.block_id);
  }

  // Effects: each account's nonce covers what it was seen to send, and its balance is exactly what the nonces imply
  // (each included transfer moves VALUE from i to i+1), so nothing was half-applied.
  const nonces: bigint[] = [];
  for (let i = 0; i < SENDERS; i++) {
    nonces.push((await nextNonce(url, info.accounts[i]!.address)) - 1n);
    const seenMax = seen.filter((s) => s.sender === i).reduce((m, s) => (s.nonce > m ? s.nonce : m), 0n);
    expect(nonces[i]!).toBeGreaterThanOrEqual(seenMax);
  }
  let sum = 0n;
  for (let i = 0; i < SENDERS; i++) {
    const balance = await koinBalance(url, info.koin_address, info.accounts[i]!.address);
    const received = nonces[(i + SENDERS - 1) % SENDERS]!;
    expect(balance, `account ${i}`).toBe(initial[i]! - nonces[i]! * VALUE + received * VALUE);
    sum += balance;
  }
  expect(sum).toBe(initial.reduce((a, b) => a + b, 0n));
  expect(await totalSupply(url, info.koin_address)).toBe(supply);
}

describe('devnet persistence', () => {
  it('restarts consistent after being SIGKILLed during bursts of transfers, twice', async () => {
    dir = await mkdtemp(join(tmpdir(), 'koinos-devnet-kill-'));
    const first = await start(dir);
    const initial: bigint[] = [];
    for (const account of first.info.accounts)
      initial.push(await koinBalance(first.info.url, first.info.koin_address, account.address));
    // The rest of the supply is the genesis key's (the signer of every block).
    const { block_id: firstBlock } = await rpc(first.info.url, 'devnet.produce_block', {});
    const genesis = (await rest(first.info.url, `/v1/block/${firstBlock}?return_receipt=false`)).body.block.header
      .signer as string;
    const supply = await totalSupply(first.info.url, first.info.koin_address);
    expect(supply).toBe(
      initial.reduce((a, b) => a + b, 0n) + (await koinBalance(first.info.url, first.info.koin_address, genesis)),
    );

    const seen: Seen[] = [];
    let { maxHeight } = await burstAndKill(first, seen);
    const second = await start(dir);
    await expectConsistent(second.info, first.info, seen, maxHeight, initial, supply);

    ({ maxHeight } = await burstAndKill(second, seen));
    const third = await start(dir);
    await expectConsistent(third.info, first.info, seen, maxHeight, initial, supply);
    third.child.kill('SIGINT');
    expect((await third.exited).code).toBe(0);
  }, 120_000);
});
