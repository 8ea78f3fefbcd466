// `imprint fonts install|list`: catalogue families by name into the font folder (src/text/install.ts),
// and what is there. One JSON line per family on stdout; progress on stderr.
import { parseArgs } from 'node:util';
import { searchCatalogue } from '../text/catalogue.js';
import { bundledFonts } from '../text/fonts.js';
import { defaultFontsDir, InstalledFonts } from '../text/installed.js';
import { installFont, parseFontRequest, type InstallResult } from '../text/install.js';
import { FONTS_USAGE, UsageError, wantsHelp } from './help.js';
import type { CliIO } from './io.js';

const line = (io: CliIO, v: unknown) => io.stdout.write(`${JSON.stringify(v)}\n`);

export async function fontsCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || wantsHelp(args)) {
    io.stdout.write(FONTS_USAGE);
    return sub === undefined ? 2 : 0;
  }
  const dir = defaultFontsDir();
  if (sub === 'install') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { from: { type: 'string' } } });
    if (positionals.length === 0) throw new UsageError('name the families to install: imprint fonts install "Open Sans" Roboto@0.4.3');
    for (const [i, text] of positionals.entries()) {
      const r = await installFont(parseFontRequest(text), { dir, ...(values.from ? { from: values.from } : {}), at: `$.families[${i}]` });
      if (r.source !== 'present') io.stderr.write(`installed ${r.family} (${r.package}@${r.version}, ${r.faces.length} faces) into ${dir}\n`);
      line(io, summary(r));
    }
    return 0;
  }
  if (sub === 'list') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { search: { type: 'string' } } });
    if (positionals.length > 0) throw new UsageError(`imprint fonts list takes no families (got ${positionals[0]}): use --search <text>`);
    const installed = new InstalledFonts(dir);
    if (values.search !== undefined) {
      const fonts = bundledFonts();
      for (const f of searchCatalogue(values.search, 50)) {
        const there = installed.find(f.family);
        line(io, {
          family: f.family,
          category: f.category,
          weights: f.weights,
          styles: f.styles,
          bundled: fonts.source(f.family)?.kind === 'bundled',
          installed: there ? there.version : null,
        });
      }
      return 0;
    }
    for (const f of installed.list()) line(io, { family: f.family, package: f.package, version: f.version, faces: f.faces.length, dir: f.dir });
    return 0;
  }
  throw new UsageError(`unknown fonts command "${sub}": use install or list (imprint fonts --help)`);
}

function summary(r: InstallResult) {
  return { family: r.family, package: r.package, version: r.version, faces: r.faces.length, source: r.source };
}
