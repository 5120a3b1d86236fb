// The yardstick of the request benchmarks (issue 24): Folio and its peer measured by the same load client in a
// process of its own (bench/load-client.ts), each warmed up before each measurement, alternated for three rounds (the
// peer first in odd rounds, Folio first in even ones), the median of the rounds reported with the ratio, the client's
// CPU time per request (a client-bound peer shows a high one) and each server's CPU time per request (process CPU
// time during the measurement ÷ requests, read from /proc), with what PostgreSQL and MinIO spent per request beside it
// (shared by both sides: measured on a quiet machine, they show where a gap between the two sides lies).
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { LoadResult, LoadSpec } from './load-client.js';

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * What the benchmarks read of a process's /proc/<pid>/stat line, or of one of its threads' /proc/<pid>/task/<tid>/stat
 * (the same fields, for that thread alone); times in ms. Throws once the process or thread is gone.
 */
export interface ProcessStat {
  name: string;
  parent: number;
  /** Its CPU time so far (user + system). */
  cpuMs: number;
  /** The CPU time of its children it has waited for (cutime + cstime). */
  reapedChildrenCpuMs: number;
}

export function processStat(pid: number, thread?: number): ProcessStat {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, ppid 4, utime 14,
  // stime 15, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ms = (user: number, system: number) => ((user + system) / CLOCK_TICKS_PER_SECOND) * 1000;
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    parent: Number(fields[1]),
    cpuMs: ms(Number(fields[11]), Number(fields[12])),
    reapedChildrenCpuMs: ms(Number(fields[13]), Number(fields[14])),
  };
}

/** A process's CPU time so far (user + system), in ms. */
export const processCpuMs = (pid: number): number => processStat(pid).cpuMs;

/**
 * The CPU time so far of every PostgreSQL process on the machine (the postmaster, its backends and helpers), with what
 * its ended backends spent (the postmaster's reaped children), in ms. Other databases' work counts too: read it on a
 * quiet machine.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: ProcessStat;
    try {
      stat = processStat(Number(entry));
    } catch {
      continue; // It ended since the listing.
    }
    if (stat.name !== 'postgres') continue;
    total += stat.cpuMs;
    if (parentIsNotPostgres(stat.parent)) total += stat.reapedChildrenCpuMs;
  }
  return total;
}

function parentIsNotPostgres(ppid: number): boolean {
  try {
    return processStat(ppid).name !== 'postgres';
  } catch {
    return true;
  }
}

/** Processes both sides share, whose CPU time per request is printed beside the servers' (e.g. PostgreSQL, MinIO). */
export type SharedGauges = Record<string, () => number>;

export interface Measured extends LoadResult {
  /** The server's CPU time during the measurement, in ms. */
  serverCpuMs: number;
  /** Each shared gauge's CPU time during the measurement, in ms. */
  sharedCpuMs: Record<string, number>;
}

const readGauges = (gauges: SharedGauges) =>
  Object.fromEntries(Object.entries(gauges).map(([name, read]) => [name, read()]));

/** One measurement of a server (by pid) under `spec`, from a separate load process. */
export async function measure(
  spec: LoadSpec,
  serverPid: number,
  gauges: SharedGauges = {},
): Promise<Measured> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load-client.ts', JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let cpuAtStart = 0;
  let sharedAtStart: Record<string, number> = {};
  let result: LoadResult | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line === 'measuring') {
      cpuAtStart = processCpuMs(serverPid);
      sharedAtStart = readGauges(gauges);
    } else result = JSON.parse(line) as LoadResult;
  }
  const serverCpuMs = processCpuMs(serverPid) - cpuAtStart;
  const sharedAtEnd = readGauges(gauges);
  const sharedCpuMs = Object.fromEntries(
    Object.keys(gauges).map((name) => [name, sharedAtEnd[name]! - sharedAtStart[name]!]),
  );
  if (!result) throw new Error(`the load client printed no result for ${spec.url}`);
  return { ...result, serverCpuMs, sharedCpuMs };
}

export interface Side {
  name: string;
  pid: number;
  spec: LoadSpec;
  /** Shared processes whose CPU time this side's requests cost (the same gauges for both sides of a row). */
  gauges?: SharedGauges;
}

export interface Comparison {
  folio: Measured[];
  peer: Measured[];
}

/** Folio and its peer, alternated for `rounds` rounds. */
export async function compare(folio: Side, peer: Side, rounds = 3): Promise<Comparison> {
  const out: Comparison = { folio: [], peer: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['peer', 'folio'] as const) : (['folio', 'peer'] as const);
    for (const which of order) {
      const side = which === 'folio' ? folio : peer;
      out[which].push(await measure(side.spec, side.pid, side.gauges));
    }
  }
  return out;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const microsPerRequest = (cpuMs: number, requests: number) => (requests ? (cpuMs * 1000) / requests : NaN);

/** The medians of a side's rounds. */
export function summary(runs: Measured[]) {
  return {
    perSecond: median(runs.map((run) => run.perSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    clientCpuUs: median(runs.map((run) => microsPerRequest(run.clientCpuMs, run.requests))),
    serverCpuUs: median(runs.map((run) => microsPerRequest(run.serverCpuMs, run.requests))),
    sharedCpuUs: Object.fromEntries(
      Object.keys(runs[0]?.sharedCpuMs ?? {}).map((name) => [
        name,
        median(runs.map((run) => microsPerRequest(run.sharedCpuMs[name]!, run.requests))),
      ]),
    ),
    rounds: runs.map((run) => Math.round(run.perSecond)),
  };
}

/** Two lines, Folio's and its peer's, then the ratio of the medians against the target. */
export function report(title: string, folio: Side, peer: Side, result: Comparison, target: number): string[] {
  const line = (name: string, s: ReturnType<typeof summary>) =>
    `  ${name.padEnd(34)} ${s.perSecond.toFixed(0).padStart(6)}/s  p50 ${s.p50.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms` +
    `  server CPU ${s.serverCpuUs.toFixed(0)} µs/req  client CPU ${s.clientCpuUs.toFixed(0)} µs/req` +
    Object.entries(s.sharedCpuUs)
      .map(([gauge, us]) => `  ${gauge} CPU ${us.toFixed(0)} µs/req`)
      .join('') +
    `  rounds [${s.rounds.join(', ')}]${s.failures ? `  (${s.failures} failed)` : ''}`;
  const f = summary(result.folio);
  const p = summary(result.peer);
  const ratio = f.perSecond / p.perSecond;
  return [
    title,
    line(folio.name, f),
    line(`${peer.name} (peer)`, p),
    `  → ${ratio.toFixed(2)}× the peer (target ≥ ${target}×: ${ratio >= target ? 'met' : 'not met'})`,
  ];
}
