// The registry is the one table of object types: a throwaway type (`dot`, test/fixtures/dot-type.ts)
// registered through its rows alone, a handler and a layout, is parsed, overridden, loaded, laid out,
// painted in png and pdf and published in the JSON Schemas with no other file knowing of it.
import './fixtures/dot-type.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { designJsonSchema, fieldReferenceMarkdown, overridesJsonSchema, type JsonSchema } from '../src/design/json-schema.js';
import { parseDesign } from '../src/design/parse.js';
import { Engine } from '../src/engine.js';
import { registerObjectType } from '../src/objects/registry.js';
import { resolveScene } from '../src/resolve/resolve.js';
import { dotHandler } from './fixtures/dot-type.js';
import { designWith, layoutOf, objectGroup } from './support/scene.js';

// On this thread: render threads load the built engine, which has no dot.
const engine = new Engine({ threads: 0 });
const dot = { type: 'dot', name: 'spot', x: 250, y: 150, width: 100, height: 100, color: '#00ff00' };
const design = designWith([dot], { background: { type: 'color', color: '#ffffff' } });

/** The sRGB colour of the pixel at (x, y) of a png. */
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

/** Every deflated stream of a pdf inflated and joined: the page content as text. */
function pageContent(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/stream\r?\n/g)]
    .flatMap((m) => {
      const start = m.index + m[0].length;
      try {
        return [inflateSync(pdf.subarray(start, text.indexOf('endstream', start))).toString('latin1')];
      } catch {
        return [];
      }
    })
    .join('\n');
}

describe('a type registered through the table', () => {
  it('parses as a member of the design union, checked by its row, named by its row in errors', () => {
    expect(parseDesign(design).objects).toEqual([dot]);
    expect(() => parseDesign(designWith([{ ...dot, height: 80 }]))).toThrow(
      expect.objectContaining({ code: 'validation_error', path: '$.objects[0].height', message: expect.stringContaining("a dot's box is square") }),
    );
    // The schema the error follows is the row's (the union is built from the table): the misspelt field is found in it.
    const { color: _, ...uncoloured } = dot;
    expect(() => parseDesign(designWith([{ ...uncoloured, colour: '#f00' }]))).toThrow(
      expect.objectContaining({ path: '$.objects[0].color', message: expect.stringContaining('"colour" looks like a misspelling: rename it to "color"') }),
    );
    expect(() => parseDesign(designWith([{ ...dot, type: 'blob' }]))).toThrow(expect.objectContaining({ message: expect.stringContaining('"dot"') }));
  });

  it('resolves with an override merged by its row, and refuses fields its override schema lacks', () => {
    const scene = resolveScene(parseDesign(design), { spot: { color: '#ff0000', x: 40 } });
    expect(scene.objects[0]).toMatchObject({ type: 'dot', box: { x: 40, y: 150 }, fill: { kind: 'color', color: [255, 0, 0, 1] } });
    expect(() => resolveScene(parseDesign(design), { spot: { radius: 3 } })).toThrow(
      expect.objectContaining({ code: 'validation_error', path: '$.objects_overrides.spot.radius' }),
    );
  });

  it('is laid out by its layout row: the inscribed circle, filled', () => {
    const { displayList } = layoutOf(design);
    expect(objectGroup(displayList, 0)).toMatchObject({
      transform: [1, 0, 0, 1, 250, 150],
      items: [{ kind: 'fill', geometry: { kind: 'ellipse', rect: { x: 0, y: 0, width: 100, height: 100 } }, color: [0, 255, 0, 1] }],
    });
  });

  it('paints in png: the dot where its box is, the canvas around it, the overridden colour', async () => {
    const { bytes } = await engine.render({ design, format: 'png' });
    expect(await pixel(bytes, 300, 200)).toEqual([0, 255, 0]);
    expect(await pixel(bytes, 252, 152)).toEqual([255, 255, 255]); // the box's corner lies outside the circle
    const red = await engine.render({ design, overrides: { spot: { color: '#ff0000' } }, format: 'png' });
    expect(await pixel(red.bytes, 300, 200)).toEqual([255, 0, 0]);
  });

  it('loads the files its row lists: a picture in the dot, and the error of a missing one at its field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imprint-dot-'));
    writeFileSync(
      join(dir, 'blue.png'),
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0000ff' } })
        .png()
        .toBuffer(),
    );
    const { bytes } = await engine.render({ design, overrides: { spot: { path: 'blue.png' } }, baseDir: dir, format: 'png' });
    expect(await pixel(bytes, 300, 200)).toEqual([0, 0, 255]);
    await expect(engine.render({ design, overrides: { spot: { path: 'none.png' } }, baseDir: dir, format: 'png' })).rejects.toMatchObject({
      code: 'validation_error',
      path: '$.objects_overrides.spot.path',
    });
  });

  it('paints in pdf: the circle filled with its colour on the page', async () => {
    const page = pageContent((await engine.render({ design, overrides: { spot: { color: '#ff0000' } }, format: 'pdf' })).bytes);
    const without = pageContent((await engine.render({ design: designWith([], { background: { type: 'color', color: '#ffffff' } }), format: 'pdf' })).bytes);
    // Moved to the box's corner, a circle of four Bézier curves from its right middle, filled red.
    expect(page).toContain('1 0 0 1 250 150 cm\n100 50 m\n100 77.614237 77.614237 100 50 100 c');
    expect(page).toMatch(/ c\nh\n\/DeviceRGB cs\n1 0 0 scn\n/);
    expect(without).not.toContain(' c\n');
    expect(without).not.toContain('1 0 0 scn');
  });

  it('is published in the JSON Schemas and the field reference', () => {
    const objects = designJsonSchema() as { properties: { objects: { items: { oneOf: JsonSchema[] } } } };
    const member = objects.properties.objects.items.oneOf.find((s) => s.properties?.type?.const === 'dot');
    expect(member?.description).toBe('A dot: the largest circle the box holds.');
    expect(Object.keys(member?.properties ?? {})).toEqual(expect.arrayContaining(['color', 'path', 'x', 'shadow']));
    const overrides = overridesJsonSchema() as { $defs: Record<string, JsonSchema>; additionalProperties: { anyOf: { $ref: string }[] } };
    expect(Object.keys(overrides.$defs.dot?.properties ?? {})).toEqual(expect.arrayContaining(['color', 'path', 'x']));
    expect(overrides.additionalProperties.anyOf.at(-1)).toEqual({ $ref: '#/$defs/dot' });
    expect(fieldReferenceMarkdown()).toContain('Overrides of a dot object');
  });

  it('takes a type once, and only before the design schema is in use', () => {
    expect(() => registerObjectType(dotHandler)).toThrow('there is an object type "dot" already');
    expect(() => registerObjectType({ ...dotHandler, type: 'late' as 'dot' })).toThrow('register before the first parse');
  });
});
