// What the chart layouts share while they lay out one chart: the scene object, fonts, label style and
// colours. Its own module so the cartesian and pie layouts need not import the chart layout that calls them.
import type { RGBA, SceneChart } from '../../scene/scene.js';
import type { FontSet } from '../../text/fonts.js';
import type { LabelStyle } from '../label.js';

export interface ChartContext {
  chart: SceneChart;
  fonts: FontSet;
  /** Labels, ticks and legend. */
  style: LabelStyle;
  colorOf(index: number): RGBA;
  /** Text colour at a fraction of its alpha, for gridlines and axes. */
  faint(alpha: number): RGBA;
}
