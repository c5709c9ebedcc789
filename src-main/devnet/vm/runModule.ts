// Runs a prepared contract module once, as fizzy_runner does: a new instance, `_start` with the remaining compute
// as ticks, the meter synced at every host call and at the end, pointers checked against memory, traps turned
// into the chain's reversion.
import { ChainError, ERROR_CODE } from '../chainError.ts';
import type { HostImport } from './checkModule.ts';
import { MEMORY_EXPORT, TICKS_EXPORT } from './instrument.ts';
import type { PreparedModule } from './prepareModule.ts';
import { wasmApi, type WasmGlobal, type WasmMemory } from './wasmApi.ts';

const I64_MAX = (1n << 63n) - 1n;

/** The compute meter a run charges its ticks to (1 tick = 1 compute, koinos-chain `host_api::use_meter_ticks`). */
export interface TickMeter {
  /** Compute left; the run starts with this many ticks. */
  remainingTicks(): bigint;
  /** Charges ticks; more than remain charges what remains plus one, which throws the meter's error. */
  useTicks(ticks: bigint): void;
}

/** What a host function answers: the return code, and how many bytes it wrote into `ret`. */
export interface HostResult {
  code: number;
  written: number;
}

/**
 * The host side of `env.invoke_system_call` / `env.invoke_thunk`: `ret` is the contract's return buffer (a view
 * of its memory, `ret_len` bytes), `args` its argument bytes. It may throw (exit, a reversion); the error leaves
 * the contract at once and `runModule` rethrows it unchanged.
 */
export type HostFunction = (fn: HostImport, id: number, ret: Uint8Array, args: Uint8Array) => HostResult;

function reversion(message: string): ChainError {
  return new ChainError(ERROR_CODE.reversion, message);
}

/** fizzy_vm_backend.cpp `resolve_ptr`: the view of [ptr, ptr + size) or undefined when it leaves memory. */
function resolvePtr(memory: ArrayBuffer, ptr: number, size: number): Uint8Array | undefined {
  const memSize = memory.byteLength;
  if (ptr > memSize) return undefined;
  if (memSize - ptr < size) return undefined;
  return new Uint8Array(memory, ptr, size);
}

function isTrap(error: unknown): boolean {
  return (
    error instanceof wasmApi.RuntimeError ||
    (error instanceof RangeError && /call stack/i.test(error.message))
  );
}

/**
 * Runs `_start` of a prepared module against a host and a meter.
 * @throws what the host threw (exit, reversions), the meter's error when ticks run out, or ChainError reversion
 *   "module exited due to trap" / "invalid ret_ptr in invoke_system_call()".
 */
export function runModule(prepared: PreparedModule, host: HostFunction, meter: TickMeter): void {
  let memory: WasmMemory | undefined;
  let ticks: WasmGlobal | undefined;
  let previous = 0n;
  const clampRemaining = (): bigint => {
    const r = meter.remainingTicks();
    return r > I64_MAX ? I64_MAX : r;
  };

  const hostImport = (fn: HostImport) =>
    (id: number, retPtr: number, retLen: number, argPtr: number, argLen: number, writtenPtr: number): number => {
      if (!ticks) throw reversion('could not instantiate module - FizzyErrorInstantiationFailed: host call during instantiation');
      if (!memory) throw reversion('fizzy_get_instance_memory_data() unexpectedly returned null pointer');
      const buffer = memory.buffer;
      const ret = resolvePtr(buffer, retPtr >>> 0, retLen >>> 0);
      const args = resolvePtr(buffer, argPtr >>> 0, argLen >>> 0);
      const written = resolvePtr(buffer, writtenPtr >>> 0, 4);
      if (!ret) throw reversion(`invalid ret_ptr in ${fn}()`);
      if (!args) throw reversion(`invalid arg_ptr in ${fn}()`);
      if (!written) throw reversion(`invalid bytes_written in ${fn}()`);
      meter.useTicks(previous - (ticks.value as bigint));
      try {
        const result = host(fn, id >>> 0, ret, args);
        new DataView(buffer).setUint32(writtenPtr >>> 0, result.written, true);
        return result.code;
      } finally {
        previous = clampRemaining();
        ticks.value = previous;
      }
    };

  const instance = new wasmApi.Instance(prepared.module, {
    env: { invoke_thunk: hostImport('invoke_thunk'), invoke_system_call: hostImport('invoke_system_call') },
  });
  const exports = instance.exports;
  memory = exports[MEMORY_EXPORT] as WasmMemory | undefined;
  const counter = exports[TICKS_EXPORT] as WasmGlobal;
  const start = exports[prepared.start] as () => unknown;

  previous = clampRemaining();
  counter.value = previous;
  ticks = counter;
  let failure: unknown;
  let trapped = false;
  try {
    start();
    if (prepared.metered) counter.value = (counter.value as bigint) - 1n; // `_start`'s final end
  } catch (error) {
    if (isTrap(error)) trapped = true;
    else failure = error;
  }
  const left = counter.value as bigint;
  if (prepared.metered) meter.useTicks(previous - left);
  if (failure !== undefined) throw failure;
  if (trapped) throw reversion('module exited due to trap');
  if (prepared.metered && left < 0n) throw reversion('module exited due to trap');
}
