// The published schemas and field reference are generated from src/design/schema.ts and must be current.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { designJsonSchema, fieldReferenceMarkdown, overridesJsonSchema } from '../src/design/json-schema.js';
import { Animation } from '../src/design/schema-animation.js';

const DOCS = join(import.meta.dirname, '..', 'docs');
const read = (f: string) => readFile(join(DOCS, f), 'utf8');

describe('docs', () => {
  it('docs/template.schema.json, overrides.schema.json and reference.md are up to date (run `npm run schema`)', async () => {
    expect(JSON.parse(await read('template.schema.json'))).toEqual(designJsonSchema());
    expect(JSON.parse(await read('overrides.schema.json'))).toEqual(overridesJsonSchema());
    expect(await read('reference.md')).toBe(fieldReferenceMarkdown());
  });

  it('documents the fields of every animation type once, linked from each animations row', () => {
    const md = fieldReferenceMarkdown();
    for (const option of Animation.options) {
      const type = String(option.shape.type.value);
      expect(md.split('\n').filter((l) => l.startsWith(`### \`animations\` entry "${type}"`)), type).toHaveLength(1);
    }
    const fields = ['property', 'keyframes[].time', 'keyframes[].value', 'easing', 'duration', 'delay', 'from', 'to', 'by'];
    for (const field of fields) expect(md).toContain(`| \`animations[].${field}\` |`);
    expect(md).toContain('| `animations` | array of objects ([fields](#entries-of-animations)) |');
    expect(md).toContain('\n## Entries of `animations`\n');
  });

  it('documents every field with a meaning and an example', () => {
    const rows = fieldReferenceMarkdown().split('\n').filter((l) => l.startsWith('| `'));
    expect(rows.length).toBeGreaterThan(60);
    for (const row of rows) {
      const cells = row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
      expect(cells[3], `meaning of ${cells[0]}`).not.toBe('');
      expect(cells[4], `example of ${cells[0]}`).not.toBe('');
    }
  });
});
