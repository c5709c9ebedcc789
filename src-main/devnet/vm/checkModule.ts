// The module check the chain's VM (fizzy) makes when a contract is first run: WebAssembly 1.0 only (a later feature
// is refused with its name and byte offset), imports only the two host functions, memory within 512 pages, an
// exported `_start`. Returns the module's layout, which the instrumentation rewrites.
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import { featureOfOpcode, featureOfValueType, isMvpValueType, MVP_IMMEDIATES, type Immediate } from './opcodes.ts';
import { moduleError, WasmReader } from './wasmBytes.ts';

/** Limits of the chain's VM (koinos-chain `vm_manager/fizzy/fizzy_vm_backend.cpp`, Koinos' fizzy fork). */
export const VM_LIMITS = {
  /** `memory_pages_limit` passed to `fizzy_resolve_instantiate`: 512 pages of 64 KiB (32 MiB). */
  memoryPages: 512,
  /**
   * Nested wasm calls: koinos-chain's `fizzy_max_call_depth` (251, fizzy_vm_backend.cpp line 17) is not a limit but the
   * depth each run starts at (`fizzy_create_metered_execution_context(fizzy_max_call_depth, ticks)`, line 319); fizzy
   * traps a call made at depth `CallStackLimit` (2048, fizzy lib/fizzy/limits.hpp line 50, checked in
   * lib/fizzy/execute.cpp line 563), so a run can nest 2048 - 251 = 1797 frames, `_start` and host functions included.
   */
  callFrames: 2048 - 251,
  /**
   * Ticks a start section may run at instantiation: a block's whole compute (mainnet's `compute_bandwidth_limit`).
   * fizzy runs it unmetered, so a start section that never ends hangs a real node; no contract could need more.
   */
  startTicks: 287_500_000n,
} as const;

/** The host functions a contract may import, all of type (i32 × 6) -> i32 (fizzy_vm_backend.cpp). */
const HOST_IMPORTS = ['invoke_thunk', 'invoke_system_call'] as const;
export type HostImport = (typeof HOST_IMPORTS)[number];

export interface FuncType {
  params: number[];
  results: number[];
}

export interface SectionRange {
  /** Absolute offsets of the section's payload. */
  start: number;
  end: number;
}

export interface ElementSegment {
  /** The offset expression's bytes, `end` included. */
  offsetExpr: Uint8Array;
  funcs: number[];
}

export interface FunctionBody {
  /** Absolute offset of the local declarations, and of the first instruction. */
  localsStart: number;
  codeStart: number;
  /** Absolute offset just past the body's final `end`. */
  end: number;
}

/** A checked module: what the instrumentation needs to rewrite it. */
export interface ModuleLayout {
  bytes: Uint8Array;
  /** Payload ranges of the standard sections 1..11 present, by id. */
  sections: Map<number, SectionRange>;
  types: FuncType[];
  /** Function imports in order, each one of the host functions. */
  importedFuncs: { name: HostImport; type: number }[];
  /** Type index of every function the module defines. */
  funcTypes: number[];
  memory?: { min: number; max?: number };
  definedGlobals: number;
  /** The mutable globals the module defines: index and initializer bytes (`end` included). */
  mutableGlobals: { index: number; init: Uint8Array }[];
  exports: { name: string; kind: number; index: number }[];
  elements: ElementSegment[];
  bodies: FunctionBody[];
  /** Function index of `_start`. */
  startFunc: number;
}

function instantiateError(what: string): ChainError {
  return new ChainError(ERROR_CODE.reversion, `could not instantiate module - FizzyErrorInstantiationFailed: ${what}`);
}

function refuse(feature: string, what: string, offset: number): ChainError {
  return moduleError(`${what} needs ${feature}, which WebAssembly 1.0 (the chain's fizzy) does not have`, offset, {
    feature,
  });
}

function valueType(r: WasmReader): number {
  const at = r.pos;
  const t = r.byte();
  if (!isMvpValueType(t)) throw refuse(featureOfValueType(t), `value type 0x${t.toString(16)}`, at);
  return t;
}

