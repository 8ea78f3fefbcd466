// `imprint admin …`: account, key, plan, balance and design commands that print one JSON object on
// stdout. They open the same stores as a running server (SQLite in WAL mode allows it), so they
// work beside it. They never create an embedded store by themselves: run in the wrong folder, that
// would answer "account_not_found" from a new, empty one instead of saying where the data is not.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseJson } from '../design/parse.js';
import { validationError } from '../errors.js';
import { configFromEnv, ConfigError, type ServiceConfig } from '../service/config.js';
import type { DesignRecord } from '../store/metadata/records.js';
import { UsageError, wantsHelp } from './help.js';
import type { CliIO } from './io.js';

const PLAN_FLAGS = ['requests-per-minute', 'concurrency', 'queue-size', 'daily-renders', 'daily-demo-renders'] as const;
const RATE_FLAGS = ['rate-sd-30', 'rate-sd-60', 'rate-hd-30', 'rate-hd-60'] as const;

interface AdminCommand {
  /** What follows `imprint admin <name>` in the usage line. */
  args: string;
  about: string;
  /** Flag (without --) → its help line. The parser takes exactly these, so a flag of another command is refused. */
  flags: Record<string, string>;
  /** Takes one positional argument (the design file). */
  file?: true;
  example: string[];
}

const ACCOUNT = { account: 'the account id (create-account prints it)' };

