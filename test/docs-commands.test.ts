// Every ```sh block of README.md, docs/*.md and examples/README.md that runs a command (the CLI, an
// npm script, curl) is run as written, in the order a reader meets them (the README first, where `npm start` seeds the
// demo account, then docs/ and examples/), in one folder that looks like the repository
// (test/support/docs-shell.ts): each must succeed, and each documented JSON answer (`# {…}` under a
// command) must have the keys, and the values it shows, of the real one. Blocks that need a server set
// up otherwise are run by the test named for them, and so are the pages followed in a shell of their
// own (docs/api.md's curl examples, against a fresh `npm start`); a block that cannot run at all says
// why in its fence (```sh no-run (why)) and is listed here. Afterwards the folder holds nothing git would show
// as untracked, and the demo account still has every example. A whole command quoted in the text
// (`npx imprint render card.json --out out/card.png`) is written as it must be pasted.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedKeys, DocsSession, outputOnly, ROOT, shellBlocks, steps, type BlockResult, type ShellBlock, type StepResult } from './support/docs-shell.js';
import { builtBin } from './support/stale-build.js';

const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
  'examples/README.md',
];

/** Blocks run by another test, against a server it sets up (a short poll interval, a small video). */
const RUN_ELSEWHERE: Record<string, string> = {
  walkthrough: 'test/api-docs.test.ts',
  'walkthrough-b': 'test/interface-b.test.ts',
};

/** Pages whose blocks another test runs, all of them in order in one shell, as a reader follows the page. */
const PAGES_ELSEWHERE: Record<string, string> = {
  'docs/api.md': 'test/api-docs.test.ts',
};

/** The only blocks not run anywhere, with the reason their fence gives. */
const NOT_RUN = ['docs/operations.md: needs PostgreSQL, Redis and an S3 bucket at the hosts db, redis and minio'];

const blocks = FILES.flatMap(shellBlocks);
const elsewhere = (b: ShellBlock) => RUN_ELSEWHERE[b.info] ?? PAGES_ELSEWHERE[b.file];
const runHere = (b: ShellBlock) => !b.info.startsWith('no-run') && elsewhere(b) === undefined && steps(b.body).length > 0;

