// Heavy packages (Skia, libvips, pdfkit, linebreak) are required on first use, not at import, so that
// `import 'imprint'` and a render that needs none of them stay light (bench/cold.mjs, test/entry-points.test.ts).
// All of them ship CommonJS, so the first use stays synchronous: no API turns async for this.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter that requires `id` the first time it is called and returns the same module afterwards. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

type Execa = typeof import('execa');
let execaModule: Promise<Execa> | undefined;
/** execa is ESM-only, so it cannot be required: the async code that spawns ffmpeg imports it on first use. */
export function loadExeca(): Promise<Execa> {
  execaModule ??= import('execa');
  return execaModule;
}
