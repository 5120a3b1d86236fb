// Integration suite global setup: a throw-away stack (deploy/local/ephemeral-stack.ts) for this run only. The fault
// suite (test/faults/setup.ts) starts its own the same way.
// Test files read its configuration through test/support/stack.ts.
import type { TestProject } from 'vitest/node';
import { join } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { startEphemeralStack } from '../../deploy/local/ephemeral-stack.js';
import { workflowBundleCode } from '../../deploy/workflow-bundle.js';
import { freeUdpPort } from '../support/dns-server.js';
import { secretsInLogs } from '../support/log-scan.js';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { createTestCa } from '../support/test-ca.js';

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
  }
}

export interface SuiteOptions {
  label: string;
  /** Temporal keeps its data in a SQLite file, and Temporal and MinIO can be restarted (the fault suite). */
  persistentTemporal?: boolean;
  /** Settings that differ from the integration suite's. */
  env?: Record<string, string>;
}

export default function setup(project: TestProject) {
  return startSuiteStack(project, { label: 'test' });
}

/** Starts a suite's stack and provides its configuration to the test files; answers the teardown. */
export async function startSuiteStack(project: TestProject, options: SuiteOptions) {
  // Webhook receivers are HTTPS on 127.0.0.x:443 with certificates of this CA; names resolve through the tests' DNS.
  const caDir = createTestCa();
  // FOLIO_TEST_TLS=1: the APIs serve HTTPS with the CA's leaf, and the test processes (forked after this) trust the CA.
  const tls = process.env.FOLIO_TEST_TLS === '1';
  if (tls) process.env.NODE_EXTRA_CA_CERTS = join(caDir, 'ca.crt');
  // Traces go to a receiver of the suite's own; only requests that send a sampled traceparent are recorded.
  const spansFile = join(caDir, 'spans.jsonl');
  const otlp = await startOtlpReceiver(spansFile);
  const dnsPort = await freeUdpPort();
  // The workflows are bundled once, as production images ship them: tests that kill or restart workers would otherwise
  // wait on webpack at every start (minutes of CPU on a busy 2-core machine).
  const workflowBundle = join(caDir, 'workflow-bundle.js');
  writeFileSync(workflowBundle, await workflowBundleCode());
  const cluster = process.env.FOLIO_TEST_CLUSTER === '1';
  // Two API processes and two workers (docs/operations.md § Two of each): requests alternate between the APIs.
  const replicas = Number(process.env.FOLIO_TEST_REPLICAS ?? (cluster ? 2 : 1));
  const stack = await startEphemeralStack({
    label: options.label,
    persistentTemporal: options.persistentTemporal,
    preferPrivatePostgres: process.env.FOLIO_TEST_PRIVATE_POSTGRES === '1',
    keep: Boolean(process.env.FOLIO_TEST_KEEP),
    // FOLIO_TEST_CLUSTER=1: the Temporal server's four services on PostgreSQL and a four-drive MinIO instead of the dev
    // server, with two of each Folio process (`npm run test:cluster`, docs/cluster.md).
    cluster,
    replicas,
    tls: tls
      ? { certFile: join(caDir, 'leaf.crt'), keyFile: join(caDir, 'leaf.key'), caFile: join(caDir, 'ca.crt') }
      : undefined,
    env: {
      FOLIO_LOG_LEVEL: process.env.FOLIO_LOG_LEVEL ?? 'info',
      // Durations the spec fixes, shortened so lifecycle tests run in seconds.
      FOLIO_UPLOAD_EXPIRY: process.env.FOLIO_UPLOAD_EXPIRY ?? '8s',
      // Long enough that a test still finds the retired version after a replacement's thumbnail renders on a busy
      // machine (a render took up to 12 s under load), short enough that the two purge tests wait it out.
      FOLIO_FILE_VERSION_RETENTION: process.env.FOLIO_FILE_VERSION_RETENTION ?? '20s',
      // Long enough that no trash-then-restore test meets it on a busy machine; purge tests move trashed_at back.
      FOLIO_DOCUMENT_TRASH_RETENTION: process.env.FOLIO_DOCUMENT_TRASH_RETENTION ?? '1h',
      // Documents' limits, small enough that their tests reach them in a few requests (docs/documents-api.md § Limits).
      FOLIO_DOCUMENT_MAX_BYTES: '500000',
      FOLIO_DOCUMENT_MAX_THREADS: '25',
      FOLIO_LIVE_STREAMS_PER_USER: '4',
      // Public link limits a test reaches in a few dozen requests; only public-links.test.ts calls /s/, each test from
      // its own loopback address, and a day's window refills nothing while it runs.
      FOLIO_PUBLIC_LINK_RATE_PER_IP: '40',
      FOLIO_PUBLIC_LINK_RATE_PER_TOKEN: '15',
      FOLIO_PUBLIC_LINK_RATE_WINDOW: '24h',
      // Shorter than the 30 s default so the slow-loris test ends sooner, yet far above any stall of a busy machine.
      FOLIO_HTTP_HEADERS_TIMEOUT: '15s',
      // Thumbnails: a size cap above the phone photo fixture (1 MB) that a test reaches with a 2 MB file (docs/drive-thumbnails.md § Limits).
      FOLIO_THUMBNAIL_MAX_SOURCE_BYTES: '2000000',
      // Two, so the test of the large-upload limit holds few 20 MB bodies open (docs/drive-encryption.md § 5).
      FOLIO_MAX_CONCURRENT_LARGE_UPLOADS: '2',
      FOLIO_WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s',
      FOLIO_WEBHOOK_TIMEOUT: '2s',
      // Kept connections outlast any gap between two deliveries on a busy machine, so connections.test.ts can count
      // them; the receivers keep theirs as long (test/support/webhook-receivers.ts).
      FOLIO_WEBHOOK_KEEP_ALIVE: '10m',
      FOLIO_WEBHOOK_DISABLE_AFTER: '2',
      FOLIO_WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/24',
      FOLIO_WEBHOOK_DNS_SERVERS: `127.0.0.1:${dnsPort}`,
      NODE_EXTRA_CA_CERTS: join(caDir, 'ca.crt'),
      FOLIO_TEST_CA_DIR: caDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_TRACES_SAMPLER: 'parentbased_always_off',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      FOLIO_WORKFLOW_BUNDLE: workflowBundle,
      ...options.env,
    },
  });
  project.provide('stackEnv', {
    ...stack.env,
    FOLIO_TEST_ROOT: stack.root,
    FOLIO_TEST_SPANS_FILE: spansFile,
    FOLIO_TEST_API_URLS: stack.apiUrls.join(','),
    // How many workers run; each keeps its own connections to receivers (connections.test.ts).
    FOLIO_TEST_WORKERS: String(replicas),
  });
  return async () => {
    // No secret the run created may appear in any log line of its processes (docs/observability.md § Logs).
    let leaks: string[] = [];
    let scanFailure: unknown;
    try {
      leaks = await secretsInLogs(stack.root, stack.env, stack.databaseUrl);
    } catch (error) {
      scanFailure = error;
    } finally {
      await stack.stop();
      otlp.server.close();
      rmSync(caDir, { recursive: true, force: true });
    }
    if (scanFailure || leaks.length) {
      // Vitest reports an error thrown here but still exits 0, so the exit code is set as well.
      process.exitCode = 1;
      throw scanFailure ?? new Error(`Secrets in the logs:\n  ${leaks.slice(0, 50).join('\n  ')}`);
    }
  };
}
