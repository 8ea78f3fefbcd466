// Checks an HTTP answer documented under a command of the docs (`# 201 {…}`, `# 204`, response headers,
// a server-sent event stream) against the one the command really got. The documented JSON is a
// pattern written the way the docs write it: "…" stands for what is left out, ids and times may differ.
import { expect } from 'vitest';
import type { StepResult } from './docs-shell.js';

/** Keys whose values differ from run to run: only their presence is compared. */
const VARIABLE_KEYS = new Set([
  'id',
  'task_id',
  'created_at',
  'updated_at',
  'started_at',
  'finished_at',
  'start_date',
  'state_date',
  'wait_time',
  'exec_time',
  'fraction',
  'frames_done',
  'eta_seconds',
]);
/** Headers whose numbers differ from run to run (`server-timing: render;dur=31.4`). */
const VARIABLE_HEADERS = new Set(['server-timing', 'date', 'content-length', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

type Pattern =
  | { kind: 'any' }
  | { kind: 'value'; value: string | number | boolean | null }
  | { kind: 'text'; re: RegExp }
  | { kind: 'object'; entries: [string, Pattern][]; open: boolean }
  | { kind: 'array'; items: Pattern[]; open: boolean };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A documented string: an "…" (with the letters and digits written before it, the start of a token
 * such as `9c41…`) stands for any text; in a URL every number may differ (a task id in `/tasks/42`).
 */
function textPattern(value: string, key: string | undefined): Pattern {
  const url = key !== undefined && /(^|_)url$/.test(key);
  if (!value.includes('…') && !url) return { kind: 'value', value };
  const parts = value.split(/[A-Za-z0-9]*…/).map((p) => (url ? p.split(/\d+/).map(escape).join('\\d+') : escape(p)));
  return { kind: 'text', re: new RegExp(`^${parts.join('.*')}$`, 's') };
}

/** Parses a documented JSON answer: JSON where "…" may stand for a value, or for entries left out of an object or array. */
export function parsePattern(doc: string): Pattern {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`documented JSON: ${what} at ${i} of ${doc}`);
  };
  const space = () => {
    while (/\s/.test(doc[i] ?? '')) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < doc.length && doc[i] !== '"') i += doc[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(doc.slice(start, i)) as string;
  };
  const value = (key: string | undefined): Pattern => {
    space();
    const c = doc[i];
    if (c === '…') {
      i++;
      return { kind: 'any' };
    }
    if (c === '"') return textPattern(string(), key);
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      const entries: [string, Pattern][] = [];
      const items: Pattern[] = [];
      let open = false;
      i++;
      for (;;) {
        space();
        if (doc[i] === close) break;
        if (doc[i] === '…') {
          i++;
          open = true;
        } else if (c === '{') {
          if (doc[i] !== '"') fail('a key expected');
          const k = string();
          space();
          if (doc[i++] !== ':') fail('":" expected');
          entries.push([k, value(k)]);
        } else items.push(value(key));
        space();
        if (doc[i] === ',') i++;
        else if (doc[i] !== close) fail(`"," or "${close}" expected`);
      }
      i++;
      return c === '{' ? { kind: 'object', entries, open } : { kind: 'array', items, open };
    }
    const literal = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(doc.slice(i))?.[0] ?? fail('a value expected');
    i += literal.length;
    return { kind: 'value', value: JSON.parse(literal) as number | boolean | null };
  };
  const p = value(undefined);
  space();
  if (i < doc.length) fail('the end expected');
  return p;
}

/** Where `actual` differs from the pattern, as `$.path: …` lines (none when it matches). */
export function mismatches(pattern: Pattern, actual: unknown, path = '$', key?: string): string[] {
  if (key !== undefined && VARIABLE_KEYS.has(key)) return [];
  switch (pattern.kind) {
    case 'any':
      return [];
    case 'value':
      return Object.is(pattern.value, actual) ? [] : [`${path}: documented ${JSON.stringify(pattern.value)}, got ${JSON.stringify(actual)}`];
    case 'text':
      return typeof actual === 'string' && pattern.re.test(actual) ? [] : [`${path}: documented ${pattern.re}, got ${JSON.stringify(actual)}`];
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return [`${path}: documented an object, got ${JSON.stringify(actual)}`];
      const out: string[] = [];
      const documented = new Set(pattern.entries.map(([k]) => k));
      for (const [k, p] of pattern.entries) {
        if (!(k in actual)) out.push(`${path}.${k}: documented, but not in the answer`);
        else out.push(...mismatches(p, (actual as Record<string, unknown>)[k], `${path}.${k}`, k));
      }
      if (!pattern.open)
        for (const k of Object.keys(actual)) if (!documented.has(k)) out.push(`${path}.${k}: in the answer, but not documented (nor left out with "…")`);
      return out;
    }
    case 'array': {
      if (!Array.isArray(actual)) return [`${path}: documented an array, got ${JSON.stringify(actual)}`];
      if (pattern.open ? actual.length < pattern.items.length : actual.length !== pattern.items.length)
        return [`${path}: documented ${pattern.items.length}${pattern.open ? ' or more' : ''} items, got ${actual.length}`];
      return pattern.items.flatMap((p, n) => mismatches(p, actual[n], `${path}[${n}]`, key));
    }
  }
}

/**
 * The documented answer under a command, in items: a line starts one, a line indented under it
 * continues it (a long JSON), and an empty `#` line ends it (between server-sent events).
 */
function items(documented: string[]): string[] {
  const out: string[] = [];
  let open = false;
  for (const line of documented) {
    if (line === '') open = false;
    else if (open && /^\s/.test(line)) out[out.length - 1] += line.trim();
    else {
      out.push(line);
      open = true;
    }
  }
  return out;
}

