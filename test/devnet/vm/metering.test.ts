// Metering by instrumentation: fizzy's tick count on hand-written programs (every instruction, `end` included,
// branches skipping the `end` they jump past), the meter synced at host calls, endless loops stopped at the limit,
// memory capped at 512 pages and call depth at fizzy's limit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Serializer } from 'koilib';
import { describe, expect, it } from 'vitest';
import type { DevKey } from '../../../src-main/devnet/chain/devKeys.ts';
import type { Operation, TransactionReceipt } from '../../../src-main/koinos/types.ts';
import { key, KOIN, koinTx, pendingCount, storedBlock, submit, testNodes, transferTx } from '../helpers.ts';
import { ChainError } from '../../../src-main/devnet/state/chainError.ts';
import { VM_LIMITS } from '../../../src-main/devnet/vm/checkModule.ts';
import { prepareModule } from '../../../src-main/devnet/vm/prepareModule.ts';
import { runModule, type HostFunction } from '../../../src-main/devnet/vm/runModule.ts';
import { TestMeter, wat } from './wat.ts';

const HOST_TYPE = '(type $host (func (param i32 i32 i32 i32 i32 i32) (result i32)))';
const IMPORT = `${HOST_TYPE} (import "env" "invoke_system_call" (func $sys (type $host)))`;

/**
 * What apply_transaction's own system calls (get_account_rc, hash, verify_merkle_root, check_authority with its
 * metadata read, the nonce calls) cost more since they are charged from mainnet's registry, the one compute table.
 */
const TRANSACTION_CHECKS = 18_294n;
/** Compute of the token's mint and transfer, as the host charged them before the VM's speed work, plus the above. */
const MINT_COMPUTE = 1_463_268n + TRANSACTION_CHECKS;
const TRANSFER_COMPUTE = 1_375_964n + TRANSACTION_CHECKS;
const TRANSFER_TO_HOLDER_COMPUTE = 1_382_585n + TRANSACTION_CHECKS;

const quietHost: HostFunction = () => ({ code: 0, written: 0 });

async function run(text: string, limit = 1_000_000n, host: HostFunction = quietHost): Promise<TestMeter> {
  const meter = new TestMeter(limit);
  runModule(prepareModule(await wat(text)), host, meter);
  return meter;
}

async function runError(text: string, limit = 1_000_000n, host: HostFunction = quietHost): Promise<ChainError> {
  const meter = new TestMeter(limit);
  const prepared = prepareModule(await wat(text));
  try {
    runModule(prepared, host, meter);
  } catch (error) {
    expect(error).toBeInstanceOf(ChainError);
    return error as ChainError;
  }
  throw new Error('expected the run to fail');
}

const COUNTDOWN = `(module (func (export "_start") (local i32)
  i32.const 3
  local.set 0
  (loop $l
    local.get 0
    i32.const 1
    i32.sub
    local.tee 0
    br_if $l)))`;

