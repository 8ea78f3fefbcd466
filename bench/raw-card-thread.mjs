// A worker thread of bench/threads.mjs's raw baseline: renders the card by hand (bench/raw-card.mjs)
// for each message and sends the png back, transferred, as Imprint's render threads send theirs.
import { parentPort } from 'node:worker_threads';
import { rawCardRenderer } from './raw-card.mjs';

const render = await rawCardRenderer();
parentPort.on('message', async () => {
  const png = await render();
  const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  parentPort.postMessage(bytes, [bytes.buffer]);
});
parentPort.postMessage('ready');
