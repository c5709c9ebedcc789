// Metering by instrumentation: rewrites a checked module so that it counts fizzy's ticks itself, in a wasm global
// decremented once per straight-line segment, traps when it goes below zero, and counts call depth. No JavaScript
// runs per segment; the host reads and resets the global only at host calls and at the end of the run. The memory's
// size is kept in a global too (see "Memory" below), so that an instance can be reused after its memory grew.
import { FLOAT_TRAP_OPCODES, memoryAccess, OP } from './opcodes.ts';
import { readInstruction, lastImmediate, VM_LIMITS, type ModuleLayout } from './checkModule.ts';
import { WasmReader, WasmWriter } from './wasmBytes.ts';

/** Names under which the instrumented module exports its tick counter and memory (NUL-led: no contract can clash). */
export const TICKS_EXPORT = '\u0000koinos.ticks';
export const MEMORY_EXPORT = '\u0000koinos.memory';
/** Export of the function that puts every mutable global back to its initial value (and the call depth to 1). */
export const RESET_EXPORT = '\u0000koinos.reset';
/** Export of the global holding the memory's size in pages, as the contract sees it. */
export const PAGES_EXPORT = '\u0000koinos.pages';

/*
 * How fizzy (Koinos' fork, lib/fizzy/execute.cpp) counts: every instruction of its internal code costs one tick
 * before it runs, and the internal code keeps `block`, `loop`, `if`, `else`, `nop` and every `end`. A branch to a
 * block or if jumps past that block's `end` (not counted); a branch to a loop jumps to the `loop` instruction (counted
 * again); a branch to the function's label, or `return`, runs the final `end`. An `if` whose condition is false
 * jumps past its `else`. `memory.grow` costs one more tick per page asked for.
 *
 * Here: a segment is a run of instructions that always runs to its last one (it ends at a branch, `if`, `else`, `end`,
 * a call, or before a `loop`); its tick count is charged at its start. Segments end at every call so that the host
 * sees exactly fizzy's count when it syncs the meter. A function's final `end` runs exactly once per normal return,
 * so the caller charges it in the segment after the call (and the runner after `_start`); an imported function has
 * no `end`, so wrappers placed in the table give that tick back. A trap inside a segment gives back the ticks of the
 * instructions after the trapping one (TrapRefunds). One case stays apart from fizzy: a segment whose charge runs out
 * of ticks ends with the meter's error even where fizzy would first reach a trapping instruction of that segment.
 *
 * Memory: a new WebAssembly memory per run costs far more than the run (fresh pages faulted in, and V8 collects
 * instances' memories only in full GCs), so runModule reuses instances, whose memory cannot shrink back. The
 * contract's view of its memory is therefore a size in a global: memory.size reads it, memory.grow goes through a
 * function that grows the global (and the real memory when it must), and every load and store checks its bytes against
 * it, trapping as fizzy traps past the end of memory. Bytes past the contract's size are zero (runModule keeps them so).
 */

/** Bytes of the charge sequence: ticks -= n; if ticks < 0 then trap. */
function emitCharge(w: WasmWriter, global: number, n: number): void {
  w.byte(OP.global_get).u32(global);
  w.byte(OP.i64_const).s64(BigInt(n));
  w.byte(OP.i64_sub);
  w.byte(OP.global_set).u32(global);
  w.byte(OP.global_get).u32(global);
  w.byte(OP.i64_const).s64(0n);
  w.byte(OP.i64_lt_s);
  w.byte(OP.if).byte(0x40).byte(OP.unreachable).byte(OP.end);
}

function emitDepthEnter(w: WasmWriter, global: number): void {
  w.byte(OP.global_get).u32(global);
  w.byte(OP.i32_const).s32(1);
  w.byte(OP.i32_add);
  w.byte(OP.global_set).u32(global);
  w.byte(OP.global_get).u32(global);
  w.byte(OP.i32_const).s32(VM_LIMITS.callFrames + 1);
  w.byte(OP.i32_ge_u);
  w.byte(OP.if).byte(0x40).byte(OP.unreachable).byte(OP.end);
}

function emitDepthLeave(w: WasmWriter, global: number): void {
  w.byte(OP.global_get).u32(global);
  w.byte(OP.i32_const).s32(1);
  w.byte(OP.i32_sub);
  w.byte(OP.global_set).u32(global);
}

interface Globals {
  metering: boolean;
  ticks: number;
  depth: number;
  growCharge: number;
  importCount: number;
  /** The memory size in pages (i32) and in bytes (i64) as the contract sees it; -1 without a memory. */
  pages: number;
  limit: number;
  /** The function that replaces memory.grow. */
  grow: number;
}

