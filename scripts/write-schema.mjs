// npm run schema: regenerates the published schemas and the field reference from src/design/schema.ts.
import { writeFileSync } from 'node:fs';
import { designJsonSchema, overridesJsonSchema, fieldReferenceMarkdown } from '../dist/index.js';

const files = {
  'docs/template.schema.json': `${JSON.stringify(designJsonSchema(), null, 2)}\n`,
  'docs/overrides.schema.json': `${JSON.stringify(overridesJsonSchema(), null, 2)}\n`,
  'docs/reference.md': fieldReferenceMarkdown(),
};
for (const [file, text] of Object.entries(files)) {
  writeFileSync(new URL(`../${file}`, import.meta.url), text);
  console.log(`wrote ${file}`);
}
