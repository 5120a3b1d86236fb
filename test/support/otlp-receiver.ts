// A local OTLP/HTTP trace receiver for the suite (the exporters' JSON encoding): it appends each span it receives as
// one JSON line to a file, which tests read (test/integration/foundation/tracing.test.ts). Loopback only.
import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
}

const plain = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue,
    ]),
  );

export async function startOtlpReceiver(spansFile: string): Promise<{ endpoint: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      const lines: string[] = [];
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(plain(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            const received: ReceivedSpan = {
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              attributes: plain(span.attributes),
            };
            lines.push(JSON.stringify(received));
          }
        }
      }
      if (lines.length) appendFileSync(spansFile, lines.join('\n') + '\n');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