/** A load or store checked against the contract's memory size: trap unless addr + offset + size <= limit. */
function emitAccessCheck(w: WasmWriter, g: Globals, addr: number, end: bigint): void {
  w.byte(OP.local_tee).u32(addr);
  w.byte(OP.i64_extend_i32_u);
  w.byte(OP.i64_const).s64(end);
  w.byte(OP.i64_add);
  w.byte(OP.global_get).u32(g.limit);
  w.byte(OP.i64_gt_u);
  w.byte(OP.if).byte(0x40).byte(OP.unreachable).byte(OP.end);
  w.byte(OP.local_get).u32(addr);
}

/** The body's locals with three scratch locals added (i32 address, i32 and i64 stored value); their indices. */
function localsWithScratch(
  bytes: Uint8Array,
  body: ModuleLayout['bodies'][number],
  params: number,
): { locals: Uint8Array; addr: number; i32: number; i64: number } {
  const r = new WasmReader(bytes, body.localsStart, body.codeStart);
  const groups = r.u32();
  const groupsStart = r.pos;
  let count = params;
  for (let i = 0; i < groups; i++) {
    count += r.u32();
    r.byte();
  }
  const w = new WasmWriter().u32(groups + 2).bytes(bytes.subarray(groupsStart, body.codeStart));
  w.u32(2).byte(0x7f).u32(1).byte(0x7e);
  return { locals: w.finish(), addr: count, i32: count + 1, i64: count + 2 };
}

/** Rewrites one function body (locals and code) with tick charges, depth checks and float traps. */
/** An instrumented body, and for each instruction that leaves ticks of its segment unrun when it traps, its bytes. */
interface InstrumentedBody {
  bytes: Uint8Array;
  /** Triples (start, end, refund): offsets in `bytes` of the instruction's code, and the ticks charged after it. */
  traps: number[];
}

function instrumentBody(
  layout: ModuleLayout,
  body: ModuleLayout['bodies'][number],
  params: number,
  g: Globals,
): InstrumentedBody {
  const bytes = layout.bytes;
  const r = new WasmReader(bytes, body.codeStart, body.end);
  const starts: number[] = [];
  const ops: number[] = [];
  const callees: number[] = [];
  while (!r.done) {
    starts.push(r.pos);
    const op = readInstruction(r);
    ops.push(op);
    callees.push(op === OP.call ? lastImmediate.index : -1);
  }
  starts.push(body.end);
  const n = ops.length; // the last one is the final end, charged by the caller

  // cost[p] = ticks charged just before instruction p.
  const cost = new Map<number, number>();
  let segBegin = 0;
  let chargeAt = 0;
  let extra = 0;
  // refund[p] = ticks of p's segment charged for instructions after p (given back when p traps).
  const refund = new Int32Array(n);
  const close = (lastIncluded: number): void => {
    const ticks = lastIncluded - segBegin + 1 + extra;
    if (ticks > 0) cost.set(chargeAt, (cost.get(chargeAt) ?? 0) + ticks);
    for (let p = segBegin; p <= lastIncluded; p++) refund[p] = lastIncluded - p;
  };
  for (let i = 0; i < n - 1; i++) {
    const op = ops[i]!;
    if (op === OP.loop) {
      close(i - 1);
      segBegin = i;
      chargeAt = i + 1;
      extra = 0;
      continue;
    }
    const endsSegment =
      op === OP.if ||
      op === OP.else ||
      op === OP.end ||
      op === OP.br ||
      op === OP.br_if ||
      op === OP.br_table ||
      op === OP.return ||
      op === OP.unreachable ||
      op === OP.call ||
      op === OP.call_indirect;
    if (!endsSegment) continue;
    close(i);
    segBegin = i + 1;
    chargeAt = i + 1;
    extra = op === OP.call_indirect || (op === OP.call && callees[i]! >= g.importCount) ? 1 : 0;
  }
  close(n - 2);

  const w = new WasmWriter();
  const scratch = g.pages >= 0 ? localsWithScratch(bytes, body, params) : undefined;
  w.bytes(scratch ? scratch.locals : bytes.subarray(body.localsStart, body.codeStart));
  const traps: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = cost.get(i);
    if (c !== undefined && g.metering) emitCharge(w, g.ticks, c);
    const codeStart = w.length;
    const op = ops[i]!;
    const isCall = g.metering && (op === OP.call || op === OP.call_indirect);
    if (isCall) emitDepthEnter(w, g.depth);
    if (op === OP.memory_grow && g.metering) w.byte(OP.call).u32(g.growCharge);
    const access = scratch ? memoryAccess(op) : undefined;
    if (FLOAT_TRAP_OPCODES.has(op)) w.byte(OP.unreachable);
    else if (op === OP.memory_size && scratch) w.byte(OP.global_get).u32(g.pages);
    else if (op === OP.memory_grow && scratch) w.byte(OP.call).u32(g.grow);
    else if (access && scratch) {
      const m = new WasmReader(bytes, starts[i]! + 1, starts[i + 1]!);
      m.u32(); // alignment
      const end = BigInt(m.u32()) + BigInt(access.size);
      const value = access.store === 0x7e ? scratch.i64 : scratch.i32;
      if (access.store) w.byte(OP.local_set).u32(value);
      emitAccessCheck(w, g, scratch.addr, end);
      if (access.store) w.byte(OP.local_get).u32(value);
      w.bytes(bytes.subarray(starts[i]!, starts[i + 1]!));
    } else w.bytes(bytes.subarray(starts[i]!, starts[i + 1]!));
    if (isCall) emitDepthLeave(w, g.depth);
    if (g.metering && refund[i]! > 0) traps.push(codeStart, w.length, refund[i]!);
  }
  return { bytes: w.finish(), traps };
}

