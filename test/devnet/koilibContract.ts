// koilib contract helpers the tests share: a method by name (failing clearly when the ABI lacks it), a write that
// waits for its block, a wait for a transaction's block without koilib's sleeps, and the error a call must end with.
import { expect } from 'vitest';
import type { Contract, Provider } from 'koilib';
import { until } from '../helpers/until.ts';

/** The ABI method `name` of `contract`. */
export function method(contract: Contract, name: string): NonNullable<Contract['functions'][string]> {
  const fn = contract.functions[name];
  if (!fn) throw new Error(`the ABI has no method ${name}`);
  return fn;
}

/** Runs a write and waits for its block (`included`); returns koilib's answer with the receipt. */
export async function write(contract: Contract, name: string, args: Record<string, unknown>) {
  if (!contract.provider) throw new Error('expected a contract with a provider');
  const answer = await method(contract, name)(args);
  await included(contract.provider, answer.transaction);
  return answer;
}

/**
 * Resolves once `provider`'s node lists the sent `transaction` in a block, as koilib's 'byTransactionId' wait does, but
 * without its second of sleep before each look: the fixtures' uploads and mints waited a second each on devnets that
 * make the block at once, in files that then ended the test run on idle cores.
 */
export async function included(
  provider: Pick<Provider, 'getTransactionsById'>,
  transaction: { id?: string } | undefined,
  ms = 60_000,
): Promise<void> {
  const id = transaction?.id;
  if (!id) throw new Error('expected a sent koilib transaction, with its id');
  await until(
    `transaction ${id} in a block`,
    async () => {
      const { transactions } = await provider.getTransactionsById([id]);
      return transactions?.[0]?.containing_blocks?.length ? true : undefined;
    },
    ms,
  );
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
