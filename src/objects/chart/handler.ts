// Chart objects: the override fields chart_data (the whole table) and shadow, plus defaults and colours resolved.
import { parseHexColor } from '../../format/color.js';
import { shadowOf } from '../../format/shadow.js';
import { childPath } from '../../format/json-path.js';
import type { RGBA, SceneChart } from '../../scene/scene.js';
import { mergeFields, placementOf } from '../common.js';
import { checkFontFamily, DEFAULT_FONT_FAMILY } from '../fonts.js';
import type { ObjectHandler } from '../handler.js';
import { checkChartData } from './data.js';
import { ChartOverride, ChartObject } from './schema.js';

/** Distinct, print-safe series colours, used in order when a chart gives none. */
export const DEFAULT_CHART_COLORS = ['#2f6fed', '#e4572e', '#17bebb', '#ffc914', '#76b041', '#9b5de5', '#f15bb5', '#00bbf9', '#8d6e63', '#546e7a'];

export const chartHandler: ObjectHandler<typeof ChartObject, typeof ChartOverride, SceneChart> = {
  type: 'chart',
  schema: ChartObject,
  what: 'a chart object',
  override: ChartOverride,
  merge: mergeFields,
  check(o, at, ctx) {
    checkChartData(o.chart_data, childPath(at, 'chart_data'));
    checkFontFamily(o.font_family ?? DEFAULT_FONT_FAMILY, childPath(at, 'font_family'), ctx);
  },
  toScene(o, _fieldPath, ctx): SceneChart {
    const [header = [], ...rows] = o.chart_data;
    const nf = o.number_format ?? {};
    return {
      type: 'chart',
      ...placementOf(o),
      chartType: o.chart_type,
      categories: header.slice(1).map(String),
      series: rows.map((r) => ({ name: String(r[0]), values: r.slice(1).map((v) => (typeof v === 'number' ? v : null)) })),
      colors: (o.colors ?? DEFAULT_CHART_COLORS).map((c): RGBA => parseHexColor(c)),
      family: o.font_family ?? DEFAULT_FONT_FAMILY,
      fontSize: o.font_size ?? 16,
      textColor: parseHexColor(o.text_color ?? '#333333'),
      title: o.title ?? null,
      legend: o.legend ?? 'bottom',
      dataLabels: o.data_labels ?? false,
      gridlines: o.gridlines ?? true,
      numberFormat: {
        decimals: nf.decimals ?? null,
        thousands: nf.thousands_separator ?? ',',
        decimal: nf.decimal_separator ?? '.',
        prefix: nf.prefix ?? '',
        suffix: nf.suffix ?? '',
      },
      donutHole: o.donut_hole ?? 0.6,
      lineWidth: o.line_width ?? 3,
      // Labels are written in the design's language (which CJK forms, the shaper's language system).
      ...(ctx.lang === undefined ? {} : { lang: ctx.lang }),
      ...(o.shadow ? { shadow: shadowOf(o.shadow) } : {}),
    };
  },
};
