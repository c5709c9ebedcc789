// Runs the `koinos-wallet` CLI for the CLI tests: in process through `main(argv, io)` with captured stdout and stderr
// (most tests: no process start per call), or spawned as a user runs it, the built CLI that package.json's bin names
// (the few smoke tests of the real entry point: argv, exit codes, stdin of a process).
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { main } from '../../src-main/cli/main.ts';
import { BUILT_CLI } from './builtApp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What one run of the CLI gave: the exit code (null when a spawned process was killed), stdout and stderr. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `koinos-wallet ...args` in this process with `input` on stdin (empty when not given) and the given environment
 * (the test process's by default), capturing what it prints.
 * @example
 * okJson(await runCli(['key', 'inspect'], wif));
 */
export async function runCli(
  args: string[],
  input = '',
  env: Record<string, string | undefined> = process.env,
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const stdin = Readable.from(input === '' ? [] : [Buffer.from(input, 'utf8')]);
  const status = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin,
    env,
  });
  return { status, stdout, stderr };
}

/**
 * Runs `koinos-wallet ...args` as a real process (the built CLI, builtApp.ts), with `input` on stdin, without blocking
 * this process (a devnet it talks to may answer from here). `maxFileBlocks` runs it under `ulimit -f` (512-byte
 * blocks): a write to a file beyond that fails as it does on a full disk.
 */
export function spawnCli(args: string[], input = '', options: { maxFileBlocks?: number } = {}): Promise<CliResult> {
  const command =
    options.maxFileBlocks === undefined
      ? [process.execPath, BUILT_CLI, ...args]
      : ['sh', '-c', `ulimit -f ${options.maxFileBlocks}; exec "$0" "$@"`, process.execPath, BUILT_CLI, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A review block of stderr: "koinos-wallet: signing: <what>", then its indented lines (what a signature covered). */
const REVIEW = /^koinos-wallet: signing: .*\n(?: {2}.*\n)*/gm;

/** The review blocks a run printed on stderr, one text each (what each signature it made covered). */
export function reviewsIn(stderr: string): string[] {
  return stderr.match(REVIEW) ?? [];
}

/** stderr's lines other than its review blocks. */
function otherLines(stderr: string): string[] {
  return stderr
    .replace(REVIEW, '')
    .split('\n')
    .filter((l) => l !== '');
}

/** Asserts a successful run (stderr holding reviews and warnings at most) and returns its stdout parsed as JSON. */
export function okJson(r: CliResult): any {
  expect(r.status, r.stderr).toBe(0);
  for (const line of otherLines(r.stderr)) expect(line).toMatch(/^koinos-wallet: warning: /);
  return JSON.parse(r.stdout);
}

/**
 * Asserts a failed run: the exit code, nothing on stdout, and exactly one stderr line besides the reviews of what was
 * signed (no stack trace) that matches `message`. Returns that line.
 */
export function failsWith(r: CliResult, status: number, message: RegExp): string {
  expect(r.status, r.stderr).toBe(status);
  expect(r.stdout).toBe('');
  const lines = otherLines(r.stderr);
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(/^koinos-wallet: /);
  expect(lines[0]).toMatch(message);
  return lines[0]!;
}
