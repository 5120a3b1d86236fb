// After the integration suite: every secret the run issued, looked for in every log line its processes wrote
// (docs/observability.md § Logs). Two sources, because most secrets are stored only as hashes:
// - the secrets the tests obtained, recorded by the support helpers as they see them (the test client's bearer tokens,
//   API answers, the CLI's output, the admin browser's links and cookies) into secrets.jsonl in the stack's folder;
// - the database: data keys and signing secrets unwrapped with the master key, and the hashes of every credential,
//   sign-in link, admin session and public link the run made, matched against each token-shaped string of the logs.
// A finding names the secret's kind and the log line, never the secret.
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { ContentIntegrityError, unwrapDataKey } from '../../domain/drive/crypto.js';
import { openDeviceToken, openPublicLinkToken } from '../../domain/drive/sealed-tokens.js';
import { unwrapSecret } from '../../domain/webhooks/secrets.js';
import { createDb } from '../../platform/database.js';

const secretsFile = (root: string) => join(root, 'secrets.jsonl');

/** Secrets seen by this test file, by value: written out when the file ends (test/support/stack.ts). */
const seen = new Map<string, string>();

const KIND_OF_PREFIX: Record<string, string> = {
  folio_at_: 'bearer token',
  folio_ak_: 'API key',
  folio_sl_: 'admin sign-in link secret',
  folio_as_: 'admin session cookie',
};

/** Records one secret a test obtained, with what it is. */
export function rememberSecret(kind: string, value: string): void {
  if (value) seen.set(value, kind);
}

/** Called by the test clients for each credential they send. */
export function rememberBearerToken(token: string): void {
  rememberSecret(KIND_OF_PREFIX[token.slice(0, 9)] ?? 'bearer token', token);
}

// Folio's secrets as they appear in answers, CLI output, links and cookies.
const PREFIXED = /folio_(?:at|ak|sl|as)_[A-Za-z0-9_-]{43}/g;
const SIGNING_SECRET = /whsec_[A-Za-z0-9_-]{43}/g;
const PUBLIC_LINK_IN_URL = /\/s\/([A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])/gi;
const PUBLIC_LINK_FIELD = /"token"\s*:\s*"([A-Za-z0-9_-]{32})"/g;

/** Records every secret in a text a helper received: an API answer, the CLI's output, a page, a Set-Cookie line. */
export function rememberSecretsIn(text: string): void {
  for (const [token] of text.matchAll(PREFIXED)) rememberBearerToken(token);
  for (const [secret] of text.matchAll(SIGNING_SECRET)) rememberSecret('webhook signing secret', secret);
  for (const [, token] of text.matchAll(PUBLIC_LINK_IN_URL)) rememberSecret('public link token', token!);
  for (const [, token] of text.matchAll(PUBLIC_LINK_FIELD)) rememberSecret('public link token', token!);
}

export function flushSecrets(): void {
  const root = process.env.FOLIO_TEST_ROOT;
  if (!root || seen.size === 0) return;
  appendFileSync(
    secretsFile(root),
    [...seen].map(([value, kind]) => JSON.stringify({ kind, value }) + '\n').join(''),
  );
  seen.clear();
}

interface Secret {
  kind: string;
  /** Every spelling it could be logged in. */
  forms: string[];
}

function unwrapped(unwrap: () => Buffer): Buffer | undefined {
  try {
    return unwrap();
  } catch (error) {
    if (error instanceof ContentIntegrityError) return undefined;
    throw error;
  }
}

const keyForms = (key: Buffer) => [key.toString('base64'), key.toString('base64url'), key.toString('hex')];

function formsOf(kind: string, value: string): string[] {
  return kind === 'webhook signing secret' && value.startsWith('whsec_')
    ? [value, value.slice('whsec_'.length)]
    : [value];
}

