// One job at a time for work that a burst of events asks for (a new head block refreshes the dashboard and History's
// first page): a call while the job runs is folded into one more run after it, so a burst costs two runs, not one per
// event, and no older answer lands after a newer one.

/**
 * `run` made single-flight: called while a run is under way, it returns at once and `run` runs once more when that
 * run ends (however many calls came meanwhile). `run` handles its own failures: a rejection ends the runs.
 * @example
 * const refresh = coalesced(() => loadDashboard());
 * onHead(() => void refresh()); // a burst of heads: two loads
 */
export function coalesced(run: () => Promise<void>): () => Promise<void> {
  let running = false;
  let again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await run();
      } while (again);
    } finally {
      running = false;
    }
  };
}
