// Prometheus metrics of one process (docs/observability.md): the series every process keeps, and the small HTTP server
// that serves them on their own port, so the API's listener never exposes them.
import { createServer, type Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Knex } from 'knex';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'folio_' });

/** Labelled by route template (never the raw path: ids and public-link tokens stay out of metrics). */
export const httpRequests = new Counter({
  name: 'folio_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'folio_http_request_duration_seconds',
  help: 'Time from a request arriving to its handler returning (a streamed body may still be flowing), by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const workflowStarts = new Counter({
  name: 'folio_workflow_starts_total',
  help: 'Workflow starts this process asked of Temporal, by workflow type (a signal-with-start counts even when the workflow was already running).',
  labelNames: ['type'] as const,
  registers: [registry],
});

export const webhookAttempts = new Counter({
  name: 'folio_webhook_attempts_total',
  help: 'Webhook delivery attempts this worker made, by outcome (success, or the failure class recorded with the attempt).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Drive changes long-polls (an extension) parked in this process, waiting for a change. */
export const driveChangeWaits = new Gauge({
  name: 'folio_drive_change_waits',
  help: 'GET /v1/drive/changes/wait requests of this process waiting for a change.',
  registers: [registry],
});

/** The process's PostgreSQL pool (tarn, under knex): connections in use, idle, and requests waiting for one. */
export function observeDatabasePool(knex: Knex): void {
  const pool = (
    knex.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }
  ).pool;
  new Gauge({
    name: 'folio_db_pool_connections',
    help: 'PostgreSQL pool connections of this process, by state (used, free, pending acquires).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'used' }, pool.numUsed());
      this.set({ state: 'free' }, pool.numFree());
      this.set({ state: 'pending' }, pool.numPendingAcquires());
    },
  });
}

/**
 * Series read from the database at scrape time, kept by one kind of process only (the API) so that a deployment's
 * processes do not report them twice: storage used per workspace, and transfers staged and not yet settled.
 */
export function observeStoredState(knex: Knex): void {
  new Gauge({
    name: 'folio_workspace_storage_used_bytes',
    help: 'Bytes counted against each workspace storage pool.',
    labelNames: ['workspace'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = (await knex('workspaces').select('uuid', 'storage_used_bytes')) as {
        uuid: string;
        storage_used_bytes: string;
      }[];
      for (const row of rows) this.set({ workspace: row.uuid }, Number(row.storage_used_bytes));
    },
  });
  new Gauge({
    name: 'folio_drive_uploads_in_flight',
    help: 'Drive uploads and replacements staged (initiated, not yet completed, aborted or expired), across the deployment.',
    registers: [registry],
    async collect() {
      const row = await knex('drive_file_versions').where({ status: 'staged' }).count({ n: '*' }).first();
      this.set(Number(row?.n ?? 0));
    },
  });
}

/** Times the loop was held past the threshold of the API's watchdog (api/middleware/request-context.ts). */
export const eventLoopHolds = new Counter({
  name: 'folio_event_loop_holds_total',
  help: 'Times one turn of the event loop took longer than 200 ms (each also logged as "event loop held", naming the requests).',
  registers: [registry],
});

/** Samples of the loop's delay are kept for this long, give or take half. */
const EVENT_LOOP_WINDOW_MS = 60_000;

/**
 * The loop's delay as percentiles over the last 30 to 60 seconds, from perf_hooks.monitorEventLoopDelay. Two monitors
 * take turns being reset every 30 s and the older one is read, so the window does not depend on who scrapes or how
 * often (prom-client's folio_nodejs_eventloop_lag_p99_seconds resets at every scrape instead).
 */
export function observeEventLoopDelay(): void {
  const resolutionMs = 10;
  const monitors = [
    monitorEventLoopDelay({ resolution: resolutionMs }),
    monitorEventLoopDelay({ resolution: resolutionMs }),
  ];
  for (const monitor of monitors) monitor.enable();
  let older = 0;
  setInterval(() => {
    monitors[older]!.reset();
    older = 1 - older;
  }, EVENT_LOOP_WINDOW_MS / 2).unref();
  new Gauge({
    name: 'folio_event_loop_delay_seconds',
    help: 'How late the event loop ran a timer due every 10 ms, as percentiles (quantile 1 is the maximum) over the last 30 to 60 seconds.',
    labelNames: ['quantile'] as const,
    registers: [registry],
    collect() {
      const monitor = monitors[older]!;
      // The monitor records the time between two runs of its timer, the 10 ms included: the delay is what is left.
      // Before its first sample it answers 0 for everything, which then reads as an idle loop.
      const lateness = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - resolutionMs) / 1e3;
      for (const quantile of [0.5, 0.9, 0.99])
        this.set({ quantile: String(quantile) }, lateness(monitor.percentile(quantile * 100)));
      this.set({ quantile: '1' }, lateness(monitor.max));
    },
  });
}

/** Serves GET /metrics on its own port (0: not at all); resolves once listening. */
export async function startMetricsServer(host: string, port: number): Promise<Server | undefined> {
  if (port === 0) return undefined;
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (error: Error) =>
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics failed: ${error.message}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
