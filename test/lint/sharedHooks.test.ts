// No module of test/ but a test file calls a vitest hook (afterEach, beforeAll, ...) at its top level. The unit and e2e
// files share their worker's module graph (isolate: false in vitest.config.ts): a shared module is evaluated once per
// worker, so such a hook belongs to the first file that loads it, and every later file of the worker runs without it.
// The chain helpers' afterEach did that, and the devnets and servers of every later file ran until the worker ended. A
// helper hooks what it starts to the test that starts it instead (onTestFinished).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOOKS = new Set(['afterEach', 'afterAll', 'beforeEach', 'beforeAll']);

/** The .ts files under `dir` that are not test files, outside the contracts' AssemblyScript and build folders. */
function sharedModules(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'assembly' && name !== '.build' && name !== 'node_modules') sharedModules(path, out);
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** The hooks `source` calls in its top-level statements, as `name (line N)`. */
function topLevelHooks(file: string, source: string): string[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of parsed.statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isCallExpression(statement.expression)) continue;
    const callee = statement.expression.expression;
    if (ts.isIdentifier(callee) && HOOKS.has(callee.text)) {
      const { line } = parsed.getLineAndCharacterOfPosition(statement.getStart(parsed));
      found.push(`${callee.text} (line ${line + 1})`);
    }
  }
  return found;
}

describe("test/'s shared modules", () => {
  it('finds a hook at the top level of a module, and none inside a function', () => {
    const source = "import { afterEach } from 'vitest';\nafterEach(stop);\nexport function f() { afterEach(stop); }\n";
    expect(topLevelHooks('helper.ts', source)).toEqual(['afterEach (line 2)']);
  });

  it('call no vitest hook at their top level: each file would not get it', () => {
    const offenders = sharedModules(join(ROOT, 'test')).flatMap((file) =>
      topLevelHooks(file, readFileSync(file, 'utf8')).map((hook) => `${relative(ROOT, file)}: ${hook}`),
    );
    expect(offenders).toEqual([]);
  });
});
