// Large request bodies an app reads. A simple upload in a chunked-encoded body is buffered whole (up to ~140 MB of
// base64, then the bytes, then their ciphertext; one with a Content-Length is streamed, a few 8 MiB chunks at a time),
// and a document attachment is too (up to 100 MB, then its ciphertext), so a burst of them could exhaust the
// process's memory: past
// FOLIO_MAX_CONCURRENT_LARGE_UPLOADS large ones in flight, a new one is refused with 503 and Retry-After before its
// body is read (docs/drive-encryption.md § 5). And a client that sends `Expect: 100-continue` learns that (or a 413)
// before it sends a byte of the body: the server holds back its "100 Continue" until the route is ready to read.
import type { IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { tooManyUploads } from '../../domain/drive/errors.js';

/** A body larger than this many bytes (its Content-Length) is large; one of unknown length (chunked) is too. */
const LARGE_UPLOAD_BYTES = 10_000_000;
/** What a refused client is told to wait: a 100 MB upload takes seconds on the server's side. */
const LARGE_UPLOAD_RETRY_AFTER_SECONDS = 5;

/** Whether a body of this declared length (undefined: chunked, unknown) counts against the limit. */
export const isLarge = (declaredLength: number | undefined) =>
  declaredLength === undefined || declaredLength > LARGE_UPLOAD_BYTES;

/** One app's large-upload slots (api/services.ts) and the requests whose "100 Continue" waits for their route. */
export class UploadSlots {
  private inFlight = 0;
  private readonly continueDeferred = new WeakSet<IncomingMessage>();
  private routers: Router[] = [];

  /**
   * Marks a route that decides about its body before reading it (the simple upload, an attachment's upload): put
   * first in its chain, it lets `onExpectContinue` find the route through the router itself, so its path is written
   * in one place.
   */
  readonly readsBodyAfterChecks: Middleware = (_ctx, next) => next();

  constructor(private readonly limit: number) {}

  /** The routers whose marked routes defer "100 Continue" (createApp hands in the app's routers). */
  deferContinueOn(routers: Router[]): void {
    this.routers = routers;
  }

  /**
   * Takes one of the slots for a large body, or throws 503 too_many_uploads with Retry-After when all are taken.
   * The release it returns is safe to call twice; call it once the request is done with the bytes.
   */
  reserve(): () => void {
    if (this.inFlight >= this.limit) throw tooManyUploads(LARGE_UPLOAD_RETRY_AFTER_SECONDS);
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
    };
  }

  /**
   * For the server's 'checkContinue' event (a request with `Expect: 100-continue`): answers "100 Continue" at once,
   * as Node does by default, except on a route that reads its body only after its checks; that route calls
   * `sendContinue` when it starts reading, and a refusal before that is sent without the client sending the body.
   */
  onExpectContinue(req: IncomingMessage, res: { writeContinue(): void }): void {
    if (this.defersContinue(req)) this.continueDeferred.add(req);
    else res.writeContinue();
  }

  /** Tells a client waiting on `Expect: 100-continue` to send its body now; does nothing for any other request. */
  sendContinue(req: IncomingMessage, res: { writeContinue(): void }): void {
    if (!this.continueDeferred.delete(req)) return;
    res.writeContinue();
  }

  private defersContinue(req: IncomingMessage): boolean {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0]!;
    return this.routers.some((router) =>
      router
        .match(path, method)
        .pathAndMethod.some(
          (layer) => layer.methods.includes(method) && layer.stack.includes(this.readsBodyAfterChecks),
        ),
    );
  }
}