function limits(r: WasmReader, what: 'memory' | 'table'): { min: number; max?: number } {
  const at = r.pos;
  const flags = r.byte();
  if (flags > 1) {
    const feature = flags === 2 || flags === 3 ? 'threads (shared memory)' : what === 'memory' ? 'memory64' : 'table64';
    throw refuse(feature, `${what} limits flag ${flags}`, at);
  }
  const min = r.u32();
  return flags === 1 ? { min, max: r.u32() } : { min };
}

function tableType(r: WasmReader): void {
  const at = r.pos;
  const t = r.byte();
  if (t !== 0x70) throw refuse('reference types', `table element type 0x${t.toString(16)}`, at);
  limits(r, 'table');
}

/** A constant expression of WebAssembly 1.0 (one const or global.get, then end); returns its bytes. */
function constExpr(r: WasmReader): Uint8Array {
  const start = r.pos;
  const op = r.byte();
  if (op === 0x41) r.skipSigned(32);
  else if (op === 0x42) r.skipSigned(64);
  else if (op === 0x43) r.skip(4);
  else if (op === 0x44) r.skip(8);
  else if (op === 0x23) r.u32();
  else
    throw refuse(
      op === 0xd0 || op === 0xd2 ? 'reference types' : 'extended constant expressions',
      `constant expression opcode 0x${op.toString(16)}`,
      start,
    );
  const endAt = r.pos;
  if (r.byte() !== 0x0b)
    throw refuse('extended constant expressions', 'a constant expression of more than one instruction', endAt);
  return r.bytes.subarray(start, r.pos);
}

/** The callee of the last `call` read by `readInstruction`. */
export const lastImmediate = { index: 0 };

/**
 * Reads one instruction and its immediates; returns its opcode. Refuses opcodes and immediates outside
 * WebAssembly 1.0 with the proposal they belong to.
 */
export function readInstruction(r: WasmReader): number {
  const at = r.pos;
  const op = r.byte();
  const kind: Immediate | undefined = MVP_IMMEDIATES[op];
  if (kind === undefined) {
    const sub = op === 0xfc && !r.done ? r.bytes[r.pos] : undefined;
    throw refuse(
      featureOfOpcode(op, sub),
      `opcode 0x${op.toString(16)}${sub === undefined ? '' : ` 0x${sub.toString(16)}`}`,
      at,
    );
  }
  switch (kind) {
    case 'none':
      break;
    case 'blocktype': {
      const tAt = r.pos;
      const t = r.bytes[r.pos];
      if (t === 0x40 || (t !== undefined && isMvpValueType(t))) {
        r.pos++;
      } else if (t === 0x7b || t === 0x70 || t === 0x6f) {
        throw refuse(featureOfValueType(t), `block type 0x${t.toString(16)}`, tAt);
      } else {
        const index = r.s33();
        if (index >= 0) throw refuse('multi-value', `block type index ${index}`, tAt);
        throw moduleError(`invalid block type ${index}`, tAt);
      }
      break;
    }
    case 'label':
    case 'index':
      r.u32();
      break;
    case 'func':
      lastImmediate.index = r.u32();
      break;
    case 'br_table': {
      const n = r.u32();
      for (let i = 0; i <= n; i++) r.u32();
      break;
    }
    case 'call_indirect': {
      r.u32();
      const tAt = r.pos;
      if (r.byte() !== 0) throw refuse('reference types', 'call_indirect on a table other than 0', tAt);
      break;
    }
    case 'memarg':
      r.u32();
      r.u32();
      break;
    case 'memory': {
      const mAt = r.pos;
      if (r.byte() !== 0) throw refuse('multiple memories', 'memory index other than 0', mAt);
      break;
    }
    case 'i32':
      r.skipSigned(32);
      break;
    case 'i64':
      r.skipSigned(64);
      break;
    case 'f32':
      r.skip(4);
      break;
    case 'f64':
      r.skip(8);
      break;
  }
  return op;
}

