import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/*
 * The gateway's top-level folders (identity/, crm/, http/, openapi/, ...) form a graph by their relative imports,
 * specs included. It must have no cycle: no two folders import each other, and no longer loop either (issue 34), so a
 * folder can be understood, tested and moved knowing only what it imports.
 *
 * Left out are the composition roots, which import everything by design and which no folder imports: the files at
 * the top of src/ (main.ts, app.module.ts, gateway-app.ts, migrate.ts) and test/, the specs' harness that starts the
 * whole app through gateway-app.ts.
 */
const SRC = __dirname;
const COMPOSITION_ROOTS = new Set(['', 'test']);

/** An import of one folder by another, for the message: the file and what it imports. */
type Edges = Map<string, Map<string, string[]>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The top-level folder a path is in; '' for a file at the top of src/ and for anything outside src/. */
function folderOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : '';
}

/** Every relative module a file names: static and dynamic imports, re-exports, `require` and jest's module mocks. */
function relativeImports(text: string): string[] {
  const names = ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
  for (const match of text.matchAll(/jest\.(?:mock|doMock|requireActual)\(\s*['"]([^'"]+)['"]/g)) names.push(match[1]);
  return names.filter((name) => name.startsWith('.'));
}

function folderImports(): Edges {
  const edges: Edges = new Map();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (COMPOSITION_ROOTS.has(from)) continue;
    for (const name of relativeImports(readFileSync(file, 'utf8'))) {
      const to = folderOf(resolve(dirname(file), name));
      if (to === from || COMPOSITION_ROOTS.has(to)) continue;
      const targets = edges.get(from) ?? edges.set(from, new Map()).get(from)!;
      const lines = targets.get(to) ?? targets.set(to, []).get(to)!;
      lines.push(`${relative(SRC, file)} imports '${name}'`);
    }
  }
  return edges;
}

/** The folder loops (strongly connected components of more than one folder), by Tarjan's algorithm. */
function loops(edges: Edges): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(folder, Math.min(low.get(folder)!, index.get(next)!));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) found.push(component.sort());
  };
  for (const folder of edges.keys()) if (!index.has(folder)) visit(folder);
  return found;
}

/** The first few imports of a list, for a readable message. */
const examples = (lines: string[]) => (lines.length > 3 ? [...lines.slice(0, 3), `... and ${lines.length - 3} more`] : lines);

describe('gateway folders import one another without a cycle', () => {
  const edges = folderImports();
  const imports = (from: string, to: string) => edges.get(from)?.get(to) ?? [];

  it('reads the imports of the folders', () => {
    // A parser that found nothing would pass the checks below for nothing.
    expect(imports('identity', 'http').length).toBeGreaterThan(0);
    expect(edges.size).toBeGreaterThan(20);
  });

  it('has no two folders that import each other', () => {
    const pairs: string[] = [];
    for (const [from, targets] of edges) {
      for (const to of targets.keys()) {
        if (from < to && imports(to, from).length > 0) {
          pairs.push([`${from}/ <-> ${to}/`, ...examples(imports(from, to)), ...examples(imports(to, from))].join('\n    '));
        }
      }
    }
    expect(pairs).toEqual([]);
  });

  it('has no longer loop of folders either', () => {
    expect(loops(edges).map((loop) => `a loop among ${loop.map((folder) => `${folder}/`).join(', ')}`)).toEqual([]);
  });
});
