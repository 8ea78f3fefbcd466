// vitest setup: tests call layout and shapeParagraphs directly, as a host may; like a host, they load the
// shaper (HarfBuzz WebAssembly) once first. The engine's render paths await it themselves.
import { loadShaper } from '../../src/text/harfbuzz.js';

await loadShaper();
