// The Action rune class that every form runs its job through: busy exactly while the job runs, the job's result
// handed back, an expected error shown as its sentence and an unexpected one as the generic notice, the last problem
// and success sentence cleared when the next job starts, and nothing thrown to the click handler.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalletError } from '../../src-main/koinos/errors.ts';
import { Action } from '../../src-renderer/lib/action.svelte.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A promise and the function that settles it, so that a test looks at the Action while the job still waits. */
function pending<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('Action', () => {
  it('starts idle, with no problem and nothing done', () => {
    const action = new Action();
    expect(action.busy).toBe(false);
    expect(action.problem).toBeUndefined();
    expect(action.done).toBe('');
  });

  it('is busy while the job runs and hands back what it returned', async () => {
    const action = new Action();
    const answer = pending<number>();
    const running = action.run('test:job', () => answer.promise);
    expect(action.busy).toBe(true);
    answer.resolve(42);
    await expect(running).resolves.toBe(42);
    expect(action.busy).toBe(false);
    expect(action.problem).toBeUndefined();
  });

  it('shows an expected error as its sentence, answers undefined and is no longer busy', async () => {
    const action = new Action();
    const result = await action.run('send:prepare', () =>
      Promise.reject(new WalletError('INSUFFICIENT_BALANCE', 'not enough KOIN')),
    );
    expect(result).toBeUndefined();
    expect(action.busy).toBe(false);
    expect(action.problem).toMatchObject({ message: 'Not enough KOIN.' });
  });

  it('shows an unexpected error as the generic notice and logs it with the context', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const action = new Action();
    const error = new Error('internals');
    await action.run('settings:update', async () => {
      throw error;
    });
    expect(action.problem?.message).toMatch(/^Something went wrong inside the wallet/);
    expect(log).toHaveBeenCalledWith('[renderer] settings:update failed:', error);
  });

  it('clears the last problem and success sentence when the next job starts', async () => {
    const action = new Action();
    await action.run('first', () => Promise.reject(new WalletError('INVALID_ADDRESS', 'bad address')));
    expect(action.problem).toBeDefined();
    const answer = pending<void>();
    const running = action.run('second', async () => {
      await answer.promise;
      action.done = 'Saved.';
    });
    expect(action.problem).toBeUndefined();
    answer.resolve();
    await running;
    expect(action.done).toBe('Saved.');
    await action.run('third', async () => {});
    expect(action.done).toBe('');
  });

  it('lets a screen set or clear the problem itself', () => {
    const action = new Action();
    action.problem = { message: 'The list could not be read.' };
    expect(action.problem.message).toBe('The list could not be read.');
    action.problem = undefined;
    expect(action.problem).toBeUndefined();
  });
});
