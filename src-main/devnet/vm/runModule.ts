// Runs a prepared contract module once, as fizzy_runner does: an instance in its state right after instantiation,
// `_start` with the remaining compute as ticks, the meter synced at every host call and at the end, pointers checked
// against memory, traps turned into the chain's reversion. Instances are reused: after a run, the memory is copied back
// from the image of a new instance, what the run used past it zeroed, and the mutable globals (the memory's size among
// them, see instrument.ts) reset: the state a new instance has (WebAssembly 1.0 code cannot change its table), without
// the cost of a new memory each run.
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import type { HostImport } from './checkModule.ts';
import { MEMORY_EXPORT, PAGES_EXPORT, RESET_EXPORT, TICKS_EXPORT, trapRefund } from './instrument.ts';
import type { IdleInstance, PreparedModule } from './prepareModule.ts';
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

/**
 * fizzy_vm_backend.cpp `resolve_ptr`: the view of [ptr, ptr + size) or undefined when it leaves memory (the contract's
 * memory size, which the real memory of a reused instance may exceed).
 */
function resolvePtr(memory: ArrayBuffer, memSize: number, ptr: number, size: number): Uint8Array | undefined {
  if (ptr > memSize) return undefined;
  if (memSize - ptr < size) return undefined;
  return new Uint8Array(memory, ptr, size);
}

/**
 * The module offset of the instruction a trap stopped at: V8's column of the top WebAssembly frame of its stack, the
 * byte offset plus one. Read from the stack's frames, not from its text: a process-wide Error.prepareStackTrace (as
 * source-map-support installs) renders that text its own way. The frames are there until the stack is first read,
 * which for a trap just caught is now.
 */
function trapOffset(error: Error): number | undefined {
  const previous = Error.prepareStackTrace;
  let offset: number | undefined;
  Error.prepareStackTrace = (trap: Error, sites: NodeJS.CallSite[]) => {
    const top = sites.find((site) => site.getFileName()?.startsWith('wasm://'));
    const column = top?.getColumnNumber();
    if (column) offset = column - 1;
    return [`${trap.name}: ${trap.message}`, ...sites.map((site) => `    at ${String(site)}`)].join('\n');
  };
  try {
    void error.stack;
  } finally {
    Error.prepareStackTrace = previous;
  }
  return offset;
}

/** The ticks a trap left unrun: its segment was charged whole, fizzy charges up to the trapping instruction. */
function unrunTicks(prepared: PreparedModule, error: unknown): bigint {
  if (!(error instanceof wasmApi.RuntimeError)) return 0n;
  const offset = trapOffset(error);
  return offset === undefined ? 0n : BigInt(trapRefund(prepared.refunds, offset));
}

function isTrap(error: unknown): boolean {
  return error instanceof wasmApi.RuntimeError || (error instanceof RangeError && /call stack/i.test(error.message));
}

/** Idle instances kept per module (more are only needed when a contract calls itself). */
const IDLE_INSTANCES = 2;

/** Largest real memory an idle instance may keep (2 MiB): an instance whose memory grew past it is dropped. */
const KEPT_MEMORY_BYTES = 32 * 65536;

/** The run an instance is doing: where its host calls go and the ticks counter as last synced. */
interface Run {
  host: HostFunction;
  meter: TickMeter;
  previous: bigint;
}

interface Instance extends IdleInstance {
  memory?: WasmMemory;
  /** The memory's size in pages as the contract sees it. */
  pages?: WasmGlobal;
  counter: WasmGlobal;
  start: () => unknown;
  reset: () => void;
  /** Set while `_start` runs; a host call without one happens during instantiation. */
  run?: Run;
}

function remaining(meter: TickMeter): bigint {
  const r = meter.remainingTicks();
  return r > I64_MAX ? I64_MAX : r;
}

