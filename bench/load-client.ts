// The load generator of the request benchmarks, in a process of its own so that the client's work never shares a
// core's time slice with the benchmark's bookkeeping, and its own CPU time can be printed beside each figure (a peer
// that is bound by its client shows it there). Warms up, then measures; prints one JSON line.
//
//   node --import tsx bench/load-client.ts '<JSON of LoadSpec>'
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

/** What to load: a GET, or a JSON POST whose body has `$UUID` replaced by a fresh uuid per request. */
export interface LoadSpec {
  url: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  headers?: Record<string, string>;
  post?: { bodyTemplate: string };
}

/** One measurement, as the load client prints it. */
export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** The client's own CPU time (user + system) during the measurement, in ms. */
  clientCpuMs: number;
}

function options(spec: LoadSpec, duration: number): autocannon.Options {
  const base: autocannon.Options = {
    url: spec.url,
    connections: spec.connections,
    duration,
    headers: spec.headers,
  };
  if (!spec.post) return base;
  const template = spec.post.bodyTemplate;
  return {
    ...base,
    method: 'POST',
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => ({ ...request, body: template.replaceAll('$UUID', randomUUID()) }),
      },
    ],
  };
}

async function main() {
  const spec = JSON.parse(process.argv[2]!) as LoadSpec;
  if (spec.warmupSeconds > 0) await autocannon(options(spec, spec.warmupSeconds));
  // The parent samples the server's CPU time here and after the result, so warm-up is not counted.
  process.stdout.write('measuring\n');
  const before = process.cpuUsage();
  const result = await autocannon(options(spec, spec.seconds));
  const cpu = process.cpuUsage(before);
  const measured: LoadResult = {
    requests: result.requests.total,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.stdout.write(`${JSON.stringify(measured)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
