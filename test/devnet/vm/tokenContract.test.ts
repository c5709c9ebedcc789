// A KCS-4 token built by others (@koinosbox/contracts' prebuilt release wasm) run by the host with an in-memory state:
// upload signed by the contract key, mint, transfer, balances, events and refusals, with koilib encoding the calls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Serializer } from 'koilib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChainError } from '../../../src-main/devnet/state/chainError.ts';
import { devKey } from '../../../src-main/devnet/chain/devKeys.ts';
import { callContract, readContract } from '../../../src-main/devnet/vm/contractOperations.ts';
import { MemoryObjectStore } from '../../../src-main/devnet/vm/objectStore.ts';
import { deploy, signedTransaction, testEnv } from './hostEnv.ts';

const dir = join(import.meta.dirname, '../../../node_modules/@koinosbox/contracts/assembly/token');
const abi = JSON.parse(readFileSync(join(dir, 'token-abi.json'), 'utf8')) as {
  methods: Record<string, { entry_point: number; argument: string; return: string }>;
  koilib_types: ConstructorParameters<typeof Serializer>[0];
};
const bytecode = new Uint8Array(readFileSync(join(dir, 'release/token.wasm')));
const serializer = new Serializer(abi.koilib_types);

const TOKEN_KEY = 40;
const alice = devKey(41);
const bob = devKey(42);

async function args(method: string, value: Record<string, unknown>): Promise<Uint8Array> {
  return serializer.serialize(value, abi.methods[method]!.argument);
}

describe('a KCS-4 token from @koinosbox/contracts', () => {
  const state = new MemoryObjectStore();
  let token: Uint8Array;

  beforeAll(() => {
    token = deploy(state, bytecode, TOKEN_KEY);
  });

  async function balance(owner: string): Promise<string> {
    const env = testEnv({ state, readOnly: true, limit: 10_000_000n });
    const { result } = readContract(
      env,
      token,
      abi.methods.balance_of!.entry_point,
      await args('balance_of', { owner }),
    );
    const decoded = await serializer.deserialize(result, abi.methods.balance_of!.return);
    return String(decoded.value ?? '0');
  }

  it('mints when the contract key signs, with a mint event', async () => {
    const env = testEnv({ state, transaction: signedTransaction('mint', TOKEN_KEY) });
    callContract(env, token, abi.methods.mint!.entry_point, await args('mint', { to: alice.address, value: '1000' }));
    expect(env.events.map((e) => e.name)).toEqual(['token.mint_event']);
    expect(env.events[0]!.source).toEqual(token);
    expect(await balance(alice.address)).toBe('1000');
    expect(env.meter.used).toBeGreaterThan(10_000n);
  });

  it('refuses a mint no one authorized', async () => {
    const env = testEnv({ state, transaction: signedTransaction('mint by alice', 41) });
    const call = async () =>
      callContract(env, token, abi.methods.mint!.entry_point, await args('mint', { to: alice.address, value: '5' }));
    await expect(call()).rejects.toThrow(new ChainError(1, 'owner has not authorized mint'));
    expect(await balance(alice.address)).toBe('1000');
  });

  it('transfers what the owner signs, and refuses what it does not', async () => {
    const transfer = await args('transfer', { from: alice.address, to: bob.address, value: '300' });
    const signed = testEnv({ state, transaction: signedTransaction('transfer', 41) });
    callContract(signed, token, abi.methods.transfer!.entry_point, transfer);
    expect(signed.events.map((e) => e.name)).toEqual(['token.transfer_event']);
    expect([await balance(alice.address), await balance(bob.address)]).toEqual(['700', '300']);

    const unsigned = testEnv({ state, transaction: signedTransaction('transfer unsigned', 42) });
    let error: unknown;
    try {
      callContract(unsigned, token, abi.methods.transfer!.entry_point, transfer);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChainError);
    expect([(error as ChainError).code, (error as ChainError).message]).toEqual([
      1,
      'from has not authorized transfer',
    ]);
    expect([await balance(alice.address), await balance(bob.address)]).toEqual(['700', '300']);
  });

  it('uses the same compute for the same call every time', async () => {
    const used = async () => {
      const env = testEnv({ state, readOnly: true, limit: 10_000_000n });
      readContract(env, token, abi.methods.balance_of!.entry_point, await args('balance_of', { owner: bob.address }));
      return env.meter.used;
    };
    const first = await used();
    expect(await used()).toBe(first);
  });
});