describe('tick counting as fizzy', () => {
  it('counts each instruction and the final end', async () => {
    expect((await run('(module (func (export "_start") i32.const 1 drop))')).used).toBe(3n);
  });

  it('counts the loop instruction again on every branch back, and the loop end once', async () => {
    // 2 + 3 × (loop + 5) + loop end + final end
    expect((await run(COUNTDOWN)).used).toBe(22n);
  });

  it('runs a program of exactly the limit and stops one tick short of it', async () => {
    expect((await run(COUNTDOWN, 22n)).used).toBe(22n);
    const error = await runError(COUNTDOWN, 21n);
    expect(error.code).toBe(104);
  });

  it('skips the end of a block a branch leaves', async () => {
    const text = `(module (func (export "_start")
      (block $b i32.const 1 br_if $b unreachable)
      nop))`;
    // block, i32.const, br_if, nop, final end
    expect((await run(text)).used).toBe(5n);
  });

  it('counts else only when the then branch reaches it, and end only when it is reached', async () => {
    const text = `(module (func (export "_start")
      i32.const 0
      (if (then nop nop) (else nop))
      i32.const 1
      (if (then nop) (else nop nop nop))))`;
    // false: const, if, nop, end = 4; true: const, if, nop, else = 4; final end
    expect((await run(text)).used).toBe(9n);
  });

  it('counts an if without else whose condition is false as const and if only', async () => {
    const text = `(module (func (export "_start") i32.const 0 (if (then nop nop nop))))`;
    expect((await run(text)).used).toBe(3n);
  });

  it('counts the callee with its final end', async () => {
    const text = `(module
      (func $f (param i32) (result i32) local.get 0 i32.const 1 i32.add)
      (func (export "_start") i32.const 5 call $f drop))`;
    // const, call, (get, const, add, end), drop, end
    expect((await run(text)).used).toBe(8n);
  });

  it('counts the final end after a return from inside a block', async () => {
    const text = `(module
      (func $g (result i32) (block i32.const 7 return) i32.const 0)
      (func (export "_start") call $g drop))`;
    // call, (block, const, return, end), drop, end
    expect((await run(text)).used).toBe(7n);
  });

  it('counts calls through the table, to a defined function and to the host', async () => {
    const text = `(module ${IMPORT}
      (type $v (func (result i32)))
      (memory 1)
      (table 2 funcref)
      (elem (i32.const 0) $seven $sys)
      (func $seven (result i32) i32.const 7)
      (func (export "_start")
        i32.const 0 call_indirect (type $v) drop
        i32.const 0 i32.const 0 i32.const 0 i32.const 0 i32.const 0 i32.const 0
        i32.const 1 call_indirect (type $host) drop))`;
    const seenAtHost: bigint[] = [];
    const meter = new TestMeter(1_000_000n);
    runModule(
      prepareModule(await wat(text)),
      () => {
        seenAtHost.push(meter.used);
        return { code: 0, written: 0 };
      },
      meter,
    );
    // const, call_indirect, (const, end), drop = 5; 7 consts, call_indirect = 8 at the host; drop, end
    expect(seenAtHost).toEqual([13n]);
    expect(meter.used).toBe(15n);
  });

  it('charges memory.grow one tick more per page asked for', async () => {
    const text = '(module (memory 1) (func (export "_start") i32.const 2 memory.grow drop))';
    expect((await run(text)).used).toBe(6n);
  });

  it('syncs the meter at a host call with the ticks up to and including the call', async () => {
    const text = `(module ${IMPORT} (memory 1) (func (export "_start")
      i32.const 0 i32.const 0 i32.const 0 i32.const 0 i32.const 0 i32.const 0
      call $sys drop))`;
    const meter = new TestMeter(1_000_000n);
    const seen: bigint[] = [];
    runModule(
      prepareModule(await wat(text)),
      () => {
        seen.push(meter.used);
        meter.useTicks(100n); // the system call's own charge
        return { code: 0, written: 0 };
      },
      meter,
    );
    expect(seen).toEqual([7n]);
    expect(meter.used).toBe(7n + 100n + 2n);
  });

  it('is the same on every run', async () => {
    const bytes = await wat(COUNTDOWN);
    const counts = [1, 2, 3].map(() => {
      const m = new TestMeter(1000n);
      runModule(prepareModule(bytes), quietHost, m);
      return m.used;
    });
    expect(counts).toEqual([22n, 22n, 22n]);
  });
});

