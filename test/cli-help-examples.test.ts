// Every example of the CLI's help texts (`imprint --help`, `imprint <command> --help` of each command
// it lists, each `imprint admin <command> --help`), taken from their source, is run as written, in one
// folder like the repository (test/support/docs-shell.ts), in the order of the help texts: the
// top-level help's `imprint serve` gives the admin examples a store with the demo account, as
// `npm start` would; `imprint fonts install` downloads its family from the npm registry, as
// docs/template-format.md's block does in docs-commands.test.ts.
// Each must succeed, and each documented JSON answer must have the keys of the real one. A command
// that an earlier help text already ran is not run again. Only the examples listed in NOT_RUN are
// not run, each for the reason given there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommandHelp, ADMIN_USAGE } from '../src/cli/admin.js';
import { FONTS_USAGE, IMPORT_USAGE, RENDER_USAGE, SERVE_USAGE, USAGE, WORKER_USAGE } from '../src/cli/help.js';
import { documentedKeys, DocsSession, helpExamples } from './support/docs-shell.js';

const HELP: [string, string][] = [
  ['imprint --help', USAGE],
  ['imprint render --help', RENDER_USAGE],
  ['imprint import --help', IMPORT_USAGE],
  ['imprint serve --help', SERVE_USAGE],
  ['imprint worker --help', WORKER_USAGE],
  ['imprint fonts --help', FONTS_USAGE],
  ['imprint admin --help', ADMIN_USAGE],
  ...adminCommandHelp().map(({ command, text }): [string, string] => [`imprint admin ${command} --help`, text]),
];

/** The only help examples not run, and why. */
const NOT_RUN: Record<string, string> = {
  'imprint worker --help': 'needs PostgreSQL, Redis and S3 at the hosts db, cache and minio',
};

let session: DocsSession;
beforeAll(async () => {
  session = await DocsSession.open({ bareImprint: true });
});
afterAll(() => session.close());

describe('the examples of the help texts', () => {
  it('every help text has an example', () => {
    for (const [name, text] of HELP) expect(helpExamples(text), name).toMatch(/\bimprint \w/);
  });

  it('every command `imprint --help` lists has its help text here, so none is left out', () => {
    const commands = USAGE.slice(USAGE.indexOf('\nCommands:\n'))
      .split('\n\n')[0]!
      .split('\n')
      .slice(2)
      .map((l) => /^ {2}(\w+)/.exec(l)?.[1]);
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const c of commands) expect(HELP.map(([name]) => name)).toContain(`imprint ${c} --help`);
  });

  it.each(HELP.filter(([name]) => NOT_RUN[name] === undefined))(
    '%s: its examples run',
    async (_, text) => {
      const r = await session.run(helpExamples(text));
      if (process.env.DEBUG_DOCS)
        console.log(
          JSON.stringify(
            r.steps.map((s) => [s.step.command, s.ran, s.stdout.slice(0, 300), s.stderr.slice(0, 300)]),
            null,
            1,
          ),
        );
      const last = r.steps.filter((s) => s.stdout !== '' || s.stderr !== '').at(-1);
      expect(r.code, `exit ${r.code} in:\n${last?.step.command}\n${r.stderr.slice(-3000)}`).toBe(0);
      for (const s of r.steps.filter((x) => x.ran)) {
        for (const doc of s.step.documented.filter((d) => d.startsWith('{'))) {
          // The help shows what an answer looks like; the values depend on the store it runs on.
          const line = s.stdout.trim().split('\n').at(-1) ?? '';
          const actual = Object.keys(JSON.parse(line) as Record<string, unknown>);
          const { keys, elided } = documentedKeys(doc);
          const where = `${s.step.command}\n  documented: ${doc}\n  printed:    ${line}`;
          if (elided) expect(actual, where).toEqual(expect.arrayContaining(keys));
          else expect(actual.sort(), where).toEqual([...keys].sort());
        }
      }
    },
    300_000,
  );

  it('leave no file git would show as untracked', () => {
    expect(session.untracked()).toEqual([]);
  });
});
