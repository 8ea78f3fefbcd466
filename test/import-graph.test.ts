// The import graph of src/: no module reaches itself through its imports (type-only imports count too,
// since a loop of types is still a loop of knowledge), and no stage imports a later one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

/**
 * The modules a loader starts from, each bundled as an entry by scripts/bundle.mjs: the package's
 * entry points (`imprint`, `imprint/service`, `imprint/http`), the CLI, and the module a render thread runs.
 */
const ENTRIES = ['index.ts', 'service/index.ts', 'http/index.ts', 'cli/main.ts', 'render/render-thread.ts'];

/**
 * The stages of src/, earliest first: a module may import its own stage or an earlier one, never a later one.
 * A path ending in "/" is a folder, any other a file; the longest path that matches decides, so the entry
 * files can sit in their folders (the package's `imprint/service` types are dist/service/index.d.ts) and
 * still come last, above everything they start.
 */
const STAGES: readonly (readonly [stage: string, paths: readonly string[]])[] = [
  ['foundation: plain data, errors, lazy package loading', ['scene/', 'errors.ts', 'lazy-require.ts', 'types/', 'output-formats.ts']],
  ['template format vocabulary', ['format/']],
  ['text', ['text/']],
  ['SVG files: XML, path data, the supported subset', ['svg/']],
  ['object types', ['objects/']],
  ['design (parse)', ['design/']],
  ['resolve', ['resolve/']],
  ['assets', ['assets/']],
  ['layout', ['layout/']],
  ['paint', ['paint/']],
  ['encode', ['encode/']],
  ['engine façade', ['render-checks.ts', 'render/', 'engine.ts']],
  ['stores', ['store/']],
  ['service core', ['service/']],
  ['worker', ['worker/']],
  ['http adapters', ['http/']],
  ['cli', ['cli/']],
  ['entries', ENTRIES],
];
/** Module (path relative to src/, with "/") → the modules it imports. */
type Graph = ReadonlyMap<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier in a file: import, import type, export … from, import('…') and import('…') types. */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      out.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const moduleName = (file: string): string => relative(SRC, file).split(sep).join('/');

/** The graph of src/ and the relative imports that lead to no file there. */
function readGraph(): { graph: Graph; unresolved: string[] } {
  const graph = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const targets: string[] = [];
    for (const spec of specifiersOf(file).filter((s) => s.startsWith('.'))) {
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (existsSync(target)) targets.push(moduleName(target));
      else unresolved.push(`${moduleName(file)}: ${spec}`);
    }
    graph.set(moduleName(file), [...new Set(targets)]);
  }
  return { graph, unresolved };
}

/** One loop per group of modules that reach each other (Tarjan's components), written a → b → a. */
function findCycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = new Set<string>();
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.add(w);
    } while (w !== v);
    if (component.size > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(loopThrough(graph, v, component));
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return cycles;
}

/** The shortest path from `start` back to itself inside its component (breadth first). */
function loopThrough(graph: Graph, start: string, component: ReadonlySet<string>): string[] {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(from.get(path[0]!)!);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** Index in STAGES of a module, by the longest matching path; undefined when no path matches. */
function stageOf(module: string): number | undefined {
  let best: { stage: number; length: number } | undefined;
  STAGES.forEach(([, paths], stage) => {
    for (const p of paths) {
      const matches = p.endsWith('/') ? module.startsWith(p) : module === p;
      if (matches && (best === undefined || p.length > best.length)) best = { stage, length: p.length };
    }
  });
  return best?.stage;
}

/** Imports of a later stage, as "importer (stage) → imported (stage)". */
function laterStageImports(graph: Graph): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = stageOf(from);
      const b = stageOf(to);
      if (a !== undefined && b !== undefined && b > a) out.push(`${from} (${STAGES[a]![0]}) imports ${to} (${STAGES[b]![0]})`);
    }
  }
  return out;
}

describe('import graph of src/', () => {
  const { graph, unresolved } = readGraph();

  it('reads every module, and every relative import leads to one', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('index.ts')).toContain('errors.ts'); // export … from
    expect(graph.get('paint/walk.ts')).toContain('scene/display-list.ts'); // import type
    expect(graph.get('cli/main.ts')).toContain('cli/admin.ts'); // import('…')
    expect(unresolved).toEqual([]);
  });

  it('has no import loops, type-only imports included', () => {
    const loops = findCycles(graph).map((c) => c.join(' → '));
    expect(loops, `import loops:\n${loops.join('\n')}`).toEqual([]);
  });

  it('places every module in a stage of the table', () => {
    expect([...graph.keys()].filter((m) => stageOf(m) === undefined)).toEqual([]);
  });

  it('never imports a later stage', () => {
    const wrong = laterStageImports(graph);
    expect(wrong, `imports of a later stage:\n${wrong.join('\n')}`).toEqual([]);
  });

  it('has the entries of the bundle at the top: no module imports one', () => {
    const bundled = [...readFileSync(join(ROOT, 'scripts', 'bundle.mjs'), 'utf8').matchAll(/join\(ROOT, 'dist\/([\w/-]+)\.js'\)/g)].map((m) => `${m[1]}.ts`);
    expect(bundled.sort()).toEqual([...ENTRIES].sort());
    const importers = [...graph].flatMap(([from, targets]) => targets.filter((t) => ENTRIES.includes(t)).map((t) => `${from} imports ${t}`));
    expect(importers).toEqual([]);
  });

  // The checks themselves, on graphs small enough to read: a loop and a stage inversion are reported.
  it('reports a loop with the modules on it, type-only or not', () => {
    const looped: Graph = new Map([
      ['layout/a.ts', ['layout/b.ts']],
      ['layout/b.ts', ['layout/c.ts', 'scene/scene.ts']],
      ['layout/c.ts', ['layout/a.ts']],
      ['scene/scene.ts', []],
      ['cli/main.ts', ['cli/main.ts']],
    ]);
    expect(
      findCycles(looped)
        .map((c) => c.join(' → '))
        .sort(),
    ).toEqual(['cli/main.ts → cli/main.ts', 'layout/a.ts → layout/b.ts → layout/c.ts → layout/a.ts']);
    expect(laterStageImports(new Map([['objects/text/handler.ts', ['layout/text.ts']]]))).toEqual([
      'objects/text/handler.ts (object types) imports layout/text.ts (layout)',
    ]);
    expect(laterStageImports(new Map([['service/index.ts', ['worker/worker.ts']]]))).toEqual([]);
    expect(laterStageImports(new Map([['render/render-thread.ts', ['engine.ts']]]))).toEqual([]);
    expect(laterStageImports(new Map([['engine.ts', ['index.ts']]]))).toEqual(['engine.ts (engine façade) imports index.ts (entries)']);
  });
});
