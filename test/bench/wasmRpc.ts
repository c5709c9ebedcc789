// Benchmark of an uploaded contract over real HTTP: the prebuilt KCS-4 token of @koinosbox/contracts uploaded to a
// devnet in its own process, minted to every sender, then pre-signed token transfers submitted over JSON-RPC by
// concurrent keep-alive senders (transfers/s accepted and included, submit p50/p99, the server's CPU by thread), then as
// many again once the devnet's code is compiled, and chain.read_contract p50. Goals: >= 1,000 token transfers/s with
// the client on the same machine (issue 19 raised issue 11's 300), read p50 < 2 ms.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Serializer } from 'koilib';
import { fromBase64, toBase64Url } from '../../src-main/koinos/bytes.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { privateKeyFromWif } from '../../src-main/koinos/keys.ts';
import { nonceToBytes, signTransaction, transactionToJson } from '../../src-main/koinos/transaction.ts';
import type { Operation, Transaction } from '../../src-main/koinos/types.ts';
import {
  latencies,
  percentile,
  rpc,
  rpcBody,
  startServer,
  submitQueues,
  threadSplit,
  waitIncluded,
} from './rpcClient.ts';

const KOIN = 100_000_000n;

interface TokenAbi {
  methods: Record<string, { entry_point: number; argument: string }>;
  koilib_types: ConstructorParameters<typeof Serializer>[0];
}

/** The KCS-4 token's bytecode and ABI, and its argument serializer. */
export function loadToken(): { bytecode: Uint8Array; abi: TokenAbi; abiText: string; serializer: Serializer } {
  const dir = join(import.meta.dirname, '../../node_modules/@koinosbox/contracts/assembly/token');
  const abiText = readFileSync(join(dir, 'token-abi.json'), 'utf8');
  const abi = JSON.parse(abiText) as TokenAbi;
  return {
    bytecode: new Uint8Array(readFileSync(join(dir, 'release/token.wasm'))),
    abi,
    abiText,
    serializer: new Serializer(abi.koilib_types),
  };
}

interface Account {
  address: Uint8Array;
  key: Uint8Array;
}

function signed(chainId: Uint8Array, signer: Account, nonce: bigint, rcLimit: bigint, operations: Operation[]): string {
  const tx: Transaction = {
    id: new Uint8Array(0),
    header: {
      chain_id: chainId,
      rc_limit: rcLimit,
      nonce: nonceToBytes(nonce),
      operation_merkle_root: new Uint8Array(0),
      payer: signer.address,
      payee: new Uint8Array(0),
    },
    operations,
    signatures: [],
  };
  return rpcBody('chain.submit_transaction', {
    transaction: transactionToJson(signTransaction(tx, signer.key)),
    broadcast: true,
  });
}

