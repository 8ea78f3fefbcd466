// The font files a scene's texts are drawn with, read with its other assets, before layout (which
// reads no file): for each text object and chart, the faces shaping will pick (text/shape.ts
// textFaces: the same itemization), each parsed here once; layout then finds them in memory. An object
// type that draws text adds its texts here (test/layout-io.test.ts finds one that does not).
import type { Scene, SceneChart, SceneObject } from '../scene/scene.js';
import type { FontFace } from '../text/faces.js';
import type { FontSet } from '../text/fonts.js';
import { textFaces } from '../text/shape.js';

/** How chart labels write numbers (layout/chart/format.ts): the minus sign, digits, separators. */
const MINUS = '\u2212';
const DIGITS = '0123456789';

/**
 * The strings a chart's labels are made of, by weight, as layout/chart draws them: the categories,
 * series names and numbers at 400, the title and a pie's share labels at 700, and the ellipsis of a
 * label cut short. A number is any run of digits with the format's separators, sign, prefix and suffix.
 */
function chartLabels(chart: SceneChart): { weight: number; texts: string[] }[] {
  const f = chart.numberFormat;
  const numbers = `${MINUS}${f.prefix}${DIGITS}${f.thousands}${f.decimal}${f.suffix}`;
  const plain = [...chart.categories, ...chart.series.map((s) => s.name), numbers, '…'];
  const bold = [...(chart.title === null ? [] : [chart.title, '…']), ...(chart.chartType === 'pie' || chart.chartType === 'donut' ? [`${DIGITS}%`] : [])];
  return [
    { weight: 400, texts: plain },
    { weight: 700, texts: bold },
  ];
}

function facesOf(objects: readonly SceneObject[], fonts: FontSet, out: Set<FontFace>): void {
  for (const o of objects) {
    if (o.type === 'group') facesOf(o.objects, fonts, out);
    else if (o.type === 'text') for (const f of textFaces(o.spans, o.family, fonts, o.lang)) out.add(f);
    else if (o.type === 'chart') {
      for (const { weight, texts } of chartLabels(o)) {
        if (texts.length === 0) continue;
        out.add(fonts.face(o.family, weight));
        // One label at a time, as layout shapes them (line breaks become spaces).
        for (const text of texts) {
          const spans = [{ text: text.replace(/\s*\n\s*/g, ' '), weight, color: o.textColor, underline: false }];
          for (const f of textFaces(spans, o.family, fonts, o.lang)) out.add(f);
        }
      }
    }
  }
}

/** Reads (and parses) the font file of every face the scene's texts and chart labels are drawn with. */
export function loadTextFaces(scene: Scene, fonts: FontSet): void {
  const faces = new Set<FontFace>();
  facesOf(scene.objects, fonts, faces);
  // Parsing reads the file: the tables shaping, metrics and outlines come from.
  for (const face of faces) face.hasCodePoint(0x20);
}