describe('ticks of a run that traps, as fizzy', () => {
  // fizzy (lib/fizzy/execute.cpp) takes an instruction's tick before running it: a trap costs every instruction up
  // to and including the one that traps, and none after it, though its segment was charged whole.
  async function ticksOfTrap(text: string): Promise<bigint> {
    const prepared = prepareModule(await wat(text));
    const meter = new TestMeter(1_000_000n);
    expect(() => runModule(prepared, quietHost, meter)).toThrow('module exited due to trap');
    return meter.used;
  }

  it('charges a division by zero and what ran before it', async () => {
    expect(await ticksOfTrap('(module (func (export "_start") i32.const 1 i32.const 0 i32.div_u drop nop nop))')).toBe(
      3n,
    );
  });

  it('charges the same when the process renders error stacks its own way (as source-map-support does)', async () => {
    const previous = Error.prepareStackTrace;
    // A rendering that names no frame's offset: the trap's instruction is read from the frames themselves.
    Error.prepareStackTrace = (error: Error) => `${error.name}: rendered by another library`;
    try {
      expect(
        await ticksOfTrap('(module (func (export "_start") i32.const 1 i32.const 0 i32.div_u drop nop nop))'),
      ).toBe(3n);
      // And the rendering stays the process's for every other error.
      expect(new Error('other').stack).toBe('Error: rendered by another library');
    } finally {
      Error.prepareStackTrace = previous;
    }
  });

  it('charges a load past the end of memory and what ran before it', async () => {
    expect(
      await ticksOfTrap('(module (memory 1) (func (export "_start") nop i32.const 65536 i32.load drop nop nop))'),
    ).toBe(3n);
    expect(
      await ticksOfTrap(
        '(module (memory 1) (func (export "_start") i32.const 0 i64.const 1 i64.store offset=65530 nop))',
      ),
    ).toBe(3n);
  });

  it('charges the caller up to the call and the callee up to the trap', async () => {
    const text = `(module
      (func $f i32.const 0 i32.const 0 i32.div_s drop nop)
      (func (export "_start") nop call $f nop nop))`;
    // nop, call, (const, const, div_s)
    expect(await ticksOfTrap(text)).toBe(5n);
  });

  it('charges unreachable and a call through an empty table slot', async () => {
    expect(await ticksOfTrap('(module (func (export "_start") i32.const 1 drop unreachable nop))')).toBe(3n);
    const text = `(module (type $v (func)) (table 1 funcref)
      (func (export "_start") nop i32.const 0 call_indirect (type $v) nop))`;
    expect(await ticksOfTrap(text)).toBe(3n);
  });

  it('charges the same after a trap inside a loop, at every run', async () => {
    const text = `(module (memory 1) (func (export "_start") (local i32)
      (loop $l
        local.get 0 i32.load drop
        local.get 0 i32.const 32768 i32.add local.tee 0
        br $l)))`;
    // loop + 8 on addresses 0 and 32768, then loop, local.get, i32.load at 65536
    expect(await ticksOfTrap(text)).toBe(21n);
    expect(await ticksOfTrap(text)).toBe(21n);
  });
});