const COMMANDS: Record<string, AdminCommand> = {
  init: {
    args: '',
    about:
      'Creates an empty embedded store (the SQLite database in IMPRINT_DATA_DIR, the folder included) if there is none; ' +
      '`imprint serve` does the same on its first start. The other commands refuse to run without a store.',
    flags: {},
    example: ['IMPRINT_DATA_DIR=$HOME/imprint-data imprint admin init', '# {"database":"/home/me/imprint-data/imprint.db","created":true}'],
  },
  'create-account': {
    args: '--name <name> [--plan basic|pro] [--balance <amount>]',
    about: 'A new account with its first admin API key and its webhook secret (shown only this once). Names are unique.',
    flags: {
      name: 'the account name (unique)',
      plan: 'basic (default) or pro: the preset of limits and video rates',
      balance: 'interface B balance to start with (default 0)',
    },
    example: ['imprint admin create-account --name "Acme Studio" --plan basic', '# {"account_id":1,"api_key":"imp_…","webhook_secret":"whsec_…"}'],
  },
  'create-key': {
    args: '--account <id> --role admin|member',
    about: "Another API key of an account. Interface A accepts only admin keys; member keys are for team members' tools.",
    flags: { ...ACCOUNT, role: 'admin or member' },
    example: ['imprint admin create-key --account 1 --role member', '# {"api_key":"imp_…","role":"member"}'],
  },
  'import-design': {
    args: '<design.json | folder.zip> --account <id> [--name <name>] [--replace <design id>]',
    about:
      'Validates a template and stores it with every file it references by relative path (beside design.json, or in a zip of its folder). ' +
      'A template with "slides" is a video design (interface B\'s video_id), others are designs (interface A\'s design_id).',
    flags: {
      ...ACCOUNT,
      name: "a name for listings (default: the file's folder name, or the zip's name)",
      replace: 'swap the template of this existing design id',
    },
    file: true,
    example: ['imprint admin import-design examples/card-1080/design.json --account 1', '# {"design_id":1,"kind":"design","name":"card-1080","files":1}'],
  },
  'list-designs': {
    args: '--account <id>',
    about: 'The designs and video designs of an account.',
    flags: ACCOUNT,
    example: ['imprint admin list-designs --account 1', '# {"account_id":1,"designs":[{"design_id":1,…}]}'],
  },
  'delete-design': {
    args: '--account <id> --design <id>',
    about: 'Deletes a design; its files are kept one more day for renders already running.',
    flags: { ...ACCOUNT, design: 'the design id' },
    example: ['imprint admin delete-design --account 1 --design 2', '# {"deleted":2}'],
  },
  'add-font': {
    args: '<font file> --account <id>',
    about:
      "Adds a font (TTF, OTF, WOFF or WOFF2, at most 20 MB; a variable font covers its whole weight range) to the account's library: " +
      "its designs may name the family, found after the design's own fonts and before the bundled ones. The same file twice is one font.",
    flags: ACCOUNT,
    file: true,
    example: [
      'imprint admin add-font node_modules/@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf --account 1',
      '# {"id":1,"family":"Noto Sans Thai","weight":700,"style":"normal","format":"ttf",…}',
    ],
  },
  'list-fonts': {
    args: '--account <id>',
    about: "The fonts of an account's library: family, weight (range), style, format and the scripts each covers.",
    flags: ACCOUNT,
    example: ['imprint admin list-fonts --account 1', '# {"account_id":1,"fonts":[{"id":1,"family":"Noto Sans Thai",…}]}'],
  },
  'delete-font': {
    args: '--account <id> --font <id>',
    about: 'Removes a font from the library; designs naming its family fall back to the next font that has it.',
    flags: { ...ACCOUNT, font: 'the font id (list-fonts prints it)' },
    example: ['imprint admin delete-font --account 1 --font 1', '# {"deleted":1}'],
  },
  'get-account': {
    args: '--account <id>',
    about: 'An account: name, balance, plan with its limits and rates, webhook secret.',
    flags: ACCOUNT,
    example: ['imprint admin get-account --account 1', '# {"account_id":1,"name":"Acme Studio","balance":25.5,"plan":{…},…}'],
  },
  'set-balance': {
    args: '--account <id> --amount <amount>',
    about: 'Sets the interface B balance (never negative).',
    flags: { ...ACCOUNT, amount: 'the new balance' },
    example: ['imprint admin set-balance --account 1 --amount 20', '# {"account_id":1,"balance":20}'],
  },
  'add-balance': {
    args: '--account <id> --amount <amount>',
    about: 'Adds to the balance in one statement, so a top-up never loses a charge that lands at the same moment; a negative amount takes off, never below 0.',
    flags: { ...ACCOUNT, amount: 'the amount to add (--amount=-5 takes 5 off)' },
    example: ['imprint admin add-balance --account 1 --amount 5.50', '# {"account_id":1,"balance":25.5}'],
  },
  'set-plan': {
    args:
      '--account <id> [--plan basic|pro] [--requests-per-minute n] [--concurrency n] [--queue-size n]\n' +
      '           [--daily-renders n] [--daily-demo-renders n] [--rate-sd-30 x] [--rate-sd-60 x] [--rate-hd-30 x] [--rate-hd-60 x]',
    about: '--plan resets the account to a preset; the other flags change one limit of this account only.',
    flags: {
      ...ACCOUNT,
      plan: 'basic or pro: reset to the preset',
      'requests-per-minute': 'interface A requests per minute',
      concurrency: 'renders of this account at the same time',
      'queue-size': 'tasks queued at most',
      'daily-renders': 'paid interface B renders a day',
      'daily-demo-renders': 'free (demo) interface B renders a day',
      'rate-sd-30': 'price per second of video, sd at 30 fps',
      'rate-sd-60': 'price per second, sd at 60 fps',
      'rate-hd-30': 'price per second, hd at 30 fps',
      'rate-hd-60': 'price per second, hd at 60 fps',
    },
    example: [
      'imprint admin set-plan --account 1 --concurrency 2 --queue-size 500 --rate-hd-60 0.05',
      '# {"account_id":1,"name":"Acme Studio","plan":{"name":"basic","concurrency":2,…},…}',
    ],
  },
  'list-webhooks': {
    args: '--account <id> [--task <id>]',
    about:
      'The webhook of each finished task that asked for one, newest task first (at most 100): its state (pending, sending, sent, ' +
      "failed, or abandoned when the process sending it stopped mid-request), the receiver's HTTP status or the error, and when it was attempted. " +
      'Each webhook is sent at most once; none of these is sent again.',
    flags: { ...ACCOUNT, task: 'only the webhook of this task' },
    example: [
      'imprint admin list-webhooks --account 1',
      '# {"account_id":1,"webhooks":[{"task_id":42,"url":"https://example.com/hooks/imprint","state":"sent","http_status":200,"error":null,…}]}',
    ],
  },
  sweep: {
    args: '',
    about: "Deletes expired uploads and results now (the server's sweeper does it every IMPRINT_SWEEP_INTERVAL_S).",
    flags: {},
    example: ['imprint admin sweep', '# {"uploads":0,"results":0,"design_files":0}'],
  },
};

