// Prometheus metrics (docs/observability.md): the API's and the worker's /metrics on their own ports, and the Temporal
// SDK's worker metrics on a third, scraped as Prometheus would after a few requests.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';
import { call, firstApiUrl, makeUser } from '../../support/api.js';
import { initiateUpload } from '../../support/folio-client.js';
import { simpleUpload } from '../../support/drive-files.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(portVariable: string): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(`http://127.0.0.1:${process.env[portVariable]}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await response.text();
  return { text, samples: parseExposition(text) };
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );

describe('metrics', () => {
  it('the API counts and times requests by route template and status, never by raw path', async () => {
    const user = await makeUser();
    const file = await simpleUpload(user, 'counted.bin', randomBytes(100));
    // Each API process counts its own requests: these go to the one whose /metrics is scraped.
    const api = firstApiUrl();
    for (let i = 0; i < 3; i++)
      expect((await call('GET', `/v1/drive/files/${file.uuid}`, { token: user.token, api })).status).toBe(
        200,
      );
    expect((await call('GET', '/no/such/route', { api })).status).toBe(404);

    const { text, samples } = await scrape('FOLIO_METRICS_PORT');
    const route = '/v1/drive/files/:uuid';
    const [count] = find(samples, 'folio_http_requests_total', { method: 'GET', route, status: '200' });
    expect(count!.value).toBeGreaterThanOrEqual(3);
    const [observed] = find(samples, 'folio_http_request_duration_seconds_count', {
      method: 'GET',
      route,
      status: '200',
    });
    expect(observed!.value).toBeGreaterThanOrEqual(3);
    expect(find(samples, 'folio_http_request_duration_seconds_bucket', { route, le: '+Inf' })).not.toEqual(
      [],
    );
    expect(
      find(samples, 'folio_http_requests_total', { route: 'unmatched', status: '404' })[0]!.value,
    ).toBeGreaterThanOrEqual(1);
    // Ids are values, not labels: the file's uuid appears nowhere in the exposition.
    expect(text).not.toContain(file.uuid);
  });

  it("the API reports its PostgreSQL pool, each workspace pool's bytes and the uploads in flight", async () => {
    const user = await makeUser();
    await simpleUpload(user, 'weighed.bin', randomBytes(1234));
    const { samples } = await scrape('FOLIO_METRICS_PORT');
    for (const state of ['used', 'free', 'pending'])
      expect(find(samples, 'folio_db_pool_connections', { state })).toHaveLength(1);
    const stored = await db()('workspaces').where({ uuid: user.workspaceUuid }).first('storage_used_bytes');
    expect(
      find(samples, 'folio_workspace_storage_used_bytes', { workspace: user.workspaceUuid })[0]!.value,
    ).toBe(Number(stored.storage_used_bytes));
    expect(find(samples, 'folio_process_cpu_seconds_total')).toHaveLength(1);
    // A chunked upload initiated and not completed is in flight until it completes, is aborted or expires.
    await initiateUpload(
      { token: user.token },
      { name: 'pending.bin', contentType: 'application/octet-stream', size: 10 },
    );
    expect(
      find((await scrape('FOLIO_METRICS_PORT')).samples, 'folio_drive_uploads_in_flight')[0]!.value,
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts the workflow starts a request asked for, by type', async () => {
    const user = await makeUser();
    const before =
      find((await scrape('FOLIO_METRICS_PORT')).samples, 'folio_workflow_starts_total', {
        type: 'trashCascadeWorkflow',
      })[0]?.value ?? 0;
    const folder = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Counted' } });
    const trashed = await call('POST', `/v1/drive/folders/${folder.body.uuid}/trash`, {
      token: user.token,
      api: firstApiUrl(),
    });
    expect(trashed.status).toBe(200);
    const after =
      find((await scrape('FOLIO_METRICS_PORT')).samples, 'folio_workflow_starts_total', {
        type: 'trashCascadeWorkflow',
      })[0]?.value ?? 0;
    expect(after).toBe(before + 1);
  });

  it("the API reports its event loop's delay as percentiles, and how often one turn held it past 200 ms", async () => {
    const { samples } = await scrape('FOLIO_METRICS_PORT');
    const delays = find(samples, 'folio_event_loop_delay_seconds');
    expect(delays.map((sample) => sample.labels.quantile).sort()).toEqual(['0.5', '0.9', '0.99', '1']);
    for (const sample of delays) expect(sample.value).toBeGreaterThanOrEqual(0);
    const byQuantile = Object.fromEntries(delays.map((sample) => [sample.labels.quantile, sample.value]));
    expect(byQuantile['0.5']!).toBeLessThanOrEqual(byQuantile['1']!);
    expect(find(samples, 'folio_event_loop_holds_total')).toHaveLength(1);
  });

  it('the worker serves its own metrics, and the Temporal SDK its worker metrics on a third port', async () => {
    const worker = await scrape('FOLIO_WORKER_METRICS_PORT');
    expect(find(worker.samples, 'folio_db_pool_connections', { state: 'used' })).toHaveLength(1);
    expect(find(worker.samples, 'folio_process_cpu_seconds_total')).toHaveLength(1);
    // Stored state is the API's to report, so a deployment's processes never count it twice.
    expect(find(worker.samples, 'folio_workspace_storage_used_bytes')).toEqual([]);
    const sdk = await scrape('FOLIO_TEMPORAL_METRICS_PORT');
    expect(sdk.samples.some((sample) => sample.name.startsWith('temporal_'))).toBe(true);
  });

  it("is not served by the API's own listener", async () => {
    const response = await call('GET', '/metrics');
    expect(response.status).toBe(404);
  });
});
