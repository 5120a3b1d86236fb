// Measures webhook delivery on an ephemeral stack (the integration suite's: fresh database, in-memory Temporal, MinIO,
// worker, API; receivers on 127.0.0.x:443 with the suite's test CA) beside the bare engine, on the yardstick of
// issue 24: both sides closed loop at the same concurrency, each delivery timed from `email deliver` to its
// workflow's result (the attempt recorded, the delivery succeeded) and each bare workflow from its start to its
// result, both warmed up, then alternated for three rounds with the order swapped each round, the medians reported.
// The bare engine (bench/noop-workflow.ts, run by bench/bare-webhook-worker.ts in a process of its own on the same
// Temporal server) makes the same kind of attempt: a local activity that POSTs a body as long as Folio's to the same
// receiver over a kept connection and INSERTs one row. Beside the rates: CPU per delivery and per bare workflow, by
// process (Temporal, each worker, MinIO, the API, this process, PostgreSQL's backends of the stack's database), which
// holds far better than a rate on a loaded machine, and the history events of one workflow of each side.
// A third side, alternated with the two: the delivery proper of an event already stored, started as the admin's resend
// starts one (a small transaction whose outbox starts the same delivery workflow after its commit: claim, sign, POST,
// record), timed from that transaction to the workflow's result. It does the bare workflow's work and no more; the
// `email deliver` side adds the ingest (parsing, encrypting and storing the message, writing its event), which the
// bare side does not do.
// Then, as before: `email deliver` → first POST at half the bare rate, and SMTP DATA end → first POST.
// Not a timed test; results go to docs/benchmarks.md by hand.
// Run: node --import tsx bench/webhooks.ts [per side and round, default 300] [concurrency, default 16]
//      FOLIO_BENCH_WARMUP (default 50) deliveries and bare workflows of warm-up, FOLIO_BENCH_ROUNDS (default 3).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { processStat, type ProcessStat } from './yardstick.js';

const here = fileURLToPath(import.meta.url);

