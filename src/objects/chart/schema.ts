// Chart objects in template format v1: the chart types, the data table as interface A lays it out, the styling a
// report card needs (colours, font, axis number format, gridlines, legend, title); an override replaces the table.
import { z } from 'zod';
import { Color, doc } from '../../format/fields.js';
import { Shadow } from '../../format/shadow.js';
import { common, placementOverrideFields } from '../common.js';

export const CHART_LIMITS = { maxSeries: 50, maxCategories: 100, maxTitleLength: 200 } as const;

export const ChartType = doc(
  z.enum(['bar', 'column', 'stacked_column', 'line', 'area', 'pie', 'donut']),
  'bar (horizontal bars), column, stacked_column, line, area, pie or donut. Pie and donut show the first series only.',
  'column',
);

const Cell = z.union([z.string(), z.number(), z.null()], { error: 'expected a number, a title string or null' });

export const ChartData = doc(
  z.array(z.array(Cell)),
  `The whole data table: row 0 is [null, "column title", …]; every further row is ["series title", number or null, …], all rows as long as row 0. null in a number cell is a gap (line, area) or no bar. At most ${CHART_LIMITS.maxSeries} series and ${CHART_LIMITS.maxCategories} columns.`,
  [
    [null, 'Q1', 'Q2', 'Q3'],
    ['2025', 120, 180, 150],
    ['2026', 140, 210, null],
  ],
);

export const NumberFormat = z
  .strictObject({
    decimals: doc(z.int().min(0).max(6), 'Digits after the decimal point. Default: as many as the axis step needs (0 for whole steps).', 1).optional(),
    thousands_separator: doc(z.string().max(3), 'Between groups of three digits. Default ",". "" for none.', ' ').optional(),
    decimal_separator: doc(z.string().min(1).max(3), 'Default ".".', ',').optional(),
    prefix: doc(z.string().max(8), 'Before every number, e.g. a currency sign. Default "".', '$').optional(),
    suffix: doc(z.string().max(8), 'After every number, e.g. a unit. Default "".', ' k').optional(),
  })
  .meta({ description: 'How axis values and data labels are written.', examples: [{ prefix: '$', suffix: 'k', decimals: 0 }] });

export const ChartObject = z
  .strictObject({
    type: doc(z.literal('chart'), 'Object type: a data-driven chart.', 'chart'),
    ...common,
    chart_type: ChartType,
    chart_data: ChartData,
    colors: doc(
      z.array(Color).min(1).max(CHART_LIMITS.maxSeries),
      'Series colours in order (pie/donut: slice colours), repeated when there are more series. Default: a built-in palette.',
      ['#2f6fed', '#e4572e', '#17bebb'],
    ).optional(),
    font_family: doc(z.string().min(1), 'A bundled family listed in the design fonts. Default Inter.', 'Inter').optional(),
    font_size: doc(z.number().finite().min(6).max(200), 'Size of labels, ticks and legend in px. Default 16.', 18).optional(),
    text_color: doc(Color, 'Colour of labels, ticks, legend and title. Default #333333.', '#1f2430').optional(),
    title: doc(z.string().max(CHART_LIMITS.maxTitleLength), 'Title above the chart, in bold. Default none.', 'Sales by quarter').optional(),
    legend: doc(z.enum(['top', 'bottom', 'right', 'none']), 'Where the legend goes. Default bottom.', 'right').optional(),
    data_labels: doc(z.boolean(), 'Write each value on its bar, point or slice (pie/donut: the share in %). Default false.', true).optional(),
    gridlines: doc(z.boolean(), 'Lines across the plot at each axis tick. Default true.', false).optional(),
    number_format: NumberFormat.optional(),
    donut_hole: doc(z.number().min(0.1).max(0.9), 'Donut hole as a fraction of the radius. Default 0.6.', 0.5).optional(),
    line_width: doc(z.number().finite().min(0.5).max(40), 'Line width of line and area charts in px. Default 3.', 4).optional(),
    shadow: Shadow.optional(),
  })
  .meta({ description: 'A chart drawn from a data table.' });

export const ChartOverride = z.strictObject({
  ...placementOverrideFields,
  chart_data: ChartData.optional(),
  // Field by field, like a shape's: a colour alone recolours the template's shadow.
  shadow: Shadow.optional(),
});

export type ChartObject = z.infer<typeof ChartObject>;
export type ChartData = z.infer<typeof ChartData>;
export type NumberFormat = z.infer<typeof NumberFormat>;
