// Packaging: the published type declarations compile in a strict consumer project (skipLibCheck off)
// that has only the package's dependencies installed, as `npm install imprint` would leave it.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * The top-level node_modules folders a production install holds: the closure of `roots` over
 * package-lock.json. devDependencies (@types/pdfkit, @types/fontkit…) stay out unless a dependency
 * needs them, so a declaration that leans on one fails here as it would for a user.
 */
function productionFolders(roots: readonly string[]): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const seen = new Set<string>();
  const queue: [from: string, name: string][] = roots.map((name) => ['', name]);
  while (queue.length > 0) {
    const [from, name] = queue.pop()!;
    // Node's lookup: the nearest node_modules/<name> from the requiring package upwards.
    let dir = from;
    let found: string | null = null;
    for (;;) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) {
        found = candidate;
        break;
      }
      if (!dir) break;
      dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')));
    }
    // Optional and uninstalled peer dependencies are simply absent from the lock.
    if (found === null || seen.has(found)) continue;
    seen.add(found);
    const entry = lock.packages[found]!;
    for (const deps of [entry.dependencies, entry.optionalDependencies, entry.peerDependencies]) {
      for (const dep of Object.keys(deps ?? {})) queue.push([found, dep]);
    }
  }
  // Nested folders travel inside their top-level parent.
  return [...seen].filter((p) => p.lastIndexOf('node_modules/') === 0);
}

const GOOD = `import { Readable } from 'node:stream';
import { Engine, fileAssetResolver, ImprintError, render, renderStream, type FitReport, type RenderOptions, type RenderResult } from 'imprint';

const options: RenderOptions = {
  design: {
    schema: 'imprint/design@1',
    width: 400,
    height: 200,
    background: { type: 'color', color: '#ffffff' },
    objects: [
      { type: 'shape', name: 'button', x: 100, y: 60, width: 200, height: 80, shape: 'rounded_rect', corner_radius: 40,
        background: { type: 'color', color: '#1e88e5' } },
      { type: 'text', name: 'label', x: 100, y: 60, width: 200, height: 80, text: 'Buy now', color: '#ffffff', text_align: 'center' },
    ],
  },
  overrides: { label: { text: 'Order <substyle bold="700">today</substyle>' }, button: { background: { type: 'color', color: '#43a047' } } },
  format: 'png',
  png: { compressionLevel: 9 },
  assets: fileAssetResolver({ baseDir: '.' }),
};

export async function main(): Promise<void> {
  const result: RenderResult = await render(options);
  const report: FitReport = result.report;
  const shrunk: boolean = report.some((r) => r.shrunk);
  const bytes: Buffer = result.bytes;
  const engine = new Engine({ imageCacheBytes: 64 * 1024 * 1024 });
  const jpg = await engine.render({ design: JSON.stringify({ width: 10, height: 10 }), format: 'jpg', jpg: { quality: 80 } });
  const pdf = await renderStream({ design: '{"width": 10, "height": 10}', format: 'pdf', signal: AbortSignal.timeout(10_000) });
  const stream: Readable = pdf.stream;
  try {
    await render({ design: { width: 10, height: 10 }, overrides: [{ name: 'label', object: { text: 'x' } }], format: 'mp4', fps: 60 });
  } catch (e) {
    if (e instanceof ImprintError) console.error(e.code, e.status, e.path, e.message);
  }
  console.log(shrunk, bytes.length, jpg.mimeType, stream.readable, result.width * result.height);
}
`;

const BAD = `import { render } from 'imprint';

export const pending = render({ design: { width: 10, height: 10 }, format: 'gif' });
`;

let project: string;

async function tsc(config: string): Promise<{ code: number; output: string }> {
  return run(process.execPath, [TSC, '-p', config], { cwd: project }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (e: Error & { code?: number; stdout?: string }) => ({ code: e.code ?? -1, output: e.stdout ?? e.message }),
  );
}

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'imprint-consumer-'));
  // The real package contents (package.json "files"), as a registry install would unpack them.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project, ROOT], { cwd: project });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  const pkg = join(project, 'node_modules/imprint');
  mkdirSync(pkg, { recursive: true });
  await run('tar', ['xzf', join(project, filename), '-C', pkg, '--strip-components=1']);
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // @types/node is the consumer's own: any TypeScript project on Node has it (the API uses Buffer and streams).
  for (const folder of productionFolders([...Object.keys(own.dependencies), '@types/node'])) {
    mkdirSync(dirname(join(project, folder)), { recursive: true });
    symlinkSync(join(ROOT, folder), join(project, folder), 'dir');
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // preserveSymlinks: the linked dependencies resolve their own imports inside this project, not
  // from the repository's node_modules, where devDependencies would hide a missing dependency.
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    noEmit: true,
    preserveSymlinks: true,
  };
  writeFileSync(join(project, 'good.ts'), GOOD);
  writeFileSync(join(project, 'bad.ts'), BAD);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['good.ts'] }));
  writeFileSync(join(project, 'tsconfig.bad.json'), JSON.stringify({ compilerOptions, files: ['bad.ts'] }));
}, 60_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('published types in a consumer project', () => {
  it('type-check with strict and skipLibCheck off, from dependencies only', async () => {
    const { code, output } = await tsc('tsconfig.json');
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 180_000);

  it('reject a wrong option with a type error in the consumer, not in the package', async () => {
    const { code, output } = await tsc('tsconfig.bad.json');
    expect(code).not.toBe(0);
    expect(output).toMatch(/^bad\.ts\(3,\d+\): error TS\d+: .*"gif"/m);
    expect(output).not.toContain('node_modules/');
  }, 180_000);

  it("show each engine option's description and default in the consumer's editor", () => {
    // What an editor's hover shows: the JSDoc the consumer's compiler finds for each field of EngineOptions.
    const file = join(project, 'hover.ts');
    writeFileSync(file, `import type { EngineOptions } from 'imprint';\nexport const options: EngineOptions = {};\n`);
    const program = ts.createProgram([file], {
      strict: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      preserveSymlinks: true,
    });
    const checker = program.getTypeChecker();
    const statement = program.getSourceFile(file)!.statements[1] as ts.VariableStatement;
    const type = checker.getTypeAtLocation(statement.declarationList.declarations[0]!.name);
    const docs = Object.fromEntries(
      type.getProperties().map((p) => [
        p.name,
        {
          description: ts.displayPartsToString(p.getDocumentationComment(checker)),
          default: p
            .getJsDocTags()
            .find((t) => t.name === 'default')
            ?.text?.map((t) => t.text)
            .join(''),
        },
      ]),
    );
    expect(Object.keys(docs).sort()).toEqual(['fonts', 'fontsDir', 'imageCacheBytes', 'threads']);
    expect(docs.threads).toEqual({
      description: expect.stringMatching(/^Worker threads that render/),
      default: expect.stringMatching(/^os\.availableParallelism\(\)/),
    });
    expect(docs.imageCacheBytes?.default).toMatch(/^268_435_456 /);
  }, 60_000);
});
