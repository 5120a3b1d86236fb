// The API a benchmark measures: a temporary stack of its own (like the integration suite), or a running one named
// by FOLIO_BENCH_API_URL and FOLIO_BENCH_TOKEN (FOLIO_S3_* then reach its MinIO). Either way a user token with
// every scope and the storage the API writes to.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEphemeralStack } from '../deploy/local/ephemeral-stack.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { SCOPES } from '../domain/accounts/scopes.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { createDb } from '../platform/database.js';
import { profileEnv } from './support.js';

export interface BenchTarget {
  apiUrl: string;
  token: string;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  /** The stack's Folio configuration (empty for a running API): what an operator command needs. */
  env: Record<string, string>;
  /** The API process of a stack of its own, for its CPU time and memory (/proc); absent for a running API. */
  apiPid?: number;
  /** The MinIO process of a stack of its own, for its CPU time; absent for a running API. */
  minioPid?: number;
  stop(): Promise<void>;
}

/** The pid of the MinIO server listening on `endpoint`'s port (its command line names the address), if any. */
export function minioPidOf(endpoint: string): number | undefined {
  const address = ['', '--address', `127.0.0.1:${new URL(endpoint).port}`, ''].join('\0');
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.split('\0')[0]!.endsWith('minio') && cmdline.includes(address)) return Number(entry);
    } catch {
      // The process ended since the listing.
    }
  }
  return undefined;
}

async function startStack(label: string, options: { worker?: boolean }): Promise<BenchTarget> {
  const stack = await startEphemeralStack({
    label,
    keep: Boolean(process.env.FOLIO_BENCH_KEEP),
    worker: options.worker,
    env: { FOLIO_LOG_LEVEL: process.env.FOLIO_LOG_LEVEL ?? 'warn', ...profileEnv() },
  });
  const knex = createDb(stack.databaseUrl);
  try {
    const workspace = await createWorkspace(knex, { name: label, storageLimitBytes: 64 * 1024 ** 3 });
    const user = await createUser(knex, {
      workspaceUuid: workspace.uuid,
      email: `${label}-${randomUUID()}@example.test`,
    });
    const { access_token } = await issueAccessToken(knex, {
      workspaceUuid: workspace.uuid,
      userUuid: user.uuid,
      scopes: [...SCOPES],
      expiresInMs: 86_400_000,
    });
    const s3 = {
      endpoint: stack.env.FOLIO_S3_ENDPOINT!,
      accessKey: stack.env.FOLIO_S3_ACCESS_KEY!,
      secretKey: stack.env.FOLIO_S3_SECRET_KEY!,
      bucket: stack.env.FOLIO_S3_BUCKET!,
      region: 'us-east-1',
    };
    const apiPid = Number(readFileSync(join(stack.root, 'api.pid'), 'utf8').split('\n')[0]);
    const minioPid = minioPidOf(s3.endpoint);
    return {
      apiUrl: stack.apiUrl,
      token: access_token,
      s3,
      env: stack.env,
      apiPid,
      minioPid,
      stop: stack.stop,
    };
  } catch (error) {
    await stack.stop();
    throw error;
  } finally {
    await knex.destroy();
  }
}

function runningTarget(): BenchTarget {
  return {
    apiUrl: process.env.FOLIO_BENCH_API_URL!,
    token: process.env.FOLIO_BENCH_TOKEN!,
    s3: {
      endpoint: process.env.FOLIO_S3_ENDPOINT ?? 'http://127.0.0.1:9000',
      accessKey: process.env.FOLIO_S3_ACCESS_KEY ?? 'folio-dev',
      secretKey: process.env.FOLIO_S3_SECRET_KEY ?? 'folio-dev-secret',
      bucket: process.env.FOLIO_S3_BUCKET ?? 'folio',
      region: process.env.FOLIO_S3_REGION ?? 'us-east-1',
    },
    env: {},
    stop: async () => undefined,
  };
}

export const benchTarget = (label: string, options: { worker?: boolean } = {}): Promise<BenchTarget> =>
  process.env.FOLIO_BENCH_API_URL && process.env.FOLIO_BENCH_TOKEN
    ? Promise.resolve(runningTarget())
    : startStack(label, options);
