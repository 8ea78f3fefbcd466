// `imprint admin …`: account, key, plan, balance and design commands that print one JSON object on
// stdout. They open the same stores as a running server (SQLite in WAL mode allows it), so they
// work beside it.
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseJson } from '../design/parse.js';
import { validationError } from '../errors.js';
import { accountJson } from '../service/accounts.js';
import { configFromEnv } from '../service/config.js';
import { designJson } from '../service/designs.js';
import { createLogger, Service } from '../service/service.js';
import type { CliIO } from './main.js';

export const ADMIN_USAGE = `Usage: imprint admin <command> [options]     (prints one JSON object on stdout)
  create-account --name <name> [--plan basic|pro] [--balance <amount>]
  create-key --account <id> --role admin|member
  import-design <design.json> --account <id> [--name <name>] [--replace <design id>]
  list-designs --account <id>
  delete-design --account <id> --design <id>
  get-account --account <id>
  set-balance --account <id> --amount <amount>
  add-balance --account <id> --amount <amount>     top up atomically (--amount=-5 takes 5 off, never below 0)
  set-plan --account <id> [--plan basic|pro] [--requests-per-minute n] [--concurrency n] [--queue-size n]
           [--daily-renders n] [--daily-demo-renders n] [--rate-sd-30 x] [--rate-sd-60 x] [--rate-hd-30 x] [--rate-hd-60 x]
  sweep                                     delete expired uploads and results now
Stores are chosen by IMPRINT_DATA_DIR, IMPRINT_DATABASE_URL, IMPRINT_BLOBS_URL (docs/operations.md).
`;

const PLAN_FLAGS = ['requests-per-minute', 'concurrency', 'queue-size', 'daily-renders', 'daily-demo-renders'] as const;
const RATE_FLAGS = ['rate-sd-30', 'rate-sd-60', 'rate-hd-30', 'rate-hd-60'] as const;

function idFlag(value: string | undefined, flag: string): number {
  if (value === undefined) throw validationError(`$.${flag}`, `give --${flag} <id>`);
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1) throw validationError(`$.${flag}`, `Expected a positive integer for --${flag} but received ${JSON.stringify(value)}`);
  return Number(value);
}

function numberFlag(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw validationError(`$.${flag}`, `Expected a number for --${flag} but received ${JSON.stringify(value)}`);
  return n;
}

export async function adminCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === 'help') {
    io.stdout.write(ADMIN_USAGE);
    return sub === undefined ? 2 : 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      balance: { type: 'string' },
      account: { type: 'string' },
      role: { type: 'string' },
      replace: { type: 'string' },
      design: { type: 'string' },
      amount: { type: 'string' },
      ...Object.fromEntries([...PLAN_FLAGS, ...RATE_FLAGS].map((f) => [f, { type: 'string' as const }])),
    },
  });
  const config = configFromEnv();
  const service = await Service.open(config, { log: createLogger(process.env.IMPRINT_LOG_LEVEL ?? 'warn') });
  const print = (o: unknown) => io.stdout.write(`${JSON.stringify(o)}\n`);
  try {
    switch (sub) {
      case 'create-account': {
        const r = await service.createAccount({
          name: values.name,
          ...(values.plan === undefined ? {} : { plan: values.plan }),
          ...(values.balance === undefined ? {} : { balance: numberFlag(values.balance, 'balance') }),
        });
        print({ account_id: r.account.id, api_key: r.apiKey, webhook_secret: r.webhookSecret });
        return 0;
      }
      case 'create-key': {
        const r = await service.createKey(idFlag(values.account, 'account'), values.role);
        print({ api_key: r.apiKey, role: r.role });
        return 0;
      }
      case 'import-design': {
        const file = positionals[0];
        if (file === undefined) throw validationError('$.file', 'give the design file: imprint admin import-design <design.json> --account <id>');
        let text: string;
        try {
          text = await readFile(resolve(file), 'utf8');
        } catch (e) {
          throw validationError('$.file', `cannot read the design file "${file}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path`);
        }
        const template = parseJson(text, '$', `the design file "${file}"`);
        const account = idFlag(values.account, 'account');
        const source = { baseDir: dirname(resolve(file)), name: values.name ?? basename(dirname(resolve(file))) };
        const d = values.replace === undefined ? await service.importDesign(account, template, source) : await service.replaceDesign(account, idFlag(values.replace, 'replace'), template, source);
        print({ design_id: d.id, kind: d.kind, name: d.name, files: Object.keys(d.assets).length });
        return 0;
      }
      case 'list-designs': {
        const account = idFlag(values.account, 'account');
        print({ account_id: account, designs: (await service.listDesigns(account)).map(designJson) });
        return 0;
      }
      case 'delete-design': {
        const design = idFlag(values.design, 'design');
        await service.deleteDesign(idFlag(values.account, 'account'), design);
        print({ deleted: design });
        return 0;
      }
      case 'get-account':
        print(accountJson(await service.getAccount(idFlag(values.account, 'account'))));
        return 0;
      case 'set-balance': {
        if (values.amount === undefined) throw validationError('$.amount', 'give --amount <amount>');
        const a = await service.setBalance(idFlag(values.account, 'account'), numberFlag(values.amount, 'amount'));
        print({ account_id: a.id, balance: a.balance });
        return 0;
      }
      case 'add-balance': {
        if (values.amount === undefined) throw validationError('$.amount', 'give --amount <amount> (negative to take off)');
        const a = await service.addBalance(idFlag(values.account, 'account'), numberFlag(values.amount, 'amount'));
        print({ account_id: a.id, balance: a.balance });
        return 0;
      }
      case 'set-plan': {
        const v = values as Record<string, string | undefined>;
        const patch: Record<string, unknown> = {};
        if (v.plan !== undefined) patch.plan = v.plan;
        for (const f of [...PLAN_FLAGS, ...RATE_FLAGS]) if (v[f] !== undefined) patch[f.replace(/-/g, '_')] = numberFlag(v[f], f);
        if (Object.keys(patch).length === 0) throw validationError('$', 'give at least one of --plan, --concurrency, --requests-per-minute, --queue-size, --daily-renders, --daily-demo-renders, --rate-…');
        print(accountJson(await service.setPlan(idFlag(values.account, 'account'), patch)));
        return 0;
      }
      case 'sweep': {
        const r = await service.sweep();
        print({ uploads: r.uploads, results: r.results, design_files: r.designFiles });
        return 0;
      }
      default:
        io.stderr.write(`usage_error: unknown admin command "${sub}"\n${ADMIN_USAGE}`);
        return 2;
    }
  } finally {
    await service.close();
  }
}