describe('limits', () => {
  it('stops an endless loop at the compute limit with insufficient rc', async () => {
    const meter = new TestMeter(1_000_000n);
    const prepared = prepareModule(await wat('(module (func (export "_start") (loop $l br $l)))'));
    expect(() => runModule(prepared, quietHost, meter)).toThrow(/insufficient rc/);
    expect(meter.used).toBe(1_000_000n);
  });

  it('lets memory grow to 512 pages and no further', async () => {
    const text = `(module (memory 1) (func (export "_start")
      i32.const 511 memory.grow i32.const 1 i32.ne (if (then unreachable))
      i32.const 1 memory.grow i32.const -1 i32.ne (if (then unreachable))))`;
    await expect(run(text)).resolves.toBeInstanceOf(TestMeter);
    const tooFar = `(module (memory 1) (func (export "_start")
      i32.const 512 memory.grow i32.const -1 i32.eq (if (then unreachable))))`;
    expect((await runError(tooFar)).message).toBe('module exited due to trap');
  });

  it(`nests ${VM_LIMITS.callFrames} frames and traps one deeper`, async () => {
    const recursion = (levels: number): string => `(module
      (func $r (param i32) local.get 0 (if (then local.get 0 i32.const 1 i32.sub call $r)))
      (func (export "_start") i32.const ${levels} call $r))`;
    // _start is frame 1; $r(n) .. $r(0) are n + 1 more frames.
    await expect(run(recursion(VM_LIMITS.callFrames - 2), 100_000_000n)).resolves.toBeInstanceOf(TestMeter);
    expect((await runError(recursion(VM_LIMITS.callFrames - 1), 100_000_000n)).message).toBe(
      'module exited due to trap',
    );
  });

  it('traps on a floating-point instruction but keeps float locals', async () => {
    expect((await run('(module (func (export "_start") (local f64) local.get 0 drop))')).used).toBe(3n);
    const error = await runError('(module (func (export "_start") f32.const 1.5 drop))');
    expect(error.message).toBe('module exited due to trap');
  });

  it('refuses a pointer outside memory', async () => {
    const text = `(module ${IMPORT} (memory 1) (func (export "_start")
      i32.const 1 i32.const 65536 i32.const 1 i32.const 0 i32.const 0 i32.const 0 call $sys drop))`;
    expect((await runError(text)).message).toBe('invalid ret_ptr in invoke_system_call()');
    const written = `(module ${IMPORT} (memory 1) (func (export "_start")
      i32.const 1 i32.const 0 i32.const 0 i32.const 0 i32.const 0 i32.const 65533 call $sys drop))`;
    expect((await runError(written)).message).toBe('invalid bytes_written in invoke_system_call()');
  });

  it('writes bytes_written and returns the host code to the contract', async () => {
    const text = `(module ${IMPORT} (memory 1) (func (export "_start")
      i32.const 1 i32.const 16 i32.const 8 i32.const 0 i32.const 0 i32.const 4 call $sys
      i32.const -7 i32.ne (if (then unreachable))
      i32.const 4 i32.load i32.const 3 i32.ne (if (then unreachable))
      i32.const 16 i32.load8_u i32.const 0xab i32.ne (if (then unreachable))))`;
    await expect(
      run(text, 1000n, (_fn, _id, ret) => {
        ret.set([0xab, 0xcd, 0xef]);
        return { code: -7, written: 3 };
      }),
    ).resolves.toBeInstanceOf(TestMeter);
  });

  it('lets a host error leave the contract unchanged', async () => {
    const text = `(module ${IMPORT} (memory 1) (func (export "_start")
      i32.const 0 i32.const 0 i32.const 0 i32.const 0 i32.const 0 i32.const 0 call $sys drop unreachable))`;
    const exit = new Error('exit');
    const meter = new TestMeter(1000n);
    const prepared = prepareModule(await wat(text));
    expect(() =>
      runModule(
        prepared,
        () => {
          throw exit;
        },
        meter,
      ),
    ).toThrow(exit);
    expect(meter.used).toBe(7n);
  });
});

describe('the start section', () => {
  const FAILED = 'could not instantiate module - FizzyErrorInstantiationFailed: start function failed to execute';

  it("fails the instantiation as fizzy does when it traps or overflows the stack: koinos-chain's reversion", async () => {
    for (const body of ['unreachable', 'call $init', 'i32.const 1 i32.const 0 i32.div_u drop']) {
      const text = `(module (memory 1) (func $init ${body}) (start $init) (func (export "_start")))`;
      expect((await runError(text)).message, body).toBe(FAILED);
    }
  });

  it('is stopped when it never ends, as the instantiation failing, where fizzy would hang the node', async () => {
    const text = '(module (func $init (loop $l br $l)) (start $init) (func (export "_start")))';
    expect((await runError(text)).message).toBe(FAILED);
  });
});

