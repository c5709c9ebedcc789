// The contract builds committed in test/contracts/built/, which the tests use instead of building the contracts in
// every run (test/contracts/build.ts): each is there for every contract of test/contracts, was made from the current
// inputs (sources, build script, toolchain versions; the README's test builds the guestbook from source again and
// compares the bytes), and is a module the chain accepts, with its _start and the ABI's methods.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkModule } from '../../../src-main/devnet/vm/checkModule.ts';
import { COMMITTED, committedInputs, contractNames, entryPoint, inputHash } from '../../contracts/build.ts';

describe('committed contract builds', () => {
  it('has the contracts of test/contracts', () => {
    expect(contractNames()).toEqual(['fan', 'guestbook', 'sponsor']);
  });

  for (const name of contractNames()) {
    it(`holds ${name} as made from its current inputs, a WebAssembly 1.0 module with _start and its ABI`, () => {
      expect(
        committedInputs(name),
        `test/contracts/built/${name} was made from other inputs: run npx tsx test/contracts/build.ts --commit ${name}`,
      ).toBe(inputHash(name));
      const wasm = new Uint8Array(readFileSync(join(COMMITTED, name, 'contract.wasm')));
      expect(checkModule(wasm).exports.map((e) => e.name)).toContain('_start');
      const abi = JSON.parse(readFileSync(join(COMMITTED, name, 'abi.json'), 'utf8')) as {
        methods: Record<string, { entry_point: number }>;
      };
      expect(Object.keys(abi.methods).length).toBeGreaterThan(0);
      for (const [method, { entry_point }] of Object.entries(abi.methods)) expect(entry_point).toBe(entryPoint(method));
    });
  }
});
