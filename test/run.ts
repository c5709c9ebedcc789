// `npm test`: the two vitest projects of vitest.config.ts ("unit" and "e2e") as two vitest processes side by side. In
// one process vitest 4 runs the e2e group after the unit group, and a 2-core machine idles: the unit files wait on
// devnets, child processes and the keychain, the e2e files on one browser. The unit run prints as it goes; the e2e
// run's output is held until the unit run ends, so that each reads as one block. The exit code is the worse of the
// two, and a JSON report (--outputFile.json=PATH, as .ci/run asks) is the two runs' reports merged into one.
// Arguments that choose files, projects or other outputs run one vitest as asked (`npm test -- test/cli`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildAppIfStale } from './helpers/builtApp.ts';

const ROOT = resolve(import.meta.dirname, '..');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
/** The two runs: a name, and the --project filter that picks its projects of vitest.config.ts. */
const RUNS = [
  { name: 'unit', projects: 'unit*' },
  { name: 'e2e', projects: 'e2e' },
] as const;

/** The unit run's niceness (0 normal, 19 lowest): the e2e run goes first when both want the CPU. */
const UNIT_NICENESS = 5;

/** How to run the arguments: two processes (their shared options, and where the merged JSON goes) or one as given. */
interface SplitPlan {
  shared: string[];
  jsonReport: string | undefined;
}

/**
 * The plan for `args`, or undefined when they must go to one vitest unchanged: a file filter or an option's separate
 * value (anything not `--name` or `--name=value`), a project choice, watch mode, or an output file other than JSON.
 */
export function splitPlan(args: readonly string[]): SplitPlan | undefined {
  const shared: string[] = [];
  let jsonReport: string | undefined;
  for (const arg of args) {
    if (!arg.startsWith('--') || /^--(project|watch|outputFile(?!\.json=))/.test(arg)) return undefined;
    const json = /^--outputFile\.json=(.+)$/.exec(arg);
    if (json) jsonReport = resolve(json[1]!);
    else shared.push(arg);
  }
  return { shared, jsonReport };
}

/** A vitest report as the JSON reporter writes it (the fields merged here; others are kept from the first). */
interface JsonReport {
  [field: string]: unknown;
  startTime: number;
  success: boolean;
  testResults: unknown[];
  snapshot: Record<string, unknown>;
}

/** One report of two: counts added, lists joined, success only when both succeeded, the earlier start. */
export function mergeReports(a: JsonReport, b: JsonReport): JsonReport {
  const merged: JsonReport = { ...a };
  for (const [field, value] of Object.entries(b)) {
    if (field.startsWith('num') && typeof value === 'number') merged[field] = (a[field] as number) + value;
  }
  const snapshot: Record<string, unknown> = { ...a.snapshot };
  for (const [field, value] of Object.entries(b.snapshot)) {
    const mine = a.snapshot[field];
    if (typeof value === 'number') snapshot[field] = (mine as number) + value;
    else if (typeof value === 'boolean') snapshot[field] = (mine as boolean) || value;
    else if (Array.isArray(value)) snapshot[field] = [...(mine as unknown[]), ...value];
  }
  merged.snapshot = snapshot;
  merged.startTime = Math.min(a.startTime, b.startTime);
  merged.success = a.success && b.success;
  merged.testResults = [...a.testResults, ...b.testResults];
  return merged;
}

/** The exit code a child's end stands for: its code, or 1 when a signal ended it. */
function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((done) => {
    child.on('error', (error) => {
      process.stderr.write(`npm test: could not start vitest: ${error.message}\n`);
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

function vitest(args: string[], held: boolean): ChildProcess {
  // A held run writes into a pipe: keep its colours when the terminal has them.
  const env = held && process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env;
  return spawn(process.execPath, [VITEST, 'run', ...args], {
    cwd: ROOT,
    env,
    stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
}

async function runSplit(plan: SplitPlan): Promise<number> {
  // Both processes' global setups build the app when it is stale: build it once here, so that they do not both write
  // out/ at the same time.
  buildAppIfStale();
  const reports = plan.jsonReport ? mkdtempSync(join(tmpdir(), 'koinos-test-report-')) : undefined;
  const reportOf = (run: (typeof RUNS)[number]) => join(reports!, `${run.name}.json`);
  const argsOf = (run: (typeof RUNS)[number]) => [
    `--project=${run.projects}`,
    ...plan.shared,
    ...(reports ? [`--outputFile.json=${reportOf(run)}`] : []),
  ];
  const [live, held] = [vitest(argsOf(RUNS[0]), false), vitest(argsOf(RUNS[1]), true)];
  // The browser files wait on pages and blocks and hold the run up at its end; the unit files fill the gaps they leave.
  // So the unit process (and the workers it forks, which inherit it) yields the CPU to them when both want it.
  try {
    if (live.pid !== undefined) setPriority(live.pid, UNIT_NICENESS);
  } catch {
    // Not allowed here: both run at the same priority.
  }
  // Ctrl-C reaches both vitest processes from the terminal: this one waits for them to stop and print. A SIGTERM is
  // this process's alone, and is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {
    live.kill('SIGTERM');
    held.kill('SIGTERM');
  });

  // The held run's output, in order across its stdout and stderr, until the live run ends; then straight through.
  const chunks: { to: NodeJS.WriteStream; data: Buffer }[] = [];
  let holding = true;
  for (const [from, to] of [
    [held.stdout!, process.stdout],
    [held.stderr!, process.stderr],
  ] as const) {
    from.on('data', (data: Buffer) => (holding ? chunks.push({ to, data }) : to.write(data)));
  }
  const liveCode = exitCode(live);
  const heldCode = exitCode(held);
  await liveCode;
  holding = false;
  for (const { to, data } of chunks.splice(0)) to.write(data);
  const codes = await Promise.all([liveCode, heldCode]);
  process.stdout.write(
    `\nnpm test: ${RUNS.map((run, i) => `${run.name} ${codes[i] === 0 ? 'passed' : 'FAILED'}`).join(', ')}\n`,
  );

  if (reports && plan.jsonReport) {
    const written = RUNS.map(reportOf).filter((path) => existsSync(path));
    const parsed = written.map((path) => JSON.parse(readFileSync(path, 'utf8')) as JsonReport);
    if (parsed.length > 0) {
      writeFileSync(plan.jsonReport, JSON.stringify(parsed.reduce(mergeReports)));
      process.stdout.write(`npm test: JSON report of both runs written to ${plan.jsonReport}\n`);
    }
    rmSync(reports, { recursive: true, force: true });
    // A run that wrote no report failed (its exit code says so); the merged one then holds only the other's tests.
    if (written.length < RUNS.length) process.stderr.write('npm test: a project wrote no JSON report\n');
  }
  return Math.max(...codes);
}

async function runAsGiven(args: string[]): Promise<number> {
  return exitCode(vitest(args, false));
}

if (process.argv[1] === import.meta.filename) {
  const args = process.argv.slice(2);
  const plan = splitPlan(args);
  process.exitCode = await (plan ? runSplit(plan) : runAsGiven(args));
}
