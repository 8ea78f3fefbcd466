// A text/event-stream parser for the task events (GET /public/v2/tasks/<id>/events). The browser's
// EventSource cannot send an Authorization header, and the key must not go in the URL, so the Studio
// reads the stream with fetch() and parses it here, as the HTML standard's event-stream
// interpretation says: lines end in CRLF, LF or CR; `event`, `data` (lines joined with \n), `id`,
// `retry`; `:` comments (the keep-alives) ignored; a blank line dispatches. Chunks may split a
// line or a CRLF anywhere. No DOM: unit-tested.

export interface SseEvent {
  /** `message` when the event names none. */
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

export class SseParser {
  private buffer = '';
  private started = false;
  /** A CR ended the last chunk: an LF at the start of the next one belongs to it. */
  private pendingCr = false;
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  private retry: number | undefined;

  /** Feeds decoded text; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    if (!this.started && text.length) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.buffer += text;
    const out: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(this.buffer.slice(start, i), out);
      if (c === '\r') {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** The stream ended: an event without its blank line is dropped, as the standard says. */
  end(): SseEvent[] {
    this.buffer = '';
    this.data = [];
    this.event = '';
    return [];
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length) {
        const e: SseEvent = { event: this.event || 'message', data: this.data.join('\n') };
        if (this.id !== undefined) e.id = this.id;
        if (this.retry !== undefined) e.retry = this.retry;
        out.push(e);
      }
      this.data = [];
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.event = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
    }
  }
}
