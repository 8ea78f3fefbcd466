// Types of scripts/studio-screenshot.mjs (a plain script, also run by node), for the test that uses it.
import type { Page } from 'playwright-core';

export declare const README_SCREENSHOT: string;
export declare const VIEWPORT: { width: number; height: number };
export declare const CHROMIUM_ARGS: string[];

/** A box in page pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export declare function studioScreenshot(page: Page, at: { base: string; apiKey: string; designId: number }): Promise<{ png: Buffer; varying: Box[] }>;