describe('instances reused across runs', () => {
  // One module whose host call says what to do (the mode); every run first checks the state of a new instance.
  const MODES = `(module ${IMPORT}
    (memory 1)
    (global $g (mut i32) (i32.const 5))
    (data (i32.const 0) "\\2a")
    (func $check (param i32) (if (i32.eqz (local.get 0)) (then unreachable)))
    (func (export "_start") (local $mode i32)
      (local.set $mode (call $sys (i32.const 0) (i32.const 16) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 8)))
      (call $check (i32.eq (memory.size) (i32.const 1)))
      (call $check (i32.eq (i32.load8_u (i32.const 0)) (i32.const 42)))
      (call $check (i32.eq (global.get $g) (i32.const 5)))
      (call $check (i64.eqz (i64.load (i32.const 100))))
      (global.set $g (i32.const 7))
      (i32.store8 (i32.const 0) (i32.const 1))
      (i64.store offset=8 (i32.const 92) (i64.const 0x1122334455667788))
      (call $check (i64.eq (i64.load (i32.const 100)) (i64.const 0x1122334455667788)))
      (if (i32.eq (local.get $mode) (i32.const 1)) (then
        (call $check (i32.eq (memory.grow (i32.const 2)) (i32.const 1)))
        (call $check (i32.eq (memory.size) (i32.const 3)))
        (i32.store8 (i32.const 131082) (i32.const 255))))
      (if (i32.eq (local.get $mode) (i32.const 2)) (then (drop (i32.load8_u (i32.const 131082)))))
      (if (i32.eq (local.get $mode) (i32.const 3)) (then
        (drop (call $sys (i32.const 0) (i32.const 70000) (i32.const 4) (i32.const 0) (i32.const 0) (i32.const 8)))))
      (if (i32.eq (local.get $mode) (i32.const 4)) (then
        (call $check (i32.eq (memory.grow (i32.const 2)) (i32.const 1)))
        (call $check (i32.eqz (i32.load8_u (i32.const 131082))))))
      (if (i32.eq (local.get $mode) (i32.const 5)) (then (drop (i32.load (i32.const 65534)))))
      (if (i32.eq (local.get $mode) (i32.const 6)) (then (i64.store offset=65530 (i32.const 0) (i64.const 1))))
      (if (i32.eq (local.get $mode) (i32.const 7)) (then (call $check (i32.eq (memory.grow (i32.const 512)) (i32.const -1)))))))`;

  async function runMode(mode: number): Promise<{ used: bigint; error?: ChainError }> {
    const prepared = prepareModule(await wat(MODES));
    const meter = new TestMeter(1_000_000n);
    try {
      runModule(prepared, () => ({ code: mode, written: 0 }), meter);
    } catch (error) {
      expect(error).toBeInstanceOf(ChainError);
      return { used: meter.used, error: error as ChainError };
    }
    // The instance went back to the idle list, so the next run reuses it.
    expect(prepared.idle.length).toBeGreaterThan(0);
    return { used: meter.used };
  }

  it("starts every run from a new instance's memory, size and globals after one that grew its memory", async () => {
    const grown = await runMode(1);
    expect(grown.error).toBeUndefined();
    const again = await runMode(4);
    expect(again.error).toBeUndefined();
    expect(await runMode(1)).toEqual(grown);
  });

  it('traps on an access past the memory the run has, though a reused instance holds more', async () => {
    expect((await runMode(1)).error).toBeUndefined();
    for (const mode of [2, 5, 6]) expect((await runMode(mode)).error?.message).toBe('module exited due to trap');
    expect((await runMode(4)).error).toBeUndefined();
  });

  it('checks host pointers against the memory the run has', async () => {
    expect((await runMode(1)).error).toBeUndefined();
    expect((await runMode(3)).error?.message).toBe('invalid ret_ptr in invoke_system_call()');
  });

  it('refuses to grow past 512 pages from a reused instance', async () => {
    expect((await runMode(1)).error).toBeUndefined();
    expect((await runMode(7)).error).toBeUndefined();
  });
});

