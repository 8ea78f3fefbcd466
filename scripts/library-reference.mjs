// The library options reference, generated from the JSDoc of the public option types (zod schemas
// and interfaces) by the TypeScript compiler API, so the docs cannot drift from the code: every option
// must carry a description and an `@default` (or say "Required."). Used by `npm run schema`
// (docs/reference.md) and test/docs.test.ts, which fails when the file is out of date.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');

/** The option types of the `imprint` entry, in the order the reference lists them. */
export const LIBRARY_OPTION_TYPES = [
  {
    title: 'RenderOptions',
    file: 'src/render/options.ts',
    name: 'RenderOptionsSchema',
    intro: '`render(options)`, `renderStream(options)`, `engine.render(options)`.',
  },
  { title: 'PageInput', file: 'src/render/options.ts', name: 'PageInputSchema', intro: 'One entry of `pages` (a multi-page pdf).' },
  { title: 'EngineOptions', file: 'src/render/options.ts', name: 'engineOptionsFields', intro: '`new Engine(options)`: what an engine keeps between renders.' },
  { title: 'PngOptions', file: 'src/encode/image.ts', name: 'PngOptionsSchema', intro: '`png` of RenderOptions.' },
  { title: 'JpgOptions', file: 'src/encode/image.ts', name: 'JpgOptionsSchema', intro: '`jpg` of RenderOptions.' },
  { title: 'WebpOptions', file: 'src/encode/image.ts', name: 'WebpOptionsSchema', intro: '`webp` of RenderOptions.' },
  { title: 'AvifOptions', file: 'src/encode/image.ts', name: 'AvifOptionsSchema', intro: '`avif` of RenderOptions.' },
  {
    title: 'RenderLimits',
    file: 'src/render-checks.ts',
    name: 'RenderLimitsSchema',
    intro: '`limits` of RenderOptions (each optional there); the defaults are `RENDER_LIMITS`.',
  },
  { title: 'WatermarkOptions', file: 'src/resolve/watermark.ts', name: 'Watermark', intro: '`watermark` of RenderOptions.' },
  {
    title: 'FileAssetOptions',
    file: 'src/assets/resolver.ts',
    name: 'FileAssetOptions',
    intro: '`fileAssetResolver(options)`: images from a folder and named assets.',
  },
];

/** The properties of an interface, of the object literal given to zod's (strict)object(), or of an object literal of zod fields. */
function membersOf(source, name) {
  let members;
  ts.forEachChild(source, function visit(node) {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name) members = node.members.filter(ts.isPropertySignature);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer) {
      const init = node.initializer;
      const literal = ts.isObjectLiteralExpression(init) ? init : ts.isCallExpression(init) ? init.arguments.find(ts.isObjectLiteralExpression) : undefined;
      if (literal) members = literal.properties.filter((p) => ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p));
    }
    if (!members) ts.forEachChild(node, visit);
  });
  if (!members) throw new Error(`${name}: no interface or zod object of that name`);
  return members;
}

const text = (comment) => (typeof comment === 'string' ? comment : (comment ?? []).map((c) => c.text).join('')).replace(/\s+/g, ' ').trim();

/** Each option's name, description and default, from its JSDoc; throws where one is missing. */
export function optionsOf({ file, name, title }) {
  const path = join(ROOT, file);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  return membersOf(source, name).map((member) => {
    const option = member.name.getText(source);
    const [doc] = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
    const description = text(doc?.comment);
    const tag = doc?.tags?.find((t) => t.tagName.text === 'default');
    const required = /\bRequired\.$/.test(description);
    if (!description) throw new Error(`${title}.${option} (${file}): no JSDoc description`);
    if (!tag && !required) throw new Error(`${title}.${option} (${file}): no @default (or "Required.") in its JSDoc`);
    if (tag && required) throw new Error(`${title}.${option} (${file}): both @default and "Required."`);
    return { option, description, default: tag ? text(tag.comment) : undefined };
  });
}

const cell = (s) => s.replace(/\|/g, '\\|');

export function libraryReferenceMarkdown() {
  const out = [
    '## Library options',
    '',
    'Generated from the JSDoc of the option types of `imprint` (scripts/library-reference.mjs); an option',
    'without a description or `@default` fails `npm run schema` and the tests.',
    '',
  ];
  for (const type of LIBRARY_OPTION_TYPES) {
    out.push(`### ${type.title}`, '', `${type.intro} Defined in \`${type.file}\`.`, '', '| option | default | meaning |', '|---|---|---|');
    for (const o of optionsOf(type))
      out.push(`| \`${o.option}\` | ${o.default === undefined ? 'required' : cell(o.default)} | ${cell(o.description.replace(/ ?Required\.$/, ''))} |`);
    out.push('');
  }
  return out.join('\n');
}
