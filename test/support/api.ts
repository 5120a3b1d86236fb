// HTTP helpers and factories for integration tests: a real API over fetch, and parents created in the database.
import { randomUUID } from 'node:crypto';
import { issueAccessToken } from '../../domain/accounts/credentials.js';
import { SCOPES, type Scope } from '../../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../../domain/accounts/workspaces.js';
import { db } from '../../platform/database.js';

export const apiUrl = () => process.env.FOLIO_API_URL!;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(apiUrl() + path, { method, headers, body });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, headers: response.headers, body: (type.includes('json') && text ? JSON.parse(text) : text) as T };
}

export interface TestWorkspace {
  uuid: string;
}

export async function makeWorkspace(options: { storageLimitBytes?: number } = {}): Promise<TestWorkspace> {
  return createWorkspace(db(), { name: `ws-${randomUUID().slice(0, 8)}`, storageLimitBytes: options.storageLimitBytes ?? 10 * 1024 ** 3 });
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
  const user = await createUser(db(), { workspaceUuid: workspace.uuid, email, firstName: options.firstName, lastName: options.lastName });
  const { access_token } = await issueAccessToken(db(), {
    workspaceUuid: workspace.uuid,
    userUuid: user.uuid,
    scopes: options.scopes ?? [...SCOPES],
    expiresInMs: 3_600_000,
  });
  return { uuid: user.uuid, workspaceUuid: workspace.uuid, email, token: access_token };
}

/** Another token for the same user, with other scopes. */
export async function tokenFor(user: TestUser, scopes: Scope[]): Promise<string> {
  const { access_token } = await issueAccessToken(db(), { workspaceUuid: user.workspaceUuid, userUuid: user.uuid, scopes, expiresInMs: 3_600_000 });
  return access_token;
}
