// Folio's configuration: every environment variable, its default and its check, validated once at start.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { parseDuration } from './duration.js';

const duration = (fallback: string, { allowZero = false } = {}) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === undefined || ms < 0 || (ms === 0 && !allowZero)) {
        ctx.addIssue({ code: 'custom', message: `"${text}" is not a duration such as 10s, 5m, 24h or 30d` });
        return z.NEVER;
      }
      return ms;
    });

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

const EnvSchema = z.object({
  /** development | test | production. Production refuses to start without FOLIO_MASTER_KEY. */
  FOLIO_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** Interface and port the API listens on. */
  FOLIO_HOST: z.string().min(1).default('127.0.0.1'),
  FOLIO_PORT: port(8080),
  /** A client must send its request headers within this (slow-loris guard) … */
  FOLIO_HTTP_HEADERS_TIMEOUT: duration('30s'),
  /** … and its whole request within this; the largest simple upload (100 MB) must fit at the slowest client speed you serve. */
  FOLIO_HTTP_REQUEST_TIMEOUT: duration('10m'),
  /**
   * Graceful shutdown on SIGTERM (docs/operations.md § Two of each): the API answers /readyz 503 for READY_DELAY while
   * still serving (so a load balancer stops sending it new requests), then stops accepting connections and gives the
   * requests in flight up to GRACE to finish before it closes what is left and exits. The worker gives its running
   * activities GRACE to finish (Temporal's shutdown grace time) before it cancels them.
   */
  FOLIO_SHUTDOWN_READY_DELAY: duration('0s', { allowZero: true }),
  FOLIO_SHUTDOWN_GRACE: duration('30s'),
  /** Large simple uploads (a body over 10 MB, each buffered whole) one API process reads at once; past it 503 with Retry-After. */
  FOLIO_MAX_CONCURRENT_LARGE_UPLOADS: z.coerce.number().int().positive().default(4),
  /**
   * HTTPS served by the API itself: a PEM certificate chain file and its private key file, both or neither. Set, the API
   * speaks TLS 1.2+ with HTTP/2 and HTTP/1.1 (ALPN), sends Strict-Transport-Security, and rereads both files on SIGHUP.
   */
  FOLIO_TLS_CERT: z.string().min(1).optional(),
  FOLIO_TLS_KEY: z.string().min(1).optional(),
  /**
   * Reverse proxies in front of the API whose X-Forwarded-Proto/Host/For to believe: 0 believes none (the default; a
   * client could forge them), N the nearest N hops, so the client address is the one the outermost trusted proxy saw.
   */
  FOLIO_TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** The address clients use to reach the API; public links and document URLs are built from it. */
  FOLIO_PUBLIC_URL: z.url().optional(),
  /** Where the admin app lives (webhook destinations); served by the API process at this URL's path. */
  FOLIO_ADMIN_URL: z.url().optional(),
  /** An admin app session ends after this long without a request, and in any case this long after sign-in. */
  FOLIO_ADMIN_SESSION_IDLE: duration('1h'),
  FOLIO_ADMIN_SESSION_MAX: duration('12h'),
  /** Outgoing mail (sign-in links), as smtp://[user:pass@]host:port or smtps://…; unset, the sign-in page offers no e-mail. */
  FOLIO_SMTP_SEND_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  FOLIO_MAIL_FROM: z.string().min(3).default('Folio <no-reply@folio.local>'),
  /** Where the document editor app lives; a document's url is <FOLIO_DOCS_URL>/<uuid>. */
  FOLIO_DOCS_URL: z.url().default('http://127.0.0.1:8080/docs'),
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  FOLIO_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  /** PostgreSQL connection string. */
  FOLIO_DATABASE_URL: z.string().startsWith('postgres').default('postgres://postgres@127.0.0.1:5432/folio'),

  /** Temporal frontend address, namespace and Folio's task queue. */
  FOLIO_TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  FOLIO_TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  FOLIO_TASK_QUEUE: z.string().min(1).default('folio'),
  /**
   * An external Temporal cluster over TLS (docs/operations.md § Deploy): FOLIO_TEMPORAL_TLS=true with the system's
   * authorities; a CA file for a private one (the Helm chart's); a client certificate and key (PEM files) for mTLS
   * (Temporal Cloud's certificate auth); the name to check the server's certificate against when the address differs.
   * Any of them turns TLS on. FOLIO_TEMPORAL_API_KEY authenticates with an API key (Temporal Cloud) instead, over TLS.
   */
  FOLIO_TEMPORAL_TLS: z.enum(['true', 'false']).default('false'),
  FOLIO_TEMPORAL_TLS_CA: z.string().min(1).optional(),
  FOLIO_TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  FOLIO_TEMPORAL_TLS_KEY: z.string().min(1).optional(),
  FOLIO_TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  FOLIO_TEMPORAL_API_KEY: z.string().min(1).optional(),

  /** S3-compatible object storage (MinIO locally). */
  FOLIO_S3_ENDPOINT: z.url().default('http://127.0.0.1:9000'),
  FOLIO_S3_REGION: z.string().min(1).default('us-east-1'),
  FOLIO_S3_ACCESS_KEY: z.string().min(3).default('folio-dev'),
  FOLIO_S3_SECRET_KEY: z.string().min(8).default('folio-dev-secret'),
  FOLIO_S3_BUCKET: z.string().min(3).default('folio'),

  /** 32 random bytes, base64: wraps every per-file key. Development keeps a generated one in .data/. */
  FOLIO_MASTER_KEY: z.string().optional(),
  FOLIO_MASTER_KEY_FILE: z.string().default('.data/master.key'),
  /**
   * Master-key rotation (docs/operations.md § Master-key rotation): the id (0–255) of FOLIO_MASTER_KEY, which wraps
   * everything new; and the keys it replaces, as id:base64 pairs separated by commas, which only unwrap until the
   * rotation workflow has rewrapped every key under the new one. A key of before rotation is id 0.
   */
  FOLIO_MASTER_KEY_ID: z.coerce.number().int().min(0).max(255).default(0),
  FOLIO_PREVIOUS_MASTER_KEYS: z.string().default(''),

  /** Default storage pool of a new workspace, in bytes (the CLI can set another). */
  FOLIO_DEFAULT_STORAGE_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 1024 ** 3),
  /** Lifetime of an access token issued without --expires-in. */
  FOLIO_TOKEN_TTL: duration('30d'),

  /** Durations the spec fixes; operators and tests may shorten them. */
  FOLIO_UPLOAD_EXPIRY: duration('24h'),
  FOLIO_FILE_VERSION_RETENTION: duration('24h'),
  FOLIO_DOCUMENT_TRASH_RETENTION: duration('30d'),
  /** Documents' limits the spec leaves open (docs/documents-api.md § Limits): the markdown's size in UTF-8 bytes, … */
  FOLIO_DOCUMENT_MAX_BYTES: z.coerce.number().int().positive().default(2_000_000),
  /** … the threads (comments and suggestions, in any state) one document may hold, … */
  FOLIO_DOCUMENT_MAX_THREADS: z.coerce.number().int().positive().default(2_000),
  /** … and the live event streams one user may hold open on one API process. */
  FOLIO_LIVE_STREAMS_PER_USER: z.coerce.number().int().positive().default(20),
  /** Thumbnails (docs/drive-thumbnails.md § Limits): files larger than this (plaintext bytes) have no preview, … */
  FOLIO_THUMBNAIL_MAX_SOURCE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(50 * 1024 * 1024),
  /** … nor do images of more pixels than this (width × height, read from the header before any decode), … */
  FOLIO_THUMBNAIL_MAX_PIXELS: z.coerce.number().int().positive().default(100_000_000),
  /** … nor one that takes longer than this to render; and a worker renders at most this many at once. */
  FOLIO_THUMBNAIL_TIMEOUT: duration('30s'),
  FOLIO_THUMBNAIL_CONCURRENCY: z.coerce.number().int().positive().default(2),
  /** Drive change-log rows older than this are pruned daily; a sync token behind them answers 410 and reseeds. */
  FOLIO_CHANGE_LOG_RETENTION: duration('90d'),
  /** Public links (GET /s/<token>): requests one client address, and one link token, may make per window (token buckets). */
  FOLIO_PUBLIC_LINK_RATE_PER_IP: z.coerce.number().int().positive().default(300),
  FOLIO_PUBLIC_LINK_RATE_PER_TOKEN: z.coerce.number().int().positive().default(1200),
  FOLIO_PUBLIC_LINK_RATE_WINDOW: duration('1m'),
  /** Drive push: changes of a workspace are gathered this long before its devices are pushed (one push per device per window). */
  FOLIO_PUSH_COALESCE_WINDOW: duration('2s'),
  /** … and a workspace's push fan-out workflow ends after this long without changes (the next change starts it again). */
  FOLIO_PUSH_IDLE: duration('10m'),
  /** Per-request timeout of a send to APNs or a Web Push service. */
  FOLIO_PUSH_TIMEOUT: duration('10s'),
  FOLIO_WEBHOOK_RETRY_DELAYS: z
    .string()
    .default('1m,5m,30m,2h')
    .transform((text, ctx) => {
      const delays = text.split(',').map((part) => parseDuration(part));
      if (delays.some((ms) => ms === undefined)) {
        ctx.addIssue({ code: 'custom', message: `"${text}" is not a comma-separated list of durations` });
        return z.NEVER;
      }
      // One attempt per wait plus the first (domain/webhooks/schedule.ts): the spec allows five attempts.
      if (delays.length > 4) {
        ctx.addIssue({ code: 'custom', message: `"${text}" has more than 4 waits (the spec's 5 attempts)` });
        return z.NEVER;
      }
      return delays as number[];
    }),
  FOLIO_WEBHOOK_TIMEOUT: duration('10s'),
  /** How long a connection to a receiver is kept idle for the next attempt; 0s makes a new connection every attempt. */
  FOLIO_WEBHOOK_KEEP_ALIVE: duration('4s', { allowZero: true }),
  FOLIO_WEBHOOK_DISABLE_AFTER: z.coerce.number().int().positive().default(50),
  /** CIDRs a webhook may target although private (for example 127.0.0.0/8); empty refuses them all. */
  FOLIO_WEBHOOK_ALLOWED_PRIVATE_CIDRS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  /** DNS servers (ip or ip:port, comma-separated) that resolve webhook hosts; empty uses the system resolver. */
  FOLIO_WEBHOOK_DNS_SERVERS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  /** How long delivery attempts are kept (purged daily), and how long a rotated-out signing secret still signs. */
  FOLIO_WEBHOOK_HISTORY_RETENTION: duration('30d'),
  FOLIO_WEBHOOK_SECRET_OVERLAP: duration('24h'),
  /**
   * Prometheus metrics (docs/observability.md), each on its own port so they are never reachable through the API's:
   * the API's /metrics, the worker's /metrics, and the Temporal SDK's own worker metrics. 0 turns one off.
   */
  FOLIO_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  FOLIO_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  FOLIO_WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),
  FOLIO_TEMPORAL_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9466),
  /** Inbound SMTP: the port it listens on (0 turns it off), and the largest message it accepts (552 above it). */
  FOLIO_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  FOLIO_SMTP_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
});

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

