// The module check: WebAssembly 1.0 only, with the feature and byte offset of what a later proposal added; imports
// only the two host functions; memory within 512 pages; an exported `_start`; the compiled module cached by hash.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChainError } from '../../../src-main/devnet/state/chainError.ts';
import { checkModule } from '../../../src-main/devnet/vm/checkModule.ts';
import { prepareModule } from '../../../src-main/devnet/vm/prepareModule.ts';
import { wat } from './wat.ts';

function refusal(bytes: Uint8Array): ChainError {
  try {
    checkModule(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ChainError);
    return error as ChainError;
  }
  throw new Error('expected the module to be refused');
}

function indexOf(bytes: Uint8Array, pattern: number[], from = 8): number {
  outer: for (let i = from; i <= bytes.length - pattern.length; i++) {
    for (let k = 0; k < pattern.length; k++) if (bytes[i + k] !== pattern[k]) continue outer;
    return i;
  }
  throw new Error('pattern not in module');
}

describe('WebAssembly 1.0 only', () => {
  it('accepts a 1.0 module with the two host imports, memory, table, data and _start', async () => {
    const bytes = await wat(`(module
      (import "env" "invoke_thunk" (func (param i32 i32 i32 i32 i32 i32) (result i32)))
      (import "env" "invoke_system_call" (func (param i32 i32 i32 i32 i32 i32) (result i32)))
      (memory (export "memory") 1)
      (table 1 funcref) (elem (i32.const 0) $f)
      (data (i32.const 8) "hello")
      (global $g (mut i32) (i32.const 0))
      (func $f (result i32) global.get $g)
      (func (export "_start")))`);
    const layout = checkModule(bytes);
    expect(layout.importedFuncs.map((f) => f.name)).toEqual(['invoke_thunk', 'invoke_system_call']);
    expect(layout.startFunc).toBe(3);
    expect(layout.memory).toEqual({ min: 1 });
  });

  it('refuses bulk memory with the feature and the offset of memory.fill', async () => {
    const bytes = await wat(
      '(module (memory 1) (func (export "_start") i32.const 0 i32.const 0 i32.const 1 memory.fill))',
      { bulk_memory: true },
    );
    const error = refusal(bytes);
    const at = indexOf(bytes, [0xfc, 0x0b]);
    expect(error.code).toBe(1);
    expect(error.keys).toEqual({ feature: 'bulk memory', offset: at });
    expect(error.message).toBe(
      `could not parse fizzy module - FizzyErrorMalformedModule: opcode 0xfc 0xb needs bulk memory, which WebAssembly 1.0 (the chain's fizzy) does not have at byte ${at}`,
    );
  });

  it('refuses sign extension', async () => {
    const bytes = await wat('(module (func (export "_start") i32.const 1 i32.extend8_s drop))', {
      sign_extension: true,
    });
    expect(refusal(bytes).keys).toEqual({ feature: 'sign extension', offset: indexOf(bytes, [0xc0]) });
  });

  it('refuses multi-value function types and block types', async () => {
    const fn = await wat('(module (func $two (result i32 i32) i32.const 1 i32.const 2) (func (export "_start")))', {
      multi_value: true,
    });
    expect(refusal(fn).keys.feature).toBe('multi-value');
    const block = await wat(
      '(module (type $t (func (param i32) (result i32))) (func (export "_start") i32.const 1 (block (type $t)) drop))',
      { multi_value: true },
    );
    expect(refusal(block).keys.feature).toBe('multi-value');
  });

  it('refuses reference types and SIMD', async () => {
    const ref = await wat('(module (func (export "_start") ref.null func drop))', { reference_types: true });
    expect(refusal(ref).keys).toEqual({ feature: 'reference types', offset: indexOf(ref, [0xd0, 0x70]) });
    const simd = await wat('(module (func (export "_start") (local v128)))', { simd: true });
    expect(refusal(simd).keys.feature).toBe('SIMD');
  });

  it('refuses non-trapping float-to-int conversions', async () => {
    const bytes = await wat('(module (func (export "_start") f32.const 1 i32.trunc_sat_f32_s drop))', {
      sat_float_to_int: true,
    });
    expect(refusal(bytes).keys.feature).toBe('non-trapping float-to-int conversions');
  });

  it('refuses a passive data segment and a DataCount section', async () => {
    const bytes = await wat('(module (memory 1) (data "x") (func (export "_start") data.drop 0))', {
      bulk_memory: true,
    });
    expect(refusal(bytes).keys.feature).toBe('bulk memory');
  });

  it('refuses truncated bytes and a wrong header', () => {
    expect(refusal(new Uint8Array([0, 0x61, 0x73, 0x6d])).message).toMatch(/shorter than its 8-byte header at byte 0/);
    expect(refusal(new Uint8Array([0, 0x61, 0x73, 0x6d, 2, 0, 0, 0])).message).toMatch(
      /unsupported wasm version at byte 4/,
    );
    expect(refusal(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 9, 1])).message).toMatch(
      /section 1 runs past the end/,
    );
  });
});

describe('instantiation rules', () => {
  it('requires an exported _start', async () => {
    const bytes = await wat('(module (func (export "main")))');
    expect(refusal(bytes).message).toBe('module does not have _start function');
  });

  it('refuses any import but the two host functions', async () => {
    const bytes = await wat('(module (import "env" "abort" (func (param i32))) (func (export "_start")))');
    expect(refusal(bytes).message).toBe(
      'could not instantiate module - FizzyErrorInstantiationFailed: imported function env.abort is required',
    );
    const mem = await wat('(module (import "env" "memory" (memory 1)) (func (export "_start")))');
    expect(refusal(mem).message).toMatch(/imported memory but none was provided/);
    const wrongType = await wat(
      '(module (import "env" "invoke_system_call" (func (param i32))) (func (export "_start")))',
    );
    expect(refusal(wrongType).message).toMatch(/function 0 type doesn't match/);
  });

  it('refuses memory over 512 pages, declared minimum or maximum', async () => {
    for (const decl of ['(memory 513)', '(memory 1 600)']) {
      const bytes = await wat(`(module ${decl} (func (export "_start")))`);
      expect(refusal(bytes).message).toBe(
        'could not instantiate module - FizzyErrorInstantiationFailed: cannot exceed hard memory limit of 33554432 bytes',
      );
    }
  });
});

describe('contracts others built', () => {
  // @koinosbox/contracts ships release and testnet builds of AssemblyScript contracts made with the Koinos SDK.
  const root = join(import.meta.dirname, '../../../node_modules/@koinosbox/contracts/assembly');
  const wasmFiles = readdirSync(root)
    .flatMap((name) => ['release', 'testnet'].map((build) => join(root, name, build, `${name}.wasm`)))
    .filter((file) => {
      try {
        return readFileSync(file).length > 0;
      } catch {
        return false;
      }
    });

  it('finds the prebuilt contracts', () => {
    expect(wasmFiles.length).toBeGreaterThanOrEqual(16);
  });

  it.each(wasmFiles.map((f) => [f.slice(root.length + 1), f]))('checks, instruments and compiles %s', (_name, file) => {
    const prepared = prepareModule(new Uint8Array(readFileSync(file)));
    expect(prepared.hasMemory).toBe(true);
  });
});

describe('module cache', () => {
  it('prepares the same bytecode once', async () => {
    const bytes = await wat('(module (func (export "_start") nop))');
    const first = prepareModule(bytes);
    expect(prepareModule(bytes.slice())).toBe(first);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