/** The example folders: each holds a design.json or a Polotno document. */
const EXAMPLES = readdirSync(join(ROOT, 'examples'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** A documented answer (`# {…}`) against the command's real one: the same keys (or a subset where it elides some with "…"), and every concrete value it shows. */
function checkDocumented(s: StepResult): void {
  for (const doc of s.step.documented.filter((d) => d.startsWith('{'))) {
    const line = s.stdout.trim().split('\n').at(-1) ?? '';
    const actual = JSON.parse(line) as Record<string, unknown>;
    const { keys, elided } = documentedKeys(doc);
    const where = `${s.step.command}\n  documented: ${doc}\n  printed:    ${line}`;
    if (elided) expect(Object.keys(actual), where).toEqual(expect.arrayContaining(keys));
    else expect(Object.keys(actual).sort(), where).toEqual([...keys].sort());
    for (const pair of doc.matchAll(/"\w+":(?:"[^"…]*"|-?[\d.]+)(?=[,}])/g)) expect(line, where).toContain(pair[0]);
  }
}

function expectSuccess(r: BlockResult): void {
  const failed = r.steps.filter((s) => s.stdout !== '' || s.stderr !== '').at(-1);
  expect(r.code, `exit ${r.code} in:\n${failed?.step.command}\n${r.stderr.slice(-3000)}`).toBe(0);
}

let session: DocsSession;
let demoKey: string | undefined;
/** The demo's designs as the first `npm start` listed them: example folder → id. */
const seeded = new Map<string, number>();
/** What the last `npm start` that found the demo account said to run for a new key. */
let newKeyCommand: string | undefined;
let rootStatus: string;

const git = (...args: string[]) => promisify(execFile)('git', args, { cwd: ROOT }).then((r) => r.stdout);

beforeAll(async () => {
  rootStatus = await git('status', '--porcelain');
  session = await DocsSession.open();
});
afterAll(() => session.close());

describe('the shell blocks of the README and docs', () => {
  it('are each run here, run by a named test, or say why not', () => {
    const notRun = blocks.filter((b) => b.info.startsWith('no-run'));
    expect(notRun.map((b) => `${b.file}: ${/^no-run \((.+)\)$/.exec(b.info)?.[1]}`)).toEqual(NOT_RUN);
    for (const [info, test] of Object.entries(RUN_ELSEWHERE)) {
      expect(blocks.filter((b) => b.info === info)).toHaveLength(1);
      expect(readFileSync(join(ROOT, test), 'utf8'), `${test} runs the block "${info}"`).toContain(`sh ${info}\\n`);
    }
    for (const [page, test] of Object.entries(PAGES_ELSEWHERE)) {
      expect(blocks.filter((b) => b.file === page).length).toBeGreaterThan(0);
      expect(readFileSync(join(ROOT, test), 'utf8'), `${test} runs the blocks of ${page}`).toContain(`shellBlocks('${page}')`);
    }
    // A block with no command shows the answer of the one before it: only a page run elsewhere has
    // them, checked there.
    const unrun = blocks.filter((b) => !runHere(b) && !b.info.startsWith('no-run') && elsewhere(b) === undefined);
    expect(unrun.map((b) => `${b.file}:${b.line}`)).toEqual([]);
    expect(blocks.filter((b) => outputOnly(b.body) && PAGES_ELSEWHERE[b.file] === undefined)).toEqual([]);
    expect(blocks.filter(runHere).length).toBeGreaterThanOrEqual(12);
  });

  it('call the CLI as `npx imprint`, the way it runs from the repository', () => {
    const lines = blocks.flatMap((b) => b.body.split('\n').map((l) => `${b.file}:${b.line}: ${l}`));
    expect(lines.filter((l) => /: (imprint |.*node bin\/imprint\.js)/.test(l))).toEqual([]);
  });

  it('give a whole command in the text (one with a file or a quoted argument) as `npx imprint`, writing into out/', () => {
    // Command names in a sentence (`imprint serve`, `imprint render --font`) stay as they are; a
    // command a reader could paste (`imprint render card.json …`) must run as pasted.
    const wrong: string[] = [];
    for (const file of FILES) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((text, i) => {
          for (const [, command] of text.matchAll(/`((?:npx )?imprint [^`]+)`/g)) {
            if (!/\s\S*\.[a-z][a-z0-9]+(\s|$)|"/i.test(command!)) continue;
            const out = /--out (\S+)/.exec(command!)?.[1];
            if (!command!.startsWith('npx imprint ') || (out !== undefined && out !== '-' && !out.startsWith('out/')))
              wrong.push(`${file}:${i + 1}: ${command}`);
          }
        });
    }
    expect(wrong).toEqual([]);
  });

  it.each(blocks.filter(runHere).map((b) => [`${b.file}:${b.line}`, b] as const))(
    '%s runs as documented',
    async (_, block) => {
      const r = await session.run(block.body, (t) => (demoKey === undefined ? t : t.replaceAll('imp_your_demo_key', demoKey)));
      expectSuccess(r);
      for (const s of r.steps.filter((x) => x.ran)) {
        checkDocumented(s);
        if (s.step.command.trim().startsWith('npm start')) {
          const key = /\n {4}(imp_[\w-]+)\n/.exec(s.stdout)?.[1];
          if (demoKey === undefined) {
            // The first start seeds the demo account with every example and shows its key once.
            expect(key, s.stdout).toBeDefined();
            demoKey = key;
            for (const m of s.stdout.matchAll(/^ {4}(\d+) +(?:design|video) +(\S+)$/gm)) seeded.set(m[2]!, Number(m[1]));
            expect([...seeded.keys()].sort()).toEqual(EXAMPLES);
          } else {
            // A later one shows no key, but the command that makes a new one.
            expect(key).toBeUndefined();
            newKeyCommand = /\n {4}(.*npx imprint admin create-key .*)\n/.exec(s.stdout)?.[1];
            expect(newKeyCommand, s.stdout).toBeDefined();
          }
        }
      }
      if (block.file === 'docs/operations.md' && block.body.includes('admin create-key --account 1 --role admin') && block.info === '') {
        // The lost-key recipe is the command `npm start` printed, and its key works on the server.
        expect(r.steps[0]!.step.command).toBe(newKeyCommand);
        const { api_key } = JSON.parse(r.steps[0]!.stdout) as { api_key: string };
        const account = await fetch(`http://127.0.0.1:${session.port}/public/v2/account`, { headers: { authorization: `Bearer ${api_key}` } });
        expect(account.status).toBe(200);
        expect(await account.json()).toMatchObject({ account_id: 1, name: 'demo' });
      }
    },
    300_000,
  );
});

describe('after the blocks', () => {
  it('the README names the demo designs by the ids npm start gives them', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(Number(/the card\s+example is design (\d+)/.exec(readme)?.[1])).toBe(seeded.get('card-1080'));
    expect(Number(/the slides example is video (\d+)/.exec(readme)?.[1])).toBe(seeded.get('slides-video'));
  });

  it('the demo account still has every example design: the admin walk-through used a store of its own', async () => {
    const r = await promisify(execFile)(process.execPath, [builtBin(), 'admin', 'list-designs', '--account', '1'], {
      cwd: session.work,
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IMPRINT_'))),
    });
    const designs = (JSON.parse(r.stdout) as { designs: { design_id: number; name: string }[] }).designs;
    expect(seeded.size).toBe(EXAMPLES.length);
    for (const [name, id] of seeded) expect(designs, name).toContainEqual(expect.objectContaining({ design_id: id, name }));
  });

  it('npm run examples rendered every example folder', () => {
    for (const name of EXAMPLES)
      for (const f of ['png', 'jpg', 'template.png']) expect(existsSync(join(session.work, 'out', `${name}.${f}`)), `out/${name}.${f}`).toBe(true);
  });

  it('no command left a file git would show as untracked, here or in the checkout', async () => {
    expect(session.untracked()).toEqual([]);
    expect(await git('status', '--porcelain')).toBe(rootStatus);
  });

  it('the only npm commands not run are npm install and npm test', () => {
    expect([...new Set(session.assumed())].sort()).toEqual(['npm install', 'npm test']);
  });
});

describe('examples/README.md', () => {
  it('counts the example folders', () => {
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
    const said = /^(\w+) templates, each a folder/m.exec(readFileSync(join(ROOT, 'examples', 'README.md'), 'utf8'))?.[1];
    expect(words.indexOf(said?.toLowerCase() ?? '')).toBe(EXAMPLES.length);
  });

  it('has a section with a command for every example folder', () => {
    const text = readFileSync(join(ROOT, 'examples', 'README.md'), 'utf8');
    for (const name of EXAMPLES) expect(text, name).toMatch(new RegExp(`^## ${name}\\b[\\s\\S]*?npx imprint render examples/${name}/`, 'm'));
  });
});
