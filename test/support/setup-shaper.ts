// vitest setup: tests call layout and shapeText directly, as a host may; like a host, they load the
// shaper (HarfBuzz WebAssembly) once first. The engine's render paths await it themselves.
import { loadShaper } from '../../src/text/fonts.js';

await loadShaper();