/** Reads and checks the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  // Parsed once per process: zod's compiled fast path for an object this wide costs more to build than one parse
  // saves (a CLI command's start, docs/benchmarks.md § 2026-11-29 (session 26)).
  const parsed = EnvSchema.safeParse(env, { jitless: true });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const tls = tlsFiles(values.FOLIO_TLS_CERT, values.FOLIO_TLS_KEY);
  const scheme = tls ? 'https' : 'http';
  const publicUrl = (
    values.FOLIO_PUBLIC_URL ?? `${scheme}://${values.FOLIO_HOST}:${values.FOLIO_PORT}`
  ).replace(/\/$/, '');
  return {
    env: values.FOLIO_ENV,
    host: values.FOLIO_HOST,
    port: values.FOLIO_PORT,
    http: {
      headersTimeoutMs: values.FOLIO_HTTP_HEADERS_TIMEOUT,
      requestTimeoutMs: values.FOLIO_HTTP_REQUEST_TIMEOUT,
      maxConcurrentLargeUploads: values.FOLIO_MAX_CONCURRENT_LARGE_UPLOADS,
    },
    tls,
    trustProxyHops: values.FOLIO_TRUST_PROXY,
    shutdown: { readyDelayMs: values.FOLIO_SHUTDOWN_READY_DELAY, graceMs: values.FOLIO_SHUTDOWN_GRACE },
    publicUrl,
    docsUrl: values.FOLIO_DOCS_URL.replace(/\/$/, ''),
    admin: {
      url: (values.FOLIO_ADMIN_URL ?? `${publicUrl}/admin`).replace(/\/$/, ''),
      sessionIdleMs: values.FOLIO_ADMIN_SESSION_IDLE,
      sessionMaxMs: values.FOLIO_ADMIN_SESSION_MAX,
    },
    mailOut: { url: values.FOLIO_SMTP_SEND_URL, from: values.FOLIO_MAIL_FROM },
    logLevel: values.FOLIO_LOG_LEVEL,
    databaseUrl: values.FOLIO_DATABASE_URL,
    temporal: {
      address: values.FOLIO_TEMPORAL_ADDRESS,
      namespace: values.FOLIO_TEMPORAL_NAMESPACE,
      taskQueue: values.FOLIO_TASK_QUEUE,
      tls: temporalTls(values),
      apiKey: values.FOLIO_TEMPORAL_API_KEY,
    },
    storage: {
      endpoint: values.FOLIO_S3_ENDPOINT,
      region: values.FOLIO_S3_REGION,
      accessKey: values.FOLIO_S3_ACCESS_KEY,
      secretKey: values.FOLIO_S3_SECRET_KEY,
      bucket: values.FOLIO_S3_BUCKET,
    },
    masterKey: masterKeyRing(
      values.FOLIO_MASTER_KEY_ID,
      resolveMasterKey(values.FOLIO_ENV, values.FOLIO_MASTER_KEY, values.FOLIO_MASTER_KEY_FILE),
      values.FOLIO_PREVIOUS_MASTER_KEYS,
    ),
    defaultStorageLimit: values.FOLIO_DEFAULT_STORAGE_LIMIT,
    tokenTtlMs: values.FOLIO_TOKEN_TTL,
    uploadExpiryMs: values.FOLIO_UPLOAD_EXPIRY,
    fileVersionRetentionMs: values.FOLIO_FILE_VERSION_RETENTION,
    documentTrashRetentionMs: values.FOLIO_DOCUMENT_TRASH_RETENTION,
    changeLogRetentionMs: values.FOLIO_CHANGE_LOG_RETENTION,
    publicLinkRate: {
      perIp: values.FOLIO_PUBLIC_LINK_RATE_PER_IP,
      perToken: values.FOLIO_PUBLIC_LINK_RATE_PER_TOKEN,
      windowMs: values.FOLIO_PUBLIC_LINK_RATE_WINDOW,
    },
    thumbnails: {
      maxSourceBytes: values.FOLIO_THUMBNAIL_MAX_SOURCE_BYTES,
      maxPixels: values.FOLIO_THUMBNAIL_MAX_PIXELS,
      timeoutMs: values.FOLIO_THUMBNAIL_TIMEOUT,
      concurrency: values.FOLIO_THUMBNAIL_CONCURRENCY,
    },
    documentLimits: {
      maxBytes: values.FOLIO_DOCUMENT_MAX_BYTES,
      maxThreads: values.FOLIO_DOCUMENT_MAX_THREADS,
      liveStreamsPerUser: values.FOLIO_LIVE_STREAMS_PER_USER,
    },
    push: {
      coalesceWindowMs: values.FOLIO_PUSH_COALESCE_WINDOW,
      idleMs: values.FOLIO_PUSH_IDLE,
      timeoutMs: values.FOLIO_PUSH_TIMEOUT,
    },
    webhook: {
      retryDelaysMs: values.FOLIO_WEBHOOK_RETRY_DELAYS,
      timeoutMs: values.FOLIO_WEBHOOK_TIMEOUT,
      keepAliveMs: values.FOLIO_WEBHOOK_KEEP_ALIVE,
      disableAfter: values.FOLIO_WEBHOOK_DISABLE_AFTER,
      allowedPrivateCidrs: values.FOLIO_WEBHOOK_ALLOWED_PRIVATE_CIDRS,
      dnsServers: values.FOLIO_WEBHOOK_DNS_SERVERS,
      historyRetentionMs: values.FOLIO_WEBHOOK_HISTORY_RETENTION,
      secretOverlapMs: values.FOLIO_WEBHOOK_SECRET_OVERLAP,
    },
    smtp: { port: values.FOLIO_SMTP_PORT, maxBytes: values.FOLIO_SMTP_MAX_BYTES },
    metrics: {
      host: values.FOLIO_METRICS_HOST,
      apiPort: values.FOLIO_METRICS_PORT,
      workerPort: values.FOLIO_WORKER_METRICS_PORT,
      temporalPort: values.FOLIO_TEMPORAL_METRICS_PORT,
    },
  };
}

export interface TemporalTls {
  serverRootCACertificate?: Buffer;
  clientCertPair?: { crt: Buffer; key: Buffer };
  serverNameOverride?: string;
}

/** The Temporal connection's TLS, read from its files now; undefined is plain TCP (the local dev server). */
function temporalTls(values: z.infer<typeof EnvSchema>): TemporalTls | undefined {
  const {
    FOLIO_TEMPORAL_TLS_CA: ca,
    FOLIO_TEMPORAL_TLS_CERT: cert,
    FOLIO_TEMPORAL_TLS_KEY: key,
    FOLIO_TEMPORAL_TLS_SERVER_NAME: serverName,
  } = values;
  if (
    values.FOLIO_TEMPORAL_TLS !== 'true' &&
    !ca &&
    !cert &&
    !key &&
    !serverName &&
    !values.FOLIO_TEMPORAL_API_KEY
  )
    return undefined;
  const problems: string[] = [];
  if (Boolean(cert) !== Boolean(key))
    problems.push(
      `  ${cert ? 'FOLIO_TEMPORAL_TLS_KEY' : 'FOLIO_TEMPORAL_TLS_CERT'}: required with ${cert ? 'FOLIO_TEMPORAL_TLS_CERT' : 'FOLIO_TEMPORAL_TLS_KEY'} (mTLS needs both)`,
    );
  const read = (name: string, path: string | undefined) => {
    if (!path) return undefined;
    if (!existsSync(path)) {
      problems.push(`  ${name}: no file at ${path}`);
      return undefined;
    }
    return readFileSync(path);
  };
  const caPem = read('FOLIO_TEMPORAL_TLS_CA', ca);
  const certPem = read('FOLIO_TEMPORAL_TLS_CERT', cert);
  const keyPem = read('FOLIO_TEMPORAL_TLS_KEY', key);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    ...(caPem ? { serverRootCACertificate: caPem } : {}),
    ...(certPem && keyPem ? { clientCertPair: { crt: certPem, key: keyPem } } : {}),
    ...(serverName ? { serverNameOverride: serverName } : {}),
  };
}

