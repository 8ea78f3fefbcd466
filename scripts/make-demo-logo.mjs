#!/usr/bin/env node
// Draws assets/demo-logo.png, the logo interface B's free (demo) mode puts on every frame, with the
// engine itself and the bundled Inter font, so it looks the same everywhere. Run after `npm run build`.
import { writeFile } from 'node:fs/promises';
import { render } from '../dist/index.js';

const design = {
  schema: 'imprint/design@1',
  width: 520,
  height: 120,
  background: { type: 'color', color: '#0000' },
  fonts: ['Inter'],
  objects: [
    {
      type: 'shape',
      shape: 'rounded_rect',
      corner_radius: 60,
      x: 0,
      y: 0,
      width: 520,
      height: 120,
      background: { type: 'color', color: '#111827d9' },
      border: { width: 4, color: '#ffffff', style: 'solid' },
    },
    {
      type: 'text',
      x: 30,
      y: 22,
      width: 460,
      height: 76,
      text: '<substyle bold="700">DEMO</substyle> · made with Imprint',
      font_size: 40,
      color: '#ffffff',
      text_align: 'center',
    },
  ],
};
const { bytes } = await render({ design, format: 'png' });
await writeFile(new URL('../assets/demo-logo.png', import.meta.url), bytes);
console.log(`assets/demo-logo.png: ${bytes.length} bytes`);
