// Runs the `koinos-wallet` CLI from source as a real process (node + tsx), as a user would run it, for the CLI tests.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `koinos-wallet ...args` with `input` on stdin (empty when not given). */
export function runCli(args: string[], input = ''): CliResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src-main/cli/main.ts', ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Asserts a successful run (stderr holding warnings at most) and returns its stdout parsed as JSON. */
export function okJson(r: CliResult): any {
  expect(r.status, r.stderr).toBe(0);
  for (const line of r.stderr.split('\n').filter((l) => l !== '')) expect(line).toMatch(/^koinos-wallet: warning: /);
  return JSON.parse(r.stdout);
}

/**
 * Asserts a failed run: the exit code, nothing on stdout, and exactly one stderr line (no stack trace) that
 * matches `message`. Returns that line.
 */
export function failsWith(r: CliResult, status: number, message: RegExp): string {
  expect(r.status, r.stderr).toBe(status);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(/^koinos-wallet: /);
  expect(lines[0]).toMatch(message);
  return lines[0]!;
}