const STORES_NOTE = `Stores are chosen by IMPRINT_DATA_DIR (default ./data), IMPRINT_DATABASE_URL and IMPRINT_BLOBS_URL,
as for the running server (docs/operations.md). Without a store the commands stop: see imprint admin init.`;

export const ADMIN_USAGE = `Usage: imprint admin <command> [options]     (prints one JSON object on stdout)

${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name} ${c.args}`.trimEnd())
  .join('\n')}

  imprint admin <command> --help   the options of a command, with an example

${STORES_NOTE}

Example:
  imprint admin create-account --name "Acme Studio" --plan basic
`;

/** Lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

function commandUsage(name: string, c: AdminCommand): string {
  const width = Math.max(0, ...Object.keys(c.flags).map((f) => f.length)) + 4;
  const flags = Object.entries(c.flags).map(([f, text]) => `  --${f.padEnd(width)}${text}`);
  return [
    `Usage: imprint admin ${name} ${c.args}`.trimEnd(),
    '',
    ...wrap(c.about, 100),
    ...(flags.length > 0 ? ['', 'Options:', ...flags] : []),
    '',
    STORES_NOTE,
    '',
    'Example:',
    ...c.example.map((l) => `  ${l}`),
    '',
  ].join('\n');
}

/** Each admin command's help, as `imprint admin <command> --help` prints it: the tests run every example in them. */
export function adminCommandHelp(): { command: string; text: string }[] {
  return Object.entries(COMMANDS).map(([name, c]) => ({ command: name, text: commandUsage(name, c) }));
}

function idFlag(value: string | undefined, flag: string): number {
  if (value === undefined) throw validationError(`$.${flag}`, `give --${flag} <id>`);
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1) {
    throw validationError(`$.${flag}`, `Expected a positive integer for --${flag} but received ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function numberFlag(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw validationError(`$.${flag}`, `Expected a number for --${flag} but received ${JSON.stringify(value)}`);
  return n;
}

/** The SQLite file of an embedded store, or undefined for PostgreSQL (whose database the operator creates). */
async function sqliteFile(config: ServiceConfig): Promise<string | undefined> {
  const { isPostgresUrl } = await import('../store/metadata/connect.js');
  if (isPostgresUrl(config.databaseUrl)) return undefined;
  const file = config.databaseUrl.replace(/^sqlite:(\/\/)?/i, '');
  return file === ':memory:' ? undefined : resolve(file);
}

/** Refuses to run on a store that does not exist rather than create an empty one where the user happens to be. */
function requireStore(file: string, config: ServiceConfig): void {
  if (existsSync(file)) return;
  const byUrl = Boolean(process.env.IMPRINT_DATABASE_URL);
  const dirFrom = process.env.IMPRINT_DATA_DIR ? 'IMPRINT_DATA_DIR' : 'IMPRINT_DATA_DIR is not set, so ./data of the current folder';
  const where = byUrl ? `no Imprint database at ${file} (IMPRINT_DATABASE_URL)` : `no Imprint data in ${config.dataDir} (${dirFrom}; looked for ${file})`;
  const variable = byUrl ? 'IMPRINT_DATABASE_URL=<its database file>' : 'IMPRINT_DATA_DIR=<that folder>';
  throw new ConfigError(
    `${where}: run imprint admin where imprint serve keeps its data, set ${variable}, ` +
      'or create a new store with imprint admin init (or by starting imprint serve once)',
  );
}

