// npm run schema: regenerates the published schemas and the field reference from src/design/schema.ts,
// followed by the library options reference from the options' JSDoc (scripts/library-reference.mjs).
import { writeFileSync } from 'node:fs';
import { designJsonSchema, overridesJsonSchema, fieldReferenceMarkdown } from '../dist/index.js';
import { libraryReferenceMarkdown } from './library-reference.mjs';

const files = {
  'docs/template.schema.json': `${JSON.stringify(designJsonSchema(), null, 2)}\n`,
  'docs/overrides.schema.json': `${JSON.stringify(overridesJsonSchema(), null, 2)}\n`,
  'docs/reference.md': `${fieldReferenceMarkdown()}\n${libraryReferenceMarkdown()}`,
};
for (const [file, text] of Object.entries(files)) {
  writeFileSync(new URL(`../${file}`, import.meta.url), text);
  console.log(`wrote ${file}`);
}
