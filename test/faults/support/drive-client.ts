// A Drive client that behaves as a real one does when the service dies under it: a request that got no answer is sent
// again; an upload or replacement the service lost (expired while the client could not reach it, or whose answer
// never came) is checked and restarted. Built on the tests' @folio/client (test/support/folio-client.ts).
import { randomUUID } from 'node:crypto';
import { call, type ApiResponse, type TestUser } from '../../support/api.js';
import {
  api,
  ApiError,
  downloadChunked,
  initiateReplace,
  initiateUpload,
  sendChunks,
  type ClientOptions,
} from '../../support/folio-client.js';
import { retrying } from './chaos.js';

/** An API call sent again while it got no answer or a 5xx. */
export const callRetrying = <T = any>(
  method: string,
  path: string,
  options: Parameters<typeof call>[2] = {},
): Promise<ApiResponse<T>> => retrying(() => call<T>(method, path, options), `${method} ${path}`);

/** A chunked-client step, sent again while it got no answer or a 5xx; other refusals are thrown as ApiError. */
async function step<T>(what: string, run: () => Promise<T>): Promise<T> {
  const answer = await retrying(async () => {
    try {
      return { status: 200, value: await run() };
    } catch (error) {
      if (error instanceof ApiError && error.status >= 500) return { status: error.status, value: undefined };
      throw error;
    }
  }, what);
  return answer.value as T;
}

const refusal = (error: unknown) => (error instanceof ApiError ? error : undefined);

export interface Attempts {
  /** Uploads or replacements begun again from the start because the service lost the one in flight. */
  restarts: number;
}

/** A simple upload (POST /v1/drive/files); a retry refused as name_taken means the first one landed. Answers the uuid. */
export async function simpleUploadRetrying(
  user: TestUser,
  name: string,
  data: Buffer,
  contentType = 'application/octet-stream',
): Promise<string> {
  const response = await callRetrying('POST', '/v1/drive/files', {
    token: user.token,
    json: { name, content_type: contentType, data: data.toString('base64') },
  });
  if (response.status === 201) return response.body.uuid;
  if (response.status === 422 && response.body.error === 'name_taken') {
    // The request whose answer was lost had created it: find it by its name, as a client would.
    const listing = await callRetrying('GET', '/v1/drive/files', { token: user.token });
    const found =
      listing.status === 200
        ? listing.body.files.find((item: { name: string }) => item.name === name)
        : undefined;
    if (found) return found.uuid;
  }
  throw new Error(`simple upload of ${name}: ${response.status} ${JSON.stringify(response.body)}`);
}

/** A chunked upload, begun again under a new name whenever the one in flight was lost. Answers the file's uuid. */
export async function chunkedUploadRetrying(
  user: TestUser,
  name: string,
  data: Buffer,
  attempts: Attempts,
): Promise<string> {
  const options: ClientOptions = { token: user.token, concurrency: 2 };
  for (let attempt = 1; ; attempt++) {
    // A lost initiate still holds its name until it expires, so each new start takes a name of its own.
    const attemptName = attempt === 1 ? name : `${name}.retry-${attempt}`;
    try {
      const transfer = await step('initiate', () =>
        initiateUpload(options, {
          name: attemptName,
          contentType: 'application/octet-stream',
          size: data.length,
        }),
      );
      const parts = await step('chunks', () =>
        sendChunks(options, `/v1/drive/uploads/${transfer.fileUuid}/part_urls`, transfer, data.length, data),
      );
      try {
        await step('complete', () =>
          api(options, 'POST', `/v1/drive/uploads/${transfer.fileUuid}/complete`, { parts }),
        );
      } catch (error) {
        // A complete whose answer was lost may have landed: the file says so.
        const file = await callRetrying('GET', `/v1/drive/files/${transfer.fileUuid}`, { token: user.token });
        if (!(file.status === 200 && file.body.upload_status === 'completed')) throw error;
      }
      return transfer.fileUuid;
    } catch (error) {
      if (!refusal(error) || attempt >= 10) throw error;
      attempts.restarts++;
    }
  }
}

/** A content replacement, aborted and begun again whenever the one in flight was lost. */
export async function replaceRetrying(
  user: TestUser,
  fileUuid: string,
  data: Buffer,
  attempts: Attempts,
): Promise<void> {
  const options: ClientOptions = { token: user.token, concurrency: 2 };
  for (let attempt = 1; ; attempt++) {
    try {
      const transfer = await step('replace', () => initiateReplace(options, fileUuid, { size: data.length }));
      const parts = await step('chunks', () =>
        sendChunks(options, `/v1/drive/files/${fileUuid}/replace/part_urls`, transfer, data.length, data),
      );
      try {
        await step('replace complete', () =>
          api(options, 'POST', `/v1/drive/files/${fileUuid}/replace/complete`, { parts }),
        );
      } catch (error) {
        if (!(await readContent(user, fileUuid)).equals(data)) throw error;
      }
      return;
    } catch (error) {
      const refused = refusal(error);
      if (!refused || attempt >= 10) throw error;
      attempts.restarts++;
      // A replacement whose initiate answer was lost is in flight without the client's knowing its key: abort it.
      if ((refused.body as { error?: string })?.error === 'invalid_upload_status') {
        await callRetrying('POST', `/v1/drive/files/${fileUuid}/replace/abort`, { token: user.token });
      }
    }
  }
}

/** The file's plaintext, decrypted by the client from the stored ciphertext. */
export async function readContent(user: TestUser, fileUuid: string): Promise<Buffer> {
  return (await step('download', () => downloadChunked({ token: user.token }, fileUuid)))!;
}

/** A unique name for a test file. */
export const fileName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}.bin`;

export interface FeedEntry {
  uuid: string;
  type: 'create' | 'update' | 'delete';
  version?: number;
  trashed?: boolean;
}

/**
 * A sync client polling GET /v1/drive/changes through the faults, keeping its replica (uuid → latest resource) and
 * everything it was handed, to compare with the change log when the run is over.
 */
export class FeedReader {
  readonly seen: FeedEntry[] = [];
  readonly replica = new Map<string, { version: number; trashed: boolean }>();
  private token: string | undefined;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(private readonly user: TestUser) {}

  /** Reads to the end of the feed once. */
  async catchUp(): Promise<void> {
    for (;;) {
      const query = new URLSearchParams({ limit: '1000', ...(this.token ? { since: this.token } : {}) });
      const page = await callRetrying('GET', `/v1/drive/changes?${query}`, { token: this.user.token });
      if (page.status !== 200)
        throw new Error(`changes answered ${page.status}: ${JSON.stringify(page.body)}`);
      for (const change of page.body.changes) {
        const entry: FeedEntry = {
          uuid: change.uuid,
          type: change.type,
          version: change.resource?.version,
          trashed: change.resource?.trashed,
        };
        this.seen.push(entry);
        if (change.type === 'delete') this.replica.delete(change.uuid);
        else
          this.replica.set(change.uuid, {
            version: change.resource.version,
            trashed: change.resource.trashed,
          });
      }
      this.token = page.body.sync_token;
      if (!page.body.has_more) return;
    }
  }

  start(): this {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await this.catchUp();
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();
    return this;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.catchUp();
  }
}
