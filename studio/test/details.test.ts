// The pure logic behind the Studio's details (issue 27): the one message a refused key gets, the
// render formats (exactly what interface A accepts), result files named after their design, the
// task list's words and which results show as pictures, field labels in words and the value a select
// leaves in use.
import { describe, expect, it } from 'vitest';
import { overridesJsonSchema } from '../../src/design/json-schema.js';
import { TASK_FORMATS } from '../../src/service/tasks.js';
import { apiErrorFrom } from '../src/lib/api-errors.js';
import { formatsFor } from '../src/lib/designs.js';
import { fieldLabel, fieldTitle, noOverrideText, schemaDefault } from '../src/lib/field-text.js';
import type { JsonSchema } from '../src/lib/json-schema.js';
import { allFields, formFields } from '../src/lib/schema-form.js';
import { downloadName, downloadUrl, isImageResult, resultExtension, sameOriginResult, slugify, taskKindText } from '../src/lib/results.js';
import { CREATE_KEY_COMMAND, signInProblem } from '../src/lib/sign-in.js';

describe('sign-in message', () => {
  it('says a wrong key is not known and how to make one, without codes or storage words', () => {
    const p = signInProblem(
      apiErrorFrom(401, { error: 'unauthorized', description: 'the API key is not known: check it, or ask the account holder for a new one' }),
    );
    expect(p.text).toBe('This key is not known. Check it, or create one with');
    expect(p.command).toBe(CREATE_KEY_COMMAND);
    expect(CREATE_KEY_COMMAND).toMatch(/^npx imprint admin create-key .*--role admin$/);
    expect(JSON.stringify(p)).not.toMatch(/sessionStorage|unauthorized/);
  });

  it('says a member key is not enough, and passes other answers on', () => {
    expect(signInProblem(apiErrorFrom(403, { error: 'forbidden', description: 'use an admin key' })).text).toMatch(/not an admin key/);
    expect(signInProblem(apiErrorFrom(500, { error: 'internal', description: 'boom' }))).toEqual({ text: 'internal: boom' });
  });
});

describe('render formats', () => {
  it('offers exactly the formats interface A accepts, webp and avif included, mp4 only for designs that move', () => {
    expect(new Set(formatsFor({ kind: 'design', animated: true }))).toEqual(new Set(TASK_FORMATS));
    expect(new Set(formatsFor({ kind: 'design', animated: false }))).toEqual(new Set(TASK_FORMATS.filter((f) => f !== 'mp4')));
    expect(formatsFor({ kind: 'design', animated: false })).toEqual(expect.arrayContaining(['webp', 'avif']));
  });
});

describe('results', () => {
  it("names a download after the design and the task, with the result's extension", () => {
    const url = 'http://localhost:3000/public/v2/results/5241a7aeadca3181c088f7c380a727c4.png';
    expect(downloadName({ name: 'card-1080', id: 2 }, 12, url)).toBe('card-1080-task-12.png');
    expect(downloadName({ name: 'Été à Paris — Story 1080×1920!', id: 7 }, 3, 'x/y.webp?v=1')).toBe('ete-a-paris-story-1080-1920-task-3.webp');
    // No usable name (deleted design, only symbols): the design's id.
    expect(downloadName({ name: '', id: 9 }, 4, url)).toBe('design-9-task-4.png');
    expect(downloadName({ name: '☃☃', id: 9 }, 4, 'https://x/r/abc.mp4')).toBe('design-9-task-4.mp4');
    expect(slugify('x'.repeat(80) + ' tail')).toHaveLength(60);
  });

  it('asks the service to save a result under that name (?download=)', () => {
    expect(downloadUrl('http://localhost:3000/public/v2/results/abc.png', 'card-1080-task-12.png')).toBe(
      'http://localhost:3000/public/v2/results/abc.png?download=card-1080-task-12.png',
    );
    expect(downloadUrl('https://x/r/abc.mp4?v=1', 'a b&c.mp4')).toBe('https://x/r/abc.mp4?v=1&download=a%20b%26c.mp4');
  });

  it("reads a result from the page's own origin, whatever host the service wrote in its URL", () => {
    expect(sameOriginResult('http://localhost:3000/public/v2/results/abc.png')).toBe('/public/v2/results/abc.png');
    expect(sameOriginResult('https://cdn.example/public/v2/results/abc.mp4?x=1')).toBe('/public/v2/results/abc.mp4?x=1');
    expect(sameOriginResult('https://bucket.s3.example/results/1/2.png')).toBeUndefined();
    expect(sameOriginResult('::not a url')).toBeUndefined();
  });

  it('shows image results as pictures and pdf or mp4 by their format', () => {
    expect(['a.png', 'a.jpg', 'a.webp', 'a.avif'].every(isImageResult)).toBe(true);
    expect(isImageResult('a.pdf')).toBe(false);
    expect(isImageResult('a.mp4')).toBe(false);
    expect(resultExtension('http://h/p/abc.PDF#x')).toBe('pdf');
    expect(resultExtension('http://h/p/abc')).toBe('');
  });

  it('says what kind of render a task was in words, the interface in the tooltip', () => {
    expect(taskKindText('A')).toEqual({ text: 'API render', title: expect.stringContaining('Interface A') });
    expect(taskKindText('B').text).toBe('Video render');
    expect(taskKindText('B').title).toMatch(/Interface B/);
  });
});

