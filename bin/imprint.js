#!/usr/bin/env node
// Thin launcher: the CLI is compiled and bundled into dist/pkg/ by `npm install` (prepare) or `npm run build`.
import { main } from '../dist/pkg/cli.js';

// A reader that stops early (`imprint render … --out - | head -c 16`) closes the pipe: the write that
// fails reports it (render exits 1 with one line), instead of an unhandled 'error' event crashing node.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
});

process.exitCode = await main(process.argv.slice(2), process);