if (process.argv[2] !== '--measure') {
  const { startSuiteStack } = await import('../test/setup/global.js');
  // FOLIO_BENCH_CPU_PROF: the stack's processes, started with this environment, write CPU profiles (bench/support.ts);
  // so do this benchmark's own processes and the bare worker, which inherit it.
  Object.assign(process.env, (await import('./support.js')).profileEnv());
  let env: Record<string, string> = {};
  // The suite's stack with a deployment's defaults where the suite sets its own for its tests: connections kept 4 s
  // (the suite keeps them 10 minutes to count them), an attempt's timeout of 10 s (the suite's 2 s fails attempts on a
  // loaded machine, and the bare engine's POST has none), and no tracing (the suite traces to a receiver of its own; a
  // deployment traces only when an OTLP endpoint is set, and the bare engine beside it is not traced either).
  const teardown = await startSuiteStack(
    { provide: (_key: string, value: Record<string, string>) => (env = value) } as never,
    {
      label: 'bench',
      env: { FOLIO_WEBHOOK_KEEP_ALIVE: '4s', FOLIO_WEBHOOK_TIMEOUT: '10s', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    },
  );
  try {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', here, '--measure', process.argv[2] ?? '300', process.argv[3] ?? '16'],
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

function median(values: number[]): number {
  return percentile(values, 50);
}

/** CPU milliseconds (user + system) a process has used so far; 0 once it is gone. */
function cpuMsSoFar(pid: number): number {
  try {
    return processStat(pid).cpuMs;
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
  for (const [name, pid] of Object.entries(processes)) snapshot[name] = cpuMsSoFar(pid);
  const own = process.cpuUsage();
  snapshot.bench = (own.user + own.system) / 1000;
  for (const pid of await backendPids()) snapshot[`pg:${pid}`] = cpuMsSoFar(pid);
  // Each worker's threads: its main thread, the threads Node names `node` besides it (the SDK's workflow threads, where
  // a workflow's code runs, and short-lived ones), then by name the SDK core's runtime and libuv's pool. The main and
  // workflow threads are told apart because a CPU profile (bench/cpu-profile.mjs) sees the main thread only.
  for (const name of ['worker', 'bare worker']) {
    const pid = processes[name];
    if (!pid) continue;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      let stat: ProcessStat;
      try {
        stat = processStat(pid, Number(task));
      } catch {
        continue; // The thread ended since the listing.
      }
      const thread = Number(task) === pid ? 'main' : stat.name === 'node' ? 'workflow' : stat.name;
      const key = `thread:${name}:${thread}`;
      snapshot[key] = (snapshot[key] ?? 0) + stat.cpuMs;
    }
  }
  return snapshot;
}

interface CpuPerItem {
  total: number;
  parts: Map<string, number>;
  threads: Map<string, number>;
}

/** CPU ms per workflow between two snapshots, part by part (PostgreSQL's backends summed). */
function cpuPerItem(
  before: Record<string, number>,
  after: Record<string, number>,
  count: number,
): CpuPerItem {
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
  return { total: [...parts.values()].reduce((sum, ms) => sum + ms, 0), parts, threads };
}

function describeCpu(cpu: CpuPerItem, threadsOf: string): string {
  const list = (entries: [string, number][]) =>
    entries.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ');
  const threads = [...cpu.threads]
    .filter(([name]) => name.startsWith(`${threadsOf}:`))
    .filter(([, ms]) => ms >= 0.05)
    .map(([name, ms]): [string, number] => [name.slice(threadsOf.length + 1), ms]);
  return `${cpu.total.toFixed(1)} ms (${list([...cpu.parts])}; the ${threadsOf}'s threads: ${list(threads)})`;
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

interface SideResult {
  rate: number;
  p50: number;
  p99: number;
  cpu: CpuPerItem;
  /** TLS connections the receiver accepted during the run: each is a full handshake on both ends. */
  connections: number;
}

async function measure(count: number, concurrency: number) {
  const { closeDb, db } = await import('../platform/database.js');
  const { config } = await import('../platform/config.js');
  const { closeTemporalClient, temporalClient } = await import('../platform/temporal.js');
  const { makeWorkspace } = await import('../test/support/api.js');
  const { deliver, emlMessage, makeDestination, makeMailbox } = await import('../test/support/mail.js');
  const { startReceiver } = await import('../test/support/webhook-receivers.js');
  const { webhookDeliveryWorkflowId } = await import('../workflows/ids.js');
  const { workflowClient } = await import('../workflows/client.js');
  const { resendDelivery } = await import('../domain/webhooks/deliveries.js');
  const warmup = Number(process.env.FOLIO_BENCH_WARMUP ?? 50);
  const rounds = Number(process.env.FOLIO_BENCH_ROUNDS ?? 3);
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
  console.log(
    `webhooks on the yardstick — ${new Date().toISOString()}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average ${load()}`,
  );
  console.log(
    `${count} per side and round, concurrency ${concurrency} on both sides, ${warmup} of warm-up each, ${rounds} rounds alternated\n`,
  );

  const root = process.env.FOLIO_TEST_ROOT!;
  // The stack's database backends (the workers' and this process's pools); the server may be shared with others.
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
  const client = await temporalClient();

  // One mailbox, one destination, a receiver answering 204 at once.
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
  const workspace = await makeWorkspace();
  const mailbox = await makeMailbox(workspace.uuid);
  const destination = await makeDestination(workspace.uuid, receiver.url(), [mailbox.uuid]);
  const raw = emlMessage({ subject: 'bench' });

  /** `items` at `concurrency`, closed loop: each slot starts its next item when its last one has finished. */
  const closedLoop = async (items: number, one: () => Promise<void>): Promise<SideResult> => {
    const latencies: number[] = [];
    const before = await cpu();
    const connectionsBefore = receiver!.connections;
    const started = performance.now();
    await pool(items, concurrency, async () => {
      const itemStarted = performance.now();
      await one();
      latencies.push(performance.now() - itemStarted);
    });
    const seconds = (performance.now() - started) / 1000;
    return {
      rate: items / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cpu: cpuPerItem(before, await cpu(), items),
      connections: receiver!.connections - connectionsBefore,
    };
  };

  // Folio: the email stored as `folio email deliver` stores it (which starts the delivery after its commit), then the
  // delivery workflow's result: its one attempt claimed, POSTed and recorded.
  const eventUuids: string[] = [];
  const oneDelivery = async () => {
    const stored = await deliver(mailbox.uuid, raw);
    if (stored.outcome !== 'stored' || !stored.event_id)
      throw new Error(`deliver answered ${JSON.stringify(stored)}`);
    const eventUuid = stored.event_id.replace(/^whevt_/, '');
    const result = (await client.workflow
      .getHandle(webhookDeliveryWorkflowId(destination.uuid, eventUuid))
      .result()) as { outcome: string; attempts: number };
    if (result.outcome !== 'succeeded')
      throw new Error(`a delivery ended ${result.outcome} after ${result.attempts}`);
    eventUuids.push(eventUuid);
  };
  await closedLoop(warmup, oneDelivery);

  // The bare engine, started once a Folio delivery has shown how long its body is.
  const bodyBytes = receiver.requests.at(-1)!.raw.length;
  const bareQueue = 'folio-bench-bare';
  const bareWorker = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/bare-webhook-worker.ts', bareQueue, receiver.url(), String(bodyBytes)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [ready] = (await once(createInterface({ input: bareWorker.stdout! }), 'line')) as string[];
  if (ready !== 'ready') throw new Error(`the bare worker printed ${ready}`);
  processes['bare worker'] = bareWorker.pid!;
  const bareIds: string[] = [];
  const oneBare = async () => {
    const workflowId = `bench-bare-${bareIds.length}`;
    bareIds.push(workflowId);
    await client.workflow.execute('benchBareDeliveryWorkflow', { workflowId, taskQueue: bareQueue });
  };
  await closedLoop(warmup, oneBare);

  // The delivery proper: a resend of an event delivered before (never one whose resend is still in flight).
  const runInTransaction = workflowClient().runInTransaction(db());
  const resending = new Set<string>();
  let nextResend = 0;
  let resendsDone = 0;
  const oneResend = async () => {
    let eventUuid = eventUuids[nextResend++ % eventUuids.length]!;
    while (resending.has(eventUuid)) eventUuid = eventUuids[nextResend++ % eventUuids.length]!;
    resending.add(eventUuid);
    const key = { destinationUuid: destination.uuid, eventUuid };
    const { round } = await runInTransaction((unit) => resendDelivery(unit, key));
    const result = (await client.workflow
      .getHandle(webhookDeliveryWorkflowId(destination.uuid, eventUuid, round))
      .result()) as { outcome: string; attempts: number };
    if (result.outcome !== 'succeeded')
      throw new Error(`a resent delivery ended ${result.outcome} after ${result.attempts}`);
    resending.delete(eventUuid);
    resendsDone++;
  };
  await closedLoop(warmup, oneResend);

  const folio: SideResult[] = [];
  const resent: SideResult[] = [];
  const bare: SideResult[] = [];
  const sides = ['bare', 'folio', 'resent'] as const;
  for (let round = 0; round < rounds; round++) {
    // Each round starts with a different side, so none always runs first or last.
    for (const side of [...sides.slice(round % 3), ...sides.slice(0, round % 3)]) {
      if (side === 'folio') folio.push(await closedLoop(count, oneDelivery));
      else if (side === 'resent') resent.push(await closedLoop(count, oneResend));
      else bare.push(await closedLoop(count, oneBare));
    }
    console.log(
      `round ${round + 1}: deliveries ${folio.at(-1)!.rate.toFixed(1)}/s, resent ${resent.at(-1)!.rate.toFixed(1)}/s, bare ${bare.at(-1)!.rate.toFixed(1)}/s (load average ${load()})`,
    );
  }
  bareWorker.kill('SIGTERM');
  await once(bareWorker, 'exit');

  const medianOf = (runs: SideResult[], pick: (run: SideResult) => number) => median(runs.map(pick));
  /** The round whose total CPU per item is the median one, for its breakdown by process. */
  const medianCpu = (runs: SideResult[]) => {
    const total = medianOf(runs, (run) => run.cpu.total);
    return runs.find((run) => run.cpu.total === total)!.cpu;
  };
  const folioRate = medianOf(folio, (run) => run.rate);
  const bareRate = medianOf(bare, (run) => run.rate);
  const ratio = folioRate / bareRate;
  const rates = (runs: SideResult[]) => runs.map((run) => run.rate.toFixed(1)).join(', ');
  console.log(
    `\ndeliveries (email deliver → workflow result): ${folioRate.toFixed(1)}/s (rounds ${rates(folio)}), ` +
      `p50 ${medianOf(folio, (run) => run.p50).toFixed(0)} ms, p99 ${medianOf(folio, (run) => run.p99).toFixed(0)} ms`,
  );
  console.log(
    `bare workflows (start → result, one local activity: POST + INSERT): ${bareRate.toFixed(1)}/s (rounds ${rates(bare)}), ` +
      `p50 ${medianOf(bare, (run) => run.p50).toFixed(0)} ms, p99 ${medianOf(bare, (run) => run.p99).toFixed(0)} ms`,
  );
  console.log(`→ ${ratio.toFixed(2)}× the bare engine, the ingest included`);
  const resentRate = medianOf(resent, (run) => run.rate);
  const resentRatio = resentRate / bareRate;
  console.log(
    `deliveries of stored events (resend → workflow result): ${resentRate.toFixed(1)}/s (rounds ${rates(resent)}), ` +
      `p50 ${medianOf(resent, (run) => run.p50).toFixed(0)} ms, p99 ${medianOf(resent, (run) => run.p99).toFixed(0)} ms`,
  );
  console.log(
    `→ ${resentRatio.toFixed(2)}× the bare engine, the same work (target ≥ 0.8×: ${resentRatio >= 0.8 ? 'met' : 'not met'})`,
  );
  console.log(`CPU per delivery (median round): ${describeCpu(medianCpu(folio), 'worker')}`);
  console.log(
    `CPU per delivery of a stored event (median round): ${describeCpu(medianCpu(resent), 'worker')}`,
  );
  console.log(`CPU per bare workflow (median round): ${describeCpu(medianCpu(bare), 'bare worker')}`);
  console.log(
    `CPU per item, each round: deliveries ${folio.map((run) => run.cpu.total.toFixed(1)).join(', ')} ms; ` +
      `resent ${resent.map((run) => run.cpu.total.toFixed(1)).join(', ')} ms; ` +
      `bare ${bare.map((run) => run.cpu.total.toFixed(1)).join(', ')} ms`,
  );
  const connections = (runs: SideResult[]) => runs.map((run) => run.connections).join(', ');
  console.log(
    `new TLS connections at the receiver, each round: deliveries ${connections(folio)}; resent ${connections(resent)}; bare ${connections(bare)}`,
  );
  console.log(`history events of one bare workflow: ${await historyEvents(client, bareIds.at(-1)!)}`);
  console.log(
    `history events of one delivery: ${await historyEvents(client, webhookDeliveryWorkflowId(destination.uuid, eventUuids.at(-1)!))}`,
  );
  // More than one attempt per event means an attempt ran twice (a workflow task or heartbeat timed out on the loaded
  // machine, and the claim closed the first run as interrupted) or failed (its timeout passed) and was retried.
  const attempts = (await db()('webhook_attempts')
    .where({ destination_uuid: destination.uuid })
    .groupBy('error_class')
    .select('error_class', db().raw('count(*)::int as count'))) as {
    error_class: string | null;
    count: number;
  }[];
  const attemptCount = attempts.reduce((sum, row) => sum + row.count, 0);
  const failed = attempts
    .filter((row) => row.error_class !== null)
    .map((row) => `${row.error_class} ${row.count}`)
    .join(', ');
  const bareRows = await db()('bench_bare_attempts').count<{ count: string }[]>('* as count');
  console.log(
    `attempts recorded: ${attemptCount} for ${eventUuids.length} deliveries and ${resendsDone} resends (failed: ${failed || 'none'}); ` +
      `bare rows ${bareRows[0]!.count} for ${bareIds.length} bare workflows`,
  );

  // `email deliver` → first POST, paced at half the bare rate (an open loop, as a mail server delivers).
  const firstPost = new Map<string, number>();
  const seen = () => {
    for (const request of receiver.requests) {
      const parsed = JSON.parse(request.raw.toString()) as { data?: { email_uuid?: string } };
      const id = parsed.data?.email_uuid;
      if (id && !firstPost.has(id)) firstPost.set(id, request.at);
    }
  };
  // performance.now() and Date.now() differ by a constant; the receiver stamps Date.now().
  const offset = Date.now() - performance.now();
  const half = bareRate / 2;
  const pacedCount = Math.min(count, Math.round(half * 20));
  const sentAt = new Map<string, number>();
  const begin = performance.now();
  await pool(pacedCount, concurrency, async (index) => {
    const due = begin + (index / half) * 1000;
    if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
    const at = performance.now() + offset;
    const result = await deliver(mailbox.uuid, raw);
    if (result.outcome === 'stored') sentAt.set(result.uuid, at);
  });
  while ([...sentAt.keys()].some((id) => !firstPost.has(id))) {
    seen();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pacedLatencies = [...sentAt].map(([id, at]) => firstPost.get(id)! - at);
  console.log(
    `email deliver → first POST at ${half.toFixed(1)}/s (half the bare rate), ${pacedCount} events: ` +
      `p50 ${percentile(pacedLatencies, 50).toFixed(0)} ms, p99 ${percentile(pacedLatencies, 99).toFixed(0)} ms`,
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
  console.log(`load average at end ${load()}`);

  await receiver.close();
  await closeTemporalClient();
  await closeDb();
}
