// The renderer as built (out/renderer, what both shells serve): one script, that starts with V8's explicit
// compile hint, so that Chromium compiles its functions as it loads rather than on a screen's first open
// (electron.vite.config.ts; the History screen's first open is what the bench times).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ASSETS = resolve(import.meta.dirname, '../../out/renderer/assets');

describe('the built renderer', () => {
  it('is one script whose first line is the compile hint', () => {
    const scripts = readdirSync(ASSETS).filter((name) => name.endsWith('.js'));
    expect(scripts).toHaveLength(1);
    const [first] = readFileSync(join(ASSETS, scripts[0]!), 'utf8').split('\n');
    expect(first).toBe('//# allFunctionsCalledOnLoad');
  });
});
