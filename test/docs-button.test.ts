// The button pattern of docs/template-format.md, as written there: the tagged design and overrides
// blocks (the ones test/docs-examples.test.ts renders) must draw a label centred inside the button,
// the override must recolour it, and the fit report must be the one the page shows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { render, type RenderOptions } from '../src/index.js';

const page = readFileSync(join(import.meta.dirname, '..', 'docs', 'template-format.md'), 'utf8');
const block = (tag: string): unknown => {
  const m = new RegExp(`\`\`\`json ${tag}\\n([\\s\\S]*?)\`\`\``).exec(page);
  if (!m) throw new Error(`docs/template-format.md has no \`\`\`json ${tag} block`);
  return JSON.parse(m[1]!);
};

type Design = Extract<RenderOptions['design'], object>;
type Overrides = NonNullable<RenderOptions['overrides']>;
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const design = block('example=button design') as Design & { objects: (Box & { name: string })[] };
const overrides = block('example=button overrides') as Overrides;
const reported = block('button fit report');
const box = (name: string): Box => design.objects.find((o) => o.name === name)!;

/** Renders and returns the pixels plus the bounding box of the white label ink. */
async function paint(o: Overrides) {
  const { bytes, report } = await render({ design, overrides: o, format: 'png' });
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): [number, number, number] => {
    const i = (y * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  let [x0, y0, x1, y1, ink] = [Infinity, Infinity, -Infinity, -Infinity, 0];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      // The label is #ffffff; the page (#fff3e0) and both button colours are far from it in blue or red.
      if (at(x, y).every((c) => c >= 235)) {
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        ink++;
      }
    }
  }
  return { at, report, ink, inkBox: { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } };
}

const near = (rgb: readonly number[], hex: string): boolean => rgb.every((c, i) => Math.abs(c - Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16)) <= 2);

const inside = (inner: Box, outer: Box): boolean =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

describe('docs: the button pattern', () => {
  const button = box('button');
  const label = box('label');
  const centre = { x: button.x + button.width / 2, y: button.y + button.height / 2 };

  it('puts the label inside the button, centred on it', async () => {
    const { at, ink, inkBox, report } = await paint({});
    expect(near(at(button.x + 10, centre.y), '#1e88e5'), 'button body').toBe(true);
    expect(near(at(button.x - 10, centre.y), '#fff3e0'), 'page beside the button').toBe(true);
    expect(ink, 'label pixels').toBeGreaterThan(300);
    expect(inside(inkBox, label), `label ink ${JSON.stringify(inkBox)} inside its box`).toBe(true);
    expect(Math.abs(inkBox.x + inkBox.width / 2 - centre.x)).toBeLessThanOrEqual(2);
    expect(Math.abs(inkBox.y + inkBox.height / 2 - centre.y)).toBeLessThanOrEqual(6);
    expect(report.find((r) => r.name === 'label')).toMatchObject({ font_size: 32, line_count: 1, shrunk: false, clipped: false });
  });

  it('takes a new colour and a longer label, shrunk on one line as the fit report on the page says', async () => {
    const before = await paint({});
    const { at, ink, inkBox, report } = await paint(overrides);
    expect(near(at(button.x + 10, centre.y), '#43a047'), 'recoloured body').toBe(true);
    expect(ink).toBeGreaterThan(300);
    expect(inside(inkBox, label)).toBe(true);
    expect(inkBox.width).toBeGreaterThan(before.inkBox.width);
    expect(Math.abs(inkBox.x + inkBox.width / 2 - centre.x)).toBeLessThanOrEqual(2);
    expect(report.find((r) => r.name === 'label')).toEqual(reported);
  });
});