export async function adminCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) {
    io.stderr.write(ADMIN_USAGE);
    return 2;
  }
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    // `imprint admin help set-plan` and `imprint admin --help set-plan` are `imprint admin set-plan --help`.
    const topic = rest[0];
    if (topic === undefined) io.stdout.write(ADMIN_USAGE);
    else if (Object.hasOwn(COMMANDS, topic)) io.stdout.write(commandUsage(topic, COMMANDS[topic]!));
    else throw new UsageError(`unknown admin command "${topic}": imprint admin --help lists them`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, sub) ? COMMANDS[sub]! : undefined;
  if (command === undefined) throw new UsageError(`unknown admin command "${sub}": imprint admin --help lists them`);
  if (wantsHelp(rest)) {
    io.stdout.write(commandUsage(sub, command));
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: command.file === true,
    options: Object.fromEntries(Object.keys(command.flags).map((f) => [f, { type: 'string' as const }])),
  });
  const v = values as Record<string, string | undefined>;

  const config = configFromEnv();
  const file = await sqliteFile(config);
  const existed = file === undefined || existsSync(file);
  if (sub !== 'init' && file !== undefined) requireStore(file, config);
  // The service (and its database drivers) load only once the command is known to run.
  const { createLogger, Service } = await import('../service/service.js');
  const service = await Service.open(config, { log: createLogger(process.env.IMPRINT_LOG_LEVEL ?? 'warn') });
  const print = (o: unknown) => io.stdout.write(`${JSON.stringify(o)}\n`);
  try {
    switch (sub) {
      case 'init': {
        // Opening the service created (and migrated) whatever was missing.
        print({ database: file ?? service.ctx.meta.conn.describe, created: !existed });
        return 0;
      }
      case 'create-account': {
        const r = await service.createAccount({
          name: v.name,
          ...(v.plan === undefined ? {} : { plan: v.plan }),
          ...(v.balance === undefined ? {} : { balance: numberFlag(v.balance, 'balance') }),
        });
        print({ account_id: r.account.id, api_key: r.apiKey, webhook_secret: r.webhookSecret });
        return 0;
      }
      case 'create-key': {
        const r = await service.createKey(idFlag(v.account, 'account'), v.role);
        print({ api_key: r.apiKey, role: r.role });
        return 0;
      }
      case 'import-design': {
        const path = positionals[0];
        if (path === undefined) throw validationError('$.file', 'give the design file: imprint admin import-design <design.json or folder.zip> --account <id>');
        let bytes: Buffer;
        try {
          bytes = await readFile(resolve(path));
        } catch (e) {
          const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
          throw validationError('$.file', `cannot read the design file "${path}" (${why}): check the path`);
        }
        const account = idFlag(v.account, 'account');
        let d: DesignRecord;
        if (/\.zip$/i.test(path)) {
          // A zip of the design folder: the same reading and limits as POST /public/v2/designs.
          const name = v.name ?? (v.replace === undefined ? basename(path).replace(/\.zip$/i, '') : undefined);
          d = await service.importDesignZip(account, bytes, {
            ...(name === undefined ? {} : { name }),
            ...(v.replace === undefined ? {} : { replace: idFlag(v.replace, 'replace') }),
          });
        } else {
          const template = parseJson(bytes.toString('utf8'), '$', `the design file "${path}"`);
          const source = { baseDir: dirname(resolve(path)), name: v.name ?? basename(dirname(resolve(path))) };
          d =
            v.replace === undefined
              ? await service.importDesign(account, template, source)
              : await service.replaceDesign(account, idFlag(v.replace, 'replace'), template, source);
        }
        print({ design_id: d.id, kind: d.kind, name: d.name, files: Object.keys(d.assets).length });
        return 0;
      }
      case 'list-designs': {
        const { designJson } = await import('../service/designs.js');
        const account = idFlag(v.account, 'account');
        print({ account_id: account, designs: (await service.listDesigns(account)).map(designJson) });
        return 0;
      }
      case 'delete-design': {
        const design = idFlag(v.design, 'design');
        await service.deleteDesign(idFlag(v.account, 'account'), design);
        print({ deleted: design });
        return 0;
      }
      case 'add-font': {
        const path = positionals[0];
        if (path === undefined) throw validationError('$.file', 'give the font file: imprint admin add-font <font file> --account <id>');
        let bytes: Buffer;
        try {
          bytes = await readFile(resolve(path));
        } catch (e) {
          const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
          throw validationError('$.file', `cannot read the font file "${path}" (${why}): check the path`);
        }
        const { fontJson } = await import('../service/fonts.js');
        const { font } = await service.addFont(idFlag(v.account, 'account'), bytes);
        print(fontJson(font));
        return 0;
      }
      case 'list-fonts': {
        const { fontJson } = await import('../service/fonts.js');
        const account = idFlag(v.account, 'account');
        print({ account_id: account, fonts: (await service.listFonts(account)).map(fontJson) });
        return 0;
      }
      case 'delete-font': {
        const font = idFlag(v.font, 'font');
        await service.deleteFont(idFlag(v.account, 'account'), font);
        print({ deleted: font });
        return 0;
      }
      case 'get-account': {
        const { accountJson } = await import('../service/accounts.js');
        print(accountJson(await service.getAccount(idFlag(v.account, 'account'))));
        return 0;
      }
      case 'set-balance': {
        if (v.amount === undefined) throw validationError('$.amount', 'give --amount <amount>');
        const a = await service.setBalance(idFlag(v.account, 'account'), numberFlag(v.amount, 'amount'));
        print({ account_id: a.id, balance: a.balance });
        return 0;
      }
      case 'add-balance': {
        if (v.amount === undefined) throw validationError('$.amount', 'give --amount <amount> (negative to take off)');
        const a = await service.addBalance(idFlag(v.account, 'account'), numberFlag(v.amount, 'amount'));
        print({ account_id: a.id, balance: a.balance });
        return 0;
      }
      case 'set-plan': {
        const { accountJson } = await import('../service/accounts.js');
        const patch: Record<string, unknown> = {};
        if (v.plan !== undefined) patch.plan = v.plan;
        for (const f of [...PLAN_FLAGS, ...RATE_FLAGS]) if (v[f] !== undefined) patch[f.replace(/-/g, '_')] = numberFlag(v[f], f);
        if (Object.keys(patch).length === 0) {
          const flags = '--plan, --concurrency, --requests-per-minute, --queue-size, --daily-renders, --daily-demo-renders, --rate-…';
          throw validationError('$', `give at least one of ${flags}`);
        }
        print(accountJson(await service.setPlan(idFlag(v.account, 'account'), patch)));
        return 0;
      }
      case 'list-webhooks': {
        const { deliveryJson, listWebhookDeliveries } = await import('../service/webhook-outbox.js');
        const account = idFlag(v.account, 'account');
        const deliveries = await listWebhookDeliveries(service.ctx, account, v.task === undefined ? {} : { taskId: idFlag(v.task, 'task') });
        print({ account_id: account, webhooks: deliveries.map(deliveryJson) });
        return 0;
      }
      case 'sweep': {
        const r = await service.sweep();
        print({ uploads: r.uploads, results: r.results, design_files: r.designFiles });
        return 0;
      }
      default:
        throw new UsageError(`admin command "${sub}" has no implementation`);
    }
  } finally {
    await service.close();
  }
}
