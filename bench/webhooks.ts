// Measures webhook delivery on an ephemeral stack (the integration suite's: fresh database, in-memory Temporal, MinIO,
// worker, API; receivers on 127.0.0.x:443 with the suite's test CA): sustained deliveries/s to a fast receiver, and
// the latency from `email deliver` and from SMTP DATA end to the first POST, each beside the bare engine measured in
// the same run (a no-op workflow with one no-op activity, started and awaited at the same concurrency on the same
// Temporal server, by a worker in this process). Not a timed test; results go to docs/benchmarks.md by hand.
// The bare engine runs half before and half after the deliveries, so a machine whose load changes during the run
// (it is shared) weighs on both sides alike. Beside the rates it prints what each side costs per workflow: CPU time
// of each process of the stack (Temporal, the worker, MinIO, this process, PostgreSQL's backends of the stack's
// database) and the history events of one workflow by type; these hold far better than rates on a loaded machine.
// Run: node --import tsx bench/webhooks.ts [events, default 600] [concurrency, default 16]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

if (process.argv[2] !== '--measure') {
  const { startSuiteStack } = await import('../test/setup/global.js');
  // FOLIO_BENCH_CPU_PROF: the stack's processes, started with this environment, write CPU profiles (bench/support.ts).
  Object.assign(process.env, (await import('./support.js')).profileEnv());
  let env: Record<string, string> = {};
  // The suite's stack with a deployment's defaults where the suite sets its own for its tests: connections kept 4 s
  // (the suite keeps them 10 minutes to count them), and no tracing (the suite traces to a receiver of its own; a
  // deployment traces only when an OTLP endpoint is set, and the bare engine beside it is not traced either).
  const teardown = await startSuiteStack(
    { provide: (_key: string, value: Record<string, string>) => (env = value) } as never,
    {
      label: 'bench',
      env: { FOLIO_WEBHOOK_KEEP_ALIVE: '4s', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    },
  );
  try {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', here, '--measure', process.argv[2] ?? '600', process.argv[3] ?? '16'],
      {
        env: { ...process.env, ...env, FOLIO_LOG_LEVEL: 'warn' },
        stdio: 'inherit',
      },
    );
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

/** CPU milliseconds (user + system) a process has used so far; 0 once it is gone. */
function processCpuMs(pid: number, threadOf?: number): number {
  try {
    const stat = readFileSync(threadOf ? `/proc/${threadOf}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the 12th.
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux.
  } catch {
    return 0;
  }
}

/** The processes of the stack: the worker and API by their pid files, Temporal and MinIO by the port they serve. */
function stackProcesses(root: string, ports: { temporal: string; minio: string }): Record<string, number> {
  const found: Record<string, number> = {};
  for (const name of ['worker', 'api']) {
    const file = join(root, `${name}.pid`);
    if (existsSync(file)) found[name] = Number(readFileSync(file, 'utf8').split('\n')[0]);
  }
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (args.includes('start-dev') && args.includes(ports.temporal)) found.temporal = Number(pid);
    if (args.some((arg) => arg.endsWith(`:${ports.minio}`)) && args.includes('server'))
      found.minio ??= Number(pid);
  }
  return found;
}

/** The CPU each part of the stack has used so far, in ms, by process; PostgreSQL's backends by pid. */
async function cpuSnapshot(
  processes: Record<string, number>,
  backendPids: () => Promise<number[]>,
): Promise<Record<string, number>> {
  const snapshot: Record<string, number> = {};
  for (const [name, pid] of Object.entries(processes)) snapshot[name] = processCpuMs(pid);
  const own = process.cpuUsage();
  snapshot.bench = (own.user + own.system) / 1000;
  for (const pid of await backendPids()) snapshot[`pg:${pid}`] = processCpuMs(pid);
  // The worker's threads by name: the main thread, the workflow threads, the SDK core's runtime, libuv's pool.
  if (processes.worker) {
    for (const task of readdirSync(`/proc/${processes.worker}/task`)) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${processes.worker}/task/${task}/stat`, 'utf8');
      } catch {
        continue; // The thread ended since the listing.
      }
      const key = `thread:${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`;
      snapshot[key] = (snapshot[key] ?? 0) + processCpuMs(Number(task), processes.worker);
    }
  }
  return snapshot;
}

