// A contract's bytecode made ready to run: checked (WebAssembly 1.0, imports, memory, `_start`), instrumented for
// metering and compiled once, then kept in a small cache keyed by the bytecode's sha256, as the chain's module cache.
// A prepared module also keeps a few idle instances that runModule reuses (see runModule.ts).
import { createHash } from 'node:crypto';
import { checkModule } from './checkModule.ts';
import { instrument, type TrapRefunds } from './instrument.ts';
import { wasmApi, type WasmModule } from './wasmApi.ts';

/** An instance runModule keeps between runs: opaque here, owned by runModule. */
export interface IdleInstance {
  readonly __brand?: 'IdleInstance';
}

/** A compiled, instrumented module. */
export interface PreparedModule {
  /** sha256 of the original bytecode, hex. */
  readonly hash: string;
  readonly module: WasmModule;
  readonly metered: boolean;
  /** Whether the module has a memory (system calls from a module without one fail, as in fizzy). */
  readonly hasMemory: boolean;
  /** The ticks a trap at a given offset leaves unrun (see instrument.ts). */
  readonly refunds: TrapRefunds;
  /** Export name of `_start` in the instrumented module. */
  readonly start: string;
  /**
   * Whether an instance can be put back to its state right after instantiation and run again: only without a start
   * section (whose run could leave anything) and with at most REUSED_MEMORY_PAGES of initial memory.
   */
  readonly reusable: boolean;
  /** Instances back in their initial state, ready for a run (at most IDLE_INSTANCES). */
  readonly idle: IdleInstance[];
  /** The memory of a new instance (data segments applied), taken from the first one; runModule fills it in. */
  image?: Uint8Array;
}

/** Modules kept compiled (koinos-chain `module_cache_size`). */
const MODULE_CACHE_SIZE = 32;

/** Largest initial memory whose instances are reused (a reuse copies the initial memory back: 1 MiB at most). */
const REUSED_MEMORY_PAGES = 16;

const cache = new Map<string, PreparedModule>();

/** Bytecodes whose sha256 is known, by length: a byte comparison (memcmp) costs far less than hashing ~60 KB again. */
const knownHashes = new Map<number, { bytecode: Buffer; hash: string }[]>();
/** Bytecodes kept in knownHashes (twice the module cache: metered and unmetered share one entry). */
const KNOWN_HASHES = 2 * MODULE_CACHE_SIZE;
let knownCount = 0;

/** sha256 of `bytecode`, hex: from knownHashes when the same bytes were hashed before. */
function bytecodeHash(bytecode: Uint8Array): string {
  const view = Buffer.from(bytecode.buffer, bytecode.byteOffset, bytecode.byteLength);
  const sameLength = knownHashes.get(bytecode.length);
  if (sameLength) for (const known of sameLength) if (known.bytecode.equals(view)) return known.hash;
  const hash = createHash('sha256').update(bytecode).digest('hex');
  if (knownCount >= KNOWN_HASHES) {
    knownHashes.clear();
    knownCount = 0;
  }
  const entry = { bytecode: Buffer.from(view), hash };
  if (sameLength) sameLength.push(entry);
  else knownHashes.set(bytecode.length, [entry]);
  knownCount++;
  return hash;
}

/**
 * The prepared module of `bytecode`, from the cache when the same bytecode ran before.
 * @throws ChainError reversion (1) when the module is not one the chain would run (see checkModule).
 * @example
 * const prepared = prepareModule(bytecode);
 */
export function prepareModule(bytecode: Uint8Array, options: { metering?: boolean } = {}): PreparedModule {
  const metered = options.metering ?? true;
  const hash = bytecodeHash(bytecode);
  const key = metered ? hash : `${hash}:unmetered`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const layout = checkModule(bytecode);
  const { bytes, refunds } = instrument(layout, { metering: metered });
  const module = new wasmApi.Module(bytes);
  const reusable = !layout.sections.has(8) && (layout.memory?.min ?? 0) <= REUSED_MEMORY_PAGES;
  const prepared: PreparedModule = {
    hash,
    module,
    metered,
    hasMemory: layout.memory !== undefined,
    refunds,
    start: '_start',
    reusable,
    idle: [],
  };
  cache.set(key, prepared);
  if (cache.size > MODULE_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return prepared;
}
