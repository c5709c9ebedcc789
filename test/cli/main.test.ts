// The CLI dispatcher: usage on --help, usage errors with exit code 2 for what it does not know. The smoke tests run the
// real entry point as a process (argv, stdin, stdout, stderr and the exit code of node); the other CLI tests run
// `main` in process.
import { describe, it, expect } from 'vitest';
import { vector } from '../vectors.ts';
import { failsWith, okJson, runCli, spawnCli, type CliResult } from '../helpers/cli.ts';

function expectUsage(r: CliResult): void {
  expect(r.status).toBe(0);
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/^Usage: koinos-wallet <command>/);
  for (const command of ['key new', 'key inspect', 'tx decode', 'tx encode', 'tx sign', 'devnet']) {
    expect(r.stdout).toContain(`koinos-wallet ${command}`);
  }
}

describe('koinos-wallet', () => {
  it('prints the usage on stdout with exit code 0 for --help and for no arguments', async () => {
    for (const args of [['--help'], []]) expectUsage(await runCli(args));
  });

  it('rejects an unknown command or option with a usage error and exit code 2', async () => {
    failsWith(await runCli(['frobnicate']), 2, /unknown command "frobnicate"/);
    failsWith(await runCli(['tx', 'decode', '--frob=1']), 2, /unknown option --frob for "tx decode"/);
    failsWith(await runCli(['key', 'inspekt']), 2, /unknown command of key "inspekt"/);
  });

  it('never quotes a secret typed where a command or a key file was expected', async () => {
    const { wif_compressed: wif } = vector('koilib-key-1');
    const tail = wif.slice(-15);
    for (const args of [
      [wif],
      ['key', wif],
      ['tx', wif],
      ['contract', wif],
      ['key', 'inspect', '--wif-file', wif],
      ['tx', 'sign', '{}', '--wif-file', wif],
    ]) {
      const r = await runCli(args);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toContain(`(${wif.length} characters, not shown)`);
      expect(r.stderr + r.stdout, args.join(' ')).not.toContain(wif.slice(0, 24));
      expect(r.stderr + r.stdout, args.join(' ')).not.toContain(tail);
    }
  });
});

describe('koinos-wallet as a process', () => {
  const key1 = vector('koilib-key-1');

  it('prints the usage with exit code 0', async () => {
    expectUsage(await spawnCli(['--help']));
  });

  it('reads a key on stdin and prints its address with exit code 0', async () => {
    expect(okJson(await spawnCli(['key', 'inspect'], `${key1.wif_compressed}\n`))).toMatchObject({
      address: key1.address_compressed,
    });
  });

  it('exits with 2 for a usage error, one line on stderr', async () => {
    failsWith(await spawnCli(['frobnicate']), 2, /unknown command "frobnicate"/);
  });
});
