// Benchmark of the devnet's WebAssembly VM: instrument + compile time of a ~60 KB contract, the prebuilt KCS-4 token
// of @koinosbox/contracts transferring and reading through the host (in process, no HTTP yet), and metered against
// unmetered time of the same call. Goals (issue 11): instrument + compile < 200 ms, read p50 < 2 ms, metered <= 1.5x.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Serializer } from 'koilib';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { checkModule } from '../../src-main/devnet/vm/checkModule.ts';
import { callContract, readContract } from '../../src-main/devnet/vm/contractOperations.ts';
import { instrumentModule } from '../../src-main/devnet/vm/instrument.ts';
import { MemoryObjectStore } from '../../src-main/devnet/vm/objectStore.ts';
import { wasmApi } from '../../src-main/devnet/vm/wasmApi.ts';
import { deploy, signedTransaction, testEnv } from '../devnet/vm/hostEnv.ts';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

function timings(n: number, fn: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    fn();
    out.push(performance.now() - start);
  }
  return out.sort((a, b) => a - b);
}

export async function benchWasm(): Promise<void> {
  const dir = join(import.meta.dirname, '../../node_modules/@koinosbox/contracts/assembly/token');
  const bytecode = new Uint8Array(readFileSync(join(dir, 'release/token.wasm')));
  const abi = JSON.parse(readFileSync(join(dir, 'token-abi.json'), 'utf8')) as {
    methods: Record<string, { entry_point: number; argument: string }>;
    koilib_types: ConstructorParameters<typeof Serializer>[0];
  };
  const serializer = new Serializer(abi.koilib_types);

  const prepare = timings(15, () => {
    new wasmApi.Module(instrumentModule(checkModule(bytecode)));
  });
  console.log(
    `check + instrument + compile of the ${(bytecode.length / 1024).toFixed(1)} KB KCS-4 token: slowest (cold) ${prepare[prepare.length - 1]!.toFixed(1)} ms, p50 ${percentile(prepare, 50).toFixed(1)} ms (goal < 200 ms)`,
  );

  const state = new MemoryObjectStore();
  const token = deploy(state, bytecode, 40);
  const alice = devKey(41);
  const bob = devKey(42);
  const mint = await serializer.serialize({ to: alice.address, value: '1000000000' }, abi.methods.mint!.argument);
  callContract(
    testEnv({ state, transaction: signedTransaction('mint', 40) }),
    token,
    abi.methods.mint!.entry_point,
    mint,
  );

  const transfer = await serializer.serialize(
    { from: alice.address, to: bob.address, value: '1' },
    abi.methods.transfer!.argument,
  );
  const tx = signedTransaction('transfer', 41);
  let compute = 0n;
  const transfers = timings(300, () => {
    const env = testEnv({ state, transaction: tx });
    callContract(env, token, abi.methods.transfer!.entry_point, transfer);
    compute = env.meter.used;
  });
  const total = transfers.reduce((a, b) => a + b, 0);
  console.log(
    `token transfer through the host (operation only, in process): ${Math.round((transfers.length * 1000) / total)} /s, p50 ${percentile(transfers, 50).toFixed(2)} ms, p99 ${percentile(transfers, 99).toFixed(2)} ms, ${compute.toLocaleString('en-US')} compute`,
  );

  // The same transfer metered and unmetered, in CPU time (steadier than wall time on a shared machine).
  const transferCpu = (unmetered: boolean): number => {
    const before = process.cpuUsage();
    for (let i = 0; i < 300; i++)
      callContract(
        { ...testEnv({ state, transaction: tx }), unmetered },
        token,
        abi.methods.transfer!.entry_point,
        transfer,
      );
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / 300;
  };
  const meteredCpu = transferCpu(false);
  const unmeteredCpu = transferCpu(true);
  console.log(
    `token transfer CPU: ${meteredCpu.toFixed(2)} ms metered, ${unmeteredCpu.toFixed(2)} ms unmetered: ${(meteredCpu / unmeteredCpu).toFixed(2)}x (goal <= 1.5x)`,
  );

  const balanceOf = await serializer.serialize({ owner: bob.address }, abi.methods.balance_of!.argument);
  const read = (unmetered: boolean) =>
    timings(300, () => {
      readContract(
        { ...testEnv({ state, readOnly: true, limit: 10_000_000n }), unmetered },
        token,
        abi.methods.balance_of!.entry_point,
        balanceOf,
      );
    });
  const metered = read(false);
  const unmetered = read(true);
  const m50 = percentile(metered, 50);
  const u50 = percentile(unmetered, 50);
  console.log(
    `read_contract balance_of: p50 ${m50.toFixed(2)} ms metered, ${u50.toFixed(2)} ms unmetered: ${(m50 / u50).toFixed(2)}x (goals: p50 < 2 ms, metered <= 1.5x)`,
  );
}
