// Measures webhook delivery on an ephemeral stack (the integration suite's: fresh database, in-memory Temporal, MinIO,
// worker, API; receivers on 127.0.0.x:443 with the suite's test CA): sustained deliveries/s to a fast receiver, and
// the latency from `email deliver` and from SMTP DATA end to the first POST, each beside the bare engine measured in
// the same run (a no-op workflow with one no-op activity, started and awaited at the same concurrency on the same
// Temporal server, by a worker in this process). Not a timed test; results go to docs/benchmarks.md by hand.
// Run: node --import tsx bench/webhooks.ts [events, default 600] [concurrency, default 16]
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

if (process.argv[2] !== '--measure') {
  const { default: setup } = await import('../test/setup/global.js');
  let env: Record<string, string> = {};
  const teardown = await setup({ provide: (_key: string, value: Record<string, string>) => (env = value) } as never);
  try {
    const child = spawnSync(process.execPath, ['--import', 'tsx', here, '--measure', process.argv[2] ?? '600', process.argv[3] ?? '16'], {
      env: { ...process.env, ...env, FOLIO_LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    });
    process.exitCode = child.status ?? 1;
  } finally {
    await teardown();
  }
} else {
  await measure(Number(process.argv[3]), Number(process.argv[4]));
}

// Function declarations only below: the top-level await above runs measure() before any `const` here is initialised.
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Runs `count` tasks with at most `concurrency` at once. */
async function pool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await task(next++);
  }));
}

/** Sends one message over SMTP and answers when the server has accepted it (250 after the data). */
async function smtpSend(port: number, to: string, message: Buffer): Promise<number> {
  const socket = connect(port, '127.0.0.1');
  const lines: string[] = [];
  let waiting: (() => void) | undefined;
  socket.on('data', (piece) => {
    for (const line of piece.toString().split('\r\n')) if (/^\d{3} /.test(line)) lines.push(line);
    waiting?.();
  });
  const reply = async (count: number) => {
    while (lines.length < count) await new Promise<void>((resolve) => (waiting = resolve));
  };
  await reply(1);
  const steps = ['EHLO bench.example', 'MAIL FROM:<bench@bench.example>', `RCPT TO:<${to}>`, 'DATA'];
  for (const [index, step] of steps.entries()) {
    socket.write(`${step}\r\n`);
    await reply(index + 2);
  }
  socket.write(Buffer.concat([message, Buffer.from('.\r\n')]));
  await reply(6);
  const accepted = performance.now();
  socket.end('QUIT\r\n');
  return accepted;
}

async function measure(events: number, concurrency: number) {
  const { NativeConnection, Worker } = await import('@temporalio/worker');
  const { closeDb } = await import('../platform/database.js');
  const { config } = await import('../platform/config.js');
  const { closeTemporalClient, temporalClient } = await import('../platform/temporal.js');
  const { makeWorkspace } = await import('../test/support/api.js');
  const { deliver, emlMessage, makeDestination, makeMailbox } = await import('../test/support/mail.js');
  const { startReceiver } = await import('../test/support/webhook-receivers.js');

  // The bare engine: same server, same concurrency, a worker of its own on its own task queue.
  const connection = await NativeConnection.connect({ address: config().temporal.address });
  const worker = await Worker.create({
    connection,
    taskQueue: 'folio-bench-noop',
    workflowsPath: fileURLToPath(new URL('./noop-workflow.ts', import.meta.url)),
    activities: { benchNoop: async () => undefined },
  });
  const running = worker.run();
  const client = await temporalClient();
  const bareCount = Math.min(events, 400);
  const started = performance.now();
  await pool(bareCount, concurrency, async (index) => {
    await client.workflow.execute('benchNoopWorkflow', { workflowId: `bench-noop-${Date.now()}-${index}`, taskQueue: 'folio-bench-noop' });
  });
  const bareRate = bareCount / ((performance.now() - started) / 1000);
  worker.shutdown();
  await running;
  await connection.close();
  console.log(`bare engine: ${bareRate.toFixed(1)} workflows/s (${bareCount} no-op workflows with one no-op activity, concurrency ${concurrency})`);

  // Folio: one mailbox, one destination, a receiver answering 204 at once; the first POST of each event is timed.
  const receiver = await startReceiver('127.0.0.2');
  receiver.answer(() => ({ status: 204 }));
  const firstPost = new Map<string, number>();
  const seen = () => {
    for (const request of receiver.requests) {
      const id = JSON.parse(request.raw.toString()).data.email_uuid as string;
      if (!firstPost.has(id)) firstPost.set(id, request.at);
    }
  };
  const workspace = await makeWorkspace();
  const mailbox = await makeMailbox(workspace.uuid);
  await makeDestination(workspace.uuid, receiver.url(), [mailbox.uuid]);
  const raw = emlMessage({ subject: 'bench' });
  const sentAt = new Map<string, number>();
  // performance.now() and Date.now() differ by a constant; the receiver stamps Date.now().
  const offset = Date.now() - performance.now();

  const run = async (count: number, pacedPerSecond?: number) => {
    const ids: string[] = [];
    const begin = performance.now();
    await pool(count, concurrency, async (index) => {
      if (pacedPerSecond) {
        const due = begin + (index / pacedPerSecond) * 1000;
        if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      }
      const at = performance.now() + offset;
      const result = await deliver(mailbox.uuid, raw);
      if (result.outcome === 'stored') {
        sentAt.set(result.uuid, at);
        ids.push(result.uuid);
      }
    });
    while (ids.some((id) => !firstPost.has(id))) {
      seen();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (Math.max(...ids.map((id) => firstPost.get(id)!)) - (begin + offset)) / 1000;
    const latencies = ids.map((id) => firstPost.get(id)! - sentAt.get(id)!);
    return { rate: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  };

  const sustained = await run(events);
  console.log(`deliveries: ${sustained.rate.toFixed(1)}/s sustained over ${events} events (${(sustained.rate / bareRate).toFixed(2)}× the bare engine)`);
  const half = bareRate / 2;
  const paced = await run(Math.min(events, Math.round(half * 20)), half);
  console.log(`email deliver → first POST at ${half.toFixed(1)}/s (half the bare rate): p50 ${paced.p50.toFixed(0)} ms, p99 ${paced.p99.toFixed(0)} ms`);

  // SMTP DATA end → first POST, one message at a time.
  const smtpLatencies: number[] = [];
  for (let index = 0; index < 30; index++) {
    const before = receiver.requests.length;
    const accepted = (await smtpSend(config().smtp.port, mailbox.address, raw)) + offset;
    while (receiver.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    smtpLatencies.push(receiver.requests[before]!.at - accepted);
  }
  console.log(`SMTP DATA end → first POST (30 messages, one at a time): p50 ${percentile(smtpLatencies, 50).toFixed(0)} ms, p99 ${percentile(smtpLatencies, 99).toFixed(0)} ms`);

  await receiver.close();
  await closeTemporalClient();
  await closeDb();
}
