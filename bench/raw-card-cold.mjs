// Cold-start baseline for bench/cold.mjs: one process that renders the card-1080 example with its
// overrides by hand (bench/raw-card.mjs: @napi-rs/canvas + sharp, no Imprint code) and writes the png
// to argv[2].
import { writeFileSync } from 'node:fs';
import { rawCardRenderer } from './raw-card.mjs';

const out = process.argv[2];
if (!out) throw new Error('usage: node bench/raw-card-cold.mjs <out.png>');
writeFileSync(out, await (await rawCardRenderer())());
