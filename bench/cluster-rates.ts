// The bare workflow and webhook delivery rates on the Temporal cluster (deploy/local/temporal-cluster.ts: four services
// on PostgreSQL, 4 history shards, two Folio workers) beside the dev server (one process, SQLite in memory, one
// worker), on this machine in one run: both stacks start first, then bench/webhooks.ts's measurement runs on each in
// turn, the order alternating from round to round, so a change in the shared machine's load weighs on both alike.
// Around each measurement it reads the CPU time each Temporal process spent and the number of workflows Temporal
// closed, which gives Temporal's CPU per workflow, service by service: the figure the sizing in docs/operations.md
// § Sizing is built on (rates on a shared 2-core machine say little about a deployment; CPU per workflow
// does). With FOLIO_TEST_PRIVATE_POSTGRES=1 each stack has a PostgreSQL of its own, whose CPU per workflow is printed
// too: Folio's statements on both, and Temporal's persistence and visibility on the cluster's. Not a timed test;
// results go to docs/operations.md by hand.
// Run: node --import tsx bench/cluster-rates.ts [events per round, default 200] [concurrency, default 16] [rounds, default 2]
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Connection, Client } from '@temporalio/client';
import { startSuiteStack } from '../test/setup/global.js';
import { processCpuMs, processStat } from './yardstick.js';

const [count, concurrency, rounds] = [
  Number(process.argv[2] ?? 200),
  Number(process.argv[3] ?? 16),
  Number(process.argv[4] ?? 2),
];

type Engine = 'dev server' | 'cluster';

interface Stack {
  engine: Engine;
  env: Record<string, string>;
  teardown: () => Promise<void>;
}

async function startStack(engine: Engine): Promise<Stack> {
  // startSuiteStack reads FOLIO_TEST_CLUSTER when it is called: set for the cluster's stack only.
  if (engine === 'cluster') process.env.FOLIO_TEST_CLUSTER = '1';
  else delete process.env.FOLIO_TEST_CLUSTER;
  let env: Record<string, string> = {};
  const teardown = await startSuiteStack(
    { provide: (_key: string, value: Record<string, string>) => (env = value) } as never,
    // As bench/webhooks.ts's own stack: a deployment's keep-alive, no tracing.
    { label: 'rates', env: { FOLIO_WEBHOOK_KEEP_ALIVE: '4s', OTEL_EXPORTER_OTLP_ENDPOINT: '' } },
  );
  return { engine, env, teardown };
}

/** Temporal's processes of a stack by name: the cluster's four services, or the dev server found by its port. */
function temporalProcesses(stack: Stack): Record<string, number> {
  const root = stack.env.FOLIO_TEST_ROOT!;
  const found: Record<string, number> = {};
  for (const file of readdirSync(root).filter((name) => /^temporal-.*\.pid$/.test(name)))
    found[file.slice('temporal-'.length, -'.pid'.length)] = Number(
      readFileSync(join(root, file), 'utf8').split('\n')[0],
    );
  if (Object.keys(found).length) return found;
  const port = stack.env.FOLIO_TEMPORAL_ADDRESS!.split(':').pop()!;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    const file = `/proc/${pid}/cmdline`;
    const args = existsSync(file) ? readFileSync(file, 'utf8').split('\0') : [];
    if (args.includes('start-dev') && args.includes(port)) found['dev server'] = Number(pid);
  }
  return found;
}

/**
 * The CPU time of a stack's private PostgreSQL (FOLIO_TEST_PRIVATE_POSTGRES=1) in ms: the postmaster's own, its
 * backends' that have exited (counted in its children's time once it reaped them) and its live backends'. Undefined on
 * a shared server, whose CPU is not the stack's alone.
 */