/** CPU ms per workflow between two snapshots, part by part (PostgreSQL's backends summed), as one line. */
function cpuPerWorkflow(
  before: Record<string, number>,
  after: Record<string, number>,
  count: number,
): string {
  const parts = new Map<string, number>();
  const threads = new Map<string, number>();
  for (const [key, ms] of Object.entries(after)) {
    if (key.startsWith('thread:')) {
      threads.set(key.slice(7), (ms - (before[key] ?? 0)) / count);
      continue;
    }
    const name = key.startsWith('pg:') ? 'postgres' : key;
    parts.set(name, (parts.get(name) ?? 0) + (ms - (before[key] ?? 0)) / count);
  }
  const total = [...parts.values()].reduce((sum, ms) => sum + ms, 0);
  const list = (entries: Map<string, number>) =>
    [...entries].map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ');
  return `${total.toFixed(1)} ms (${list(parts)}; the worker's threads: ${list(threads)})`;
}

/** One workflow's history events, counted by type, and the total. */
async function historyEvents(
  client: import('@temporalio/client').Client,
  workflowId: string,
): Promise<string> {
  const { temporal } = (await import('@temporalio/proto')).default;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const counts = new Map<string, number>();
  for (const event of history.events ?? []) {
    const type = temporal.api.enums.v1.EventType[event.eventType ?? 0]!.replace(/^EVENT_TYPE_/, '');
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return `${history.events?.length ?? 0} (${[...counts].map(([type, n]) => `${type} ${n}`).join(', ')})`;
}

/** Runs `count` tasks with at most `concurrency` at once. */
async function pool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
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
  const { webhookDeliveryWorkflowId } = await import('../workflows/ids.js');

  const { db } = await import('../platform/database.js');
  const root = process.env.FOLIO_TEST_ROOT!;
  // The stack's database backends (the worker's and this process's pools); the server may be shared with others.
  const backendPids = async () =>
    (
      (await db().raw('select pid from pg_stat_activity where datname = current_database()')).rows as {
        pid: number;
      }[]
    ).map((row) => row.pid);
  const processes = stackProcesses(root, {
    temporal: config().temporal.address.split(':').pop()!,
    minio: new URL(process.env.FOLIO_S3_ENDPOINT!).port,
  });
  const cpu = () => cpuSnapshot(processes, backendPids);

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
  const bareCount = Math.max(1, Math.round(Math.min(events, 400) / 2));
  const bareIds: string[] = [];
  const bare = async () => {
    const before = await cpu();
    const started = performance.now();
    await pool(bareCount, concurrency, async () => {
      const workflowId = `bench-noop-${Date.now()}-${bareIds.length}`;
      bareIds.push(workflowId);
      await client.workflow.execute('benchNoopWorkflow', { workflowId, taskQueue: 'folio-bench-noop' });
    });
    return {
      seconds: (performance.now() - started) / 1000,
      cpu: cpuPerWorkflow(before, await cpu(), bareCount),
    };
  };
  const bareBefore = await bare();

  // Folio: one mailbox, one destination, a receiver answering 204 at once; the first POST of each event is timed.
  // The first of the benchmarks' loopback addresses (test/support/test-ca.ts: 127.0.0.211–214, in the test
  // certificate, clear of the test suites' addresses) whose port 443 is free: other runs on this machine may hold some.
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  for (let host = 211; !receiver; host++) {
    receiver = await startReceiver(`127.0.0.${host}`).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE' || host === 214) throw error;
      return undefined;
    });
  }
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
  const destination = await makeDestination(workspace.uuid, receiver.url(), [mailbox.uuid]);
  const raw = emlMessage({ subject: 'bench' });
  const sentAt = new Map<string, number>();
  // performance.now() and Date.now() differ by a constant; the receiver stamps Date.now().
  const offset = Date.now() - performance.now();

  const run = async (count: number, pacedPerSecond?: number) => {
    const ids: string[] = [];
    const eventUuids: string[] = [];
    const begin = performance.now();
    await pool(count, concurrency, async (index) => {
      if (pacedPerSecond) {
        const due = begin + (index / pacedPerSecond) * 1000;
        if (due > performance.now())
          await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      }
      const at = performance.now() + offset;
      const result = await deliver(mailbox.uuid, raw);
      if (result.outcome === 'stored') {
        sentAt.set(result.uuid, at);
        ids.push(result.uuid);
        if (result.event_id) eventUuids.push(result.event_id.replace(/^whevt_/, ''));
      }
    });
    while (ids.some((id) => !firstPost.has(id))) {
      seen();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (Math.max(...ids.map((id) => firstPost.get(id)!)) - (begin + offset)) / 1000;
    const latencies = ids.map((id) => firstPost.get(id)! - sentAt.get(id)!);
    return {
      rate: count / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      eventUuids,
    };
  };

  const folioBefore = await cpu();
  const sustained = await run(events);
  const folioCpu = cpuPerWorkflow(folioBefore, await cpu(), events);
  const bareAfter = await bare();
  worker.shutdown();
  await running;
  await connection.close();
  const bareRate = (2 * bareCount) / (bareBefore.seconds + bareAfter.seconds);
  console.log(
    `bare engine: ${bareRate.toFixed(1)} workflows/s (${2 * bareCount} no-op workflows with one no-op activity, half before and half after the deliveries, concurrency ${concurrency}; ${(bareCount / bareBefore.seconds).toFixed(1)}/s before, ${(bareCount / bareAfter.seconds).toFixed(1)}/s after)`,
  );
  console.log(
    `deliveries: ${sustained.rate.toFixed(1)}/s sustained over ${events} events (${(sustained.rate / bareRate).toFixed(2)}× the bare engine)`,
  );
  console.log(`CPU per bare workflow: ${bareBefore.cpu} before, ${bareAfter.cpu} after`);
  console.log(`CPU per delivery (email stored, event recorded, workflow, POST): ${folioCpu}`);
  console.log(`history events of one bare workflow: ${await historyEvents(client, bareIds[0]!)}`);
  console.log(
    `history events of the first delivery: ${await historyEvents(client, webhookDeliveryWorkflowId(destination.uuid, sustained.eventUuids[0]!))}`,
  );
  console.log(
    `history events of the last delivery: ${await historyEvents(client, webhookDeliveryWorkflowId(destination.uuid, sustained.eventUuids.at(-1)!))}`,
  );
  // More than one attempt per event means an attempt ran twice (a workflow task or heartbeat timed out on the loaded
  // machine, and the claim closed the first run as interrupted), which costs a second attempt.
  const attempts = await db()('webhook_attempts')
    .where({ destination_uuid: destination.uuid })
    .select(
      db().raw('count(*)::int as attempts'),
      db().raw(`count(*) filter (where error_class = 'interrupted')::int as interrupted`),
    )
    .first();
  console.log(
    `attempts recorded: ${attempts.attempts} for ${events} events (${attempts.interrupted} interrupted)`,
  );
  const half = bareRate / 2;
  const paced = await run(Math.min(events, Math.round(half * 20)), half);
  console.log(
    `email deliver → first POST at ${half.toFixed(1)}/s (half the bare rate): p50 ${paced.p50.toFixed(0)} ms, p99 ${paced.p99.toFixed(0)} ms`,
  );

  // SMTP DATA end → first POST, one message at a time.
  const smtpLatencies: number[] = [];
  for (let index = 0; index < 30; index++) {
    const before = receiver.requests.length;
    const accepted = (await smtpSend(config().smtp.port, mailbox.address, raw)) + offset;
    while (receiver.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    smtpLatencies.push(receiver.requests[before]!.at - accepted);
  }
  console.log(
    `SMTP DATA end → first POST (30 messages, one at a time): p50 ${percentile(smtpLatencies, 50).toFixed(0)} ms, p99 ${percentile(smtpLatencies, 99).toFixed(0)} ms`,
  );

  await receiver.close();
  await closeTemporalClient();
  await closeDb();
}
