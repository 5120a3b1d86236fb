// HTTP helpers and factories for integration tests: a real API over fetch, and parents created in the database.
import { randomUUID } from 'node:crypto';
import { issueAccessToken } from '../../domain/accounts/credentials.js';
import { rememberBearerToken, rememberSecretsIn } from './log-scan.js';
import { checkApiResponse } from './openapi-check.js';
import { SCOPES, type Scope } from '../../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../../domain/accounts/workspaces.js';
import { db } from '../../platform/database.js';

let turn = 0;

/**
 * The API to send the next request to: with several API processes (FOLIO_TEST_REPLICAS, docs/operations.md), each in
 * turn, as a load balancer would, so a test passes only if no answer depends on which process gave it.
 */
export function apiUrl(): string {
  const urls = process.env.FOLIO_TEST_API_URLS?.split(',') ?? [process.env.FOLIO_API_URL!];
  return urls[turn++ % urls.length]!;
}

/**
 * The first API process, for tests of what each process keeps to itself by design (its /metrics, its cap on live
 * streams per user): they send every request to the one process they observe.
 */
export const firstApiUrl = () => process.env.FOLIO_API_URL!;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(
  method: string,
  path: string,
  options: {
    token?: string;
    json?: unknown;
    body?: RequestInit['body'];
    headers?: Record<string, string>;
    api?: string;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) {
    headers.authorization = `Bearer ${options.token}`;
    rememberBearerToken(options.token);
  }
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch((options.api ?? apiUrl()) + path, { method, headers, body });
  const text = await response.text();
  rememberSecretsIn(text);
  const type = response.headers.get('content-type') ?? '';
  const answer = {
    status: response.status,
    headers: response.headers,
    body: (type.includes('json') && text ? JSON.parse(text) : text) as T,
  };
  // Every answer is held to openapi/folio.yaml: an undeclared status, field or error code fails the test.
  checkApiResponse({ method, path, ...answer });
  return answer;
}

/**
 * fetch() on the API for a test that reads the body itself (bytes, a stream): the status, headers and content type
 * are held to openapi/folio.yaml as call() holds everything; the body is left unread.
 */
export async function fetchApi(path: string, init: RequestInit = {}, api = apiUrl()): Promise<Response> {
  const response = await fetch(api + path, init);
  checkApiResponse({
    method: init.method ?? 'GET',
    path,
    status: response.status,
    headers: response.headers,
  });
  return response;
}

export interface TestWorkspace {
  uuid: string;
}

export async function makeWorkspace(options: { storageLimitBytes?: number } = {}): Promise<TestWorkspace> {
  return createWorkspace(db(), {
    name: `ws-${randomUUID().slice(0, 8)}`,
    storageLimitBytes: options.storageLimitBytes ?? 10 * 1024 ** 3,
  });
}

export interface TestUser {
  uuid: string;
  workspaceUuid: string;
  email: string;
  token: string;
}

/** A user in a workspace (a new one unless given) with a token carrying the given scopes (default: all). */
export async function makeUser(
  options: { workspace?: TestWorkspace; scopes?: Scope[]; firstName?: string; lastName?: string } = {},
): Promise<TestUser> {
  const workspace = options.workspace ?? (await makeWorkspace());
  const email = `${randomUUID()}@example.test`;
  const user = await createUser(db(), {
    workspaceUuid: workspace.uuid,
    email,
    firstName: options.firstName,
    lastName: options.lastName,
  });
  const { access_token } = await issueAccessToken(db(), {
    workspaceUuid: workspace.uuid,
    userUuid: user.uuid,
    scopes: options.scopes ?? [...SCOPES],
    expiresInMs: 3_600_000,
  });
  rememberBearerToken(access_token);
  return { uuid: user.uuid, workspaceUuid: workspace.uuid, email, token: access_token };
}

/** Another token for the same user, with other scopes. */
export async function tokenFor(user: TestUser, scopes: Scope[]): Promise<string> {
  const { access_token } = await issueAccessToken(db(), {
    workspaceUuid: user.workspaceUuid,
    userUuid: user.uuid,
    scopes,
    expiresInMs: 3_600_000,
  });
  rememberBearerToken(access_token);
  return access_token;
}

// --- Drive sharing and feed helpers ------------------------------------------------------------------

/**
 * A completed (or, with uploadStatus, still uploading) file row with its create change, written straight to
 * the database: metadata tests need no bytes. `folderUuid` must be a folder the owner may create in.
 */