async function secretsOfRun(root: string, env: Record<string, string>, knex: Knex): Promise<Secret[]> {
  const masterKey = Buffer.from(env.FOLIO_MASTER_KEY!, 'base64');
  const secrets: Secret[] = [
    { kind: 'master key', forms: keyForms(masterKey) },
    { kind: 'storage secret key', forms: [env.FOLIO_S3_SECRET_KEY!] },
  ];
  if (existsSync(secretsFile(root))) {
    const recorded = new Map<string, string>();
    for (const line of readFileSync(secretsFile(root), 'utf8').split('\n').filter(Boolean)) {
      const { kind, value } = JSON.parse(line) as { kind: string; value: string };
      recorded.set(value, kind);
    }
    for (const [value, kind] of recorded) secrets.push({ kind, forms: formsOf(kind, value) });
  }
  for (const row of await knex('drive_file_versions').select('uuid', 'wrapped_key')) {
    // Some tests insert versions with made-up key bytes (test/integration/drive/delete.test.ts): no secret there.
    const dataKey = unwrapped(() => unwrapDataKey(masterKey, row.uuid, row.wrapped_key));
    if (dataKey) secrets.push({ kind: 'file data key', forms: keyForms(dataKey) });
  }
  for (const row of await knex('webhook_destinations').select(
    'uuid',
    'secret_wrapped',
    'previous_secret_wrapped',
  )) {
    for (const wrapped of [row.secret_wrapped, row.previous_secret_wrapped].filter(Boolean)) {
      secrets.push({
        kind: 'webhook signing secret',
        forms: formsOf('webhook signing secret', unwrapSecret(masterKey, row.uuid, wrapped)),
      });
    }
  }
  // Stored in clear in older schemas; only strings are secrets to look for (an encrypted column is not).
  for (const [table, column, kind] of [
    ['drive_public_links', 'token', 'public link token'],
    ['drive_push_subscriptions', 'device_token', 'device token'],
  ] as const) {
    if (!(await knex.schema.hasColumn(table, column))) continue;
    for (const row of await knex(table).select(column))
      if (typeof row[column] === 'string') secrets.push({ kind, forms: [row[column]] });
  }
  // Sealed under the master key since migration 023 (domain/drive/sealed-tokens.ts): opened to be looked for.
  if (await knex.schema.hasColumn('drive_public_links', 'token_sealed')) {
    for (const row of await knex('drive_public_links').select('uuid', 'token_key_wrapped', 'token_sealed')) {
      const token = unwrapped(() => Buffer.from(openPublicLinkToken(masterKey, row)));
      if (token) secrets.push({ kind: 'public link token', forms: [token.toString('utf8')] });
    }
  }
  if (await knex.schema.hasColumn('drive_push_subscriptions', 'device_token_sealed')) {
    for (const row of await knex('drive_push_subscriptions').select(
      'uuid',
      'device_token_key_wrapped',
      'device_token_sealed',
    )) {
      const token = unwrapped(() => Buffer.from(openDeviceToken(masterKey, row)));
      if (token) secrets.push({ kind: 'device token', forms: [token.toString('utf8')] });
    }
  }
  return secrets;
}

/** SHA-256 hashes (hex) of every secret the run issued that the database keeps only hashed, by kind. */
async function hashedSecretsOfRun(
  knex: Knex,
): Promise<{ prefixed: Map<string, string>; publicLinks: Map<string, string> }> {
  const prefixed = new Map<string, string>();
  for (const [table, column, kind] of [
    ['access_tokens', 'token_hash', 'bearer token'],
    ['api_keys', 'key_hash', 'API key'],
    ['admin_sign_in_links', 'token_hash', 'admin sign-in link secret'],
    ['admin_sessions', 'token_hash', 'admin session cookie'],
  ] as const) {
    for (const row of await knex(table).select(column))
      prefixed.set(Buffer.from(row[column]).toString('hex'), kind);
  }
  const publicLinks = new Map<string, string>();
  if (await knex.schema.hasColumn('drive_public_links', 'token_hash')) {
    for (const row of await knex('drive_public_links').select('token_hash'))
      publicLinks.set(Buffer.from(row.token_hash).toString('hex'), 'public link token');
  }
  return { prefixed, publicLinks };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const PREFIX = 16;
const PUBLIC_LINK_LENGTH = 32;

/** Each secret found in a log file of the run, as "<kind> in <file>:<line>" (none is the only good answer). */
export async function secretsInLogs(
  root: string,
  env: Record<string, string>,
  databaseUrl: string,
): Promise<string[]> {
  const knex = createDb(databaseUrl);
  let secrets: Secret[];
  let hashed: Awaited<ReturnType<typeof hashedSecretsOfRun>>;
  try {
    secrets = await secretsOfRun(root, env, knex);
    hashed = await hashedSecretsOfRun(knex);
  } finally {
    await knex.destroy();
  }
  // One pass over each log, looking up every 16-character window among the secrets' first 16 characters: linear in
  // the logs' size, however many secrets the run made.
  const byPrefix = new Map<string, { kind: string; form: string }[]>();
  for (const secret of secrets) {
    for (const form of secret.forms.filter((text) => text.length >= PREFIX)) {
      const prefix = form.slice(0, PREFIX);
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), { kind: secret.kind, form }]);
    }
  }
  const found: string[] = [];
  // Folio's own processes; the services under it (PostgreSQL, Temporal, MinIO) keep logs of their own.
  for (const file of readdirSync(root).filter((name) => /^(api|worker)\b.*\.log$/.test(name))) {
    const text = readFileSync(join(root, file), 'utf8');
    const lineAt = (at: number) => text.slice(0, at).split('\n').length;
    for (let at = 0; at + PREFIX <= text.length; at++) {
      for (const candidate of byPrefix.get(text.slice(at, at + PREFIX)) ?? []) {
        if (text.startsWith(candidate.form, at)) found.push(`${candidate.kind} in ${file}:${lineAt(at)}`);
      }
    }
    // Token-shaped strings, hashed as the database stores them: finds what no test saw (a link sent by mail, a session).
    for (const match of text.matchAll(PREFIXED)) {
      const kind = hashed.prefixed.get(sha256(match[0]));
      if (kind) found.push(`${kind} (by its stored hash) in ${file}:${lineAt(match.index)}`);
    }
    if (hashed.publicLinks.size) {
      for (const match of text.matchAll(/[A-Za-z0-9_-]{32,}/g)) {
        for (let offset = 0; offset + PUBLIC_LINK_LENGTH <= match[0].length; offset++) {
          const kind = hashed.publicLinks.get(sha256(match[0].slice(offset, offset + PUBLIC_LINK_LENGTH)));
          if (kind) found.push(`${kind} (by its stored hash) in ${file}:${lineAt(match.index + offset)}`);
        }
      }
    }
  }
  return [...new Set(found)];
}