// Both files or neither, and readable now: a typo in a path stops the process at start, not at the first SIGHUP.
function tlsFiles(
  cert: string | undefined,
  key: string | undefined,
): { certFile: string; keyFile: string } | undefined {
  if (!cert && !key) return undefined;
  const problems: string[] = [];
  if (!cert || !key)
    problems.push(
      `  ${cert ? 'FOLIO_TLS_KEY' : 'FOLIO_TLS_CERT'}: required when ${cert ? 'FOLIO_TLS_CERT' : 'FOLIO_TLS_KEY'} is set`,
    );
  for (const [name, path] of [
    ['FOLIO_TLS_CERT', cert],
    ['FOLIO_TLS_KEY', key],
  ] as const) {
    if (path && !existsSync(path)) problems.push(`  ${name}: no file at ${path}`);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return { certFile: resolve(cert!), keyFile: resolve(key!) };
}

function decodeMasterKey(text: string, variable = 'FOLIO_MASTER_KEY'): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) {
    throw new ConfigError(`Invalid configuration:\n  ${variable}: must be 32 bytes, base64-encoded`);
  }
  return key;
}

/**
 * The master key that wraps every per-file key (the bytes themselves, so it goes wherever a key does) with its id, and
 * the previous keys that still unwrap during a rotation (docs/operations.md § Master-key rotation). A plain Buffer is
 * key id 0 alone. domain/drive/crypto.ts wraps and unwraps with it.
 */
