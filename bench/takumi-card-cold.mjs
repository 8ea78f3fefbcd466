// Cold-start peer for bench/cold.mjs: one process that renders the card-1080 example with its
// overrides through Takumi (bench/takumi-card.mjs) and writes the png to argv[2].
import { writeFileSync } from 'node:fs';
import { takumiCardRenderer } from './takumi-card.mjs';

const out = process.argv[2];
if (!out) throw new Error('usage: node bench/takumi-card-cold.mjs <out.png>');
writeFileSync(out, await (await takumiCardRenderer())('png'));