function instantiate(prepared: PreparedModule): Instance {
  const hostImport =
    (fn: HostImport) =>
    (id: number, retPtr: number, retLen: number, argPtr: number, argLen: number, writtenPtr: number): number => {
      const run = self.run;
      if (!run)
        throw reversion('could not instantiate module - FizzyErrorInstantiationFailed: host call during instantiation');
      const memory = self.memory;
      if (!memory) throw reversion('fizzy_get_instance_memory_data() unexpectedly returned null pointer');
      const buffer = memory.buffer;
      const size = (self.pages!.value as number) * 65536;
      const ret = resolvePtr(buffer, size, retPtr >>> 0, retLen >>> 0);
      const args = resolvePtr(buffer, size, argPtr >>> 0, argLen >>> 0);
      const written = resolvePtr(buffer, size, writtenPtr >>> 0, 4);
      if (!ret) throw reversion(`invalid ret_ptr in ${fn}()`);
      if (!args) throw reversion(`invalid arg_ptr in ${fn}()`);
      if (!written) throw reversion(`invalid bytes_written in ${fn}()`);
      run.meter.useTicks(run.previous - (self.counter.value as bigint));
      try {
        const result = run.host(fn, id >>> 0, ret, args);
        new DataView(buffer).setUint32(writtenPtr >>> 0, result.written, true);
        return result.code;
      } finally {
        run.previous = remaining(run.meter);
        self.counter.value = run.previous;
      }
    };
  // Filled in once the instance exists; the host imports only read it during a run.
  const self = {} as Instance;
  const instance = new wasmApi.Instance(prepared.module, {
    env: { invoke_thunk: hostImport('invoke_thunk'), invoke_system_call: hostImport('invoke_system_call') },
  });
  const exports = instance.exports;
  self.memory = exports[MEMORY_EXPORT] as WasmMemory | undefined;
  self.pages = exports[PAGES_EXPORT] as WasmGlobal | undefined;
  self.counter = exports[TICKS_EXPORT] as WasmGlobal;
  self.start = exports[prepared.start] as () => unknown;
  self.reset = exports[RESET_EXPORT] as () => void;
  if (self.memory && !prepared.image) prepared.image = new Uint8Array(self.memory.buffer).slice();
  return self;
}

/**
 * A new instance; a start section that traps, overflows the stack or runs past VM_LIMITS.startTicks fails the
 * instantiation with koinos-chain's reversion (fizzy_vm_backend.cpp wraps fizzy's error): the transaction reverts, and
 * a block that holds it goes on.
 * @throws ChainError reversion "could not instantiate module - FizzyErrorInstantiationFailed: start function failed to
 *   execute", or what a host call from the start section threw.
 */
function instantiateOrRevert(prepared: PreparedModule): Instance {
  try {
    return instantiate(prepared);
  } catch (error) {
    if (!isTrap(error)) throw error;
    throw reversion('could not instantiate module - FizzyErrorInstantiationFailed: start function failed to execute');
  }
}

/**
 * Puts an instance back in its state right after instantiation and keeps it: the memory as a new instance has it,
 * and zeros up to the size the run reached (past it nothing could write, so the bytes are still zero).
 */
function release(prepared: PreparedModule, instance: Instance): void {
  if (!prepared.reusable || prepared.idle.length >= IDLE_INSTANCES) return;
  if (instance.memory) {
    const image = prepared.image;
    const buffer = instance.memory.buffer;
    if (!image || buffer.byteLength > KEPT_MEMORY_BYTES) return;
    const bytes = new Uint8Array(buffer);
    bytes.set(image);
    bytes.fill(0, image.length, (instance.pages!.value as number) * 65536);
  }
  instance.reset();
  prepared.idle.push(instance);
}

/**
 * Runs `_start` of a prepared module against a host and a meter.
 * @throws what the host threw (exit, reversions), the meter's error when ticks run out, or ChainError reversion
 *   "module exited due to trap" / "invalid ret_ptr in invoke_system_call()".
 */
export function runModule(prepared: PreparedModule, host: HostFunction, meter: TickMeter): void {
  const instance = (prepared.idle.pop() as Instance | undefined) ?? instantiateOrRevert(prepared);
  const counter = instance.counter;
  const run: Run = { host, meter, previous: remaining(meter) };
  counter.value = run.previous;
  instance.run = run;
  let failure: unknown;
  let trapped = false;
  let left: bigint;
  try {
    try {
      instance.start();
      if (prepared.metered) counter.value = (counter.value as bigint) - 1n; // `_start`'s final end
    } catch (error) {
      if (isTrap(error)) {
        trapped = true;
        if (prepared.metered) counter.value = (counter.value as bigint) + unrunTicks(prepared, error);
      } else failure = error;
    }
    left = counter.value as bigint;
  } finally {
    instance.run = undefined;
    release(prepared, instance);
  }
  if (prepared.metered) meter.useTicks(run.previous - left);
  if (failure !== undefined) throw failure;
  if (trapped) throw reversion('module exited due to trap');
  if (prepared.metered && left < 0n) throw reversion('module exited due to trap');
}
