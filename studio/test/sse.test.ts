// The event-stream parser the task watcher uses instead of EventSource (which cannot send the
// Authorization header): events split across chunks at every possible place, CRLF/CR/LF line ends,
// comments (keep-alives), multi-line data, an unfinished event at the end.
import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../src/lib/sse.js';

const STREAM =
  '\uFEFF: keep-alive\r\n\r\n' +
  'event: task\r\ndata: {"id":1,"state":"queued"}\r\n\r\n' +
  ': keep-alive\n\n' +
  'event: task\ndata: {"id":1,\ndata:"state":"done"}\nid: 7\nretry: 3000\n\n' +
  'data: plain\r\r' +
  'event: task\ndata: {"unfinished":true}\n';

const EXPECTED: SseEvent[] = [
  { event: 'task', data: '{"id":1,"state":"queued"}' },
  { event: 'task', data: '{"id":1,\n"state":"done"}', id: '7', retry: 3000 },
  { event: 'message', data: 'plain', id: '7', retry: 3000 },
];

function parseInChunks(text: string, cuts: number[]): SseEvent[] {
  const p = new SseParser();
  const out: SseEvent[] = [];
  let at = 0;
  for (const c of [...cuts, text.length]) {
    out.push(...p.push(text.slice(at, c)));
    at = c;
  }
  out.push(...p.end());
  return out;
}

describe('SSE parser', () => {
  it('reads a whole stream at once', () => {
    expect(parseInChunks(STREAM, [])).toEqual(EXPECTED);
  });

  it('gives the same events whatever the chunk boundaries (every split in two, and one character at a time)', () => {
    for (let i = 1; i < STREAM.length; i++) expect(parseInChunks(STREAM, [i]), `split at ${i}`).toEqual(EXPECTED);
    expect(
      parseInChunks(
        STREAM,
        Array.from({ length: STREAM.length - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(EXPECTED);
  });

  it('parses the task bodies the service sends, keep-alives between them', () => {
    const p = new SseParser();
    const bodies = ['queued', 'pending', 'done'].map((state) => ({ id: 12, state, design_id: 3 }));
    const events = bodies.flatMap((b) => p.push(`event: task\ndata: ${JSON.stringify(b)}\n\n: keep-alive\n\n`));
    expect(events.map((e) => JSON.parse(e.data))).toEqual(bodies);
  });

  it('ignores a field without a value, unknown fields and a bad retry', () => {
    const p = new SseParser();
    expect(p.push('foo: bar\nretry: soon\ndata\n\n')).toEqual([{ event: 'message', data: '' }]);
  });
});