const defs = (overridesJsonSchema() as { $defs: Record<string, JsonSchema> }).$defs;
const textConfig = defs.text!.properties!.config!.properties!;

describe('field labels', () => {
  it('reads a key as words, a few by hand', () => {
    expect(fieldLabel('text_replacement_strategy_fit_valign')).toBe('Vertical alignment when fitting');
    expect(fieldLabel('text')).toBe('Text');
    expect(fieldLabel('font_size')).toBe('Font size');
    expect(fieldLabel('offset_x')).toBe('Offset X');
    expect(fieldLabel('image_url')).toBe('Image');
    expect(fieldLabel('fallback_url_valign')).toBe('Fallback URL vertical alignment');
  });

  it('gives every field of every object type a label in words, the JSON path in its tooltip', () => {
    for (const [type, schema] of Object.entries(defs)) {
      const walk = (fields: ReturnType<typeof formFields>): void => {
        for (const f of allFields(fields)) {
          const label = fieldLabel(f.key);
          expect(label, `${type}.${f.id}`).toMatch(/^[A-Z][^_]*$/);
          expect(fieldTitle(f.id, f.description).startsWith(f.id), `${type}.${f.id}`).toBe(true);
          if (f.kind === 'layers') walk(f.layer);
        }
      };
      walk(formFields(schema));
    }
  });
});

describe("a select's no-override option", () => {
  it('reads the default from the schema description, only among the options', () => {
    const d = (s: JsonSchema | undefined) => s?.description ?? '';
    const opts = (s: JsonSchema | undefined) => (s?.enum ?? []) as string[];
    const t = defs.text!.properties!;
    const cases: [JsonSchema | undefined, string][] = [
      [t.text_align, 'start'],
      [t.text_transform, 'none'],
      [t.overflow_wrap, 'break-word'],
      [textConfig.text_replacement_strategy, 'fit'],
      [textConfig.text_replacement_strategy_fit_valign, 'center'],
      [defs.image!.properties!.config!.properties!.media_replacement_strategy, 'cover'],
    ];
    for (const [s, want] of cases) expect(schemaDefault(d(s), opts(s)), d(s)).toBe(want);
    expect(schemaDefault('Default: the design’s lang.', ['ja'])).toBeUndefined();
  });

  it("names the value in use: the template's, else the default", () => {
    const valign = textConfig.text_replacement_strategy_fit_valign!;
    const options = valign.enum as string[];
    expect(noOverrideText('top', valign.description!, options)).toBe('top (template)');
    expect(noOverrideText(undefined, valign.description!, options)).toBe('center (default)');
    expect(noOverrideText(undefined, 'Where it goes.', options)).toBe('(as the template)');
  });
});
