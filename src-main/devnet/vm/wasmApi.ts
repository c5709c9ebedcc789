// The part of the JavaScript WebAssembly API the VM uses, typed here because the project's TypeScript libs (ES2023 +
// Node, no DOM) do not declare the WebAssembly global that Node provides.

/** A compiled module. */
export interface WasmModule {
  readonly __brand?: 'WebAssembly.Module';
}

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

export interface WasmGlobal {
  value: unknown;
}

export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

type HostFn = (...args: number[]) => number;

interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, HostFn>>) => WasmInstance;
  RuntimeError: new (message?: string) => Error;
}

/** Node's WebAssembly global. */
export const wasmApi: WasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
