// A contract's bytecode made ready to run: checked (WebAssembly 1.0, imports, memory, `_start`), instrumented for
// metering and compiled once, then kept in a small cache keyed by the bytecode's sha256, as the chain's module cache.
import { createHash } from 'node:crypto';
import { checkModule } from './checkModule.ts';
import { instrumentModule } from './instrument.ts';
import { wasmApi, type WasmModule } from './wasmApi.ts';

/** A compiled, instrumented module. */
export interface PreparedModule {
  /** sha256 of the original bytecode, hex. */
  readonly hash: string;
  readonly module: WasmModule;
  readonly metered: boolean;
  /** Whether the module has a memory (system calls from a module without one fail, as in fizzy). */
  readonly hasMemory: boolean;
  /** Export name of `_start` in the instrumented module. */
  readonly start: string;
}

/** Modules kept compiled (koinos-chain `module_cache_size`). */
export const MODULE_CACHE_SIZE = 32;

const cache = new Map<string, PreparedModule>();

/**
 * The prepared module of `bytecode`, from the cache when the same bytecode ran before.
 * @throws ChainError reversion (1) when the module is not one the chain would run (see checkModule).
 * @example
 * const prepared = prepareModule(bytecode);
 */
export function prepareModule(bytecode: Uint8Array, options: { metering?: boolean } = {}): PreparedModule {
  const metered = options.metering ?? true;
  const hash = createHash('sha256').update(bytecode).digest('hex');
  const key = metered ? hash : `${hash}:unmetered`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const layout = checkModule(bytecode);
  const module = new wasmApi.Module(instrumentModule(layout, { metering: metered }));
  const prepared: PreparedModule = { hash, module, metered, hasMemory: layout.memory !== undefined, start: '_start' };
  cache.set(key, prepared);
  if (cache.size > MODULE_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return prepared;
}
