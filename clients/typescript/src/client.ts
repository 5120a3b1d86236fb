// FolioClient: typed calls for Drive and Documents over one Http, with the chunked transfer built in.
import { rm } from 'node:fs/promises';
import { Http, type HttpOptions } from './http.js';
import { FolioApi } from './operations.js';
import {
  downloadChunks,
  readState,
  sendParts,
  StateWriter,
  type ByteSource,
  type DownloadOptions,
  type TransferOptions,
} from './transfer.js';
import type {
  ChangesPage,
  CompletedPart,
  CompleteRequest,
  CreateFolderRequest,
  DocumentContent,
  DriveFile,
  DriveFolder,
  DriveList,
  EditRequest,
  ReplaceInitiate,
  ReplaceInitiateRequest,
  UploadInitiate,
  UploadInitiateRequest,
  UploadState,
  UploadStatus,
} from './types.js';

export interface FolioClientOptions extends HttpOptions {
  /** Parts in flight for chunked transfers, unless a call says otherwise (default 4). */
  window?: number;
  /**
   * Uploads and replacements up to this size send their content hash with complete (default 2 GiB; Infinity for all,
   * 0 for none). The service then reads the whole object back before it answers, which takes time in proportion to
   * the size (README § Content hash), longer than proxies and fetch wait for an answer once files grow large.
   */
  contentHashMaxBytes?: number;
}

/** README § Content hash: complete's read-back stays well within a minute up to here on the machines measured. */
export const DEFAULT_CONTENT_HASH_MAX_BYTES = 2 * 1024 ** 3;

export interface UploadInput {
  name: string;
  contentType: string;
  size: number;
  source: ByteSource;
  folderUuid?: string | null;
}

export interface ReplaceInput {
  size: number;
  source: ByteSource;
  contentType?: string;
  /**
   * Sent as If-Match: the file's ETag (nothing about it changed since) or `contentTag(file.ctag)` (its bytes did not).
   * Otherwise the initiate throws ApiError 412 `precondition_failed`, whose body's `current` is the file now.
   */
  ifMatch?: string;
}

/** A file's content tag for `ifMatch`: `"ctag-<ctag>"` (docs/extensions.md § Conditional writes). */
export const contentTag = (ctag: number): string => `"ctag-${ctag}"`;

const q = encodeURIComponent;

export class FolioClient {
  readonly http: Http;
  /** Every operation of the API, one typed method each, generated from the OpenAPI document (README § Every operation). */
  readonly api: FolioApi;

  constructor(private readonly options: FolioClientOptions) {
    this.http = new Http(options);
    this.api = new FolioApi(this.http);
  }

  /** Any API call, for what the typed methods do not cover. */
  request<T = unknown>(
    method: string,
    path: string,
    json?: unknown,
    options: { retry?: boolean; signal?: AbortSignal } = {},
  ): Promise<T> {
    return this.http.request<T>(method, path, json, options);
  }

  // --- Drive metadata -------------------------------------------------------------------------------

  listFolder(folderUuid?: string | null): Promise<DriveList> {
    return this.http.request(
      'GET',
      `/v1/drive/files${folderUuid ? `?folder_uuid=${q(folderUuid)}` : ''}`,
      undefined,
      { retry: true },
    );
  }

  getFile(uuid: string): Promise<DriveFile> {
    return this.http.request('GET', `/v1/drive/files/${q(uuid)}`, undefined, { retry: true });
  }

  getFolder(uuid: string): Promise<DriveFolder> {
    return this.http.request('GET', `/v1/drive/folders/${q(uuid)}`, undefined, { retry: true });
  }

  createFolder(body: CreateFolderRequest): Promise<DriveFolder> {
    return this.http.request('POST', '/v1/drive/folders', body);
  }

  /** One page of the changes feed; a 410 comes as ApiError with code `sync_token_invalid`. */
  changes(since?: string, limit?: number): Promise<ChangesPage> {
    return this.http.request('GET', changesPath(since, limit), undefined, { retry: true });
  }

