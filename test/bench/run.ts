// `npm run bench`: prints the benchmark figures of the protocol library and the devnet from one run.
// BENCH_TRANSFERS sets how many transfers the devnet benchmark sends (default 100,000: the history goal is
// stated for an account with 100,000 records); BENCH_TOKEN_TRANSFERS how many token transfers (default 3,000).
// BENCH_ONLY=devnet,wasm,... runs only the named sections (signing, vault, backup, wasm, wasmRpc, devnet, send,
// renderer).
// The devnet's: BENCH_RATE the steady rate its submission latency is measured at (default 3,000/s) for
// BENCH_STEADY_SECONDS (default 10),
// BENCH_HTTP_THREAD=0 serves HTTP on the node's thread, BENCH_SIGNATURE_THREADS sets the signature workers,
// BENCH_STORE=level keeps the chain in LevelDB as the wallet's embedded devnet does (default memory, as the CLI's).
import { benchBackupMerge } from './backupMerge.ts';
import { benchSigning } from './signing.ts';
import { benchDevnet } from './devnet.ts';
import { benchRenderer } from './renderer.ts';
import { benchSend } from './send.ts';
import { benchVault } from './vault.ts';
import { benchWasm } from './wasm.ts';
import { benchWasmRpc } from './wasmRpc.ts';

const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((name) => name.trim())) : undefined;
/** Whether the section named `name` runs in this invocation. */
function runs(name: string): boolean {
  return only === undefined || only.has(name);
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

if (runs('signing')) {
  const signing = benchSigning();
  console.log('== protocol library (one core)');
  console.log(`raw @noble/secp256k1 signs of a 32-byte digest: ${fmt(signing.rawSignsPerSec)} /s`);
  console.log(
    `KOIN transfers built + signed (merkle root, id, canonical bytes, signature): ${fmt(signing.transfersPerSec)} /s`,
  );
  console.log(
    `ratio: ${(signing.ratio * 100).toFixed(1)}% of the raw sign rate (goal >= 80%) ${signing.ratio >= 0.8 ? 'OK' : 'BELOW GOAL'}`,
  );
}

if (runs('vault')) {
  console.log('== vault (wallet password -> key)');
  await benchVault();
}

if (runs('backup')) {
  console.log('== encrypted-backup import (merge of the opened backup into the wallet)');
  await benchBackupMerge(1000);
}

if (runs('wasm')) {
  console.log('== devnet WebAssembly VM (@koinosbox/contracts KCS-4 token)');
  await benchWasm();
}

if (runs('wasmRpc')) {
  console.log('== devnet WebAssembly contract over HTTP (KCS-4 token, JSON-RPC, keep-alive)');
  await benchWasmRpc(Number(process.env.BENCH_TOKEN_TRANSFERS ?? 3000));
}

if (runs('devnet')) {
  console.log('== devnet over HTTP (JSON-RPC, keep-alive)');
  await benchDevnet(Number(process.env.BENCH_TRANSFERS ?? 100_000));
}

if (runs('send')) {
  console.log('== wallet Send service on a devnet with blockTimeMs 0 (own process, JSON-RPC over HTTP)');
  const send = await benchSend(Number(process.env.BENCH_SENDS ?? 200));
  console.log(
    `confirm -> receipt (sign + submit): p50 ${send.confirmP50.toFixed(1)} ms, p99 ${send.confirmP99.toFixed(1)} ms (goal p50 < 100 ms) ${send.confirmP50 < 100 ? 'OK' : 'ABOVE GOAL'}`,
  );
  console.log(
    `prepare + confirm (checks, chain ID, nonce, mana, signed dry run, sign, submit): p50 ${send.totalP50.toFixed(1)} ms, p99 ${send.totalP99.toFixed(1)} ms`,
  );
}

if (runs('renderer')) {
  console.log('== renderer in Chromium over the browser shell');
  await benchRenderer();
}