function readBody(r: WasmReader): FunctionBody {
  const size = r.u32();
  const localsStart = r.pos;
  const end = localsStart + size;
  if (end > r.end) throw moduleError('function body runs past the code section', localsStart);
  const body = new WasmReader(r.bytes, localsStart, end);
  const groups = body.u32();
  for (let i = 0; i < groups; i++) {
    body.u32();
    valueType(body);
  }
  const codeStart = body.pos;
  let depth = 1;
  while (depth > 0) {
    const op = readInstruction(body);
    if (op === 0x02 || op === 0x03 || op === 0x04) depth++;
    else if (op === 0x0b) depth--;
  }
  if (body.pos !== end) throw moduleError('bytes after the final end of a function body', body.pos);
  r.pos = end;
  return { localsStart, codeStart, end };
}

/**
 * Checks a contract's bytecode as the chain does when it first runs it.
 * @throws ChainError reversion (1) "could not parse fizzy module …" naming the feature and byte offset of a
 *   post-1.0 feature; "could not instantiate module …" for a foreign import or memory over 512 pages;
 *   "module does not have _start function".
 */
export function checkModule(bytes: Uint8Array): ModuleLayout {
  const r = new WasmReader(bytes);
  if (bytes.length < 8) throw moduleError('module shorter than its 8-byte header', 0);
  const magic = r.take(4);
  if (magic[0] !== 0 || magic[1] !== 0x61 || magic[2] !== 0x73 || magic[3] !== 0x6d)
    throw moduleError('invalid wasm magic', 0);
  const version = r.take(4);
  if (version[0] !== 1 || version[1] !== 0 || version[2] !== 0 || version[3] !== 0)
    throw moduleError('unsupported wasm version', 4);

  const layout: ModuleLayout = {
    bytes,
    sections: new Map(),
    types: [],
    importedFuncs: [],
    funcTypes: [],
    definedGlobals: 0,
    mutableGlobals: [],
    exports: [],
    elements: [],
    bodies: [],
    startFunc: -1,
  };
  const foreignImports: string[] = [];
  let tables = 0;
  let memories = 0;
  let lastId = 0;

  while (!r.done) {
    const idAt = r.pos;
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    const end = start + size;
    if (end > bytes.length) throw moduleError(`section ${id} runs past the end of the module`, idAt);
    if (id === 12) throw refuse('bulk memory', 'a DataCount section (id 12)', idAt);
    if (id === 13) throw refuse('exception handling', 'a tag section (id 13)', idAt);
    if (id > 13) throw moduleError(`unknown section id ${id}`, idAt);
    const s = new WasmReader(bytes, start, end);
    if (id !== 0) {
      if (id <= lastId) throw moduleError(`section ${id} out of order or repeated`, idAt);
      lastId = id;
      layout.sections.set(id, { start, end });
    }
    switch (id) {
      case 0: // custom: a name, then anything
        s.name();
        s.pos = end;
        break;
      case 1:
        for (let n = s.u32(); n > 0; n--) {
          const formAt = s.pos;
          if (s.byte() !== 0x60) throw moduleError('type is not a function type (0x60)', formAt);
          const params: number[] = [];
          for (let p = s.u32(); p > 0; p--) params.push(valueType(s));
          const resultsAt = s.pos;
          const results: number[] = [];
          for (let q = s.u32(); q > 0; q--) results.push(valueType(s));
          if (results.length > 1)
            throw refuse('multi-value', `a function type with ${results.length} results`, resultsAt);
          layout.types.push({ params, results });
        }
        break;
      case 2:
        for (let n = s.u32(); n > 0; n--) {
          const module = s.name();
          const name = s.name();
          const kindAt = s.pos;
          const kind = s.byte();
          if (kind === 0) {
            const type = s.u32();
            const host = HOST_IMPORTS.find((h) => h === name);
            if (module !== 'env' || host === undefined)
              foreignImports.push(`imported function ${module}.${name} is required`);
            else {
              const t = layout.types[type];
              if (
                !t ||
                t.params.length !== 6 ||
                t.params.some((p) => p !== 0x7f) ||
                t.results.length !== 1 ||
                t.results[0] !== 0x7f
              )
                foreignImports.push(
                  `function ${layout.importedFuncs.length} type doesn't match module's imported function type`,
                );
              layout.importedFuncs.push({ name: host, type });
            }
          } else if (kind === 1) {
            tableType(s);
            tables++;
            foreignImports.push('module defines an imported table but none was provided');
          } else if (kind === 2) {
            limits(s, 'memory');
            memories++;
            foreignImports.push('module defines an imported memory but none was provided');
          } else if (kind === 3) {
            valueType(s);
            const mutAt = s.pos;
            if (s.byte() !== 0) throw refuse('mutable globals', 'an imported mutable global', mutAt);
            foreignImports.push('module requires imported globals, 0 provided');
          } else
            throw refuse(kind === 4 ? 'exception handling' : 'an unknown import kind', `import kind ${kind}`, kindAt);
        }
        break;
      case 3:
        for (let n = s.u32(); n > 0; n--) layout.funcTypes.push(s.u32());
        break;
      case 4:
        for (let n = s.u32(); n > 0; n--) {
          const at = s.pos;
          if (++tables > 1) throw refuse('reference types', 'a second table', at);
          tableType(s);
        }
        break;
      case 5:
        for (let n = s.u32(); n > 0; n--) {
          const at = s.pos;
          if (++memories > 1) throw refuse('multiple memories', 'a second memory', at);
          layout.memory = limits(s, 'memory');
        }
        break;
      case 6:
        for (let n = s.u32(); n > 0; n--) {
          valueType(s);
          const mutAt = s.pos;
          const mutability = s.byte();
          if (mutability > 1) throw moduleError('invalid global mutability', mutAt);
          const init = constExpr(s);
          if (mutability === 1) layout.mutableGlobals.push({ index: layout.definedGlobals, init });
          layout.definedGlobals++;
        }
        break;
      case 7:
        for (let n = s.u32(); n > 0; n--) {
          const name = s.name();
          const kindAt = s.pos;
          const kind = s.byte();
          if (kind > 3) throw refuse('exception handling', `export kind ${kind}`, kindAt);
          layout.exports.push({ name, kind, index: s.u32() });
        }
        break;
      case 8:
        s.u32();
        break;
      case 9:
        for (let n = s.u32(); n > 0; n--) {
          const flagsAt = s.pos;
          const flags = s.u32();
          if (flags !== 0)
            throw refuse(
              flags === 1 || flags === 5 ? 'bulk memory' : 'reference types',
              `element segment kind ${flags}`,
              flagsAt,
            );
          const offsetExpr = constExpr(s);
          const funcs: number[] = [];
          for (let k = s.u32(); k > 0; k--) funcs.push(s.u32());
          layout.elements.push({ offsetExpr, funcs });
        }
        break;
      case 10:
        for (let n = s.u32(); n > 0; n--) layout.bodies.push(readBody(s));
        break;
      case 11:
        for (let n = s.u32(); n > 0; n--) {
          const flagsAt = s.pos;
          const flags = s.u32();
          if (flags !== 0)
            throw refuse(flags === 1 ? 'bulk memory' : 'multiple memories', `data segment kind ${flags}`, flagsAt);
          constExpr(s);
          s.skip(s.u32());
        }
        break;
    }
    if (s.pos !== end) throw moduleError(`section ${id} is longer than its content`, s.pos);
    r.pos = end;
  }
  if (layout.funcTypes.length !== layout.bodies.length) {
    throw moduleError(`${layout.funcTypes.length} functions declared but ${layout.bodies.length} bodies`, bytes.length);
  }

  // Instantiation (fizzy_resolve_instantiate with the two host functions and a 512-page limit).
  const [firstForeign] = foreignImports;
  if (firstForeign !== undefined) throw instantiateError(firstForeign);
  const mem = layout.memory;
  if (mem && (mem.min > VM_LIMITS.memoryPages || (mem.max !== undefined && mem.max > VM_LIMITS.memoryPages))) {
    throw instantiateError(`cannot exceed hard memory limit of ${VM_LIMITS.memoryPages * 65536} bytes`);
  }
  // Then `_start` (fizzy_runner::call_start).
  const start = layout.exports.find((e) => e.kind === 0 && e.name === '_start');
  if (!start) throw new ChainError(ERROR_CODE.reversion, 'module does not have _start function');
  layout.startFunc = start.index;
  return layout;
}
