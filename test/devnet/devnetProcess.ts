// Runs `koinos-wallet devnet ...` as a real process (the built CLI, builtApp.ts; no npx wrapper, so that signals reach
// the devnet itself) and reads the machine-readable first line of its output.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BUILT_CLI } from '../helpers/builtApp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Extra environment of a spawned devnet. KOINOS_DEVNET_API_KEY is not inherited from the test runner's environment. */
export type DevnetEnv = Record<string, string>;

function childEnv(extra: DevnetEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.KOINOS_DEVNET_API_KEY;
  return { ...env, ...extra };
}

/** The JSON line the devnet prints first. */
export interface DevnetInfo {
  url: string;
  jsonrpc: string;
  rest: string;
  chain_id: string;
  koin_address: string;
  accounts: { address: string; wif: string }[];
}

export interface DevnetProcess {
  child: ChildProcess;
  info: DevnetInfo;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `koinos-wallet devnet ...args` and resolves once it has printed its JSON line (or rejects with its stderr). */
export function spawnDevnet(
  args: string[],
  { timeoutMs = 30_000, env = {} }: { timeoutMs?: number; env?: DevnetEnv } = {},
): Promise<DevnetProcess> {
  const child = spawn(process.execPath, [BUILT_CLI, 'devnet', ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`devnet did not start within ${timeoutMs} ms; stderr: ${err}`));
    }, timeoutMs);
    const onData = () => {
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      child.stdout!.off('data', onData);
      clearTimeout(timer);
      try {
        const info = JSON.parse(out.slice(0, newline)) as DevnetInfo;
        resolve({ child, info, stdout: () => out, stderr: () => err, exited });
      } catch (e) {
        child.kill('SIGKILL');
        reject(new Error(`first line is not JSON: ${out.slice(0, newline)} (${String(e)})`));
      }
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`devnet exited (code ${code}, signal ${signal}) before starting; stderr: ${err}`));
    });
  });
}

/** Runs the devnet command to completion (for usage errors and start-up failures), killing it after `timeoutMs`. */
export async function runDevnetToExit(
  args: string[],
  { timeoutMs = 30_000, env = {} }: { timeoutMs?: number; env?: DevnetEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BUILT_CLI, 'devnet', ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
