// What a form or button does while it waits on main, as one rune class: busy while the job runs (buttons disabled),
// the Problem it ended with (an ErrorMessage shows it), and the sentence saying what it achieved. Every screen used to
// write this try/catch/finally itself.
import { toProblem, type Problem } from './problem.ts';

/**
 * The state of one screen's (or form's) actions: at most one runs at a time, as `busy` disables the buttons.
 *
 * @example
 * const action = new Action();
 * const save = () => action.run('settings:update', async () => {
 *   await wallet.updateSettings({ theme });
 *   action.done = 'Saved.';
 * });
 * // <button disabled={action.busy}>…</button> <ErrorMessage problem={action.problem} /> {action.done}
 */
export class Action {
  /** True while a job runs. */
  busy = $state(false);
  /** What the last job failed with; cleared when the next one starts. Screens may also set or clear it. */
  problem = $state<Problem | undefined>();
  /** A sentence the job sets to say what it achieved ("The password was changed."); cleared when the next one starts. */
  done = $state('');

  /**
   * Runs `job`: clears the last problem and `done`, sets `busy` until it settles, and turns what it throws into
   * `problem` (an unexpected error is logged with `context`, the IPC channel or what was being done).
   *
   * @returns what the job returned, or undefined when it threw (never throws itself).
   */
  async run<T>(context: string, job: () => Promise<T>): Promise<T | undefined> {
    this.busy = true;
    this.problem = undefined;
    this.done = '';
    try {
      return await job();
    } catch (error) {
      this.problem = toProblem(error, context);
      return undefined;
    } finally {
      this.busy = false;
    }
  }
}
