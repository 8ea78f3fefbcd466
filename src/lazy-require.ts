// Heavy packages (Skia, libvips, pdfkit, linebreak) are required on first use, not at import, so that
// `import 'imprint'` and a render that needs none of them stay light (bench/cold.mjs, test/entry-points.test.ts).
// All of them ship CommonJS, so the first use stays synchronous: no API turns async for this.
import { createRequire } from 'node:module';
import type * as SkiaCanvas from '@napi-rs/canvas';

const require = createRequire(import.meta.url);

/** A getter that requires `id` the first time it is called and returns the same module afterwards. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

/**
 * @napi-rs/canvas (Skia), required on first use. Imprint never draws text with the canvas's own fonts
 * (glyphs are filled from their outlines, from the bundled and installed font files), so the module's
 * scan of the machine's fonts at load (~140 ms of a cold process with a few system font packages) is
 * skipped: DISABLE_SYSTEM_FONTS_LOAD is set only for the require and then restored, so a host that
 * loads the canvas itself afterwards still gets its system fonts (the module is then already loaded
 * with them only when the host loaded it first).
 */
export const skiaCanvas = (() => {
  let loaded: typeof SkiaCanvas | undefined;
  return (): typeof SkiaCanvas => {
    if (loaded) return loaded;
    const before = process.env.DISABLE_SYSTEM_FONTS_LOAD;
    process.env.DISABLE_SYSTEM_FONTS_LOAD = '1';
    try {
      loaded = require('@napi-rs/canvas') as typeof SkiaCanvas;
    } finally {
      if (before === undefined) delete process.env.DISABLE_SYSTEM_FONTS_LOAD;
      else process.env.DISABLE_SYSTEM_FONTS_LOAD = before;
    }
    return loaded;
  };
})();

type Execa = typeof import('execa');
let execaModule: Promise<Execa> | undefined;
/** execa is ESM-only, so it cannot be required: the async code that spawns ffmpeg imports it on first use. */
export function loadExeca(): Promise<Execa> {
  execaModule ??= import('execa');
  return execaModule;
}
