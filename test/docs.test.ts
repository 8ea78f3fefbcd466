// The published schemas and field reference are generated from src/design/schema.ts and must be current.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { designJsonSchema, fieldReferenceMarkdown, overridesJsonSchema } from '../src/design/json-schema.js';
import { Animation } from '../src/format/animation.js';
import { ENCODE_DEFAULTS } from '../src/encode/image.js';
import { RENDER_LIMITS } from '../src/render-checks.js';
// @ts-expect-error: a plain .mjs script without types, run by `npm run schema` too
import { libraryReferenceMarkdown, LIBRARY_OPTION_TYPES, optionsOf } from '../scripts/library-reference.mjs';

interface Option {
  option: string;
  description: string;
  default: string | undefined;
}
const typeNamed = (title: string) => (LIBRARY_OPTION_TYPES as { title: string }[]).find((t) => t.title === title)!;
const documented = (title: string): Map<string, string | undefined> => new Map((optionsOf(typeNamed(title)) as Option[]).map((o) => [o.option, o.default]));
/** A documented default as a value: numbers may carry digit separators and a note in brackets. */
const valueOf = (doc: string | undefined): unknown =>
  doc !== undefined && /^[\d_]+/.test(doc) ? Number(/^[\d_]+/.exec(doc)![0].replace(/_/g, '')) : doc === 'false' ? false : doc;

const DOCS = join(import.meta.dirname, '..', 'docs');
const read = (f: string) => readFile(join(DOCS, f), 'utf8');

describe('docs', () => {
  it('docs/template.schema.json, overrides.schema.json and reference.md are up to date (run `npm run schema`)', async () => {
    expect(JSON.parse(await read('template.schema.json'))).toEqual(designJsonSchema());
    expect(JSON.parse(await read('overrides.schema.json'))).toEqual(overridesJsonSchema());
    expect(await read('reference.md')).toBe(`${fieldReferenceMarkdown()}\n${libraryReferenceMarkdown()}`);
  });

  it('documents the fields of every animation type once, linked from each animations row', () => {
    const md = fieldReferenceMarkdown();
    for (const option of Animation.options) {
      const type = String(option.shape.type.value);
      expect(
        md.split('\n').filter((l) => l.startsWith(`### \`animations\` entry "${type}"`)),
        type,
      ).toHaveLength(1);
    }
    const fields = ['property', 'keyframes[].time', 'keyframes[].value', 'easing', 'duration', 'delay', 'from', 'to', 'by'];
    for (const field of fields) expect(md).toContain(`| \`animations[].${field}\` |`);
    expect(md).toContain('| `animations` | array of objects ([fields](#entries-of-animations)) |');
    expect(md).toContain('\n## Entries of `animations`\n');
  });

  it('documents every field with a meaning and an example', () => {
    const rows = fieldReferenceMarkdown()
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    expect(rows.length).toBeGreaterThan(60);
    for (const row of rows) {
      const cells = row
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      expect(cells[3], `meaning of ${cells[0]}`).not.toBe('');
      expect(cells[4], `example of ${cells[0]}`).not.toBe('');
    }
  });

  it('documents every library option with a default, and the documented defaults are the ones the code uses', () => {
    // optionsOf throws for an option without a description or @default.
    for (const type of LIBRARY_OPTION_TYPES as { title: string }[]) expect(optionsOf(type).length, type.title).toBeGreaterThan(0);
    expect(new Map(Object.entries(RENDER_LIMITS))).toEqual(new Map([...documented('RenderLimits')].map(([k, v]) => [k, valueOf(v)])));
    for (const format of ['png', 'jpg', 'webp', 'avif'] as const) {
      const title = `${format[0]!.toUpperCase()}${format.slice(1)}Options`;
      expect(new Map(Object.entries(ENCODE_DEFAULTS[format])), title).toEqual(new Map([...documented(title)].map(([k, v]) => [k, valueOf(v)])));
    }
    expect(documented('RenderOptions').get('fps')).toBe('30');
    expect(documented('EngineOptions').get('imageCacheBytes')).toMatch(/^268_435_456 /);
  });
});
