// Benchmark of the devnet over real HTTP: signed KOIN transfers accepted and included per second through
// JSON-RPC (keep-alive, several concurrent senders), and p50/p99 latencies of submit_transaction,
// get_account_rc and a 50-record history page on an account with 100,000 records.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'node:http';
import { fromBase64, fromHex } from '../../src-main/koinos/bytes.ts';
import { sha256 } from '../../src-main/koinos/hash.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { privateKeyFromWif, publicKeyFromPrivateKey, recoverPublicKey, signDigest } from '../../src-main/koinos/keys.ts';
import { koinOperation } from '../../src-main/koinos/koin.ts';
import { nonceToBytes, signTransaction, transactionToJson } from '../../src-main/koinos/transaction.ts';
import type { Transaction } from '../../src-main/koinos/types.ts';
import { rate } from './signing.ts';

interface ServerInfo {
  url: string;
  chainId: string;
  koin: string;
  accounts: { address: string; wif: string }[];
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function rpcBody(method: string, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

/** One JSON-RPC call over a keep-alive connection; resolves the result or rejects with the error object. */
function rpc(url: string, method: string, params: object | string): Promise<any> {
  const body = typeof params === 'string' ? params : rpcBody(method, params);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/jsonrpc`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const reply = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (reply.error) reject(new Error(`${method}: ${reply.error.message} ${reply.error.data ?? ''}`));
        else resolve(reply.result);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function latencies(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms (${samples.length} calls)`;
}

async function startServer(): Promise<{ info: ServerInfo; stop: () => void }> {
  const entry = fileURLToPath(new URL('./devnetServer.ts', import.meta.url));
  const child = spawn(process.execPath, [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []), '--import', 'tsx', entry], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`devnet server exited with ${code}`)));
  });
  return { info: JSON.parse(first) as ServerInfo, stop: () => child.kill('SIGTERM') };
}

/** The machine's raw signature-check rates, measured in this run. */
function signatureCheckRates(): { recoverPerSec: number; verifyPerSec: number } {
  const priv = sha256(new Uint8Array([7]));
  const pub = publicKeyFromPrivateKey(priv);
  const message = new Uint8Array(120).fill(3);
  const digest = sha256(message);
  const sig = signDigest(digest, priv);
  const recoverPerSec = rate(() => recoverPublicKey(sig, digest), 1500);
  const spki = Buffer.concat([fromHex('3036301006072a8648ce3d020106052b8104000a032200'), pub]);
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const verifyPerSec = rate(() => nodeVerify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, sig.subarray(1)), 1500);
  return { recoverPerSec, verifyPerSec };
}

export async function benchDevnet(transfers: number): Promise<void> {
  const checks = signatureCheckRates();
  console.log(`raw signature checks on this machine (one core): @noble/secp256k1 recover ${Math.round(checks.recoverPerSec)} /s, node:crypto verify ${Math.round(checks.verifyPerSec)} /s`);

  const { info, stop } = await startServer();
  try {
    const chainId = fromBase64(info.chainId);
    const koin = addressFromString(info.koin);
    const receiver = addressFromString(info.accounts[0]!.address);
    const senders = info.accounts.slice(1).map((a) => ({ address: addressFromString(a.address), key: privateKeyFromWif(a.wif).privateKey }));

    // Pre-sign every transfer, so that the figure measures the node and not the client's signing.
    const t0 = performance.now();
    const queues: string[][] = senders.map(() => []);
    for (let i = 0; i < transfers; i++) {
      const s = i % senders.length;
      const sender = senders[s]!;
      const nonce = BigInt(queues[s]!.length + 1);
      const tx: Transaction = {
        id: new Uint8Array(0),
        header: { chain_id: chainId, rc_limit: 10_000_000n, nonce: nonceToBytes(nonce), operation_merkle_root: new Uint8Array(0), payer: sender.address, payee: new Uint8Array(0) },
        operations: [koinOperation(koin, 'transfer', { from: sender.address, to: receiver, value: 1n })],
        signatures: [],
      };
      queues[s]!.push(rpcBody('chain.submit_transaction', { transaction: transactionToJson(signTransaction(tx, sender.key)), broadcast: true }));
    }
    console.log(`pre-signed ${transfers} transfers from ${senders.length} senders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // Each sender's transfers go in nonce order on one connection; the senders run concurrently.
    const submitLatency: number[] = [];
    const start = performance.now();
    let lastId = '';
    await Promise.all(
      queues.map(async (queue) => {
        for (const body of queue) {
          const t = performance.now();
          const result = await rpc(info.url, 'chain.submit_transaction', body);
          submitLatency.push(performance.now() - t);
          lastId = result.receipt.id;
        }
      }),
    );
    const accepted = performance.now() - start;
    // Included: wait until the last accepted transaction is in a block (polling, with a deadline).
    const deadline = Date.now() + 120_000;
    for (;;) {
      const found = await rpc(info.url, 'transaction_store.get_transactions_by_id', { transaction_ids: [lastId] });
      if (found.transactions?.[0]?.containing_blocks?.length) break;
      if (Date.now() > deadline) throw new Error('transactions were not included within 2 minutes');
      await new Promise((r) => setTimeout(r, 20));
    }
    const included = performance.now() - start;
    const perSec = transfers / (included / 1000);
    console.log(`accepted ${transfers} transfers in ${(accepted / 1000).toFixed(1)} s (${Math.round(transfers / (accepted / 1000))} /s); all included after ${(included / 1000).toFixed(1)} s`);
    console.log(`throughput: ${Math.round(perSec)} transfers/s accepted and included (goal >= 2,000) ${perSec >= 2000 ? 'OK' : 'BELOW GOAL'}`);
    console.log(`chain.submit_transaction: ${latencies(submitLatency)}`);

    const rcLatency: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = performance.now();
      await rpc(info.url, 'chain.get_account_rc', { account: info.accounts[(i % senders.length) + 1]!.address });
      rcLatency.push(performance.now() - t);
    }
    console.log(`chain.get_account_rc: ${latencies(rcLatency)}`);

    const head = await rpc(info.url, 'account_history.get_account_history', { address: info.accounts[0]!.address, limit: 1, ascending: false });
    const records = BigInt(head.values?.[0]?.seq_num ?? '0') + 1n;
    const historyLatency: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const seq = BigInt(Math.floor(Math.random() * Number(records - 50n)));
      const t = performance.now();
      const page = await rpc(info.url, 'account_history.get_account_history', { address: info.accounts[0]!.address, seq_num: seq.toString(), limit: 50, ascending: true });
      historyLatency.push(performance.now() - t);
      if (page.values.length !== 50) throw new Error(`expected a page of 50 records, got ${page.values.length}`);
    }
    const sorted = [...historyLatency].sort((a, b) => a - b);
    console.log(`history page of 50 on an account with ${records} records: ${latencies(historyLatency)} (goal p99 < 10 ms) ${percentile(sorted, 99) < 10 ? 'OK' : 'BELOW GOAL'}`);
  } finally {
    stop();
  }
}
