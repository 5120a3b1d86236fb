// A Server-Sent Events answer held open for one person, as the API's live channel (api/routes/documents/live.ts) and
// the editor page's (api/editor-app/document-api.ts) answer: its place among the person's streams, the headers and
// socket settings that keep its events flowing through proxies, keep-alives, and its end on every path.
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { tooManyStreams } from '../domain/documents/errors.js';
import type { PerUserSlots } from './per-user-slots.js';

// Under the idle timeouts of common proxies and load balancers (60 s and more), so a quiet stream is not cut.
const KEEP_ALIVE_MS = 15_000;
const RETRY_MS = 2_000;
// A stream holds its place until its client leaves, which no server can foresee: this is a guess a client may wait.
const STREAM_RETRY_AFTER_SECONDS = 30;

/** An open stream, for its route. What is sent after it ended (a late event) is dropped. */
export interface EventStream {
  send(event: string, data: unknown, id?: number): void;
  close(): void;
}

export interface EventStreamOptions<E> {
  /**
   * The streams each person holds open in this app (services.liveStreams, one count for the API's and the editor
   * page's streams): a stream holds a socket and a listener until the client leaves, so one person (or one leaked
   * client) may not hold them without bound: past `limit` a new one is 429 too_many_streams with Retry-After.
   */
  slots: PerUserSlots;
  userUuid: string;
  limit: number;
  /** Starts listening for the events the stream relays; answers how to stop. */
  subscribe: (listener: (event: E) => void) => Promise<() => void>;
  /** Asked before each event: a reader whose access was revoked since the stream opened gets no more, it ends. */
  stillAllowed: () => Promise<boolean>;
  /** Sends the client what an event means to it. */
  deliver: (event: E, stream: EventStream) => void;
}

const frame = (event: string, data: unknown, id?: number) =>
  `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Answers the request with an event stream, or throws 429 too_many_streams when the person holds `limit` already.
 * Subscribes before it answers, so the route may then send the current state and miss nothing committed since.
 */
export async function openEventStream<E>(ctx: Context, options: EventStreamOptions<E>): Promise<EventStream> {
  const body = new PassThrough();
  // Counted with no await between the check and the count, so concurrent opens cannot pass the cap together. The app
  // stopping ends the body (api/services.ts), whose close gives the place back, so the server can close its connections.
  const release = options.slots.take(options.userUuid, options.limit, () => body.end());
  if (!release) throw tooManyStreams(options.limit, STREAM_RETRY_AFTER_SECONDS);
  const write = (text: string) => {
    if (!body.writableEnded && !body.destroyed) body.write(text);
  };
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  let closed = false;
  let unsubscribe = () => {};
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    unsubscribe();
    release();
    body.end();
  };
  const stream: EventStream = { send: (event, data, id) => write(frame(event, data, id)), close };

  // One event at a time, in arrival order, each after its access check. A check that fails ends the stream rather
  // than skip an event: the client reconnects and reads the current state.
  let pending = Promise.resolve();
  const listener = (event: E) => {
    pending = pending
      .then(async () => {
        if (await options.stillAllowed()) options.deliver(event, stream);
        else close();
      })
      .catch(close);
  };
  try {
    unsubscribe = await options.subscribe(listener);
  } catch (error) {
    close();
    throw error;
  }
  // Ended by an event's check while it subscribed.
  if (closed) unsubscribe();
  ctx.req.on('close', close);
  // A client gone while we subscribed sent its 'close' before anyone listened: its place must still be given back.
  if (ctx.req.socket.destroyed) close();
  body.on('close', close);
  body.on('error', close);

  const socket = ctx.req.socket;
  socket.setTimeout(0);
  // Each event is one small write the client awaits: no Nagle delay, and TCP keep-alive finds a vanished peer.
  socket.setNoDelay(true);
  socket.setKeepAlive(true);
  ctx.status = 200;
  ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
  ctx.set('Cache-Control', 'no-cache, no-transform');
  // nginx (and proxies that follow it) would otherwise buffer the events.
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = body;
  write(`retry: ${RETRY_MS}\n\n`);
  return stream;
}
