// The published schemas and field reference are generated from src/design/schema.ts and must be current.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { designJsonSchema, fieldReferenceMarkdown, overridesJsonSchema } from '../src/design/json-schema.js';

const DOCS = join(import.meta.dirname, '..', 'docs');
const read = (f: string) => readFile(join(DOCS, f), 'utf8');

describe('docs', () => {
  it('docs/template.schema.json, overrides.schema.json and reference.md are up to date (run `npm run schema`)', async () => {
    expect(JSON.parse(await read('template.schema.json'))).toEqual(designJsonSchema());
    expect(JSON.parse(await read('overrides.schema.json'))).toEqual(overridesJsonSchema());
    expect(await read('reference.md')).toBe(fieldReferenceMarkdown());
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