function postgresCpuMs(stack: Stack): number | undefined {
  const pidFile = join(stack.env.FOLIO_TEST_ROOT!, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const own = processStat(postmaster);
  let total = own.cpuMs + own.reapedChildrenCpuMs;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const backend = processStat(Number(pid));
      if (backend.parent === postmaster) total += backend.cpuMs;
    } catch {
      // The process ended while it was read: its time is now in the postmaster's reaped children's.
    }
  }
  return total;
}

async function closedWorkflows(address: string): Promise<number> {
  const connection = await Connection.connect({ address });
  try {
    const { count } = await new Client({ connection }).workflow.count('ExecutionStatus != "Running"');
    return count;
  } finally {
    await connection.close();
  }
}

interface Round {
  engine: Engine;
  deliveries: number;
  bare: number;
  workflows: number;
  cpuPerWorkflow: Record<string, number>;
  /** The stack's private PostgreSQL's CPU per workflow closed (Folio's statements and, on the cluster, Temporal's). */
  postgresPerWorkflow?: number;
}

/** One measurement of bench/webhooks.ts on a stack: its two rates, and Temporal's CPU per workflow it closed. */
async function measureOn(stack: Stack): Promise<Round> {
  const processes = temporalProcesses(stack);
  const cpu = () =>
    Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, processCpuMs(pid)]));
  const address = stack.env.FOLIO_TEMPORAL_ADDRESS!;
  const [cpuBefore, postgresBefore, closedBefore] = [
    cpu(),
    postgresCpuMs(stack),
    await closedWorkflows(address),
  ];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/webhooks.ts', '--measure', String(count), String(concurrency)],
    {
      env: { ...process.env, ...stack.env, FOLIO_LOG_LEVEL: 'warn', FOLIO_BENCH_ROUNDS: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (piece: Buffer) => {
    output += piece.toString();
    process.stdout.write(piece);
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`bench/webhooks.ts exited with ${code} on the ${stack.engine}`);
  const cpuAfter = cpu();
  const postgresAfter = postgresCpuMs(stack);
  const workflows = (await closedWorkflows(address)) - closedBefore;
  const rate = (label: RegExp) => Number(output.match(label)?.[1] ?? NaN);
  return {
    engine: stack.engine,
    deliveries: rate(/^deliveries.*?: ([\d.]+)\/s/m),
    bare: rate(/^bare workflows.*?: ([\d.]+)\/s/m),
    workflows,
    cpuPerWorkflow: Object.fromEntries(
      Object.keys(processes).map((name) => [name, (cpuAfter[name]! - cpuBefore[name]!) / workflows]),
    ),
    postgresPerWorkflow:
      postgresBefore === undefined || postgresAfter === undefined
        ? undefined
        : (postgresAfter - postgresBefore) / workflows,
  };
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

const stacks: Stack[] = [];
try {
  stacks.push(await startStack('dev server'));
  stacks.push(await startStack('cluster'));
  say(`both stacks up; load average ${load()}`);
  const results: Round[] = [];
  for (let round = 0; round < rounds; round++)
    for (const stack of round % 2 === 0 ? stacks : [...stacks].reverse()) {
      say(`\n== round ${round + 1}, ${stack.engine} (load average ${load()})`);
      results.push(await measureOn(stack));
    }
  say(`\n== summary: ${count} per side and round, concurrency ${concurrency}, load average ${load()}`);
  for (const result of results)
    say(
      `${result.engine}: deliveries ${result.deliveries.toFixed(1)}/s, bare workflows ${result.bare.toFixed(1)}/s; ` +
        `${result.workflows} workflows closed; Temporal CPU per workflow ` +
        Object.entries(result.cpuPerWorkflow)
          .map(([name, ms]) => `${name} ${ms.toFixed(2)} ms`)
          .join(', ') +
        (result.postgresPerWorkflow === undefined
          ? ''
          : `; its PostgreSQL ${result.postgresPerWorkflow.toFixed(2)} ms per workflow`),
    );
} finally {
  for (const stack of stacks.reverse()) await stack.teardown();
}