describe('a KCS-4 token on the devnet, metered', () => {
  const nodes = testNodes();
  const dir = join(import.meta.dirname, '../../../node_modules/@koinosbox/contracts/assembly/token');
  const abi = JSON.parse(readFileSync(join(dir, 'token-abi.json'), 'utf8')) as {
    methods: Record<string, { entry_point: number; argument: string }>;
    koilib_types: ConstructorParameters<typeof Serializer>[0];
  };
  const bytecode = new Uint8Array(readFileSync(join(dir, 'release/token.wasm')));
  const serializer = new Serializer(abi.koilib_types);
  const call = async (token: DevKey, name: string, args: Record<string, unknown>): Promise<Operation> => ({
    call_contract: {
      contract_id: token.addressBytes,
      entry_point: abi.methods[name]!.entry_point,
      args: await serializer.serialize(args, abi.methods[name]!.argument),
    },
  });

  it('includes a call that meets a start section that traps reverted, and goes on making blocks', async () => {
    const node = await nodes();
    const [owner, bob] = [key(0), key(2)];
    const uploadOf = async (text: string): Promise<Operation> => ({
      upload_contract: {
        contract_id: owner.addressBytes,
        bytecode: await wat(text),
        abi: '',
        authorizes_call_contract: false,
        authorizes_transaction_application: false,
        authorizes_upload_contract: false,
      },
    });
    const ops = (operations: Operation[]) => ({ operations });
    await submit(
      node,
      await koinTx(node, owner, 'transfer', {}, ops([await uploadOf('(module (memory 1) (func (export "_start")))')])),
    );
    await node.produceBlock();
    // Both pass at submission, on the head state; in the block, the upload comes first and the call meets its trap.
    const trapping = '(module (memory 1) (func $init unreachable) (start $init) (func (export "_start")))';
    await submit(node, await koinTx(node, owner, 'transfer', {}, ops([await uploadOf(trapping)])));
    const callOp: Operation = {
      call_contract: { contract_id: owner.addressBytes, entry_point: 1, args: new Uint8Array() },
    };
    const call = await koinTx(node, bob, 'transfer', {}, ops([callOp]));
    await submit(node, call);
    const block = await node.produceBlock();
    const stored = await storedBlock(node, block);
    const receipts = stored.receipt.transaction_receipts;
    expect(receipts.map((r) => r.reverted)).toEqual([false, true]);
    expect(receipts[1]!.logs.join(' ')).toContain('start function failed to execute');
    expect(await pendingCount(node)).toBe(0);
    // The chain goes on.
    await submit(node, await transferTx(node, bob, owner, 1n));
    expect((await node.produceBlock()).height).toBe(block.height + 1n);
  });

  // Figures computed before the VM's speed work (instance reuse and the rest): every change must keep them.
  it('charges the compute pinned before the speed work, at submission and in the block', async () => {
    const node = await nodes();
    const [owner, alice, bob] = [key(0), key(1), key(2)];
    const upload: Operation = {
      upload_contract: {
        contract_id: owner.addressBytes,
        bytecode,
        abi: '',
        authorizes_call_contract: false,
        authorizes_transaction_application: false,
        authorizes_upload_contract: false,
      },
    };
    await submit(node, await koinTx(node, owner, 'transfer', {}, { rcLimit: 50n * KOIN, operations: [upload] }));
    await node.produceBlock();
    const mint = await submit(
      node,
      await koinTx(
        node,
        owner,
        'transfer',
        {},
        { operations: [await call(owner, 'mint', { to: alice.address, value: '1000' })] },
      ),
    );
    expect(mint.compute_bandwidth_used).toBe(MINT_COMPUTE);
    await node.produceBlock();

    // A run that reverts half-way leaves nothing behind for the next runs of the same contract.
    const overdraft = await call(owner, 'transfer', { from: bob.address, to: alice.address, value: '1' });
    await expect(submit(node, await koinTx(node, bob, 'transfer', {}, { operations: [overdraft] }))).rejects.toThrow(
      /insufficient balance/,
    );

    const transfer = await call(owner, 'transfer', { from: alice.address, to: bob.address, value: '1' });
    const submitted: bigint[] = [];
    for (let i = 0; i < 3; i++)
      submitted.push(
        (await submit(node, await koinTx(node, alice, 'transfer', {}, { operations: [transfer] })))
          .compute_bandwidth_used,
      );
    expect(submitted).toEqual([TRANSFER_COMPUTE, TRANSFER_COMPUTE, TRANSFER_COMPUTE]);
    const { height } = await node.produceBlock();
    const { block_items } = (await node.call('block_store.get_blocks_by_height', {
      head_block_id: ((await node.call('chain.get_head_info', {})) as { head_topology: { id: Uint8Array } })
        .head_topology.id,
      ancestor_start_height: height,
      num_blocks: 1,
      return_block: false,
      return_receipt: true,
    })) as { block_items: { receipt: { transaction_receipts: TransactionReceipt[] } }[] };
    const inBlock = block_items[0]!.receipt.transaction_receipts.map((r) => [r.compute_bandwidth_used, r.reverted]);
    // Submissions all run on the head state, where bob holds nothing; in the block the second and third find his
    // balance from the first and update it.
    expect(inBlock).toEqual([
      [TRANSFER_COMPUTE, false],
      [TRANSFER_TO_HOLDER_COMPUTE, false],
      [TRANSFER_TO_HOLDER_COMPUTE, false],
    ]);
  });
});