function vec(items: Uint8Array[]): Uint8Array {
  const w = new WasmWriter().u32(items.length);
  for (const item of items) w.bytes(item);
  return w.finish();
}

/** The items of an original vector section, as raw byte ranges are not needed: re-read count and return the rest. */
function sectionItems(layout: ModuleLayout, id: number): { count: number; rest: Uint8Array } {
  const range = layout.sections.get(id);
  if (!range) return { count: 0, rest: new Uint8Array(0) };
  const r = new WasmReader(layout.bytes, range.start, range.end);
  const count = r.u32();
  return { count, rest: layout.bytes.subarray(r.pos, range.end) };
}

function appendToVector(layout: ModuleLayout, id: number, extra: Uint8Array[]): Uint8Array {
  const { count, rest } = sectionItems(layout, id);
  const w = new WasmWriter().u32(count + extra.length).bytes(rest);
  for (const item of extra) w.bytes(item);
  return w.finish();
}

/**
 * The instrumented module of a checked one: same behaviour, plus the exported tick counter (i64, starts at
 * VM_LIMITS.startTicks: a start section runs unmetered in fizzy's instantiate, here up to a block's compute, so that
 * one that never ends fails the instantiation rather than hang the node), the call-depth check, traps on
 * floating-point instructions, and memory capped at 512 pages. `metering: false` leaves out the charges and the
 * depth check (only for the benchmark that measures what metering costs).
 */
export function instrumentModule(layout: ModuleLayout, options: { metering?: boolean } = {}): Uint8Array {
  return instrument(layout, options).bytes;
}

/**
 * Where a trap leaves ticks unrun: sorted module offsets of instructions' code (start, end) and the ticks their
 * segment charged for the instructions after them. fizzy charges an instruction's tick before running it, so a trap
 * costs the ticks up to and including the trapping instruction; a segment is charged whole at its start, so the rest
 * is given back (trapRefund).
 */
export interface TrapRefunds {
  starts: Int32Array;
  ends: Int32Array;
  refunds: Int32Array;
}

