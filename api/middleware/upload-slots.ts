// Large request bodies this process reads at once. A simple upload is buffered whole (up to ~140 MB of base64, then
// the bytes, then their ciphertext), and so is a document attachment (up to 100 MB, then its ciphertext), so a burst
// of them could exhaust the process's memory: past
// FOLIO_MAX_CONCURRENT_LARGE_UPLOADS large ones in flight, a new one is refused with 503 and Retry-After before its
// body is read (docs/drive-encryption.md § 5). And a client that sends `Expect: 100-continue` learns that (or a 413)
// before it sends a byte of the body: the server holds back its "100 Continue" until the route is ready to read.
import type { IncomingMessage } from 'node:http';
import { tooManyUploads } from '../../domain/drive/errors.js';

/** A body larger than this many bytes (its Content-Length) is large; one of unknown length (chunked) is too. */
const LARGE_UPLOAD_BYTES = 10_000_000;
/** What a refused client is told to wait: a 100 MB upload takes seconds on the server's side. */
const LARGE_UPLOAD_RETRY_AFTER_SECONDS = 5;

let largeInFlight = 0;

/** Whether a body of this declared length (undefined: chunked, unknown) counts against the limit. */
export const isLarge = (declaredLength: number | undefined) =>
  declaredLength === undefined || declaredLength > LARGE_UPLOAD_BYTES;

/**
 * Takes one of the `limit` slots for a large body, or throws 503 too_many_uploads with Retry-After when all are
 * taken. The release it returns is safe to call twice; call it once the request is done with the bytes.
 */
export function reserveLargeUpload(limit: number): () => void {
  if (largeInFlight >= limit) throw tooManyUploads(LARGE_UPLOAD_RETRY_AFTER_SECONDS);
  largeInFlight += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    largeInFlight -= 1;
  };
}

// Requests whose "100 Continue" waits for the route (api/server.ts hands them here instead of answering at once).
const continueDeferred = new WeakSet<IncomingMessage>();

/** The routes that decide about a body before reading it (POST): the simple upload and a document attachment's upload. */
const ROUTES_READING_AFTER_CHECKS = [
  /^\/v1\/drive\/files\/?(\?|$)/,
  /^\/v1\/documents\/[^/?]+\/attachments\/?(\?|$)/,
];
const defersContinue = (req: IncomingMessage) =>
  req.method === 'POST' && ROUTES_READING_AFTER_CHECKS.some((route) => route.test(req.url ?? ''));

/**
 * For the server's 'checkContinue' event (a request with `Expect: 100-continue`): answers "100 Continue" at once,
 * as Node does by default, except on a route that reads its body only after its checks; that route calls
 * `sendContinue` when it starts reading, and a refusal before that is sent without the client sending the body.
 */
export function onExpectContinue(req: IncomingMessage, res: { writeContinue(): void }): void {
  if (defersContinue(req)) continueDeferred.add(req);
  else res.writeContinue();
}

/** Tells a client waiting on `Expect: 100-continue` to send its body now; does nothing for any other request. */
export function sendContinue(req: IncomingMessage, res: { writeContinue(): void }): void {
  if (!continueDeferred.delete(req)) return;
  res.writeContinue();
}