export async function insertDriveFile(
  owner: TestUser,
  options: {
    name?: string;
    folderUuid?: string | null;
    uploadStatus?: 'uploading' | 'completed';
    contentType?: string;
    sizeBytes?: number;
  } = {},
): Promise<string> {
  const { appendChange } = await import('../../domain/drive/change-log.js');
  return db().transaction(async (tx) => {
    const parent = options.folderUuid
      ? await tx('drive_items').where({ uuid: options.folderUuid }).first()
      : undefined;
    const [file] = await tx('drive_items')
      .insert({
        workspace_uuid: owner.workspaceUuid,
        owner_uuid: owner.uuid,
        kind: 'file',
        parent_uuid: options.folderUuid ?? null,
        name: options.name ?? `file-${randomUUID().slice(0, 8)}.txt`,
        content_type: options.contentType ?? 'text/plain',
        file_size_bytes: options.sizeBytes ?? 5,
        upload_status: options.uploadStatus ?? 'completed',
        depth: parent ? parent.depth + 1 : 0,
      })
      .returning('*');
    await appendChange(tx, 'create', file);
    return file.uuid as string;
  });
}

/** Shares an item the way `folio share grant` does; returns the grant uuid. */
export async function grant(
  item: { file: string } | { folder: string },
  principal: { user: TestUser } | { workspace: TestWorkspace | string },
  role: 'viewer' | 'commenter' | 'editor' | 'manager',
  status: 'pending' | 'accepted' = 'accepted',
): Promise<string> {
  const { grantAccess } = await import('../../domain/drive/sharing.js');
  const kind = 'file' in item ? 'file' : 'folder';
  const itemUuid = 'file' in item ? item.file : item.folder;
  const to =
    'user' in principal
      ? ({ type: 'user', userUuid: principal.user.uuid } as const)
      : ({
          type: 'workspace',
          workspaceUuid:
            typeof principal.workspace === 'string' ? principal.workspace : principal.workspace.uuid,
        } as const);
  const row = await db().transaction((tx) =>
    grantAccess(tx, { itemUuid, kind, principal: to, role, status }),
  );
  return row.uuid;
}

/** Revokes a grant the way `folio share revoke` does. */
export async function revokeGrantFor(grantUuid: string): Promise<void> {
  const { revokeGrant } = await import('../../domain/drive/sharing.js');
  await db().transaction((tx) => revokeGrant(tx, grantUuid));
}

/** Another member of the given user's workspace, with a token carrying all scopes unless told. */
export async function makeColleague(
  of: TestUser,
  options: { scopes?: Scope[]; firstName?: string; lastName?: string } = {},
): Promise<TestUser> {
  return makeUser({ workspace: { uuid: of.workspaceUuid }, ...options });
}

// --- Documents helpers ---------------------------------------------------------------------------------

/** A new document owned by the user, with its markdown set by one edit when given. Answers the document object. */
export async function makeDocument(
  user: TestUser,
  options: { title?: string; markdown?: string } = {},
): Promise<any> {
  const created = await call('POST', '/v1/documents', {
    token: user.token,
    json: options.title === undefined ? {} : { title: options.title },
  });
  if (created.status !== 201)
    throw new Error(`document create answered ${created.status}: ${JSON.stringify(created.body)}`);
  if (options.markdown !== undefined) {
    const edit = await call('POST', `/v1/documents/${created.body.uuid}/content`, {
      token: user.token,
      json: { operations: [{ type: 'set_document', markdown: options.markdown }] },
    });
    if (edit.status !== 200)
      throw new Error(`set_document answered ${edit.status}: ${JSON.stringify(edit.body)}`);
  }
  return created.body;
}

/** Shares a document with a user (or, with `workspace`, their whole workspace) through the domain grant function. */
export async function shareDocument(
  documentUuid: string,
  grantee: { uuid: string; workspaceUuid: string },
  role: 'viewer' | 'commenter' | 'editor' | 'manager',
  options: { workspace?: boolean; status?: 'pending' | 'accepted' } = {},
): Promise<string> {
  const { grantDocumentAccess } = await import('../../domain/documents/grants.js');
  const { uuid } = await grantDocumentAccess(db(), {
    documentUuid,
    ...(options.workspace
      ? { principalWorkspaceUuid: grantee.workspaceUuid }
      : { principalUserUuid: grantee.uuid }),
    role,
    status: options.status ?? 'accepted',
  });
  return uuid;
}

/** A folder created through the API (POST /v1/drive/folders); its uuid. */
export async function makeFolder(
  user: { token: string },
  name: string,
  parentUuid: string | null = null,
): Promise<string> {
  const response = await call('POST', '/v1/drive/folders', {
    token: user.token,
    json: { name, parent_uuid: parentUuid },
  });
  if (response.status !== 201)
    throw new Error(`creating folder ${name}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.uuid;
}
