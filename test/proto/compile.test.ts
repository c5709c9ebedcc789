// The descriptor the codec loads is generated from proto/: it must be what `npm run proto` writes today.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error proto/compile.mjs is a plain ES module script without type declarations
import { compile } from '../../proto/compile.mjs';

describe('npm run proto', () => {
  it('has been run since the last change to proto/', () => {
    const committed = readFileSync(new URL('../../src-main/koinos/generated/descriptor.ts', import.meta.url), 'utf8');
    expect((compile as () => string)() === committed, 'src-main/koinos/generated/descriptor.ts is stale: run npm run proto').toBe(true);
  });

  it('keeps the btype option of every bytes field that has one', () => {
    const text = (compile as () => string)();
    expect(text).toContain('"(koinos.btype)": "ADDRESS"');
    expect(text).not.toContain('"(btype)"');
  });
});
