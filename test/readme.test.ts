// The README's promises: the offline-signing example runs as pasted (in a scratch folder, the CLI of this checkout as built),
// the CLI lines use `npm run --silent cli`, and every JSON-RPC method the devnet answers is listed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testNodes } from './devnet/helpers.ts';
import { BUILT_CLI } from './helpers/builtApp.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'koinos-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const node = testNodes();

/** The body of the fenced sh block that follows `heading`. */
function shBlockAfter(heading: string): string {
  const from = README.indexOf(heading);
  expect(from, `README has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const match = /```sh\n([\s\S]*?)```/.exec(README.slice(from));
  return match![1]!;
}

describe('README', () => {
  it('runs the offline-signing example as written', () => {
    const script = shBlockAfter('### Offline signing, step by step');
    const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)}`;
    const local = `cli() { ${cli} "$@"; }\n${script.replaceAll('npm run --silent cli --', 'cli')}`;
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', local], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    // Three JSON documents on stdout: key new, the review of the unsigned transfer, the check of the signed one.
    const docs = r.stdout.split(/\n(?=\{)/).map((d) => JSON.parse(d));
    expect(docs).toHaveLength(3);
    const [key, review, check] = docs;
    expect(review.note).toMatch(/no id .* yet/);
    expect(review.operations[0].call_contract).toMatchObject({
      entry_point: 'transfer',
      args: { from: key.address, value: '150000000' },
    });
    expect(check).toMatchObject({ id_matches: true, operation_merkle_root_matches: true, signers: [key.address] });
  });

  it('shows CLI commands as npm run --silent cli, so that npm prints no banner into the JSON', () => {
    expect(README).not.toMatch(/npm run cli --/);
    expect(README).toMatch(/npm run --silent cli -- key new/);
  });

  it('lists every JSON-RPC method the devnet answers', async () => {
    const devnet = await node();
    const missing = devnet.methods.filter((m) => !README.includes(`\`${m}\``));
    expect(missing, 'add these methods to the devnet section of README.md').toEqual([]);
  });
});