export type MasterKey = Buffer & {
  readonly keyId?: number;
  readonly previousKeys?: ReadonlyMap<number, Buffer>;
};

/** The current key with its id, and the previous ones that still unwrap. */
function masterKeyRing(currentId: number, current: Buffer, previousText: string): MasterKey {
  const previousKeys = new Map<number, Buffer>();
  for (const entry of previousText
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^(\d{1,3}):(.+)$/.exec(entry);
    const id = match ? Number(match[1]) : NaN;
    if (!match || id > 255)
      throw new ConfigError(
        'Invalid configuration:\n  FOLIO_PREVIOUS_MASTER_KEYS: each entry is <id 0-255>:<32 bytes, base64>',
      );
    if (id === currentId || previousKeys.has(id))
      throw new ConfigError(
        `Invalid configuration:\n  FOLIO_PREVIOUS_MASTER_KEYS: key id ${id} is given twice`,
      );
    previousKeys.set(id, decodeMasterKey(match[2]!, 'FOLIO_PREVIOUS_MASTER_KEYS'));
  }
  return Object.assign(current, { keyId: currentId, previousKeys });
}

// Production must be given its key: a generated one would make every stored file unreadable on the next host.
function resolveMasterKey(env: string, value: string | undefined, file: string): Buffer {
  if (value) return decodeMasterKey(value);
  if (env === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  FOLIO_MASTER_KEY: required in production (32 bytes, base64)',
    );
  }
  const path = resolve(file);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  }
  return decodeMasterKey(readFileSync(path, 'utf8'));
}

let current: Config | undefined;

/** The process-wide configuration, loaded on first use. */
export function config(): Config {
  current ??= loadConfig();
  return current;
}
