// Request bodies are limited at the door. Reading stops at the limit, not after the whole body: an
// answer sent before the body has all arrived (a 413, but also a 401 or 403 to a large body) stops
// reading it, says `Connection: close`, and closes the connection once the answer is written, after
// a short lingering read that is bounded in bytes and time. Without that last step the kernel would
// answer the client's next bytes with a reset, which can destroy the answer before the client reads it.
//
// The bound: the server reads at most limit + READ_SLACK bytes of a body before it answers (Node
// reads the socket in pieces of up to 64 KiB and parses a whole piece; the request stream buffers
// 16 KiB more before the socket is paused), then at most LINGER_BYTES and one more piece within
// LINGER_MS: limit + MAX_READ_PAST_LIMIT (400 KiB) in all, whatever the client sends.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_UPLOAD_BYTES } from '../service/uploads.js';

/** The most Node reads from a socket at once. */
const SOCKET_READ = 64 * 1024;
/** What the server may read past a limit before it stops: one socket read and the request stream's buffer. */
export const READ_SLACK = SOCKET_READ + 16 * 1024;
/** Multipart framing around the one file: boundaries, part headers and the few small fields busboy allows (10 of 1 KB). */
export const MULTIPART_OVERHEAD = 64 * 1024;
/** The largest upload body: the file at its limit and its framing. */
export const MAX_UPLOAD_BODY = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD;
/** After a refusal, how long nothing more is read while the client reads the answer. */
export const LINGER_GRACE_MS = 250;
/** Then what is still read and thrown away, at most, until the client closes; and when the connection closes regardless. */
export const LINGER_BYTES = 256 * 1024;
export const LINGER_MS = 2000;
/** All the server reads of a body past its limit, before and after its answer. */
export const MAX_READ_PAST_LIMIT = READ_SLACK + LINGER_BYTES + SOCKET_READ;

/** A body over its limit, found while reading it. */
export class BodyTooLarge extends Error {
  readonly code = 'IMPRINT_BODY_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`the request body is larger than ${limit} bytes`);
  }
}

/**
 * Nothing reads this request's body any more: its readers are detached and the stream paused, so
 * Node stops reading the socket once the stream's small buffer is full.
 */
export function stopReading(req: IncomingMessage): void {
  req.unpipe();
  req.removeAllListeners('data');
  req.pause();
}

/**
 * Rejects as soon as more than `limit` bytes of the body have arrived, having stopped reading it.
 * Attach it after the body's reader (it listens to 'data' too, which would otherwise start the flow
 * before the reader is there).
 */
export function bodyLimit(req: IncomingMessage, limit: number): Promise<never> {
  const over = new Promise<never>((_resolve, reject) => {
    let seen = 0;
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= limit) return;
      stopReading(req);
      reject(new BodyTooLarge(limit));
    };
    req.on('data', count);
    req.once('end', () => req.off('data', count));
  });
  // Raced against the reader: when the reader wins, the rejection has no one waiting for it.
  over.catch(() => {});
  return over;
}

/**
 * Closes a connection whose request body was not read to its end. Closing at once, with the
 * client's bytes unread, makes the kernel send a reset, and a client still writing its body may
 * take the reset before it has read the answer. So: FIN after the answer; nothing is read for
 * LINGER_GRACE_MS while the client reads the answer and stops; then what it had sent is read and
 * dropped until it closes its side, at most LINGER_BYTES and until LINGER_MS.
 */
function lingeringClose(req: IncomingMessage, socket: Socket): void {
  // Nothing that arrives now is a request or a body: neither the request's readers nor the HTTP
  // parser see the connection again (a 'data' listener takes the socket back from the parser).
  req.removeAllListeners('data');
  socket.removeAllListeners('data');
  let left = LINGER_BYTES;
  let draining = false;
  const close = () => socket.destroy();
  socket.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left <= 0) close();
    // Node may restart reading for the request (a dumped body resumes it): during the grace, stop again.
    else if (!draining) socket.pause();
  });
  socket.once('end', close);
  socket.pause();
  socket.end();
  const drain = setTimeout(() => {
    draining = true;
    socket.resume();
    // The parser read the handle directly and may have stopped it under a socket that still
    // counts as flowing with a read pending, where resume() alone would not start it: _read() does.
    socket._read(0);
  }, LINGER_GRACE_MS).unref();
  const timer = setTimeout(close, LINGER_MS).unref();
  socket.once('close', () => {
    clearTimeout(drain);
    clearTimeout(timer);
  });
}

/**
 * onSend, for every answer: one sent while the request's body is still arriving stops reading it
 * and closes the connection after the answer (a keep-alive answer would make Node read the rest of
 * the body, however long, to find the next request).
 */
export function closeUnreadBody(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  const raw = req.raw;
  if (!raw.complete && !raw.socket.destroyed) {
    stopReading(raw);
    reply.header('connection', 'close');
    // Node ends a `Connection: close` answer with socket.destroySoon() once it is written: this
    // socket closes by lingering instead.
    const socket = raw.socket;
    socket.destroySoon = () => lingeringClose(raw, socket);
  }
  done(null, payload);
}