  /**
   * The changes feed from `since` (without it, a first sync) to its end, page by page, in order. Each next page is
   * asked for as soon as the answer's headers name it (Link rel="next"), so the service prepares it while this client
   * reads and parses the page before; it is used only when it starts at the sync_token of the page read (a retried
   * page may end elsewhere), otherwise it is dropped and asked for again. Leaving the loop early cancels it.
   */
  async *changePages(since?: string, limit?: number): AsyncGenerator<ChangesPage, void, undefined> {
    const ask = (token: string | undefined): PageAsked => {
      const cancel = new AbortController();
      let announce!: (next: string | undefined) => void;
      const next = new Promise<string | undefined>((resolve) => (announce = resolve));
      const page = this.http.request<ChangesPage>('GET', changesPath(token, limit), undefined, {
        retry: true,
        signal: cancel.signal,
        onHeaders: (headers) => announce(nextSince(headers.get('link'))),
      });
      // A page asked for ahead and then dropped or cancelled is never awaited: its failure is nobody's to report.
      page.catch(() => announce(undefined));
      return { since: token, page, next, cancel };
    };
    let current = ask(since);
    let ahead: Promise<PageAsked | undefined> | undefined;
    try {
      for (;;) {
        ahead = current.next.then((token) => (token === undefined ? undefined : ask(token)));
        const page = await current.page;
        yield page;
        if (!page.has_more) return;
        const following = await ahead;
        ahead = undefined;
        if (following?.since === page.sync_token) current = following;
        else {
          following?.cancel.abort();
          current = ask(page.sync_token);
        }
      }
    } finally {
      current.cancel.abort();
      void ahead?.then((following) => following?.cancel.abort());
    }
  }

  // --- Chunked transfer ------------------------------------------------------------------------------

  /** Upload initiate (not retried: a second initiate would stage a second file). */
  initiateUpload(input: Omit<UploadInput, 'source'>): Promise<UploadInitiate> {
    const body: UploadInitiateRequest = {
      name: input.name,
      content_type: input.contentType,
      plaintext_size_bytes: input.size,
      ...(input.folderUuid !== undefined ? { folder_uuid: input.folderUuid } : {}),
    };
    return this.http.request('POST', '/v1/drive/uploads', body);
  }

  initiateReplace(fileUuid: string, input: Omit<ReplaceInput, 'source'>): Promise<ReplaceInitiate> {
    const body: ReplaceInitiateRequest = {
      plaintext_size_bytes: input.size,
      ...(input.contentType ? { content_type: input.contentType } : {}),
    };
    return this.http.request(
      'POST',
      `/v1/drive/files/${q(fileUuid)}/replace`,
      body,
      input.ifMatch ? { headers: { 'if-match': input.ifMatch } } : {},
    );
  }

  /** Initiate, every part, complete. With `stateFile`, an interruption can be resumed by resumeUpload. */
  async upload(input: UploadInput, options: TransferOptions = {}): Promise<DriveFile> {
    const initiate = await this.initiateUpload(input);
    // The first version of a file takes the file's uuid (docs/drive-encryption.md § 2).
    const state = newState('upload', initiate.file_uuid, initiate.file_uuid, initiate, input.size);
    return this.finish(state, input.source, options);
  }

  /** Replace initiate, every part, complete: the new version goes live on completion. */
  async replace(fileUuid: string, input: ReplaceInput, options: TransferOptions = {}): Promise<DriveFile> {
    const initiate = await this.initiateReplace(fileUuid, input);
    return this.finish(
      newState('replace', fileUuid, initiate.version_uuid, initiate, input.size),
      input.source,
      options,
    );
  }

  /** Continues an upload or replacement from its resume file: only the parts it does not list are sent. */
  async resume(
    stateFile: string,
    source: ByteSource,
    options: Omit<TransferOptions, 'stateFile'> = {},
  ): Promise<DriveFile> {
    return this.finish(await readState(stateFile), source, { ...options, stateFile });
  }

  /** Sends the parts a staged transfer still lacks; answers every part for complete, and the source's content hash. */
  async sendParts(
    state: UploadState,
    source: ByteSource,
    options: TransferOptions = {},
  ): Promise<{ parts: CompletedPart[]; contentHash: string }> {
    const sent = await sendParts(
      this.http,
      `${transferPath(state)}/part_urls`,
      new StateWriter(options.stateFile, state),
      source,
      this.withWindow(options),
    );
    return { parts: sent.parts, contentHash: sent.contentHash! };
  }

  /**
   * Completes a staged transfer. With `contentHash` (what sendParts answers) the service checks the stored plaintext
   * against it and records it; a mismatch is ApiError `content_hash_mismatch` (docs/extensions.md § Content hash).
   */
  complete(state: UploadState, parts: CompletedPart[], contentHash?: string): Promise<DriveFile> {
    const body: CompleteRequest = {
      parts,
      ...(contentHash !== undefined ? { content_hash: contentHash } : {}),
    };
    return this.http.request('POST', `${transferPath(state)}/complete`, body, { retry: true });
  }

