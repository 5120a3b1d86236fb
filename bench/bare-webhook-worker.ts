// The bare engine's worker for bench/webhooks.ts, in a process of its own like Folio's worker, so that each side's
// worker has its own CPU time: it runs bench/noop-workflow.ts, whose one local activity POSTs a JSON body as long
// as a Folio delivery's to the same HTTPS receiver over a kept connection, and INSERTs one row recording the attempt
// (a Folio attempt also records itself in the database). Prints "ready" once it polls.
//
//   FOLIO_TEMPORAL_ADDRESS=… FOLIO_DATABASE_URL=… NODE_EXTRA_CA_CERTS=… \
//     node --import tsx bench/bare-webhook-worker.ts TASK_QUEUE RECEIVER_URL BODY_BYTES
import { Agent, request } from 'node:https';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createDb } from '../platform/database.js';

const [taskQueue, receiverUrl, bodyBytes] = process.argv.slice(2);
const knex = createDb(process.env.FOLIO_DATABASE_URL!);
// Folio keeps a receiver's connection 4 s in the bench's stack (FOLIO_WEBHOOK_KEEP_ALIVE): the same here.
const agent = new Agent({ keepAlive: true, timeout: 4_000 });
const body = Buffer.from(
  JSON.stringify({ type: 'bench', data: 'x'.repeat(Math.max(0, Number(bodyBytes) - 30)) }),
);

function post(): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      receiverUrl!,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function main() {
  await knex.raw(`create table if not exists bench_bare_attempts (
    id bigserial primary key, status integer not null, duration_ms integer not null,
    created_at timestamptz not null default now())`);
  const connection = await NativeConnection.connect({ address: process.env.FOLIO_TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    taskQueue: taskQueue!,
    workflowsPath: fileURLToPath(new URL('./noop-workflow.ts', import.meta.url)),
    activities: {
      benchAttempt: async () => {
        const started = performance.now();
        const status = await post();
        await knex('bench_bare_attempts').insert({
          status,
          duration_ms: Math.round(performance.now() - started),
        });
        return status;
      },
    },
  });
  process.on('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  process.stdout.write('ready\n');
  await running;
  agent.destroy();
  await connection.close();
  await knex.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
