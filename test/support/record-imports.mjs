// Loaded with `node --import`: records every module the process loads, in the file named by
// IMPRINT_RECORD_IMPORTS, so a test can tell which packages an entry point loads. ES modules are seen
// by a resolve hook; CommonJS packages required on first use (src/lazy-require.ts) are read from
// require's cache when the process exits, since Node 20's hooks do not see require().
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.IMPRINT_RECORD_IMPORTS;
register('./record-imports-hook.mjs', import.meta.url, { data: { file } });
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  if (file)
    appendFileSync(
      file,
      Object.keys(cache)
        .map((f) => `${pathToFileURL(f).href}\n`)
        .join(''),
    );
});
