// OpenTelemetry traces (docs/observability.md § Traces): a client's sampled traceparent makes one trace of a chunked
// upload across the API (server spans, the workflow start) and the worker (the workflow and its activities), exported
// over OTLP to the suite's own receiver (test/support/otlp-receiver.ts), with no id, token or name in span names.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTemporalClient, temporalClient } from '../../../platform/temporal.js';
import { uploadWorkflowId } from '../../../workflows/ids.js';
import { call, makeUser } from '../../support/api.js';
import { waitUntil } from '../../support/cascades.js';
import { sendChunks } from '../../support/folio-client.js';
import type { ReceivedSpan } from '../../support/otlp-receiver.js';

afterAll(closeTemporalClient);

const spansOf = (traceId: string): ReceivedSpan[] => {
  const file = process.env.FOLIO_TEST_SPANS_FILE!;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes(traceId))
    .map((line) => JSON.parse(line) as ReceivedSpan)
    .filter((span) => span.traceId === traceId);
};

describe('traces', () => {
  it("follow a chunked upload from the client's span through the API, the workflow and its activities", async () => {
    const user = await makeUser();
    const traceId = randomBytes(16).toString('hex');
    const clientSpanId = randomBytes(8).toString('hex');
    const headers = { traceparent: `00-${traceId}-${clientSpanId}-01` };
    const data = randomBytes(1000);

    const initiated = await call('POST', '/v1/drive/uploads', {
      token: user.token,
      headers,
      json: {
        name: 'traced.bin',
        content_type: 'application/octet-stream',
        plaintext_size_bytes: data.length,
      },
    });
    expect(initiated.status).toBe(201);
    const fileUuid: string = initiated.body.file_uuid;
    const transfer = {
      versionUuid: fileUuid,
      dataKey: initiated.body.data_key,
      chunkSizeBytes: initiated.body.chunk_size_bytes,
      chunkCount: initiated.body.chunk_count,
      storageUploadId: initiated.body.storage_upload_id,
    };
    const parts = await sendChunks(
      { token: user.token },
      `/v1/drive/uploads/${fileUuid}/part_urls`,
      transfer,
      data.length,
      data,
    );
    const completed = await call('POST', `/v1/drive/uploads/${fileUuid}/complete`, {
      token: user.token,
      headers,
      json: { parts },
    });
    expect(completed.status).toBe(200);
    await (await temporalClient()).workflow.getHandle(uploadWorkflowId(fileUuid)).result();

    const names = () => spansOf(traceId).map((span) => `${span.service} ${span.name}`);
    await waitUntil(async () => names().some((name) => name.startsWith('folio-worker RunActivity:')));
    const spans = spansOf(traceId);
    const initiate = spans.find(
      (span) => span.service === 'folio-api' && span.name === 'POST /v1/drive/uploads',
    );
    expect(initiate).toMatchObject({
      parentSpanId: clientSpanId,
      attributes: { 'http.route': '/v1/drive/uploads', 'http.response.status_code': 201 },
    });
    expect(initiate!.attributes['folio.request_id']).toBe(initiated.headers.get('x-request-id'));
    expect(names()).toEqual(
      expect.arrayContaining([
        'folio-api POST /v1/drive/uploads/:uuid/complete',
        'folio-api StartWorkflow:uploadLifecycleWorkflow',
        'folio-worker RunWorkflow:uploadLifecycleWorkflow',
      ]),
    );
    // The workflow's span is a child of the API's start; every activity span belongs to the same trace.
    const start = spans.find((span) => span.name === 'StartWorkflow:uploadLifecycleWorkflow')!;
    expect(spans.find((span) => span.name === 'RunWorkflow:uploadLifecycleWorkflow')!.parentSpanId).toBe(
      start.spanId,
    );
    for (const span of spans) {
      expect(span.name).not.toContain(fileUuid);
      expect(span.name).not.toContain(user.token);
    }
  });

  it('record nothing for a request without a sampled traceparent', async () => {
    const user = await makeUser();
    const traceId = randomBytes(16).toString('hex');
    const unsampled = await call('GET', '/v1/drive/files', {
      token: user.token,
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-00` },
    });
    expect(unsampled.status).toBe(200);
    // A sampled request sent after it is exported; by then the unsampled one would have been too.
    const markerTrace = randomBytes(16).toString('hex');
    await call('GET', '/v1/drive/files', {
      token: user.token,
      headers: { traceparent: `00-${markerTrace}-${randomBytes(8).toString('hex')}-01` },
    });
    await waitUntil(async () => spansOf(markerTrace).length > 0);
    expect(spansOf(traceId)).toEqual([]);
  });
});
