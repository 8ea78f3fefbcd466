// Loaded with `node --import`: records every module URL the process resolves, in the file named by
// IMPRINT_RECORD_IMPORTS, so a test can tell which packages an entry point loads.
import { register } from 'node:module';

register('./record-imports-hook.mjs', import.meta.url, { data: { file: process.env.IMPRINT_RECORD_IMPORTS } });