export async function benchWasmRpc(transfers: number): Promise<void> {
  const { bytecode, abi, abiText, serializer } = loadToken();
  const method = (name: string) => abi.methods[name]!;
  const { info, stop, cpuMs, threadsCpuMs, pid } = await startServer();
  try {
    const chainId = fromBase64(info.chainId);
    const accounts: Account[] = info.accounts.map((a) => ({
      address: addressFromString(a.address),
      key: privateKeyFromWif(a.wif).privateKey,
    }));
    const [owner, ...senders] = accounts as [Account, ...Account[]];
    const token = owner.address;
    const call = async (name: string, args: Record<string, unknown>): Promise<Operation> => ({
      call_contract: {
        contract_id: token,
        entry_point: method(name).entry_point,
        args: await serializer.serialize(args, method(name).argument),
      },
    });

    // The token lives at the owner's address; the owner mints to every sender in one transaction.
    const upload: Operation = {
      upload_contract: {
        contract_id: token,
        bytecode,
        abi: abiText,
        authorizes_call_contract: false,
        authorizes_transaction_application: false,
        authorizes_upload_contract: false,
      },
    };
    // A submission runs on the head state: the mint waits for the upload's block.
    const uploaded = await rpc(info.url, 'chain.submit_transaction', signed(chainId, owner, 1n, 50n * KOIN, [upload]));
    await waitIncluded(info.url, uploaded.receipt.id);
    const mints = await Promise.all(
      senders.map((s) => call('mint', { to: info.accounts[accounts.indexOf(s)]!.address, value: String(transfers) })),
    );
    const minted = await rpc(info.url, 'chain.submit_transaction', signed(chainId, owner, 2n, 50n * KOIN, mints));
    await waitIncluded(info.url, minted.receipt.id);

    // Pre-sign every transfer (to the owner), so that the figure measures the node and not the client's signing: two
    // batches of `transfers`, the second sent once the first is included.
    const t0 = performance.now();
    const batches: string[][][] = [senders.map(() => []), senders.map(() => [])];
    const nonces = senders.map(() => 0n);
    for (let i = 0; i < 2 * transfers; i++) {
      const s = i % senders.length;
      const op = await call('transfer', {
        from: info.accounts[s + 1]!.address,
        to: info.accounts[0]!.address,
        value: '1',
      });
      batches[i < transfers ? 0 : 1]![s]!.push(signed(chainId, senders[s]!, ++nonces[s]!, KOIN, [op]));
    }
    console.log(
      `pre-signed ${2 * transfers} token transfers from ${senders.length} senders in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    /** Sends one batch as fast as the node takes it, and waits until all of it is included. */
    const measure = async (queues: string[][]) => {
      const start = performance.now();
      const cpuBefore = cpuMs();
      const threadsBefore = threadsCpuMs();
      const { latency, lastId, elapsed } = await submitQueues(info.url, queues);
      await waitIncluded(info.url, lastId);
      const included = performance.now() - start;
      const cpuAfter = cpuMs();
      const threadsAfter = threadsCpuMs();
      const perTransfer = (ms: number) => `${((ms * 1000) / transfers).toFixed(0)} µs`;
      const split =
        threadsBefore && threadsAfter && pid !== undefined ? threadSplit(threadsBefore, threadsAfter, pid) : undefined;
      return {
        latency,
        lastId,
        elapsed,
        included,
        perSec: transfers / (included / 1000),
        cpu:
          cpuBefore === undefined || cpuAfter === undefined
            ? undefined
            : `${((cpuAfter - cpuBefore) / transfers).toFixed(2)} ms` +
              (split
                ? `, of which the node's thread ${perTransfer(split.main)}, the other threads together ${perTransfer(split.others)}`
                : ''),
      };
    };
    const goal = (perSec: number) => `(goal >= 1,000) ${perSec >= 1000 ? 'OK' : 'BELOW GOAL'}`;

    const cold = await measure(batches[0]!);
    console.log(
      `accepted ${transfers} token transfers in ${(cold.elapsed / 1000).toFixed(1)} s (${Math.round(transfers / (cold.elapsed / 1000))} /s); all included after ${(cold.included / 1000).toFixed(1)} s`,
    );
    console.log(`token throughput: ${Math.round(cold.perSec)} transfers/s accepted and included ${goal(cold.perSec)}`);
    console.log(`chain.submit_transaction (token transfer): ${latencies(cold.latency)}`);
    // The other threads: the HTTP thread, and V8's helpers. In a devnet's first seconds those compile the code the
    // transfers run (a few hundred µs a transfer over the first batch), on the cores the node's thread needs too.
    if (cold.cpu)
      console.log(`devnet server CPU per token transfer (submitted, then applied in its block): ${cold.cpu}`);
    const warm = await measure(batches[1]!);
    console.log(
      `the next ${transfers} on the same devnet, its code compiled by now: ${Math.round(warm.perSec)} transfers/s accepted and included ${goal(warm.perSec)}; ${latencies(warm.latency)}` +
        (warm.cpu ? `; server CPU ${warm.cpu}` : ''),
    );

    // Every transfer landed: the owner holds one token per transfer.
    const balanceOf = {
      contract_id: info.accounts[0]!.address,
      entry_point: method('balance_of').entry_point,
      args: toBase64Url(
        await serializer.serialize({ owner: info.accounts[0]!.address }, method('balance_of').argument),
      ),
    };
    const read = async (): Promise<bigint> => {
      const { result } = await rpc(info.url, 'chain.read_contract', balanceOf);
      const decoded = (await serializer.deserialize(fromBase64(result), 'token.uint64')) as { value?: string };
      return BigInt(decoded.value ?? '0');
    };
    const held = await read();
    if (held !== BigInt(2 * transfers))
      throw new Error(`expected the owner to hold ${2 * transfers} tokens after the transfers, found ${held}`);
    const found = await rpc(info.url, 'transaction_store.get_transactions_by_id', { transaction_ids: [cold.lastId] });
    const receipt = await rpc(info.url, 'block_store.get_blocks_by_id', {
      block_ids: [found.transactions[0].containing_blocks[0]],
      return_block: false,
      return_receipt: true,
    });
    const txReceipt = receipt.block_items[0].receipt.transaction_receipts.find(
      (r: { id: string }) => r.id === cold.lastId,
    );
    console.log(
      `one token transfer uses ${Number(txReceipt.compute_bandwidth_used).toLocaleString('en-US')} compute, ${Number(txReceipt.rc_used).toLocaleString('en-US')} mana`,
    );

    const readLatency: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const t = performance.now();
      await read();
      readLatency.push(performance.now() - t);
    }
    const p50 = percentile(
      [...readLatency].sort((a, b) => a - b),
      50,
    );
    console.log(
      `chain.read_contract balance_of over JSON-RPC: ${latencies(readLatency)} (goal p50 < 2 ms) ${p50 < 2 ? 'OK' : 'ABOVE GOAL'}`,
    );
  } finally {
    await stop();
  }
}