  /**
   * A staged upload as the service holds it: the parts in storage, each with its etag (a Folio extension,
   * docs/extensions.md § Upload session status). Only for an upload of a new file, not a replacement.
   */
  uploadStatus(fileUuid: string): Promise<UploadStatus> {
    return this.http.request('GET', `/v1/drive/uploads/${q(fileUuid)}`, undefined, { retry: true });
  }

  /** Gives up a staged transfer and removes its resume file. */
  async abort(state: UploadState, stateFile?: string): Promise<void> {
    await this.http.request('POST', `${transferPath(state)}/abort`, undefined, { retry: true });
    if (stateFile) await rm(stateFile, { force: true });
  }

  /** Chunks in order to `sink`; answers the plaintext size. */
  async downloadTo(
    fileUuid: string,
    sink: (plaintext: Buffer, index: number) => void | Promise<void>,
    options: DownloadOptions = {},
  ): Promise<number> {
    return (await downloadChunks(this.http, fileUuid, sink, this.withWindow(options))).bytes;
  }

  /** The whole plaintext in memory: for small files; use downloadTo for large ones. */
  async download(fileUuid: string, options: DownloadOptions = {}): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.downloadTo(fileUuid, (plaintext) => void chunks.push(plaintext), options);
    return Buffer.concat(chunks);
  }

  // --- Documents --------------------------------------------------------------------------------------

  documentContent(uuid: string): Promise<DocumentContent> {
    return this.http.request('GET', `/v1/documents/${q(uuid)}/content`, undefined, { retry: true });
  }

  /** An edit; retried on 5xx only with a batch_id, which the server applies once however often it arrives. */
  editDocument(uuid: string, body: EditRequest): Promise<DocumentContent> {
    return this.http.request('POST', `/v1/documents/${q(uuid)}/content`, body, {
      retry: body.batch_id !== undefined,
    });
  }

  private async finish(state: UploadState, source: ByteSource, options: TransferOptions): Promise<DriveFile> {
    const writer = new StateWriter(options.stateFile, state);
    await writer.save();
    const hashing =
      state.plaintext_size_bytes <= (this.options.contentHashMaxBytes ?? DEFAULT_CONTENT_HASH_MAX_BYTES);
    const { parts, contentHash } = await sendParts(
      this.http,
      `${transferPath(state)}/part_urls`,
      writer,
      source,
      this.withWindow(options),
      hashing,
    );
    const file = await this.complete(state, parts, contentHash);
    await writer.remove();
    return file;
  }

  private withWindow<T extends { window?: number }>(options: T): T {
    return { ...options, window: options.window ?? this.options.window };
  }
}

function newState(
  kind: UploadState['kind'],
  fileUuid: string,
  versionUuid: string,
  initiate: UploadInitiate | ReplaceInitiate,
  size: number,
): UploadState {
  return {
    format: 'folio-upload-state-v1',
    kind,
    file_uuid: fileUuid,
    version_uuid: versionUuid,
    data_key: initiate.data_key,
    chunk_size_bytes: initiate.chunk_size_bytes,
    chunk_count: initiate.chunk_count,
    plaintext_size_bytes: size,
    parts: {},
  };
}

const transferPath = (state: UploadState) =>
  state.kind === 'upload'
    ? `/v1/drive/uploads/${q(state.file_uuid)}`
    : `/v1/drive/files/${q(state.file_uuid)}/replace`;

/** A changes page asked for: the token it starts at, its answer, and the next page's token once its headers name one. */
interface PageAsked {
  since: string | undefined;
  page: Promise<ChangesPage>;
  next: Promise<string | undefined>;
  cancel: AbortController;
}

function changesPath(since: string | undefined, limit: number | undefined): string {
  const query = new URLSearchParams();
  if (since !== undefined) query.set('since', since);
  if (limit !== undefined) query.set('limit', String(limit));
  const text = query.toString();
  return `/v1/drive/changes${text ? `?${text}` : ''}`;
}

/** The since of a `Link: <…>; rel="next"` header, or undefined without one. */
function nextSince(link: string | null): string | undefined {
  const target = link && /^\s*<([^>]*)>\s*;\s*rel="?next"?\s*$/i.exec(link)?.[1];
  return target
    ? (new URL(target, 'http://folio.invalid').searchParams.get('since') ?? undefined)
    : undefined;
}