/** The ticks to give back for a trap at module offset `offset` (0 when it is not inside an instruction that leaves some). */
export function trapRefund(table: TrapRefunds, offset: number): number {
  let lo = 0;
  let hi = table.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (table.starts[mid]! <= offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && offset < table.ends[hi]! ? table.refunds[hi]! : 0;
}

/** The instrumented module (see instrumentModule) and its trap refunds. */
export function instrument(
  layout: ModuleLayout,
  options: { metering?: boolean } = {},
): { bytes: Uint8Array; refunds: TrapRefunds } {
  const importCount = layout.importedFuncs.length;
  const firstNewFunc = importCount + layout.funcTypes.length;
  const memory = layout.memory;
  const g: Globals = {
    metering: options.metering ?? true,
    ticks: layout.definedGlobals,
    depth: layout.definedGlobals + 1,
    growCharge: firstNewFunc,
    importCount,
    pages: memory ? layout.definedGlobals + 2 : -1,
    limit: memory ? layout.definedGlobals + 3 : -1,
    grow: -1,
  };

  // Types: two more, for growCharge (i32) -> i32 and reset () -> ().
  const growType = layout.types.length;
  const resetType = growType + 1;
  const typeSection = appendToVector(layout, 1, [
    new Uint8Array([0x60, 1, 0x7f, 1, 0x7f]),
    new Uint8Array([0x60, 0, 0]),
  ]);

  // Wrappers for imported functions placed in the table (they give back the tick of an `end` they do not have).
  const wrapped = new Map<number, number>();
  for (const seg of layout.elements) {
    for (const f of seg.funcs) if (f < importCount && !wrapped.has(f)) wrapped.set(f, firstNewFunc + 1 + wrapped.size);
  }
  const resetFunc = firstNewFunc + 1 + wrapped.size;
  if (memory) g.grow = resetFunc + 1;
  const newFuncTypes = [
    growType,
    ...[...wrapped.keys()].map((f) => layout.importedFuncs[f]!.type),
    resetType,
    ...(memory ? [growType] : []),
  ];
  const funcSection = appendToVector(
    layout,
    3,
    newFuncTypes.map((t) => new WasmWriter().u32(t).finish()),
  );

  const maxPages = memory ? Math.min(memory.max ?? VM_LIMITS.memoryPages, VM_LIMITS.memoryPages) : 0;
  const minBytes = BigInt(memory?.min ?? 0) * 65536n;
  const globalSection = appendToVector(layout, 6, [
    new WasmWriter().byte(0x7e).byte(1).byte(OP.i64_const).s64(VM_LIMITS.startTicks).byte(OP.end).finish(),
    new WasmWriter().byte(0x7f).byte(1).byte(OP.i32_const).s32(1).byte(OP.end).finish(),
    ...(memory
      ? [
          new WasmWriter().byte(0x7f).byte(1).byte(OP.i32_const).s32(memory.min).byte(OP.end).finish(),
          new WasmWriter().byte(0x7e).byte(1).byte(OP.i64_const).s64(minBytes).byte(OP.end).finish(),
        ]
      : []),
  ]);

  const exportsExtra = [
    new WasmWriter().name(TICKS_EXPORT).byte(3).u32(g.ticks).finish(),
    new WasmWriter().name(RESET_EXPORT).byte(0).u32(resetFunc).finish(),
  ];
  if (memory) {
    exportsExtra.push(new WasmWriter().name(MEMORY_EXPORT).byte(2).u32(0).finish());
    exportsExtra.push(new WasmWriter().name(PAGES_EXPORT).byte(3).u32(g.pages).finish());
  }
  const exportSection = appendToVector(layout, 7, exportsExtra);

  let memorySection: Uint8Array | undefined;
  if (memory) memorySection = new WasmWriter().u32(1).byte(1).u32(memory.min).u32(maxPages).finish();

  let elementSection: Uint8Array | undefined;
  if (layout.sections.has(9)) {
    elementSection = vec(
      layout.elements.map((seg) => {
        const w = new WasmWriter().u32(0).bytes(seg.offsetExpr).u32(seg.funcs.length);
        for (const f of seg.funcs) w.u32(wrapped.get(f) ?? f);
        return w.finish();
      }),
    );
  }

  const instrumented = layout.bodies.map((b, i) =>
    instrumentBody(layout, b, layout.types[layout.funcTypes[i]!]!.params.length, g),
  );
  const bodies = instrumented.map((b) => b.bytes);
  const growBody = new WasmWriter()
    .u32(0)
    .byte(OP.global_get)
    .u32(g.ticks)
    .byte(OP.local_get)
    .u32(0)
    .byte(OP.i64_extend_i32_u)
    .byte(OP.i64_sub)
    .byte(OP.global_set)
    .u32(g.ticks)
    .byte(OP.global_get)
    .u32(g.ticks)
    .byte(OP.i64_const)
    .s64(0n)
    .byte(OP.i64_lt_s)
    .byte(OP.if)
    .byte(0x40)
    .byte(OP.unreachable)
    .byte(OP.end)
    .byte(OP.local_get)
    .u32(0)
    .byte(OP.end)
    .finish();
  bodies.push(growBody);
  for (const [f] of wrapped) {
    const w = new WasmWriter().u32(0);
    const params = layout.types[layout.importedFuncs[f]!.type]!.params.length;
    for (let p = 0; p < params; p++) w.byte(OP.local_get).u32(p);
    w.byte(OP.call).u32(f);
    w.byte(OP.global_get).u32(g.ticks).byte(OP.i64_const).s64(1n).byte(OP.i64_add).byte(OP.global_set).u32(g.ticks);
    bodies.push(w.byte(OP.end).finish());
  }
  // reset: each mutable global from its own initializer (a constant, or global.get of an earlier immutable global).
  const reset = new WasmWriter().u32(0);
  for (const global of layout.mutableGlobals)
    reset
      .bytes(global.init.subarray(0, global.init.length - 1))
      .byte(OP.global_set)
      .u32(global.index);
  reset.byte(OP.i32_const).s32(1).byte(OP.global_set).u32(g.depth);
  if (memory) {
    reset.byte(OP.i32_const).s32(memory.min).byte(OP.global_set).u32(g.pages);
    reset.byte(OP.i64_const).s64(minBytes).byte(OP.global_set).u32(g.limit);
  }
  bodies.push(reset.byte(OP.end).finish());
  if (memory) {
    // grow(n): fizzy's memory.grow on the contract's size: -1 past the limit, else the old size; the real memory grows
    // only when the new size is past it (pages it already has are zero, see runModule's release).
    const n = 0;
    const old = 1;
    const grow = new WasmWriter().u32(1).u32(1).byte(0x7f);
    grow.byte(OP.global_get).u32(g.pages).byte(OP.local_set).u32(old);
    grow
      .byte(OP.local_get)
      .u32(n)
      .byte(OP.i32_const)
      .s32(maxPages)
      .byte(OP.local_get)
      .u32(old)
      .byte(OP.i32_sub)
      .byte(OP.i32_gt_u);
    grow.byte(OP.if).byte(0x40).byte(OP.i32_const).s32(-1).byte(OP.return).byte(OP.end);
    grow
      .byte(OP.local_get)
      .u32(old)
      .byte(OP.local_get)
      .u32(n)
      .byte(OP.i32_add)
      .byte(OP.memory_size)
      .byte(0)
      .byte(OP.i32_gt_u);
    grow.byte(OP.if).byte(0x40);
    grow
      .byte(OP.local_get)
      .u32(old)
      .byte(OP.local_get)
      .u32(n)
      .byte(OP.i32_add)
      .byte(OP.memory_size)
      .byte(0)
      .byte(OP.i32_sub);
    grow.byte(OP.memory_grow).byte(0).byte(OP.i32_const).s32(-1).byte(OP.i32_eq);
    grow.byte(OP.if).byte(0x40).byte(OP.i32_const).s32(-1).byte(OP.return).byte(OP.end);
    grow.byte(OP.end);
    grow.byte(OP.local_get).u32(old).byte(OP.local_get).u32(n).byte(OP.i32_add).byte(OP.global_set).u32(g.pages);
    grow
      .byte(OP.global_get)
      .u32(g.pages)
      .byte(OP.i64_extend_i32_u)
      .byte(OP.i64_const)
      .s64(16n)
      .byte(OP.i64_shl)
      .byte(OP.global_set)
      .u32(g.limit);
    grow.byte(OP.local_get).u32(old);
    bodies.push(grow.byte(OP.end).finish());
  }
  const code = new WasmWriter().u32(bodies.length);
  // Offsets of the original functions' bodies inside the code section's payload.
  const bodyOffsets: number[] = [];
  for (const b of bodies) {
    code.u32(b.length);
    bodyOffsets.push(code.length);
    code.bytes(b);
  }
  const codeSection = code.finish();

  const replaced = new Map<number, Uint8Array>([
    [1, typeSection],
    [3, funcSection],
    [6, globalSection],
    [7, exportSection],
    [10, codeSection],
  ]);
  if (memorySection) replaced.set(5, memorySection);
  if (elementSection) replaced.set(9, elementSection);

  const out = new WasmWriter().bytes(layout.bytes.subarray(0, 8));
  let codeAt = 0;
  for (let id = 1; id <= 11; id++) {
    const payload = replaced.get(id);
    if (id === 10) codeAt = out.length + 1 + new WasmWriter().u32(codeSection.length).length;
    if (payload) out.section(id, payload);
    else {
      const range = layout.sections.get(id);
      if (range) out.section(id, layout.bytes.subarray(range.start, range.end));
    }
  }
  const starts: number[] = [];
  const ends: number[] = [];
  const refunds: number[] = [];
  instrumented.forEach((b, i) => {
    const base = codeAt + bodyOffsets[i]!;
    for (let k = 0; k < b.traps.length; k += 3) {
      starts.push(base + b.traps[k]!);
      ends.push(base + b.traps[k + 1]!);
      refunds.push(b.traps[k + 2]!);
    }
  });
  return {
    bytes: out.finish(),
    refunds: { starts: Int32Array.from(starts), ends: Int32Array.from(ends), refunds: Int32Array.from(refunds) },
  };
}
