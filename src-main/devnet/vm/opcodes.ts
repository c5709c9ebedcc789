// The WebAssembly 1.0 instruction set as fizzy (the chain's VM) accepts it: the immediates of every opcode, the
// later proposals whose opcodes it refuses, and the floating-point opcodes Koinos' fizzy fork traps on.

/** How an opcode's immediates are encoded (WebAssembly 1.0, §5.4). */
export type Immediate =
  | 'none'
  | 'blocktype'
  | 'label'
  | 'br_table'
  | 'func'
  | 'call_indirect'
  | 'index'
  | 'memarg'
  | 'memory'
  | 'i32'
  | 'i64'
  | 'f32'
  | 'f64';

function fill(table: (Immediate | undefined)[], from: number, to: number, kind: Immediate): void {
  for (let op = from; op <= to; op++) table[op] = kind;
}

/** Immediate kind of every WebAssembly 1.0 opcode; `undefined` for opcodes 1.0 does not have. */
export const MVP_IMMEDIATES: readonly (Immediate | undefined)[] = (() => {
  const t: (Immediate | undefined)[] = new Array(256).fill(undefined);
  t[0x00] = 'none'; // unreachable
  t[0x01] = 'none'; // nop
  fill(t, 0x02, 0x04, 'blocktype'); // block loop if
  t[0x05] = 'none'; // else
  t[0x0b] = 'none'; // end
  t[0x0c] = 'label'; // br
  t[0x0d] = 'label'; // br_if
  t[0x0e] = 'br_table';
  t[0x0f] = 'none'; // return
  t[0x10] = 'func'; // call
  t[0x11] = 'call_indirect';
  t[0x1a] = 'none'; // drop
  t[0x1b] = 'none'; // select
  fill(t, 0x20, 0x24, 'index'); // local.get/set/tee, global.get/set
  fill(t, 0x28, 0x3e, 'memarg'); // loads and stores
  t[0x3f] = 'memory'; // memory.size
  t[0x40] = 'memory'; // memory.grow
  t[0x41] = 'i32';
  t[0x42] = 'i64';
  t[0x43] = 'f32';
  t[0x44] = 'f64';
  fill(t, 0x45, 0xbf, 'none'); // comparisons, arithmetic, conversions
  return t;
})();

export const OP = {
  unreachable: 0x00,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  br_if: 0x0d,
  br_table: 0x0e,
  return: 0x0f,
  call: 0x10,
  call_indirect: 0x11,
  local_get: 0x20,
  local_set: 0x21,
  local_tee: 0x22,
  global_get: 0x23,
  global_set: 0x24,
  memory_size: 0x3f,
  memory_grow: 0x40,
  i32_const: 0x41,
  i64_const: 0x42,
  i32_add: 0x6a,
  i32_sub: 0x6b,
  i32_eq: 0x46,
  i32_gt_u: 0x4b,
  i32_ge_u: 0x4f,
  i64_lt_s: 0x53,
  i64_gt_u: 0x56,
  i64_shl: 0x86,
  i64_add: 0x7c,
  i64_sub: 0x7d,
  i64_extend_i32_u: 0xad,
} as const;

/** The proposal a non-1.0 opcode belongs to, for the error that refuses it. */
export function featureOfOpcode(op: number, sub?: number): string {
  if (op >= 0x06 && op <= 0x0a) return 'exception handling';
  if (op === 0x18 || op === 0x19) return 'exception handling';
  if (op === 0x12 || op === 0x13) return 'tail calls';
  if (op === 0x14 || op === 0x15) return 'typed function references';
  if (op === 0x1c || op === 0x25 || op === 0x26) return 'reference types';
  if (op >= 0xc0 && op <= 0xc4) return 'sign extension';
  if (op >= 0xd0 && op <= 0xd6) return 'reference types';
  if (op === 0xfb) return 'garbage collection';
  if (op === 0xfc) {
    if (sub === undefined) return 'bulk memory';
    if (sub <= 7) return 'non-trapping float-to-int conversions';
    if (sub <= 14) return 'bulk memory';
    return 'reference types';
  }
  if (op === 0xfd) return 'SIMD';
  if (op === 0xfe) return 'threads';
  return 'an unknown instruction';
}

/**
 * Floating-point opcodes: fizzy parses them, but Koinos' fork (`DISABLE_FLOAT` in execute.cpp) traps when one
 * runs, after charging its tick. Float locals, globals, parameters, `drop` and `select` still work.
 */
export const FLOAT_TRAP_OPCODES: ReadonlySet<number> = (() => {
  const s = new Set<number>([0x2a, 0x2b, 0x38, 0x39, 0x43, 0x44]); // f32/f64 load, store, const
  for (let op = 0x5b; op <= 0x66; op++) s.add(op); // f32/f64 comparisons
  for (let op = 0x8b; op <= 0xbf; op++) s.add(op); // f32/f64 arithmetic and every conversion touching a float
  s.delete(0xa7); // i32.wrap_i64
  s.delete(0xac); // i64.extend_i32_s
  s.delete(0xad); // i64.extend_i32_u
  return s;
})();

/**
 * Bytes a load (0x28-0x35) or store (0x36-0x3e) accesses, and for a store the type of the value it stores; undefined
 * for other opcodes. Float loads and stores are left out: they trap (FLOAT_TRAP_OPCODES).
 */
export function memoryAccess(op: number): { size: number; store?: 0x7f | 0x7e } | undefined {
  switch (op) {
    case 0x28:
    case 0x34:
    case 0x35:
      return { size: 4 }; // i32.load, i64.load32_s/u
    case 0x29:
      return { size: 8 }; // i64.load
    case 0x2c:
    case 0x2d:
    case 0x30:
    case 0x31:
      return { size: 1 }; // load8
    case 0x2e:
    case 0x2f:
    case 0x32:
    case 0x33:
      return { size: 2 }; // load16
    case 0x36:
      return { size: 4, store: 0x7f }; // i32.store
    case 0x37:
      return { size: 8, store: 0x7e }; // i64.store
    case 0x3a:
      return { size: 1, store: 0x7f }; // i32.store8
    case 0x3b:
      return { size: 2, store: 0x7f }; // i32.store16
    case 0x3c:
      return { size: 1, store: 0x7e }; // i64.store8
    case 0x3d:
      return { size: 2, store: 0x7e }; // i64.store16
    case 0x3e:
      return { size: 4, store: 0x7e }; // i64.store32
    default:
      return undefined;
  }
}

/** Value types of WebAssembly 1.0: i32, i64, f32, f64. */
export function isMvpValueType(t: number): boolean {
  return t === 0x7f || t === 0x7e || t === 0x7d || t === 0x7c;
}

/** The proposal a non-1.0 value type belongs to. */
export function featureOfValueType(t: number): string {
  if (t === 0x7b) return 'SIMD';
  if (t === 0x70 || t === 0x6f) return 'reference types';
  return 'an unknown value type';
}
