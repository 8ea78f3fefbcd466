// What a render gives back: the bytes (or a stream of them), their format and size, and the fit report.
import type { Readable } from 'node:stream';
import type { FitReport } from '../layout/layout.js';
import type { OutputFormat } from '../output-formats.js';

export interface RenderResult {
  bytes: Buffer;
  format: OutputFormat;
  mimeType: string;
  /** Size in px of the (first) page. */
  width: number;
  height: number;
  /** pdf: the size in px of every page, in order (pages of several designs or slides may differ). */
  pages?: { width: number; height: number }[];
  /** Text objects of every page; entries of a multi-page pdf carry their page index. */
  report: FitReport;
  /** mp4: the number of frames. */
  frames?: number;
  /** mp4 with `poster`: the jpg of that frame. */
  poster?: Buffer;
}

export interface RenderStream extends Omit<RenderResult, 'bytes'> {
  stream: Readable;
}
