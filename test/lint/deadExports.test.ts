// No dead value exports in src-main: a function, class or constant is exported only when another file (a module, a
// component, a test, a build config) imports it. Types may stay exported (they name what exported functions take and
// give). The entry points, which nothing imports, are left out. Imports are read with the TypeScript parser, in
// <script> blocks of Svelte components too; a module imported as a namespace (`* as`) or dynamically counts as used.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LONG_TEST } from '../helpers/constants.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Run by Node or Electron, never imported. */
const ENTRY_POINTS = [
  'src-main/cli/main.ts',
  'src-main/shells/browser/main.ts',
  'src-main/shells/electron/main.ts',
  'src-main/shells/electron/start.ts',
];

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(?:ts|mts|js|mjs|svelte)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function parse(file: string): ts.SourceFile {
  let text = readFileSync(file, 'utf8');
  if (file.endsWith('.svelte'))
    text = [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

/** The value exports of `source` (functions, classes, constants, enums), by name. */
function valueExports(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.push(statement.name.text);
    }
  }
  return names;
}

/** What the files import from each other: file → names, and the files used whole (namespace, re-export all, dynamic). */
function importsOf(files: string[]): { named: Map<string, Set<string>>; whole: Set<string> } {
  const named = new Map<string, Set<string>>();
  const whole = new Set<string>();
  const use = (file: string, name: string) => named.set(file, (named.get(file) ?? new Set()).add(name));
  for (const file of files) {
    const source = parse(file);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier.text);
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        if (clause?.name) use(target, 'default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) whole.add(target);
        else if (bindings) for (const e of bindings.elements) use(target, (e.propertyName ?? e.name).text);
      } else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const e of statement.exportClause.elements) use(target, (e.propertyName ?? e.name).text);
      } else {
        whole.add(target);
      }
    }
    for (const m of source.text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g))
      whole.add(resolve(dirname(file), m[1]!));
  }
  return { named, whole };
}

describe('exports', () => {
  it('finds an export nobody imports (the check itself)', () => {
    const source = ts.createSourceFile(
      'x.ts',
      'export const used = 1;\nexport function unused() {}\nexport interface Shape {}\n',
      ts.ScriptTarget.Latest,
    );
    expect(valueExports(source)).toEqual(['used', 'unused']);
  });

  it('exports from src-main only what another file imports', LONG_TEST, () => {
    const files = [
      ...['src-main', 'src-renderer', 'test', 'proto'].flatMap((dir) => sources(join(ROOT, dir))),
      ...['electron.vite.config.ts', 'vitest.config.ts', 'eslint.config.js']
        .map((f) => join(ROOT, f))
        .filter((f) => existsSync(f)),
    ];
    const { named, whole } = importsOf(files);
    const dead: string[] = [];
    for (const file of files) {
      const path = relative(ROOT, file);
      if (
        !path.startsWith('src-main/') ||
        path.includes('/generated/') ||
        ENTRY_POINTS.includes(path) ||
        whole.has(file)
      )
        continue;
      for (const name of valueExports(parse(file))) if (!named.get(file)?.has(name)) dead.push(`${path}: ${name}`);
    }
    expect(dead).toEqual([]);
  });
});
