// After the integration suite: every secret the run created, looked for in every log line its processes wrote
// (docs/observability.md § Logs). Bearer tokens are recorded by the test client as tests send them (they are stored
// hashed, so the database cannot give them back); the rest is read from the database and unwrapped with the stack's
// master key: file and thumbnail data keys, webhook signing secrets, public-link tokens, device tokens.
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContentIntegrityError, unwrapDataKey } from '../../domain/drive/crypto.js';
import { unwrapSecret } from '../../domain/webhooks/secrets.js';
import { createDb } from '../../platform/database.js';

const tokensFile = (root: string) => join(root, 'bearer-tokens.txt');

const sent = new Set<string>();

/** Called by the test client for each credential it sends; written out when the test file ends. */
export function rememberBearerToken(token: string): void {
  sent.add(token);
}

export function flushBearerTokens(): void {
  const root = process.env.FOLIO_TEST_ROOT;
  if (!root || sent.size === 0) return;
  appendFileSync(tokensFile(root), [...sent].join('\n') + '\n');
  sent.clear();
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

async function secretsOfRun(root: string, env: Record<string, string>, databaseUrl: string): Promise<Secret[]> {
  const masterKey = Buffer.from(env.FOLIO_MASTER_KEY!, 'base64');
  const secrets: Secret[] = [
    { kind: 'master key', forms: keyForms(masterKey) },
    { kind: 'storage secret key', forms: [env.FOLIO_S3_SECRET_KEY!] },
  ];
  if (existsSync(tokensFile(root))) {
    for (const token of new Set(readFileSync(tokensFile(root), 'utf8').split('\n').filter(Boolean))) secrets.push({ kind: 'bearer token', forms: [token] });
  }
  const knex = createDb(databaseUrl);
  try {
    for (const row of await knex('drive_file_versions').select('uuid', 'wrapped_key')) {
      // Some tests insert versions with made-up key bytes (test/integration/drive/delete.test.ts): no secret there.
      const dataKey = unwrapped(() => unwrapDataKey(masterKey, row.uuid, row.wrapped_key));
      if (dataKey) secrets.push({ kind: 'file data key', forms: keyForms(dataKey) });
    }
    for (const row of await knex('webhook_destinations').select('uuid', 'secret_wrapped', 'previous_secret_wrapped')) {
      for (const wrapped of [row.secret_wrapped, row.previous_secret_wrapped].filter(Boolean)) {
        const text = unwrapSecret(masterKey, row.uuid, wrapped);
        secrets.push({ kind: 'webhook signing secret', forms: [text, text.slice('whsec_'.length)] });
      }
    }
    for (const row of await knex('drive_public_links').select('token')) secrets.push({ kind: 'public link token', forms: [row.token] });
    for (const row of await knex('drive_push_subscriptions').select('device_token')) secrets.push({ kind: 'device token', forms: [row.device_token] });
  } finally {
    await knex.destroy();
  }
  return secrets;
}

const PREFIX = 16;

/** Each secret found in a log file of the run, as "<kind> in <file>:<line>" (none is the only good answer). */
export async function secretsInLogs(root: string, env: Record<string, string>, databaseUrl: string): Promise<string[]> {
  // One pass over each log, looking up every 16-character window among the secrets' first 16 characters: linear in
  // the logs' size, however many secrets the run made.
  const byPrefix = new Map<string, { kind: string; form: string }[]>();
  for (const secret of await secretsOfRun(root, env, databaseUrl)) {
    for (const form of secret.forms.filter((text) => text.length >= PREFIX)) {
      const prefix = form.slice(0, PREFIX);
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), { kind: secret.kind, form }]);
    }
  }
  const found: string[] = [];
  // Folio's own processes; the services under it (PostgreSQL, Temporal, MinIO) keep logs of their own.
  for (const file of readdirSync(root).filter((name) => /^(api|worker)\b.*\.log$/.test(name))) {
    const text = readFileSync(join(root, file), 'utf8');
    for (let at = 0; at + PREFIX <= text.length; at++) {
      for (const candidate of byPrefix.get(text.slice(at, at + PREFIX)) ?? []) {
        if (text.startsWith(candidate.form, at)) found.push(`${candidate.kind} in ${file}:${text.slice(0, at).split('\n').length}`);
      }
    }
  }
  return found;
}
