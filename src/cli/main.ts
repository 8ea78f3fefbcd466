// The `imprint` command line: render, serve, worker and admin (each explained by `imprint <command> --help`).
// Exit 0 on success, 2 on bad input (one line on stderr: `validation_error at $.path: …` or
// `usage_error: …`), 1 otherwise.
import { ImprintError } from '../errors.js';
import { ConfigError } from '../service/config.js';
import type { CliIO } from './io.js';
import { packageVersion, RENDER_USAGE, SERVE_USAGE, USAGE, UsageError, wantsHelp, WORKER_USAGE } from './help.js';

const HELP: Record<string, string> = { render: RENDER_USAGE, serve: SERVE_USAGE, worker: WORKER_USAGE };

async function dispatch(command: string | undefined, rest: string[], io: CliIO): Promise<number> {
  if (command === undefined) {
    io.stderr.write(USAGE);
    return 2;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    // `imprint help render` is `imprint render --help`.
    const topic = command === 'help' ? rest[0] : undefined;
    if (topic === 'admin') return (await import('./admin.js')).adminCommand(['--help', ...rest.slice(1)], io);
    if (topic === 'fonts') return (await import('./fonts.js')).fontsCommand(['--help'], io);
    if (topic !== undefined && HELP[topic] === undefined) throw new UsageError(`unknown command "${topic}": imprint --help lists them`);
    io.stdout.write(topic === undefined ? USAGE : HELP[topic]!);
    return 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    io.stdout.write(`imprint ${packageVersion()}\n`);
    return 0;
  }
  // Help comes before anything with an effect: no server, no store, no data folder.
  if (HELP[command] !== undefined && wantsHelp(rest)) {
    io.stdout.write(HELP[command]);
    return 0;
  }
  // The commands load their own modules: `render` needs no database driver, `admin` no HTTP server.
  if (command === 'render') return (await import('./render.js')).renderCommand(rest, io);
  if (command === 'serve' || command === 'worker') return (await import('./serve.js')).serveCommand(rest, io, command);
  if (command === 'admin') return (await import('./admin.js')).adminCommand(rest, io);
  if (command === 'import') return (await import('./import.js')).importCommand(rest, io);
  if (command === 'fonts') return (await import('./fonts.js')).fontsCommand(rest, io);
  throw new UsageError(`unknown command "${command}": use render, serve, worker, admin, import or fonts (imprint --help)`);
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    return await dispatch(command, rest, io);
  } catch (e) {
    if (e instanceof ImprintError) {
      // The service's messages name no adapter: where to list the ids is the CLI's to say.
      const hint = e.code === 'design_not_found' ? ' (imprint admin list-designs --account <id> lists them)' : '';
      io.stderr.write(`${e.toString()}${hint}\n`);
      // Client errors (the input, an unknown id, a duplicate) exit 2; failures and cancellation 1.
      return e.status < 499 ? 2 : 1;
    }
    if (e instanceof ConfigError) {
      io.stderr.write(`config_error: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UsageError) {
      io.stderr.write(`usage_error: ${e.message}\n`);
      return 2;
    }
    if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      // Node's message goes on about positionals after '--'; the first sentence and the help say enough.
      const what = command === 'admin' && rest[0] !== undefined ? `admin ${rest[0]}` : command;
      io.stderr.write(`usage_error: ${(e as Error).message.split('. To specify')[0]} (imprint ${what} --help lists the options)\n`);
      return 2;
    }
    io.stderr.write(`${command === 'render' ? 'render_failed at $' : 'error'}: ${(e as Error).message}\n`);
    return 1;
  }
}
