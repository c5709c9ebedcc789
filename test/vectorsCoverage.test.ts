// Every known-answer vector (test/vectors/koinos.json, the copy of ../shared/vectors/koinos.json) must be checked by some test: a vector added
// to the shared file without a test that reads it makes this fail.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadVectors } from './vectors.ts';

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? testSources(join(dir, e.name))
      : e.name.endsWith('.test.ts')
        ? [readFileSync(join(dir, e.name), 'utf8')]
        : [],
  );
}

describe('shared vectors', () => {
  it('are each read by at least one test', () => {
    const sources = testSources(fileURLToPath(new URL('.', import.meta.url))).join('\n');
    const unchecked = loadVectors()
      .vectors.map((v) => v.id)
      .filter((id) => !sources.includes(`vector('${id}')`));
    expect(unchecked).toEqual([]);
  });
});
