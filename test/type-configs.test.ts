// The type-check configurations keep server and browser code apart: src/ is checked without the DOM's
// types (a `document` there is an error) and the Studio without Node's (a `process` there is an error),
// and every source file belongs to the configuration of its side (`npm run typecheck` runs them all).
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function config(file: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, file), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error(`${file}: not a configuration`);
  return parsed;
}

/** The errors of one probe module placed at `path` and checked with a configuration's options. */
function probe(configFile: string, path: string, code: string): string[] {
  const { options } = config(configFile);
  const file = join(ROOT, path);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) => (name === file ? ts.createSourceFile(name, code, lang) : getSourceFile.call(host, name, lang, ...rest));
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? code : readFile.call(host, name));
  const program = ts.createProgram([file], { ...options, noEmit: true }, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const relative = (files: readonly string[]) => files.map((f) => f.slice(ROOT.length + 1));

describe('type-check configurations', () => {
  it('refuse a DOM global in server code', () => {
    const errors = probe('tsconfig.json', 'src/dom-probe.ts', 'export const title: string = document.title;\n');
    expect(errors).toEqual([expect.stringMatching(/^Cannot find name 'document'/)]);
  }, 60_000);

  it('refuse a Node global in the Studio', () => {
    const errors = probe('studio/tsconfig.json', 'studio/src/node-probe.ts', 'export const home = process.env.HOME;\n');
    expect(errors).toEqual([expect.stringMatching(/^Cannot find name 'process'/)]);
  }, 60_000);

  it('give each side its files', () => {
    const server = relative(config('tsconfig.json').fileNames);
    const studio = relative(config('studio/tsconfig.json').fileNames);
    expect(server.filter((f) => f.startsWith('studio/'))).toEqual([]);
    expect(server).toContain('src/engine.ts');
    expect(studio.every((f) => f.startsWith('studio/src/'))).toBe(true);
    expect(studio).toContain('studio/src/main.tsx');
    // The tests that drive the Studio in Chromium (page functions use the DOM) are the browser side's.
    expect(server).not.toContain('test/studio-e2e.test.ts');
    expect(relative(config('studio/test/tsconfig.json').fileNames)).toContain('test/studio-e2e.test.ts');
  });
});
