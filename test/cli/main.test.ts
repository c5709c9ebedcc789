// The CLI dispatcher: usage on --help, usage errors with exit code 2 for what it does not know.
import { describe, it, expect } from 'vitest';
import { failsWith, runCli } from './runCli.ts';

describe('koinos-wallet', () => {
  it('prints the usage on stdout with exit code 0 for --help and for no arguments', () => {
    for (const args of [['--help'], []]) {
      const r = runCli(args);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Usage: koinos-wallet <command>/);
      for (const command of ['key new', 'key inspect', 'tx decode', 'tx encode', 'tx sign', 'devnet']) {
        expect(r.stdout).toContain(`koinos-wallet ${command}`);
      }
    }
  });

  it('rejects an unknown command or option with a usage error and exit code 2', () => {
    failsWith(runCli(['frobnicate']), 2, /unknown command "frobnicate"/);
    failsWith(runCli(['tx', 'decode', '--frob=1']), 2, /unknown option --frob for "tx decode"/);
  });
});