const parseJson = (text: string, where: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${where}: the answer is not JSON: ${text.slice(0, 500)}`);
  }
};

/**
 * Checks the documented answer of each step of a block against what it got, the service's own
 * address written as the docs write it (`http://localhost:3000`). Forms: `204` (the status of the
 * step's last curl request, or of the block's last one before it when the step only prints a
 * variable); `201 {…}` and `{…}` (the last line printed, as JSON); `HTTP/1.1 200 OK` with `name:
 * value` lines (the headers curl -D - printed; the documented ones must be there); `event: …` and
 * `data: {…}` (a server-sent event stream: it ends with the documented last event, and each event
 * has the form of a documented one of its name and state). Any other documented line is an error, so
 * nothing documented goes unchecked. Returns how many answers were checked.
 */
export function checkAnswers(steps: StepResult[], port: number): number {
  let status: number | undefined;
  let checked = 0;
  for (const s of steps) {
    status = s.statuses.at(-1) ?? status;
    const answer = items(s.step.documented);
    if (answer.length === 0) continue;
    checked++;
    const printed = s.stdout.replaceAll(`localhost:${port}`, 'localhost:3000').replaceAll(`127.0.0.1:${port}`, 'localhost:3000');
    const where = `${s.step.command}\n  documented:\n    ${answer.join('\n    ')}\n  printed:\n    ${printed.slice(0, 2000)}\n `;
    const first = answer[0]!;
    if (/^event: |^data: /.test(first)) {
      checkEvents(answer, printed, where);
      continue;
    }
    if (/^HTTP\/\S+ \d{3}/.test(first)) {
      checkHeaders(answer, printed, where);
      continue;
    }
    expect(answer, `${where}one documented answer per command`).toHaveLength(1);
    const m = /^(?:(\d{3})(?: |$))?([{[][\s\S]*)?$/.exec(first);
    if (m === null || (m[1] === undefined && m[2] === undefined)) throw new Error(`${where}: the documented answer is not a status, JSON, headers or events`);
    if (m[1] !== undefined) expect(status, `${where}the HTTP status`).toBe(Number(m[1]));
    else expect(status === undefined || status < 300, `${where}a 2xx status (got ${status})`).toBe(true);
    if (m[2] !== undefined) {
      const line = printed.trim().split('\n').at(-1) ?? '';
      expect(mismatches(parsePattern(m[2]), parseJson(line, where)), where).toEqual([]);
    }
  }
  return checked;
}

function checkHeaders(answer: string[], printed: string, where: string): void {
  const lines = printed.split(/\r?\n/);
  expect(lines[0], `${where}the status line`).toBe(answer[0]);
  const headers = new Map(
    lines
      .slice(1)
      .filter((l) => l.includes(': '))
      .map((l) => [l.slice(0, l.indexOf(': ')).toLowerCase(), l.slice(l.indexOf(': ') + 2)]),
  );
  for (const line of answer.slice(1)) {
    const at = line.indexOf(': ');
    if (at < 0) throw new Error(`${where}: "${line}" is not a header`);
    const name = line.slice(0, at).toLowerCase();
    const value = line.slice(at + 2);
    const re = VARIABLE_HEADERS.has(name)
      ? new RegExp(
          `^${value
            .split(/\d+(?:\.\d+)?/)
            .map(escape)
            .join('\\d+(?:\\.\\d+)?')}$`,
        )
      : undefined;
    const got = headers.get(name);
    if (re === undefined) expect(got, `${where}header ${name}`).toBe(value);
    else expect(got, `${where}header ${name}`).toMatch(re);
  }
}

interface SseEvent {
  event: string;
  data: string;
}

const sse = (lines: string[]): SseEvent[] => {
  const events: SseEvent[] = [];
  let current: Partial<SseEvent> = {};
  for (const line of [...lines, '']) {
    if (line === '') {
      if (current.data !== undefined) events.push({ event: current.event ?? 'message', data: current.data });
      current = {};
    } else if (line.startsWith('event: ')) current.event = line.slice(7);
    else if (line.startsWith('data: ')) current.data = line.slice(6);
    else if (!line.startsWith(':')) throw new Error(`not a line of an event stream: ${line}`);
  }
  return events;
};

function checkEvents(answer: string[], printed: string, where: string): void {
  // The documented items are single lines; an event is its event line and data line.
  const documented = sse(answer.flatMap((a) => (a.startsWith('data: ') ? [a, ''] : [a])));
  const got = sse(printed.split(/\r?\n/));
  expect(got.length, `${where}events`).toBeGreaterThan(0);
  const state = (data: string) => (/"state":"(\w+)"/.exec(data) ?? [])[1];
  const formOf = (e: SseEvent) =>
    documented.filter((d) => d.event === e.event && state(d.data) === state(e.data)).map((d) => mismatches(parsePattern(d.data), parseJson(e.data, where)));
  for (const e of got) {
    const forms = formOf(e);
    expect(forms.length, `${where}an event "${e.event}" in state ${state(e.data)} is documented: ${e.data}`).toBeGreaterThan(0);
    expect(forms.find((f) => f.length === 0) ?? forms[0], `${where}${e.data}`).toEqual([]);
  }
  const last = documented.at(-1)!;
  expect(got.at(-1)!.event, `${where}the last event`).toBe(last.event);
  expect(mismatches(parsePattern(last.data), parseJson(got.at(-1)!.data, where)), `${where}the last event`).toEqual([]);
}
