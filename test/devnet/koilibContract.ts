// koilib contract helpers the tests share: a method by name (failing clearly when the ABI lacks it), a write that
// waits for its block, and the error a call must end with.
import { expect } from 'vitest';
import type { Contract } from 'koilib';

/** The ABI method `name` of `contract`. */
export function method(contract: Contract, name: string): NonNullable<Contract['functions'][string]> {
  const fn = contract.functions[name];
  if (!fn) throw new Error(`the ABI has no method ${name}`);
  return fn;
}

/** Runs a write and waits for its block; returns koilib's answer with the receipt. */
export async function write(contract: Contract, name: string, args: Record<string, unknown>) {
  const answer = await method(contract, name)(args);
  await answer.transaction!.wait('byBlock', 15_000);
  return answer;
}

/** The error a call ends with (koilib throws the node's error); fails the test if it succeeds. */
export async function failure(call: Promise<unknown>): Promise<Error> {
  const outcome = await call.then(
    () => undefined,
    (e: Error) => e,
  );
  expect(outcome, 'the call should fail').toBeInstanceOf(Error);
  return outcome!;
}
